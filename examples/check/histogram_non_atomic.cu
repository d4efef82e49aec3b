// The course's histogram with a plain increment: threads that read equal values race on one bin.
extern "C" __global__ void histogram(const int* input, int* output, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) output[input[item]] += 1;  // mistake: a read-modify-write that other threads interleave
}
