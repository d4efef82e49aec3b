"""Convolution and correlation on gpukit arrays, as ``scipy.signal``: direct sums, the small
operand's values in the GPU's constant memory and the large one's in shared-memory tiles
(src/ops/convolution/). The FFT method needs gpukit's FFT, which does not exist yet."""

from ._core import signal as _native

convolve2d = _native.convolve2d
correlate2d = _native.correlate2d


def _check_method(method):
    if method == "fft":
        raise NotImplementedError("method='fft' needs gpukit's FFT, which does not exist yet: use 'direct'")
    if method not in ("auto", "direct"):
        raise ValueError(f"Acceptable method flags are 'auto', 'direct', or 'fft'. (got {method!r})")


def convolve(in1, in2, mode="full", method="auto"):
    """scipy.signal.convolve of two gpukit arrays of the same number of dimensions, by direct sums
    ('auto' picks them until gpukit has an FFT)."""
    _check_method(method)
    return _native.convolve(in1, in2, mode)


def correlate(in1, in2, mode="full", method="auto"):
    """scipy.signal.correlate (in2 conjugated) of two gpukit arrays, by direct sums."""
    _check_method(method)
    return _native.correlate(in1, in2, mode)


def fftconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.fftconvolve: needs gpukit's FFT, which does not exist yet."""
    raise NotImplementedError("fftconvolve needs gpukit's FFT, which does not exist yet: use convolve(method='direct')")


__all__ = ["convolve", "convolve2d", "correlate", "correlate2d", "fftconvolve"]
