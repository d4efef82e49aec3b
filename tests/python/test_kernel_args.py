"""How Python values become kernel arguments (python/src/kernel_args.cpp), through gpukit.RawKernel."""

import re

import numpy
import pytest

import gpukit
from conftest import random_array
from gpukit._errors import describe_value

# One kernel per parameter type: it stores what it received, so the test sees the bytes that arrived.
SOURCE = r"""
#include <cuda_fp16.h>
struct Pair { int first; float second; };
extern "C" __global__ void take_int(int* out, int value) { *out = value; }
extern "C" __global__ void take_uint(unsigned int* out, unsigned int value) { *out = value; }
extern "C" __global__ void take_char(signed char* out, signed char value) { *out = value; }
extern "C" __global__ void take_long(long long* out, long long value) { *out = value; }
extern "C" __global__ void take_size(size_t* out, size_t value) { *out = value; }
extern "C" __global__ void take_float(float* out, float value) { *out = value; }
extern "C" __global__ void take_double(double* out, double value) { *out = value; }
extern "C" __global__ void take_half(__half* out, __half value) { *out = value; }
extern "C" __global__ void take_bool(int* out, bool value) { *out = value ? 7 : 3; }
extern "C" __global__ void take_pair(Pair* out, Pair value) { *out = value; }
extern "C" __global__ void take_pointer(int* out, const int* in) { *out = in ? *in : -1; }
extern "C" __global__ void sum_bytes(unsigned int* out, const unsigned char* bytes, int count) {
  unsigned int sum = 0;
  for (int i = 0; i < count; ++i) sum += bytes[i];
  *out = sum;
}
extern "C" __global__ void count_void(int* out, const void* p, const char* c, int n) { *out = (p != 0) + (c != 0) + n; }
typedef float real;
extern "C" __global__ void take_typedef(real* out, const real* in) { *out = *in; }
template <typename T> __global__ void take_template(T* out, const T* in) { *out = *in; }
extern "C" __global__ void take_rows(float* out, const float* rows, int row_stride, int n) {
  for (int i = 0; i < n; ++i) out[i] = rows[i * row_stride];
}
extern "C" __global__ void take_bool_array(int* out, const bool* flags, int n) {
  int count = 0;
  for (int i = 0; i < n; ++i) count += flags[i];
  *out = count;
}
"""


@pytest.fixture(scope="module")
def module():
    return gpukit.RawModule(SOURCE)


def received(module, name, dtype, value):
    out = gpukit.zeros(1, dtype)
    module.get_function(name)(1, 1, (out, value))
    return out.get()[0]


@pytest.mark.parametrize("name,dtype,value", [
    ("take_int", numpy.int32, -2147483648), ("take_int", numpy.int32, 2147483647),
    ("take_uint", numpy.uint32, 4294967295), ("take_char", numpy.int8, -128),
    ("take_long", numpy.int64, -(2**63)), ("take_size", numpy.uint64, 2**64 - 1),
    ("take_int", numpy.int32, True),
])
def test_python_ints_arrive_at_the_parameter_s_size(module, name, dtype, value):
    assert received(module, name, dtype, value) == value


@pytest.mark.parametrize("name,value,bounds", [
    ("take_int", 2**31, "-2147483648..2147483647"), ("take_int", -(2**31) - 1, "-2147483648..2147483647"),
    ("take_uint", -1, "0..4294967295"), ("take_uint", 2**32, "0..4294967295"),
    ("take_char", 128, "-128..127"), ("take_size", 2**64, "0..18446744073709551615"),
    ("take_long", 2**100, "9223372036854775807"),
])
def test_an_int_out_of_the_parameter_s_range_is_refused(module, name, value, bounds):
    out_dtype = {"take_int": numpy.int32, "take_uint": numpy.uint32, "take_char": numpy.int8,
                 "take_size": numpy.uint64, "take_long": numpy.int64}[name]
    with pytest.raises(gpukit.KernelArgumentError, match="out of range") as caught:
        received(module, name, out_dtype, value)
    assert bounds in str(caught.value)
    assert "parameter 1 ('" in str(caught.value)
    assert caught.value.parameter_index == 1
    assert isinstance(caught.value, ValueError)


