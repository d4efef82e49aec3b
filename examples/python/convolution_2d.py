"""2-D convolution of an image: a blur and an edge filter, one thread per pixel on a 2-D grid.

out[y, x] = sum over (a, b) of image[y + r - a, x + r - b] * filter[a, b], for a square filter of
side 2r + 1, the image taken as zero outside its borders (the 'same' convolution of image
processing). Blocks of 16 x 16 threads tile the image, and the grid has as many as it takes in
each direction; the filter sits in constant memory, written from the host before each launch.
Two filters: a 5 x 5 Gaussian blur, and a 3 x 3 Sobel filter, which is not symmetric, so a
kernel that forgot to flip it would fail the check. Both are checked against NumPy.

The course's exercise gives a CPU script and asks for the GPU version; the kernel is written for it.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": (45, 67), "sim": (600, 800), "cuda": (4096, 4096)},
                          size_help="height width of the image")


def convolve_2d_reference(image, kernel):
    """The 'same' 2-D convolution with zeros outside the image, in float64 with NumPy: a sum of
    shifted copies of the image, one per filter weight."""
    height, width = image.shape
    side = kernel.shape[0]
    padded = numpy.pad(image.astype(numpy.float64), side // 2)
    out = numpy.zeros((height, width))
    for a in range(side):
        for b in range(side):
            # image[y + r - a, x + r - b] is padded[y + 2r - a, x + 2r - b], and 2r = side - 1
            out += float(kernel[a, b]) * padded[side - 1 - a:side - 1 - a + height, side - 1 - b:side - 1 - b + width]
    return out


def gaussian_blur(side, sigma):
    offsets = numpy.arange(side) - side // 2
    bell = numpy.exp(-offsets**2 / (2 * sigma**2))
    kernel = numpy.outer(bell, bell)
    return (kernel / kernel.sum()).astype(numpy.float32)


sobel_x = numpy.array([[1, 0, -1], [2, 0, -2], [1, 0, -1]], dtype=numpy.float32)
filters = {"5x5 Gaussian blur": gaussian_blur(5, 1.0), "3x3 Sobel edges": sobel_x}

height, width = args.size
image = args.rng.random((height, width), dtype=numpy.float32)

convolution_2d_source = r'''
#define MAX_FILTER_SIDE 15
__constant__ float filter_c[MAX_FILTER_SIDE * MAX_FILTER_SIDE];

extern "C" __global__ void convolve_2d(const float* image, float* out, int height, int width, int filter_side)
{
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= height || col >= width) return;
  int radius = filter_side / 2;
  float sum = 0.0f;
  for (int a = 0; a < filter_side; ++a) {
    int y = row + radius - a;
    if (y < 0 || y >= height) continue;
    for (int b = 0; b < filter_side; ++b) {
      int x = col + radius - b;
      if (x >= 0 && x < width) sum += image[y * width + x] * filter_c[a * filter_side + b];
    }
  }
  out[row * width + col] = sum;
}
'''


image_gpu = gpukit.asarray(image)
out_gpu = gpukit.zeros((height, width), numpy.float32)

module = gpukit.RawModule(convolution_2d_source)
convolve_2d = module.get_function("convolve_2d")
filter_constant = module.get_global("filter_c", numpy.float32)
block = (16, 16)
grid = (math.ceil(width / block[0]), math.ceil(height / block[1]))

all_correct = True
for name, kernel in filters.items():
    side = kernel.shape[0]
    filter_constant[:side * side] = kernel.ravel()
    launch_args = (grid, block, (image_gpu, out_gpu, height, width, side))
    convolve_2d(*launch_args)
    expected = convolve_2d_reference(image, kernel)
    # float32 sums of side * side products, each off by at most about side^2 * eps * sum(|products|).
    tolerance = side * side * numpy.finfo(numpy.float32).eps * convolve_2d_reference(image, numpy.abs(kernel))
    correct = _common.agrees(name, out_gpu.get(), expected, atol=tolerance)
    all_correct &= correct
    seconds = gpukit.benchmark(convolve_2d, launch_args, n_repeat=args.repeats, n_warmup=1).gpu_times.mean()
    print(f"{name}: {'correct' if correct else 'WRONG'}, {seconds * 1e3:.3f} ms")

_common.finish(all_correct, f"2-D convolution of a {height}x{width} image, blur and Sobel")
