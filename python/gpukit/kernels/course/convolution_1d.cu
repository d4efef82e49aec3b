extern "C"
__global__ void convolve_1d(const float * signal, const float * mask, float * out, const int size, const int mask_width)
{
  int item = (blockIdx.x * blockDim.x) + threadIdx.x;
  if (item < size) {
    int start = item - mask_width / 2;
    float sum = 0.0f;
    for (int j = 0; j < mask_width; j++) {
      int at = start + j;
      if (at >= 0 && at < size) {
        sum += signal[at] * mask[j];
      }
    }
    out[item] = sum;
  }
}
