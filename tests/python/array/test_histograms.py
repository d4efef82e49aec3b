"""bincount, histogram, histogram_bin_edges, histogram2d, histogramdd and digitize against NumPy
(src/ops/histogram/): every real dtype, sizes 0 to several blocks, strided and reversed views,
equal-width bins (counts equal and edges bit-equal to NumPy's), explicit edges with repeats,
NumPy's estimators, weights of every dtype, density, skewed data (every value in one bin), and the
errors NumPy raises."""

import numpy
import pytest

import gpukit
from conftest import random_array

REAL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
               "float32", "float64"]
INTEGRAL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
SIZES = [0, 1, 7, 1000, 70001]


def spread_values(rng, size, dtype):
    """Values across a wide range (integers up to +-1000 where the dtype holds them), never all zero."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=size).astype(bool)
    if dtype.kind in "iu":
        info = numpy.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), size=size, endpoint=True).astype(dtype)
    return (rng.normal(size=size) * 40).astype(dtype)


def host(device):
    return device.get()


# ---- bincount

@pytest.mark.parametrize("dtype", INTEGRAL_DTYPES)
@pytest.mark.parametrize("size", SIZES)
def test_bincount_counts_and_weights_as_numpy(rng, dtype, size):
    x = rng.integers(0, 2 if dtype == "bool" else 120, size=size).astype(dtype)
    weights = rng.normal(size=size)
    device = gpukit.asarray(x)
    expected = numpy.bincount(x)
    result = gpukit.bincount(device)
    assert result.dtype == expected.dtype == numpy.int64
    numpy.testing.assert_array_equal(host(result), expected)
    numpy.testing.assert_array_equal(host(gpukit.bincount(device, minlength=1500)), numpy.bincount(x, minlength=1500))
    weighted = gpukit.bincount(device, weights=gpukit.asarray(weights))
    assert weighted.dtype == numpy.float64
    numpy.testing.assert_allclose(host(weighted), numpy.bincount(x, weights=weights), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("weights_dtype", ["bool", "int8", "uint64", "float16", "float32"])
def test_bincount_takes_weights_of_any_real_dtype_as_float64(rng, weights_dtype):
    x = rng.integers(0, 50, size=999)
    weights = random_array(rng, 999, weights_dtype)
    result = gpukit.bincount(gpukit.asarray(x), gpukit.asarray(weights))
    assert result.dtype == numpy.float64
    numpy.testing.assert_allclose(host(result), numpy.bincount(x, weights), rtol=1e-6)


def test_bincount_of_a_strided_view_and_of_one_value_everywhere(rng):
    x = rng.integers(0, 300, size=20001)
    numpy.testing.assert_array_equal(host(gpukit.bincount(gpukit.asarray(x)[::-3])), numpy.bincount(x[::-3]))
    same = numpy.full(100001, 7)
    numpy.testing.assert_array_equal(host(gpukit.bincount(gpukit.asarray(same))), numpy.bincount(same))


@pytest.mark.parametrize("call, error, message", [
    (lambda: gpukit.bincount(gpukit.asarray(numpy.array([1, -1, 2]))), ValueError, "no negative elements"),
    (lambda: gpukit.bincount(gpukit.asarray(numpy.array([1.0]))), TypeError, "according to the rule 'safe'"),
    (lambda: gpukit.bincount(gpukit.asarray(numpy.ones((2, 2), int))), ValueError, "too deep"),
    (lambda: gpukit.bincount(gpukit.asarray(numpy.array(3))), ValueError, "too small depth"),
    (lambda: gpukit.bincount(gpukit.asarray(numpy.array([1, 2])), minlength=-1), ValueError, "must not be negative"),
    (lambda: gpukit.bincount(gpukit.asarray(numpy.array([1, 2])), gpukit.asarray(numpy.ones(3))), ValueError,
     "same length"),
    (lambda: gpukit.bincount(gpukit.asarray(numpy.array([1, 2])), gpukit.asarray(numpy.ones(2, complex))), TypeError,
     "complex128"),
    (lambda: gpukit.bincount(numpy.array([1, 2])), TypeError, "gpukit.asarray"),
])
def test_bincount_refuses_what_numpy_refuses(call, error, message):
    with pytest.raises(error, match=message):
        call()



@pytest.mark.parametrize("size", [1, 3, 4097, 100003])
def test_bincount_is_as_long_as_its_largest_value_however_it_learns_it(rng, size):
    """Counts learn the largest value from the bins the blocks flush (the values inside the guess
    are not looked at one by one), sums from every value: a zero weight on the largest value, or
    weights that cancel, still make its bin."""
    x = rng.integers(0, 37, size=size)
    x[-1] = 40
    weights = rng.normal(size=size)
    weights[-1] = 0.0
    numpy.testing.assert_array_equal(host(gpukit.bincount(gpukit.asarray(x))), numpy.bincount(x))
    result = host(gpukit.bincount(gpukit.asarray(x), gpukit.asarray(weights)))
    assert result.shape == (41,)
    numpy.testing.assert_allclose(result, numpy.bincount(x, weights), rtol=1e-12, atol=1e-12)
    cancelling = numpy.array([5, 5, 2])
    numpy.testing.assert_array_equal(
        host(gpukit.bincount(gpukit.asarray(cancelling), gpukit.asarray(numpy.array([1.0, -1.0, 2.0])))),
        numpy.bincount(cancelling, numpy.array([1.0, -1.0, 2.0])))

# ---- histogram: equal-width bins

@pytest.mark.parametrize("largest", [8190, 8191, 8192, 4095, 4096, 100000])
def test_bincount_past_the_bins_it_first_counts_into(rng, largest):
    """bincount counts into a guessed number of bins (one block's shared copy: 8192 counts, 4096 sums)
    and counts again where the largest value is past it."""
    x = rng.integers(0, largest, size=30001)
    x[rng.integers(0, x.size)] = largest
    weights = rng.normal(size=x.size)
    numpy.testing.assert_array_equal(host(gpukit.bincount(gpukit.asarray(x))), numpy.bincount(x))
    numpy.testing.assert_allclose(host(gpukit.bincount(gpukit.asarray(x), gpukit.asarray(weights))),
                                  numpy.bincount(x, weights), rtol=1e-12, atol=1e-12)
    numpy.testing.assert_array_equal(host(gpukit.bincount(gpukit.asarray(x), minlength=largest + 3)),
                                     numpy.bincount(x, minlength=largest + 3))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "uint8", "uint16", "uint32", "int64", "uint64"])
@pytest.mark.parametrize("bins, value_range", [(256, (0, 256)), (20, (-40, 40)), (7, (-7, 42)), (5, (3, 8)),
                                               (9, (0, 255)), (4, (-3.0, 5.0))])
def test_histogram_of_integers_in_whole_number_bins(rng, dtype, bins, value_range):
    """Integers whose edges are whole numbers a whole number apart are binned by integer arithmetic:
    the same bins as comparing with the edges, the last edge in the last bin."""
    info = numpy.iinfo(dtype)
    low, high = max(info.min, value_range[0] - 5), min(info.max, value_range[1] + 5)
    x = rng.integers(low, high, size=40001, endpoint=True).astype(dtype)
    x[:3] = [max(low, value_range[0]), min(high, value_range[1]), min(high, value_range[1] - 1)]
    hist, edges = gpukit.histogram(gpukit.asarray(x), bins=bins, range=value_range)
    expected_hist, expected_edges = numpy.histogram(x, bins=bins, range=value_range)
    numpy.testing.assert_array_equal(host(edges), expected_edges)
    numpy.testing.assert_array_equal(host(hist), expected_hist)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("bins, value_range", [(256, (0, 256)), (20, (-40, 40)), (7, (-7, 42)), (9, (0, 2 ** 24)),
                                               (4, (-(2 ** 30), 2 ** 30)), (3, (-1e-30, 3))])
def test_histogram_of_floats_in_whole_number_bins(rng, dtype, bins, value_range):
    """Floats against whole-number edges a whole number apart are binned by floor(x) (in float32
    for the narrow floats, where the outer edges are at most 2^24): on, just below and just above
    each edge, NaN and infinities, where NumPy's comparisons put them."""
    if dtype == "float16" and max(map(abs, value_range)) > 65504:
        pytest.skip("float16 holds no such edges (NumPy refuses them)")
    _, edges = numpy.histogram(numpy.zeros(1, dtype), bins=bins, range=value_range)
    x = numpy.concatenate([edges, numpy.nextafter(edges, -numpy.inf), numpy.nextafter(edges, numpy.inf),
                           rng.uniform(value_range[0] - 3, value_range[1] + 3, size=30001),
                           [numpy.nan, numpy.inf, -numpy.inf, -0.0]])
    with numpy.errstate(over="ignore"):
        x = x.astype(dtype)
    hist, gk_edges = gpukit.histogram(gpukit.asarray(x), bins=bins, range=value_range)
    expected_hist, expected_edges = numpy.histogram(x[numpy.isfinite(x)], bins=bins, range=value_range)
    numpy.testing.assert_array_equal(host(gk_edges), expected_edges)
    numpy.testing.assert_array_equal(host(hist), expected_hist)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_values_on_and_next_to_every_edge_bin_as_numpy(dtype):
    """The arithmetic's bin is taken without the edges only away from them: values on each edge and
    one step either side land where NumPy's comparisons put them."""
    cases = [(256, (0, 1)), (10, (-1, 3)), (7, (0.1, 0.8)), (100, (1000.0, 1001.0) if dtype != "float16" else (8, 9))]
    for bins, value_range in cases:
        _, edges = numpy.histogram(numpy.zeros(1, dtype), bins=bins, range=value_range)
        x = numpy.concatenate([edges, numpy.nextafter(edges, -numpy.inf), numpy.nextafter(edges, numpy.inf)])
        x = x.astype(dtype)
        hist, gk_edges = gpukit.histogram(gpukit.asarray(x), bins=bins, range=value_range)
        numpy.testing.assert_array_equal(host(gk_edges), edges)
        numpy.testing.assert_array_equal(host(hist), numpy.histogram(x, bins=bins, range=value_range)[0])


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("size", SIZES)
def test_histogram_counts_and_edges_are_numpys(rng, dtype, size):
    x = spread_values(rng, size, dtype)
    device = gpukit.asarray(x)
    for bins, value_range in ((10, None), (1, None), (256, (-20.5, 30.25)), (10000, None)):
        try:
            expected_hist, expected_edges = numpy.histogram(x.astype(numpy.uint8) if dtype == "bool" else x,
                                                            bins=bins, range=value_range)
        except ValueError as error:  # too many bins for float16's resolution
            with pytest.raises(ValueError, match="Too many bins for data range"):
                gpukit.histogram(device, bins=bins, range=value_range)
            assert "Too many bins" in str(error)
            continue
        hist, edges = gpukit.histogram(device, bins=bins, range=value_range)
        assert hist.dtype == expected_hist.dtype and edges.dtype == expected_edges.dtype
        numpy.testing.assert_array_equal(host(edges), expected_edges)
        numpy.testing.assert_array_equal(host(hist), expected_hist)


@pytest.mark.parametrize("take", [lambda a: a[::2], lambda a: a[::-1], lambda a: a[1:], lambda a: a.reshape(7, -1).T],
                         ids=["strided", "reversed", "offset", "transposed"])
@pytest.mark.parametrize("dtype", ["int8", "float32", "float64"])
def test_histogram_of_views_flattens_them(rng, take, dtype):
    base = spread_values(rng, 7 * 1001, dtype)
    view, device = take(base), take(gpukit.asarray(base))
    hist, edges = gpukit.histogram(device, bins=33)
    expected_hist, expected_edges = numpy.histogram(view, bins=33)
    numpy.testing.assert_array_equal(host(hist), expected_hist)
    numpy.testing.assert_array_equal(host(edges), expected_edges)


def test_histogram_of_bfloat16_bins_by_its_own_edges(rng):
    values = (rng.normal(size=5001) * 10).astype(numpy.float32)
    device = gpukit.asarray(values).astype("bfloat16")
    exact = device.astype("float32").get()  # the values bfloat16 holds
    hist, edges = gpukit.histogram(device, bins=20)
    assert str(edges.dtype) == "bfloat16"
    float_edges = edges.astype("float32").get()
    assert float_edges[0] == exact.min() and float_edges[-1] == exact.max()
    numpy.testing.assert_array_equal(host(hist), numpy.histogram(exact, bins=float_edges)[0])


@pytest.mark.parametrize("skew", ["uniform", "one bin", "last edge"])
def test_skewed_data_counts_every_value(rng, skew):
    size = 300001
    values = {"uniform": rng.integers(0, 256, size=size),
              "one bin": numpy.full(size, 17),
              "last edge": numpy.full(size, 255)}[skew].astype(numpy.int32)
    hist, _ = gpukit.histogram(gpukit.asarray(values), bins=256, range=(0, 255))
    numpy.testing.assert_array_equal(host(hist), numpy.histogram(values, bins=256, range=(0, 255))[0])


def test_values_outside_the_range_nan_and_infinities_are_not_counted(rng):
    x = rng.normal(size=5000) * 3
    x[::7] = numpy.nan
    x[1::11] = numpy.inf
    x[2::13] = -numpy.inf
    hist, _ = gpukit.histogram(gpukit.asarray(x), bins=12, range=(-2, 2))
    numpy.testing.assert_array_equal(host(hist), numpy.histogram(x, bins=12, range=(-2, 2))[0])


def test_equal_values_and_empty_data_get_numpys_default_ranges():
    for x in (numpy.full(10, 3.5), numpy.full(10, 3, dtype=numpy.int16), numpy.zeros(0)):
        hist, edges = gpukit.histogram(gpukit.asarray(x), bins=4)
        expected_hist, expected_edges = numpy.histogram(x, bins=4)
        numpy.testing.assert_array_equal(host(hist), expected_hist)
        numpy.testing.assert_array_equal(host(edges), expected_edges)


# ---- histogram: explicit edges, weights, density, estimators

@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_explicit_edges_with_repeats_bin_as_numpy(rng, dtype):
    x = spread_values(rng, 3001, dtype)
    numpy_x = x.astype(numpy.uint8) if dtype == "bool" else x
    for edges in (numpy.array([-50, -5, -5, 0, 1, 2, 60]), numpy.array([-20.5, 0.25, 0.25, 3.75, 40.0]),
                  numpy.array([0, 1], numpy.uint64), numpy.array([3.0])):
        if edges.dtype == numpy.uint64 and numpy.dtype(dtype).kind not in "ub":
            continue
        hist, returned = gpukit.histogram(gpukit.asarray(x), bins=gpukit.asarray(edges))
        numpy.testing.assert_array_equal(host(hist), numpy.histogram(numpy_x, bins=edges)[0])
        numpy.testing.assert_array_equal(host(returned), edges)


@pytest.mark.parametrize("edges", [[-1, 0, 0.5, 2], numpy.array([-1, 0, 0.5, 2]), numpy.array([-2, 0, 3])])
def test_edges_may_be_a_list_or_a_numpy_array(rng, edges):
    # Host edges are few: they are copied (Dask hands each chunk the edges it computed on the host).
    x = rng.normal(size=999)
    hist, returned = gpukit.histogram(gpukit.asarray(x), bins=edges)
    expected_hist, expected_edges = numpy.histogram(x, bins=edges)
    numpy.testing.assert_array_equal(host(hist), expected_hist)
    numpy.testing.assert_array_equal(host(returned), expected_edges)
    sample = gpukit.asarray(rng.normal(size=(500, 2)))
    counts, _ = gpukit.histogramdd(sample, bins=[numpy.asarray(edges), 3])
    numpy.testing.assert_array_equal(host(counts), numpy.histogramdd(sample.get(), bins=[numpy.asarray(edges), 3])[0])


@pytest.mark.parametrize("weights_dtype", ["bool", "int16", "uint64", "int64", "float16", "float32", "float64",
                                           "complex64", "complex128"])
@pytest.mark.parametrize("bins", [17, "edges"])
def test_weights_sum_in_their_dtype(rng, weights_dtype, bins):
    x = rng.normal(size=(40, 51))
    weights = random_array(rng, x.shape, weights_dtype)
    bins = numpy.array([-3, -1, -1, 0, 0.5, 2.5]) if bins == "edges" else bins
    device_bins = gpukit.asarray(bins) if isinstance(bins, numpy.ndarray) else bins
    hist, _ = gpukit.histogram(gpukit.asarray(x), bins=device_bins, weights=gpukit.asarray(weights))
    assert hist.dtype == weights.dtype
    # Summed exactly (integers) or in float64, then converted: NumPy's explicit-edge path sums in
    # the weights' dtype (float16 loses digits; bool fails), so the reference sums in a wide type.
    wide = numpy.complex128 if weights.dtype.kind == "c" else numpy.float64
    expected = numpy.histogram(x, bins=bins, weights=weights.astype(wide))[0].astype(weights.dtype)
    numpy.testing.assert_allclose(host(hist).astype(wide), expected.astype(wide), rtol=1e-6)


@pytest.mark.parametrize("weighted", [False, True])
def test_density_is_numpys(rng, weighted):
    x = rng.normal(size=4000).astype(numpy.float32)
    weights = rng.random(4000) if weighted else None
    for bins in (23, numpy.array([-2, -1, 0, 0.5, 3])):
        hist, _ = gpukit.histogram(gpukit.asarray(x), bins=gpukit.asarray(bins) if isinstance(bins, numpy.ndarray)
                                   else bins, density=True,
                                   weights=None if weights is None else gpukit.asarray(weights))
        expected, _ = numpy.histogram(x, bins=bins, density=True, weights=weights)
        assert hist.dtype == expected.dtype
        numpy.testing.assert_allclose(host(hist), expected, rtol=1e-10)


@pytest.mark.parametrize("estimator", ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"])
def test_estimators_choose_numpys_bins(rng, estimator):
    x = rng.normal(size=3001) * 10 + 4
    for value_range in (None, (-5.0, 30.0)):
        hist, edges = gpukit.histogram(gpukit.asarray(x), bins=estimator, range=value_range)
        expected_hist, expected_edges = numpy.histogram(x, bins=estimator, range=value_range)
        numpy.testing.assert_allclose(host(edges), expected_edges, rtol=1e-12)
        numpy.testing.assert_array_equal(host(hist), expected_hist)
        numpy.testing.assert_allclose(host(gpukit.histogram_bin_edges(gpukit.asarray(x), bins=estimator,
                                                                      range=value_range)),
                                      numpy.histogram_bin_edges(x, bins=estimator, range=value_range), rtol=1e-12)


def test_estimators_of_integers_take_bins_at_least_one_wide(rng):
    x = rng.integers(0, 5000, size=2001)
    hist, edges = gpukit.histogram(gpukit.asarray(x), bins="auto")
    expected_hist, expected_edges = numpy.histogram(x, bins="auto")
    numpy.testing.assert_allclose(host(edges), expected_edges, rtol=1e-12)
    numpy.testing.assert_array_equal(host(hist), expected_hist)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"bins": 0}, ValueError, "`bins` must be positive, when an integer"),
    ({"bins": -3}, ValueError, "`bins` must be positive, when an integer"),
    ({"bins": 2.5}, TypeError, "`bins` must be an integer, a string, or an array"),
    ({"bins": "nope"}, ValueError, "'nope' is not a valid estimator for `bins`"),
    ({"bins": [3, 1, 2]}, ValueError, "`bins` must increase monotonically, when an array"),
    ({"bins": 2, "range": (3, 1)}, ValueError, "max must be larger than min in range parameter."),
    ({"bins": 2, "range": (0, numpy.inf)}, ValueError, r"supplied range of \[0.0, inf\] is not finite"),
    ({"bins": "auto", "weights": "ones"}, TypeError, "not supported for weighted data"),
    ({"bins": 2, "weights": "short"}, ValueError, "weights should have the same shape as a."),
    ({"bins": 100000, "range": (1.0, 1.0 + 1e-12)}, ValueError, "Too many bins for data range"),
])
def test_histogram_refuses_what_numpy_refuses(kwargs, error, message):
    x = gpukit.asarray(numpy.arange(5.0))
    weights = {"ones": gpukit.asarray(numpy.ones(5)), "short": gpukit.asarray(numpy.ones(3))}
    if isinstance(kwargs.get("weights"), str):
        kwargs = dict(kwargs, weights=weights[kwargs["weights"]])
    with pytest.raises(error, match=message):
        gpukit.histogram(x, **kwargs)


