"""The course's exercise on several GPUs: a histogram, a sum and a 2-D convolution of one large
array, on one device and split over every device (exercise list 000, section 4.1).

gpukit.multi_device.split cuts the image into one block of rows per device (copied peer to peer);
map then runs the same gpukit call on every block at once, one host thread per device, and
combines: the 256 histogram counts and the partial sums are added on device 0 (only they travel).
The convolution's blocks carry ``kernel_rows // 2`` rows of their neighbours (halos), so that each
device's 'same' result is exact for its own rows; cropped to them, the results stay on their
devices (gathered once, after the timing, for the check). The times are medians of several runs,
every device synchronised; the speed-up is the one-device time over the split time. On the
simulator the devices share the CPU's cores, so expect no speed-up there: the example checks the
results.
"""

import time

import numpy

import _common
import gpukit
from gpukit import multi_device as md

args = _common.parse_args(__doc__, sizes={"quick": (256, 128), "sim": (2048, 1024), "cuda": (32768, 32768)},
                          size_help="the image's rows and columns (float32)")
rows, columns = args.size
bins = 256
devices = gpukit.devices()
home = devices[0]


def synchronize_all():
    for device in devices:
        device.synchronize()


def seconds(work, repeats):
    """The median wall time of ``work()`` with every device idle before and after."""
    times = []
    for _ in range(repeats + 1):  # the first run compiles and warms the memory pools
        synchronize_all()
        start = time.perf_counter()
        work()
        synchronize_all()
        times.append(time.perf_counter() - start)
    return float(numpy.median(times[1:]))


with home:
    image = gpukit.random.default_rng(args.seed).random((rows, columns), dtype=numpy.float32)
    kernel = gpukit.asarray(args.rng.uniform(-1, 1, (5, 5)).astype(numpy.float32))
halo = kernel.shape[0] // 2
blocks = md.split(image, devices)                # for the histogram and the sum
blocks_with_halos = md.split(image, devices, halo=halo)  # for the convolution
kernels = md.broadcast(kernel, devices)


def conv_block(block):
    return gpukit.signal.convolve2d(block, kernels[block.device.id], mode="same")


def conv_split():
    """Each device's rows of the convolution, left where they are: its result without the halo rows."""
    results = md.map(conv_block, blocks_with_halos, combine=None)
    return [part.crop(result) for part, result in zip(blocks_with_halos, results, strict=True)]


operations = {
    "histogram": (lambda: gpukit.histogram(image, bins=bins, range=(0, 1))[0],
                  lambda: md.map(lambda b: gpukit.histogram(b, bins=bins, range=(0, 1))[0], blocks, combine="sum",
                                 out_device=home)),
    "sum": (lambda: gpukit.sum(image, dtype=numpy.float64),
            lambda: md.map(lambda b: gpukit.sum(b, dtype=numpy.float64), blocks, combine="sum", out_device=home)),
    "conv2d 5x5": (lambda: gpukit.signal.convolve2d(image, kernel, mode="same"),
                   conv_split),
}

host = gpukit.asnumpy(image)
correct = True
print(f"{rows} x {columns} float32 ({rows * columns * 4 / 2**30:.2f} GiB) on {len(devices)} device(s):")
for name, (one, split) in operations.items():
    single, several = one(), split()
    if isinstance(several, list):  # the convolution's blocks, still on their devices
        several = md.gather(several, device=home)
    correct &= _common.agrees(f"{name}, split against one device", gpukit.asnumpy(several), gpukit.asnumpy(single),
                              rtol=1e-5, atol=1e-3 if name == "sum" else 1e-5)
    one_time, split_time = seconds(one, args.repeats), seconds(split, args.repeats)
    print(f"  {name:12s} one device {one_time * 1e3:9.2f} ms   {len(devices)} devices {split_time * 1e3:9.2f} ms   "
          f"speed-up {one_time / split_time:5.2f}x")

# The references: NumPy's histogram and sum, and SciPy's convolution where it is installed.
correct &= _common.agrees("histogram", gpukit.asnumpy(operations["histogram"][1]()),
                          numpy.histogram(host, bins=bins, range=(0, 1))[0])
correct &= _common.agrees("sum", gpukit.asnumpy(operations["sum"][1]()), host.sum(dtype=numpy.float64), rtol=1e-9)
try:
    import scipy.signal
except ImportError:
    print("  (SciPy is not installed: the convolution is checked against one device only)")
else:
    if host.size <= 1 << 22:  # SciPy's direct sums take minutes beyond
        smooth = md.gather(operations["conv2d 5x5"][1](), device=home)
        correct &= _common.agrees("conv2d", gpukit.asnumpy(smooth),
                                  scipy.signal.convolve2d(host, gpukit.asnumpy(kernel), mode="same"), rtol=1e-4,
                                  atol=1e-4)
_common.finish(correct, f"multi-GPU course exercise of {rows} x {columns} over {len(devices)} devices")
