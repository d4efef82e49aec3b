"""NumPy's answer to each collective, as NCCL computes it (integers wrap; avg of integers truncates
toward zero; avg of floats is the mean), and the tolerance each dtype's arithmetic allows."""

import numpy

TOLERANCE = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-5, "float64": 1e-12, "complex64": 1e-5,
             "complex128": 1e-12}


def reduce(arrays, op):
    stack = numpy.stack(arrays)
    dtype = stack.dtype
    if dtype.kind == "b":
        return {"max": stack.any(axis=0), "min": stack.all(axis=0), "prod": stack.all(axis=0)}[op]
    if dtype.kind in "iu":
        with numpy.errstate(over="ignore"):
            if op in ("sum", "avg"):
                total = numpy.add.reduce(stack, axis=0, dtype=dtype)
                if op == "sum":
                    return total
                wide = total.astype(numpy.uint64 if dtype == numpy.uint64 else numpy.int64)
                return (numpy.sign(wide) * (numpy.abs(wide) // len(arrays))).astype(dtype)
            if op == "prod":
                return numpy.multiply.reduce(stack, axis=0, dtype=dtype)
    wide = stack.astype(numpy.complex128 if dtype.kind == "c" else numpy.float64)
    result = {"sum": wide.sum(axis=0), "prod": wide.prod(axis=0), "max": wide.max(axis=0), "min": wide.min(axis=0),
              "avg": wide.mean(axis=0)}[op]
    return result


def assert_matches(got, expected, dtype):
    got = numpy.asarray(got)
    tolerance = TOLERANCE.get(str(dtype))
    if tolerance is None:
        numpy.testing.assert_array_equal(got, expected)
    else:
        numpy.testing.assert_allclose(got.astype(expected.dtype), expected, rtol=tolerance, atol=tolerance)
