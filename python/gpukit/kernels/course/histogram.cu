extern "C"
__global__ void histogram(const int * input, int * output, const int size)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) atomicAdd(&(output[input[item]]), 1);
}