def test_histogram_refuses_nan_without_a_range_and_complex_data():
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\] is not finite"):
        gpukit.histogram(gpukit.asarray(numpy.array([numpy.nan, 1.0])))
    with pytest.raises(TypeError, match="complex"):
        gpukit.histogram(gpukit.asarray(numpy.array([1 + 1j])))
    with pytest.raises(ValueError, match="`bins` must be 1d, when an array"):
        gpukit.histogram(gpukit.asarray(numpy.arange(3.0)), bins=gpukit.asarray(numpy.ones((2, 2))))


# ---- histogramdd and histogram2d

@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
@pytest.mark.parametrize("size", [0, 1, 4001])
def test_histogramdd_is_numpys(rng, dtype, size):
    sample = spread_values(rng, (size, 3), dtype)
    device = gpukit.asarray(sample)
    cases = [
        {"bins": 5},
        {"bins": (4, 5, 6), "range": [(-50, 50), None, (0, 100)]},
        {"bins": [3, numpy.array([-100, 0, 0, 7.5, 200]), 2], "weights": rng.random(size)},
        {"bins": (4, 2, 3), "density": True},
    ]
    for case in cases:
        device_case = dict(case)
        if "weights" in case:
            device_case["weights"] = gpukit.asarray(case["weights"])
        device_case["bins"] = [gpukit.asarray(b) if isinstance(b, numpy.ndarray) else b
                               for b in numpy.atleast_1d(numpy.array(case["bins"], dtype=object))]
        if isinstance(case["bins"], int):
            device_case["bins"] = case["bins"]
        hist, edges = gpukit.histogramdd(device, **device_case)
        expected_hist, expected_edges = numpy.histogramdd(sample, **case)
        assert hist.dtype == expected_hist.dtype == numpy.float64
        numpy.testing.assert_allclose(host(hist), expected_hist, rtol=1e-12)
        for got, want in zip(edges, expected_edges):
            assert got.dtype == want.dtype
            numpy.testing.assert_array_equal(host(got), want)


