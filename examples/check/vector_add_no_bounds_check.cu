// The course's vector add without its bounds check: the grid rounds up to whole blocks, so the
// threads past the end of the vectors read and write outside them.
extern "C" __global__ void vector_add(const float* A, const float* B, float* C, const int size) {
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  C[item] = A[item] + B[item];  // mistake: no `if (item < size)`
}
