"""Signal processing: a CPU convolution function moved to the GPU, filtering noise out of a signal.

The course's exercise gives a Python function that convolves a signal with a kernel and asks to
run it on the GPU and compare the times. The signal here is two tones sampled at 8 kHz, buried in
white noise; the kernel is a 101-tap low-pass FIR filter (a Hamming-windowed sinc, cut off at
400 Hz) that keeps the tones and removes most of the noise. The CPU function loops over the taps,
adding a shifted copy of the signal for each; on the GPU that loop moves into the thread, one
thread per output sample. Both must agree with numpy.convolve, the filtered signal must be closer
to the clean tones than the noisy one, and the times of the CPU function, of numpy.convolve and
of the GPU (with and without the copies) are printed.

The course gives the exercise, not its code: the CPU function and the kernel are written for it.
"""

import math

import numpy

import _common
import gpukit

args = _common.parse_args(__doc__, sizes={"quick": 20_000, "sim": 2**20, "cuda": 2**22},
                          size_help="the number of samples")


def convolve_cpu(signal, kernel):
    """The exercise's CPU function: out[i] = sum over j of signal[i + r - j] * kernel[j], zero
    outside the signal, for a kernel of 2r + 1 taps (numpy.convolve's mode='same')."""
    taps = len(kernel)
    padded = numpy.pad(signal, taps // 2)
    out = numpy.zeros_like(signal)
    for j, weight in enumerate(kernel):
        # signal[i + r - j] is padded[i + 2r - j], and 2r = taps - 1
        out += weight * padded[taps - 1 - j:taps - 1 - j + len(signal)]
    return out


# The signal: two tones and white noise of about the same power.
size = args.size
taps = 101
if size < 4 * taps:
    raise SystemExit(f"the noise is measured away from the ends, where the filter meets the zeros outside "
                     f"the signal: give at least {4 * taps} samples, not {size}")
sample_rate = 8000.0
sample_times = numpy.arange(size) / sample_rate
phases = args.rng.uniform(0, 2 * numpy.pi, 2)
clean = (numpy.sin(2 * numpy.pi * 50 * sample_times + phases[0])
         + 0.5 * numpy.sin(2 * numpy.pi * 120 * sample_times + phases[1]))
noisy = (clean + args.rng.normal(scale=0.8, size=size)).astype(numpy.float32)

# The low-pass filter: a sinc cut off at 400 Hz, windowed to 101 taps, with unit gain at 0 Hz.
cutoff = 400.0 / sample_rate
offsets = numpy.arange(taps) - taps // 2
lowpass = (2 * cutoff * numpy.sinc(2 * cutoff * offsets) * numpy.hamming(taps))
lowpass = (lowpass / lowpass.sum()).astype(numpy.float32)

expected = numpy.convolve(noisy.astype(numpy.float64), lowpass.astype(numpy.float64), mode="same")
# float32 sums of `taps` products: each off by at most about taps * eps * sum(|products|).
tolerance = (taps * numpy.finfo(numpy.float32).eps
             * numpy.convolve(numpy.abs(noisy), numpy.abs(lowpass), mode="same"))

convolve_source = r'''
extern "C" __global__ void convolve(const float* signal, const float* kernel, float* out, int size, int taps)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  int radius = taps / 2;
  float sum = 0.0f;
  for (int j = 0; j < taps; ++j) {
    int source = i + radius - j;
    if (source >= 0 && source < size) sum += signal[source] * kernel[j];
  }
  out[i] = sum;
}
'''

convolve = gpukit.RawKernel(convolve_source, "convolve")
threads_per_block = 256
grid = math.ceil(size / threads_per_block)


def convolve_gpu(signal_gpu, kernel_gpu):
    out_gpu = gpukit.empty(signal_gpu.size, numpy.float32)
    convolve(grid, threads_per_block, (signal_gpu, kernel_gpu, out_gpu, signal_gpu.size, kernel_gpu.size))
    return out_gpu


filtered = convolve_gpu(gpukit.asarray(noisy), gpukit.asarray(lowpass)).get()
gpu_correct = _common.agrees("GPU convolution", filtered, expected, atol=tolerance)
cpu_correct = _common.agrees("CPU convolution", convolve_cpu(noisy, lowpass), expected, atol=tolerance)

# Away from the ends, where the filter runs into the zeros outside the signal, the noise left is
# the distance to the clean tones.
inner = slice(taps, size - taps)
noise_before = numpy.sqrt(numpy.mean((noisy[inner] - clean[inner])**2))
noise_after = numpy.sqrt(numpy.mean((filtered[inner] - clean[inner])**2))
denoised = noise_after < noise_before / 2
print(f"{size} samples, {taps} taps: noise RMS {noise_before:.3f} before the filter, {noise_after:.3f} after")

noisy_gpu, lowpass_gpu = gpukit.asarray(noisy), gpukit.asarray(lowpass)
timings = {
    "CPU function": gpukit.benchmark(convolve_cpu, (noisy, lowpass), n_repeat=args.repeats, n_warmup=1).cpu_times,
    "numpy.convolve": gpukit.benchmark(numpy.convolve, (noisy, lowpass), {"mode": "same"},
                                       n_repeat=args.repeats, n_warmup=1).cpu_times,
    "GPU with copies": gpukit.benchmark(lambda: convolve_gpu(gpukit.asarray(noisy), gpukit.asarray(lowpass)).get(),
                                        n_repeat=args.repeats, n_warmup=1).cpu_times,
    "GPU kernel": gpukit.benchmark(convolve_gpu, (noisy_gpu, lowpass_gpu), n_repeat=args.repeats, n_warmup=1).gpu_times,
}
print(" | ".join(f"{name} {times.mean() * 1e3:.3f} ms" for name, times in timings.items()))

_common.finish(gpu_correct and cpu_correct and denoised,
               f"signal processing: low-pass filter of {size} noisy samples")