def test_histogramdd_takes_a_sequence_of_coordinates_and_a_1d_sample(rng):
    x, y = rng.normal(size=999), rng.normal(size=999)
    hist, _ = gpukit.histogramdd([gpukit.asarray(x), gpukit.asarray(y)], bins=6)
    numpy.testing.assert_array_equal(host(hist), numpy.histogramdd([x, y], bins=6)[0])
    hist, _ = gpukit.histogramdd(gpukit.asarray(x), bins=6)
    numpy.testing.assert_array_equal(host(hist), numpy.histogramdd(x, bins=6)[0])


@pytest.mark.parametrize("bins", [7, [3, 9], numpy.array([-2, 0, 0.5, 3]), [numpy.array([-1, 1.0]), 4]],
                         ids=["one count", "two counts", "shared edges", "edges and count"])
def test_histogram2d_is_numpys(rng, bins):
    x, y, weights = rng.normal(size=2500), rng.normal(size=2500), rng.random(2500)
    device_bins = (gpukit.asarray(bins) if isinstance(bins, numpy.ndarray) else
                   [gpukit.asarray(b) if isinstance(b, numpy.ndarray) else b for b in bins]
                   if isinstance(bins, list) else bins)
    hist, xedges, yedges = gpukit.histogram2d(gpukit.asarray(x), gpukit.asarray(y), bins=device_bins,
                                              weights=gpukit.asarray(weights), density=True)
    expected, expected_x, expected_y = numpy.histogram2d(x, y, bins=bins, weights=weights, density=True)
    numpy.testing.assert_allclose(host(hist), expected, rtol=1e-12)
    numpy.testing.assert_array_equal(host(xedges), expected_x)
    numpy.testing.assert_array_equal(host(yedges), expected_y)


