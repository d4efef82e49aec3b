// A 2-D bounds test written with && : a thread past the last column but not past the last row
// (or the reverse) goes on and scales an element outside the matrix.
extern "C" __global__ void scale(float* m, int rows, int cols) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows && c >= cols) return;  // mistake: should be ||
  m[r * cols + c] *= 2.0f;
}