def test_python_floats_become_float32_or_float64_by_size(module):
    assert received(module, "take_float", numpy.float32, 0.1) == numpy.float32(0.1)
    assert received(module, "take_double", numpy.float64, 0.1) == 0.1
    assert received(module, "take_float", numpy.float32, 3) == 3.0  # an int for a float parameter
    with pytest.raises(gpukit.KernelArgumentError, match="out of range.*float32"):
        received(module, "take_float", numpy.float32, 1e300)


def test_a_float_for_an_int_is_a_type_error_naming_the_parameter(module):
    with pytest.raises(TypeError, match=r"argument 1 is a float \(1.5\) but parameter 1 \('int value'\)"):
        received(module, "take_int", numpy.int32, 1.5)
    with pytest.raises(TypeError, match="float32 scalar but parameter 1"):
        received(module, "take_int", numpy.int32, numpy.float32(1))


def test_numpy_scalars_keep_their_type_and_are_checked_by_size(module):
    assert received(module, "take_int", numpy.int32, numpy.int32(-5)) == -5
    assert received(module, "take_half", numpy.float16, numpy.float16(1.5)) == 1.5
    assert received(module, "take_double", numpy.float64, numpy.float64(2.25)) == 2.25
    wrong_size = "argument 1 is 8 bytes but parameter 1 \\('int value'\\) takes 4"
    with pytest.raises(gpukit.KernelArgumentError, match=wrong_size):
        received(module, "take_int", numpy.int32, numpy.int64(5))
    with pytest.raises(TypeError, match="numpy.float16"):
        received(module, "take_half", numpy.float16, 1.5)


def test_bool_parameters_take_bools(module):
    assert received(module, "take_bool", numpy.int32, True) == 7
    assert received(module, "take_bool", numpy.int32, numpy.bool_(False)) == 3
    with pytest.raises(gpukit.KernelArgumentError, match="out of range"):
        received(module, "take_bool", numpy.int32, 2)


def test_structs_as_structured_scalars_or_bytes(module):
    pair = numpy.dtype([("first", numpy.int32), ("second", numpy.float32)])
    value = numpy.array((42, 0.5), dtype=pair)[()]
    out = gpukit.zeros(1, numpy.int64)  # 8 bytes, viewed as the Pair afterwards
    kernel = module.get_function("take_pair")
    kernel(1, 1, (out, value))
    assert out.get().view(pair)[0].tolist() == (42, 0.5)
    kernel(1, 1, (out, numpy.array((7, 1.25), dtype=pair).tobytes()))
    assert out.get().view(pair)[0].tolist() == (7, 1.25)
    with pytest.raises(gpukit.KernelArgumentError, match="argument 1 is 4 bytes but parameter 1"):
        kernel(1, 1, (out, b"\0\0\0\0"))


def test_pointers_take_arrays_and_explicit_raw_addresses(module):
    kernel = module.get_function("take_pointer")
    out, source = gpukit.zeros(1, numpy.int32), gpukit.full(1, 99, numpy.int32)
    kernel(1, 1, (out, source))
    assert out.get()[0] == 99
    kernel(1, 1, (out, gpukit.nullptr))
    assert out.get()[0] == -1
    source.fill(5)
    kernel(1, 1, (out, gpukit.DevicePointer(source.data_ptr)))
    assert out.get()[0] == 5
    kernel(1, 1, (out, gpukit.full(1, 6, numpy.uint32)))  # int * and unsigned * alias, as C allows
    assert out.get()[0] == 6


@pytest.mark.parametrize("value,given", [
    (None, "None"), (0, r"an int \(0\)"), (12345, r"an int \(12345\)"), (True, r"a bool \(True\)"),
    (numpy.int64(7), r"a numpy.int64 \(np.int64\(7\)\)"), (b"\0" * 8, "a bytes"),
])
def test_none_ints_and_bytes_for_a_pointer_are_refused_naming_the_explicit_forms(module, value, given):
    out = gpukit.full(1, 3, numpy.int32)
    with pytest.raises(TypeError) as caught:
        module.get_function("take_pointer")(1, 1, (out, value))
    message = str(caught.value)
    assert message.startswith("Cannot launch take_pointer: argument 1 is ")
    assert "parameter 1 ('const int * in')" in message
    assert "gpukit.nullptr" in message
    if value is not None:
        assert re.search(f"is {given}", message) and "gpukit.DevicePointer(address)" in message
    assert out.get()[0] == 3  # nothing ran


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "uint8", "bool", "complex64"])
def test_an_array_of_another_element_type_is_refused_naming_both(module, dtype, rng):
    out = gpukit.full(1, 3, numpy.int32)
    wrong = gpukit.asarray(random_array(rng, 4, dtype))
    with pytest.raises(TypeError, match=rf"argument 1 is a {dtype} array but parameter 1 \('const int \* in'\) "
                                        r"points to int32 elements; pass a int32 array \(convert with astype\)"):
        module.get_function("take_pointer")(1, 1, (out, wrong))
    assert out.get()[0] == 3


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint16", "bool", "complex128"])
def test_void_char_and_unsigned_char_pointers_take_any_array_as_bytes(module, dtype, rng):
    values = random_array(rng, 5, dtype)
    out = gpukit.zeros(1, numpy.uint32)
    module.get_function("sum_bytes")(1, 1, (out, gpukit.asarray(values), values.nbytes))
    assert out.get()[0] == int(values.view(numpy.uint8).astype(numpy.uint32).sum())
    count = gpukit.zeros(1, numpy.int32)
    module.get_function("count_void")(1, 1, (count, gpukit.asarray(values), gpukit.asarray(values), 40))
    assert count.get()[0] == 42