def test_histogramdd_refuses_what_numpy_refuses(rng):
    sample = gpukit.asarray(rng.normal(size=(10, 2)))
    with pytest.raises(ValueError, match="The dimension of bins must be equal to the dimension of the sample x."):
        gpukit.histogramdd(sample, bins=[2, 3, 4])
    with pytest.raises(ValueError, match=r"`bins\[1\]` must be monotonically increasing, when an array"):
        gpukit.histogramdd(sample, bins=[2, gpukit.asarray(numpy.array([3.0, 1.0]))])
    with pytest.raises(ValueError, match=r"`bins\[0\]` must be positive, when an integer"):
        gpukit.histogramdd(sample, bins=[0, 2])
    with pytest.raises(TypeError, match="rule 'safe'"):
        gpukit.histogramdd(sample, weights=gpukit.asarray(numpy.ones(10, complex)))


# ---- digitize

@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64"])
@pytest.mark.parametrize("right", [False, True])
def test_digitize_is_numpys_for_increasing_and_decreasing_bins(rng, dtype, right):
    x = spread_values(rng, (31, 33), dtype)
    x_numpy = x
    if dtype.startswith("float"):
        x[0, :5] = numpy.nan
    for bins in (numpy.array([-100.0, -3, -3, 0, 8.5, 900]), numpy.array([500, 20, 20, 1, -7]), numpy.array([2.0])):
        result = gpukit.digitize(gpukit.asarray(x), gpukit.asarray(bins), right=right)
        expected = numpy.digitize(x_numpy, bins, right=right)
        assert result.dtype == expected.dtype and result.shape == expected.shape
        numpy.testing.assert_array_equal(host(result), expected)


def test_digitize_refuses_unordered_bins_and_complex_values():
    with pytest.raises(ValueError, match="bins must be monotonically increasing or decreasing"):
        gpukit.digitize(gpukit.asarray(numpy.arange(3.0)), gpukit.asarray(numpy.array([1.0, 3, 2])))
    with pytest.raises(TypeError, match="x may not be complex"):
        gpukit.digitize(gpukit.asarray(numpy.array([1j])), gpukit.asarray(numpy.array([1.0, 3])))
