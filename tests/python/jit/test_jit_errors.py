"""gpukit.jit's bad input: each error names the Python construct or variable, the file and the line."""

import inspect

import numpy
import pytest

import gpukit
from gpukit import cuda


def line_of(function, text):
    """The file line of the first source line of ``function`` that contains ``text``."""
    lines, first = inspect.getsourcelines(function)
    return first + next(k for k, line in enumerate(lines) if text in line)


def launch(kernel, *args):
    kernel[1, 32](*args)


def list_comprehension(out):
    i = cuda.grid(1)
    out[i] = [k for k in range(3)][0]


def returns_a_value(out):
    return 1


def non_constant_shared_shape(out, n):
    s = cuda.shared.array(n, numpy.float32)
    s[0] = 1
    out[0] = s[0]


def tuple_then_number(out):
    a = (1, 2)
    a = 3
    out[0] = a


def unknown_name(out):
    out[0] = undefined_name  # noqa: F821


def too_many_indices(out):
    out[0, 1] = 1


def float_index(out):
    out[1.5] = 1


def string_constant(out):
    out[0] = len("text")


@pytest.mark.parametrize("function, text, error, message", [
    (list_comprehension, "[k for k", NotImplementedError,
     "list comprehension at test_jit_errors.py:{line} is not supported"),
    (returns_a_value, "return 1", TypeError, "a kernel cannot return a value"),
    (non_constant_shared_shape, "shared.array", TypeError, "must be a constant"),
    (tuple_then_number, "a = 3", TypeError,
     "variable 'a' holds tuple(Python int64, Python int64) and cannot also hold Python int64"),
    (unknown_name, "undefined_name", NameError, "name 'undefined_name' is not defined"),
    (too_many_indices, "out[0, 1]", IndexError, "has 1 dimension; 2 indices given"),
    (float_index, "1.5", IndexError, "array indices must be integers"),
    (string_constant, '"text"', NotImplementedError, "a string constant"),
])
def test_unsupported_constructs_and_type_errors_name_the_python_line(function, text, error, message):
    kernel = gpukit.jit(function)
    args = (gpukit.zeros(4, numpy.float32),) + ((3,) if function is non_constant_shared_shape else ())
    with pytest.raises(error) as raised:
        launch(kernel, *args)
    line = line_of(function, text)
    assert message.format(line=line) in str(raised.value)
    assert f"test_jit_errors.py:{line}" in str(raised.value)


def test_a_kernel_called_without_a_launch_configuration_says_how():
    kernel = gpukit.jit(too_many_indices)
    with pytest.raises(TypeError, match=r"kernel\[blocks_per_grid, threads_per_block\]\(arguments\)"):
        kernel(gpukit.zeros(4))


def test_wrong_argument_count_and_types():
    kernel = gpukit.jit(too_many_indices)
    with pytest.raises(TypeError, match="takes 1 argument, not 2"):
        kernel[1, 1](gpukit.zeros(4), 1)
    with pytest.raises(TypeError, match="argument 0 is a str"):
        kernel[1, 1]("text")
    with pytest.raises(OverflowError, match="does not fit in int64"):
        kernel[1, 1](2**70)


def test_bad_launch_configurations_are_checked():
    kernel = gpukit.jit(string_constant)
    with pytest.raises(ValueError, match="takes 2 to 4 values"):
        kernel[1]
    with pytest.raises(gpukit.LaunchConfigError):
        gpukit.jit(returns_nothing)[1, 5000](gpukit.zeros(4))


def returns_nothing(out):
    out[0] = 1


def test_the_process_keeps_working_after_each_error():
    for function in (list_comprehension, returns_a_value, unknown_name):
        with pytest.raises((TypeError, NotImplementedError, NameError)):
            launch(gpukit.jit(function), gpukit.zeros(4, numpy.float32))
    out = gpukit.zeros(4, numpy.float32)
    launch(gpukit.jit(returns_nothing), out)
    assert out.get()[0] == 1


def test_jit_options_and_unsupported_forms_are_refused():
    with pytest.raises(TypeError, match="unexpected keyword arguments: fastmath_typo"):
        gpukit.jit(fastmath_typo=True)
    with pytest.raises(TypeError, match="decorates a Python function"):
        gpukit.jit(3)
    with pytest.raises(TypeError, match="can only be called inside a kernel"):
        cuda.grid(1)


@cuda.jit(device=True)
def recursive(n):
    return 1 if n <= 1 else n * recursive(n - 1)


def calls_recursive(out):
    out[0] = recursive(5)


def test_recursion_is_refused_naming_the_function():
    with pytest.raises(TypeError, match="recursive calls itself .* recursion is not supported"):
        launch(gpukit.jit(calls_recursive), gpukit.zeros(4, numpy.float32))