def test_bool_arrays_go_to_bool_pointers(module, rng):
    flags = random_array(rng, 33, bool)
    out = gpukit.zeros(1, numpy.int32)
    module.get_function("take_bool_array")(1, 1, (out, gpukit.asarray(flags), flags.size))
    assert out.get()[0] == flags.sum()
    with pytest.raises(TypeError, match="argument 1 is a uint8 array but parameter 1 .* points to bool elements"):
        module.get_function("take_bool_array")(1, 1, (out, gpukit.asarray(flags.astype(numpy.uint8)), 33))


def test_pointers_to_typedefs_and_template_parameters_take_any_array(rng):
    # gpukit cannot tell what `real` or `T` is, so it checks only that an array goes to a pointer.
    module = gpukit.RawModule(SOURCE, name_expressions=["take_template<int>"])
    values = rng.uniform(1, 2, 1).astype(numpy.float32)
    out = gpukit.zeros(1, numpy.float32)
    module.get_function("take_typedef")(1, 1, (out, gpukit.asarray(values)))
    assert out.get()[0] == values[0]
    ints = gpukit.zeros(1, numpy.int32)
    module.get_function("take_template<int>")(1, 1, (ints, gpukit.full(1, 17, numpy.int32)))
    assert ints.get()[0] == 17
    assert module.get_function("take_template<int>").params[0].type == "T *"


