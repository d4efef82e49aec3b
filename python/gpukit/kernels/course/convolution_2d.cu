extern "C"
__global__ void convolve_2d(const float * image, const float * mask, float * out, const int height, const int width,
                            const int mask_width)
{
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < height && col < width) {
    int half = mask_width / 2;
    float sum = 0.0f;
    for (int i = 0; i < mask_width; i++) {
      for (int j = 0; j < mask_width; j++) {
        int r = row - half + i;
        int c = col - half + j;
        if (r >= 0 && r < height && c >= 0 && c < width) {
          sum += image[r * width + c] * mask[i * mask_width + j];
        }
      }
    }
    out[row * width + col] = sum;
  }
}
