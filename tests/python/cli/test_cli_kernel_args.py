"""gpukit check's --arg grammar: what each form makes on the device."""

import numpy
import pytest

import gpukit
from gpukit.cli._kernel_args import DTYPES, ArrayArgument, ScalarArgument, parse_argument


def made(text, seed=0):
    value = parse_argument(text).make(numpy.random.default_rng(seed))
    return value.get() if isinstance(value, gpukit.ndarray) else value


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_makes_arrays_and_scalars_of_it(dtype):
    array = made(f"{dtype}[37]:arange")
    assert array.dtype == numpy.dtype(dtype) and array.shape == (37,)
    numpy.testing.assert_array_equal(array, numpy.arange(37).astype(dtype))
    scalar = made(f"{dtype}:3")
    assert type(scalar) is numpy.dtype(dtype).type and scalar == 3


def test_zeros_is_the_default_fill():
    assert parse_argument("float32[5]").fill == "zeros"
    numpy.testing.assert_array_equal(made("float32[5]"), numpy.zeros(5, numpy.float32))


def test_const_fills_every_element():
    numpy.testing.assert_array_equal(made("float64[4]:const:-2.5"), numpy.full(4, -2.5))
    numpy.testing.assert_array_equal(made("uint8[3]:const:0xff"), numpy.full(3, 255, numpy.uint8))


def test_random_draws_from_the_default_or_the_given_range():
    floats = made("float32[1000]:random")
    assert floats.min() >= 0 and floats.max() < 1 and len(numpy.unique(floats)) > 900
    integers = made("int32[1000]:random")
    assert integers.min() >= 0 and integers.max() < 100 and len(numpy.unique(integers)) == 100
    bins = made("int32[5000]:random:0:16")
    assert set(numpy.unique(bins)) == set(range(16))
    whole_type = made("uint8[5000]:random:0:256")  # HIGH is excluded: one past uint8's largest value is fine
    assert whole_type.max() == 255
    negative = made("float64[1000]:random:-3:-2")
    assert negative.min() >= -3 and negative.max() < -2


def test_random_fills_follow_the_seed():
    numpy.testing.assert_array_equal(made("float32[100]:random", seed=4), made("float32[100]:random", seed=4))
    assert not numpy.array_equal(made("float32[100]:random", seed=4), made("float32[100]:random", seed=5))


def test_empty_allocates_without_writing():
    argument = parse_argument("int32[8]:empty")
    assert isinstance(argument, ArrayArgument) and argument.fill == "empty"
    assert made("int32[8]:empty").shape == (8,)


def test_scalars_keep_their_text_and_type():
    argument = parse_argument("int32:-1000")
    assert isinstance(argument, ScalarArgument)
    assert argument.text == "int32:-1000" and argument.value == numpy.int32(-1000)
    assert parse_argument("float32:2.5").value == numpy.float32(2.5)
    assert parse_argument("int64:0x10").value == 16


@pytest.mark.parametrize("text, fragment", [
    ("float[10]", "unknown type 'float'"),
    ("float32[0]", "at least 1"),
    ("float32[ten]", "not 'ten'"),
    ("float32[10]:random:5", "write the fill as random or random:LOW:HIGH"),
    ("float32[10]:zeros:1", "write the fill as zeros"),
    ("uint8[10]:random:0:257", "257 does not fit in uint8"),
    ("int16:40000", "40000 does not fit in int16"),
    ("float32:1e39", "does not fit in float32"),
    ("float32:two", "'two' is not a number, as float32 needs"),
    ("float32", "is neither an array"),
])
def test_mistakes_say_what_is_wrong(text, fragment):
    with pytest.raises(ValueError) as raised:
        parse_argument(text)
    assert fragment in str(raised.value)
    assert f"'{text}'" in str(raised.value)
