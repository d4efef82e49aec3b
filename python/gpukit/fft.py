"""Discrete Fourier transforms of gpukit arrays, as ``numpy.fft`` (NumPy 2's names, arguments and
dtypes): cuFFT on a GPU, loaded at run time; a CPU FFT on the simulator (gpukit/fft.hpp)."""

from ._core import fft as _native

fft = _native.fft
ifft = _native.ifft
rfft = _native.rfft
irfft = _native.irfft
hfft = _native.hfft
ihfft = _native.ihfft
fft2 = _native.fft2
ifft2 = _native.ifft2
rfft2 = _native.rfft2
irfft2 = _native.irfft2
fftn = _native.fftn
ifftn = _native.ifftn
rfftn = _native.rfftn
irfftn = _native.irfftn
fftfreq = _native.fftfreq
rfftfreq = _native.rfftfreq
fftshift = _native.fftshift
ifftshift = _native.ifftshift

__all__ = [
    "fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn", "ifftshift", "ihfft", "irfft",
    "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn",
]  # fmt: skip