@pytest.mark.parametrize("make_view", [lambda a: a[:, ::2], lambda a: a[::-1], lambda a: a.T, lambda a: a[:, 1]])
def test_a_non_contiguous_view_is_refused_and_a_contiguous_copy_or_raw_address_taken(module, make_view, rng):
    rows = gpukit.asarray(rng.uniform(-1, 1, (4, 6)).astype(numpy.float32))
    view = make_view(rows)
    out = gpukit.zeros(view.size, numpy.float32)
    take_rows = module.get_function("take_rows")
    with pytest.raises(TypeError, match=r"argument 1 is a view that is not C-contiguous \(shape .*, strides .* bytes\)"
                                        r".*copy\(\).*gpukit\.DevicePointer\(array\.data_ptr\)"):
        take_rows(1, 1, (out, view, 1, view.size))
    take_rows(1, 1, (out, view.copy(), 1, view.size))
    numpy.testing.assert_array_equal(out.get(), view.get().ravel())
    column = rows[:, 1]  # the documented way round: the address and the stride, in elements
    take_rows(1, 1, (out[:4], gpukit.DevicePointer(column.data_ptr), column.strides[0] // 4, 4))
    numpy.testing.assert_array_equal(out[:4].get(), rows.get()[:, 1])


def test_contiguous_views_with_an_offset_are_taken(module, rng):
    values = rng.uniform(-1, 1, 10).astype(numpy.float32)
    array, out = gpukit.asarray(values), gpukit.zeros(3, numpy.float32)
    module.get_function("take_rows")(1, 1, (out, array[5:8], 1, 3))
    numpy.testing.assert_array_equal(out.get(), values[5:8])


def test_device_pointer_takes_addresses_and_refuses_the_rest():
    assert gpukit.DevicePointer(2**64 - 1).address == 2**64 - 1
    assert gpukit.nullptr == gpukit.DevicePointer(0) and int(gpukit.nullptr) == 0
    assert repr(gpukit.DevicePointer(255)) == "gpukit.DevicePointer(0xff)"
    with pytest.raises(ValueError, match="address must be at least 0, not -1"):
        gpukit.DevicePointer(-1)
    with pytest.raises(OverflowError, match="address = 18446744073709551616 is too large"):
        gpukit.DevicePointer(2**64)
    for value in (None, 1.5, "0x10", True):
        with pytest.raises(TypeError, match="address must be an int"):
            gpukit.DevicePointer(value)


def test_a_device_pointer_for_a_number_is_refused(module):
    with pytest.raises(TypeError, match="is a gpukit.DevicePointer .* but parameter 1 .* is not a pointer"):
        module.get_function("take_int")(1, 1, (gpukit.zeros(1, numpy.int32), gpukit.nullptr))


def test_a_host_numpy_array_for_a_pointer_says_to_use_asarray(module):
    with pytest.raises(TypeError, match=r"NumPy array in host memory.*gpukit\.asarray"):
        module.get_function("take_pointer")(1, 1, (gpukit.zeros(1, numpy.int32), numpy.zeros(1, numpy.int32)))


def test_an_array_for_a_number_and_unknown_objects_are_type_errors(module):
    out = gpukit.zeros(1, numpy.int32)
    with pytest.raises(TypeError, match="is a gpukit array .* is not a pointer"):
        module.get_function("take_int")(1, 1, (out, out))
    with pytest.raises(TypeError, match="is a str, which cannot be a kernel argument"):
        module.get_function("take_int")(1, 1, (out, "5"))
    with pytest.raises(TypeError, match="args must be a tuple"):
        module.get_function("take_int")(1, 1, out)


@pytest.mark.parametrize("grid,block", [(1, 32), ((1,), (32,)), ((1, 1), (32, 1)), ([1, 1, 1], [32, 1, 1])])
def test_grid_and_block_are_ints_or_tuples_of_one_to_three(module, grid, block):
    out = gpukit.zeros(1, numpy.int32)
    module.get_function("take_int")(grid, block, (out, 11))
    assert out.get()[0] == 11


def test_grid_and_block_take_numpy_integers_as_grids_computed_with_numpy_are(module):
    out = gpukit.zeros(1, numpy.int32)
    take_int = module.get_function("take_int")
    take_int(numpy.int64(1), numpy.uint32(32), (out, 12))
    assert out.get()[0] == 12
    take_int((numpy.int64(1), numpy.int32(1), 1), (numpy.int16(32), 1, numpy.uint8(1)), (out, 13))
    assert out.get()[0] == 13


@pytest.mark.parametrize("grid,block,error", [
    ((1, 1, 1, 1), 32, ValueError), (1.0, 32, TypeError), (-1, 32, ValueError), (1, "32", TypeError),
    ((), 32, ValueError), (True, 32, TypeError), (numpy.bool_(True), 32, TypeError),
    (numpy.float32(1), 32, TypeError), (numpy.int64(-1), 32, ValueError), (2**64, 32, ValueError),
    (1, numpy.array([32]), TypeError),
])
def test_malformed_grids_and_blocks_are_refused(module, grid, block, error):
    with pytest.raises(error):
        module.get_function("take_int")(grid, block, (gpukit.zeros(1, numpy.int32), 1))


@pytest.mark.parametrize("shared_mem", [128.0, "128", None, True])
def test_shared_mem_must_be_an_int_number_of_bytes(module, shared_mem):
    with pytest.raises(TypeError, match=re.escape(f"shared_mem must be an int, not {describe_value(shared_mem)}")):
        module.get_function("take_int")(1, 1, (gpukit.zeros(1, numpy.int32), 1), shared_mem=shared_mem)


@pytest.mark.parametrize("shared_mem,error,message", [
    (-1, ValueError, "shared_mem must be at least 0, not -1"),
    (2**64, OverflowError, "shared_mem = 18446744073709551616 is too large"),
])
def test_shared_mem_out_of_range(module, shared_mem, error, message):
    with pytest.raises(error, match=message):
        module.get_function("take_int")(1, 1, (gpukit.zeros(1, numpy.int32), 1), shared_mem=shared_mem)


def test_shared_mem_takes_numpy_integers(module):
    out = gpukit.zeros(1, numpy.int32)
    module.get_function("take_int")(1, 1, (out, 14), shared_mem=numpy.int64(64))
    assert out.get()[0] == 14
