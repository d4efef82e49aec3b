"""Convolution and correlation on gpukit arrays, as ``scipy.signal``: direct sums, the small
operand's values in the GPU's constant memory and the large one's in shared-memory tiles
(src/ops/convolution/), or products of spectra through gpukit.fft (fftconvolve, method='fft')."""

from ._core import signal as _native

convolve2d = _native.convolve2d
correlate2d = _native.correlate2d
fftconvolve = _native.fftconvolve
choose_conv_method = _native.choose_conv_method


def convolve(in1, in2, mode="full", method="auto"):
    """scipy.signal.convolve of two gpukit arrays of the same number of dimensions: direct sums, or
    fftconvolve with method='fft'; 'auto' picks by choose_conv_method's measured model."""
    return _native.convolve(in1, in2, mode, method)


def correlate(in1, in2, mode="full", method="auto"):
    """scipy.signal.correlate (in2 conjugated) of two gpukit arrays: direct sums, or by FFT with method='fft'."""
    return _native.correlate(in1, in2, mode, method)


__all__ = ["choose_conv_method", "convolve", "convolve2d", "correlate", "correlate2d", "fftconvolve"]
