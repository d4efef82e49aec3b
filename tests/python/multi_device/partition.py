"""What the multi_device tests share: how many devices the backend has, the device counts to split
over, and whether split accepts a halo for a split of so many rows."""

import numpy
import pytest

import gpukit

DEVICES = len(gpukit.devices())
NEEDS_TWO_DEVICES = pytest.mark.skipif(DEVICES < 2, reason="needs two devices of the selected backend")
COUNTS = list(range(1, min(DEVICES, 4) + 1))


def halo_fits(rows, count, halo):
    """Whether every part between two others holds at least ``halo`` entries (split refuses it otherwise)."""
    lengths = [len(block) for block in numpy.array_split(numpy.arange(rows), min(count, rows) or 1)]
    return all(length >= halo for length in lengths[1:-1])
