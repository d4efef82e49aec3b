"""pytest setup for gpukit's Python tests.

The suite runs on the backend GPUKIT_BACKEND names (CI: the simulator). Tests that need a GPU are
marked with ``needs_gpu``: they skip, saying why, where there is none, and fail instead when
GPUKIT_REQUIRE_GPU is set (scripts/gpu-check), where a skip would hide a broken setup.
"""

import os
import pathlib

import numpy
import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
# Compiled kernels are cached inside the build tree, away from the user's cache, in the C++ tests'
# cache: the built-in operations they compiled (every ufunc's module) serve these tests too.
os.environ.setdefault("GPUKIT_CACHE_DIR", str(REPOSITORY / "build" / "test-cache"))
# Four simulated devices, for the tests of work over several devices (tests/python/multi_device);
# the others use device 0. NVLink multicast stays off on shared multi-GPU machines, here and in
# every child process (NCCL, PyTorch, NVSHMEM).
os.environ.setdefault("GPUKIT_SIM_DEVICES", "4")
for _variable, _value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                          ("NVSHMEM_DISABLE_NVLS", "1")):
    os.environ[_variable] = _value

import gpukit  # noqa: E402  (after the cache location is set)


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_gpu: runs only on a CUDA GPU (skips elsewhere)")
    config.addinivalue_line("markers", "needs_simulator: runs only on the simulator backend (check mode)")


def pytest_runtest_setup(item):
    if item.get_closest_marker("needs_gpu") and not on_gpu():
        reason = "needs a CUDA GPU (scripts/gpu-check runs these): " + (
            gpukit.cuda_unavailable_reason() or f"the {gpukit.backend()} backend is selected")
        if os.environ.get("GPUKIT_REQUIRE_GPU"):
            pytest.fail(reason)
        pytest.skip(reason)
    if item.get_closest_marker("needs_simulator") and not on_simulator():
        pytest.skip("check mode is the simulator's (on a GPU, use compute-sanitizer)")


def on_gpu():
    return gpukit.get_device().backend_info.capabilities.dlpack_device_type == 2  # CUDA device memory


def on_simulator():
    return gpukit.get_device().backend_info.capabilities.simulated


@pytest.fixture
def rng():
    """Random inputs, never zeros, reproducible per test."""
    return numpy.random.default_rng(20240517)


def random_array(rng, shape, dtype):
    """Random values of ``dtype`` that are never all zero: small integers, floats in [-1, 1], both parts of complex."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dtype)
    if dtype.kind == "c":
        return (rng.uniform(-1, 1, size=shape) + 1j * rng.uniform(-1, 1, size=shape)).astype(dtype)
    return rng.uniform(-1, 1, size=shape).astype(dtype)


ALL_DTYPES = [str(dtype) for dtype in gpukit._dtypes.SUPPORTED]
EDGE_SIZES = [0, 1, 7, 255, 1000, 4097]
