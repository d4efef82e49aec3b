extern "C"
__global__ void histogram_shared(const int * input, int * output, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  __shared__ int temp_histogram[256];

  // initialise shared memory
  temp_histogram[threadIdx.x] = 0;
  __syncthreads();

  // update block shared memory for value in item
  if (item < size) atomicAdd(&(temp_histogram[input[item]]), 1);
  __syncthreads();

  // update the global histogram (output) using temporary histogram
  atomicAdd(&(output[threadIdx.x]), temp_histogram[threadIdx.x]);
}
