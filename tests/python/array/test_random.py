"""gpukit.random (src/ops/random/, kernels/gpukit_random.cuh) against a Philox4x32-10 written here
in NumPy: random, integers and standard_normal equal, bit for bit, what the documented conversions
give from that stream (the same test on the simulator and on a GPU makes them bit-identical);
statistics of every distribution and dtype at fixed seeds (scipy.stats); sizes 0, 1, odd and
tuples, size=None, out=, broadcasting parameters, permutations, shuffles, choices, the legacy
functions, and the errors NumPy raises."""

import math
from fractions import Fraction

import numpy
import pytest
import scipy.stats

import gpukit

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK32 = 0xFFFF_FFFF
P_VALUE = 1e-4  # a fixed seed either passes or fails; this keeps a correct generator far from failing


def philox(counters, key):
    """Philox4x32-10 of (n, 4) uint32 counters under key (k0, k1): (n, 4) uint32 words."""
    c = [counters[:, w].astype(numpy.uint64) for w in range(4)]
    k0, k1 = key
    for round_ in range(10):
        if round_:
            k0, k1 = (k0 + W0) & MASK32, (k1 + W1) & MASK32
        p0, p1 = c[0] * numpy.uint64(M0), c[2] * numpy.uint64(M1)
        c = [(p1 >> numpy.uint64(32)) ^ c[1] ^ numpy.uint64(k0), p1 & numpy.uint64(MASK32),
             (p0 >> numpy.uint64(32)) ^ c[3] ^ numpy.uint64(k1), p0 & numpy.uint64(MASK32)]
    return numpy.stack(c, axis=1).astype(numpy.uint32)


def blocks(key, offset, count, attempt=0):
    """Blocks offset + j (j < count) at `attempt`: counter offset + j + attempt * 2^96."""
    counters = numpy.empty((count, 4), numpy.uint32)
    for j in range(count):
        value = offset + j + (attempt << 96)
        counters[j] = [(value >> (32 * w)) & MASK32 for w in range(4)]
    return philox(counters, key)


def test_philox_reference_matches_the_known_answers():
    for counter, key, expected in (
        ([0, 0, 0, 0], (0, 0), [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
        ([MASK32] * 4, (MASK32, MASK32), [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
        ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], (0xA4093822, 0x299F31D0),
         [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]),
    ):
        assert philox(numpy.array([counter], numpy.uint32), key)[0].tolist() == expected


# ---- the documented conversions, repeated in NumPy's IEEE arithmetic

F = numpy.float32


def uniform32(words):
    return (words >> 8).astype(F) * F(2.0**-24)


def bits53(w0, w1):
    high, low = w0.astype(numpy.uint64) >> numpy.uint64(5), w1.astype(numpy.uint64) >> numpy.uint64(6)
    return (high << numpy.uint64(26)) | low


def fma32(a, b, c):
    """fmaf: a * b + c of float32s rounded once. The product is exact in float64; the sum, rounded to
    odd in float64 (its rounding error from TwoSum), then rounds to float32 as the exact sum would
    (53 >= 24 + 2 bits: Boldo and Melquiond, "Emulation of FMA and correctly rounded sums", 2008)."""
    p = numpy.asarray(a, numpy.float64) * numpy.asarray(b, numpy.float64)
    c = numpy.asarray(c, numpy.float64)
    s = p + c
    b_virtual = s - p
    error = (p - (s - b_virtual)) + (c - b_virtual)
    even = (numpy.atleast_1d(s).view(numpy.uint64) & numpy.uint64(1)).reshape(numpy.shape(s)) == 0
    odd = numpy.nextafter(s, numpy.where(error > 0, numpy.inf, -numpy.inf))
    return numpy.where((error != 0) & even, odd, s).astype(F)


def log32_intervals():
    """gk_log_float's table as its comment derives it: for each of the 16 intervals of z, 1/c of
    its harmonic centre c as a float rounded to 12 bits (1 for the interval around 1), and
    logc = -log(invc) as a float and its remainder."""
    rows = []
    for i in range(16):
        low, high = (numpy.array([0x3F330000 + (j << 19)], numpy.uint32).view(F)[0].item() for j in (i, i + 1))
        if low <= 1.0 < high:
            invc = 1.0
        else:
            mantissa, exponent = numpy.frexp(float(F(1 / (2 * low * high / (low + high)))))
            invc = float(numpy.ldexp(numpy.round(mantissa * 4096) / 4096, exponent))
        logc = -numpy.log(invc) + 0.0
        rows.append((invc, float(F(logc)), logc - float(F(logc))))
    return numpy.array(rows).astype(F)


LOG32_INTERVALS = log32_intervals()


def log32(x):
    bits = x.view(numpy.uint32)
    offset = bits - numpy.uint32(0x3F330000)
    k = offset.view(numpy.int32) >> 23
    invc, logc, logc_rest = LOG32_INTERVALS[(offset >> 19) & 15].T
    z = (bits - (offset & numpy.uint32(0xFF800000))).view(F)
    r = fma32(z, invc, F(-1))
    series = fma32(r, fma32(r, fma32(r, F("0.2"), F("-0.25")), F("0.33333334")), F("-0.5"))
    log1p = fma32(r * r, series, r)
    fk = k.astype(F)
    return fma32(fk, F("0.69314575"), logc) + (log1p + fma32(fk, F("1.4286068e-06"), logc_rest))


def log64(x):
    bits = x.view(numpy.uint64)
    e = (bits >> numpy.uint64(52)).astype(numpy.int64) - 1023
    mantissa = bits & numpy.uint64(0xFFFFFFFFFFFFF)
    big = mantissa > numpy.uint64(0x6A09E667F3BCD)
    halved, whole = mantissa | numpy.uint64(0x3FE0000000000000), mantissa | numpy.uint64(0x3FF0000000000000)
    mantissa = numpy.where(big, halved, whole)
    e = e + big
    f = mantissa.view(numpy.float64) - 1.0
    s = f / (2.0 + f)
    z = s * s
    series = 0.09523809523809523
    for c in (0.10526315789473684, 0.11764705882352941, 0.13333333333333333, 0.15384615384615385,
              0.18181818181818182, 0.2222222222222222, 0.2857142857142857, 0.4, 0.6666666666666666):
        series = c + z * series
    log1p = (s + s) + s * (z * series)
    de = e.astype(numpy.float64)
    return de * 0.6931471803691238 + (de * 1.9082149292705877e-10 + log1p)


def quadrant(q, s, c):
    q = q & 3
    return (numpy.select([q == 0, q == 1, q == 2], [s, c, -s], -c),
            numpy.select([q == 0, q == 1, q == 2], [c, -s, -c], s))


def sincos32(k24):
    q = (k24 + (1 << 21)) >> 22
    x = (k24.astype(numpy.int64) - (q.astype(numpy.int64) << 22)).astype(F) * F(2.0**-22)
    x2 = x * x
    s = F("0.00016044118")
    for c in ("-0.004681754", "0.079692625", "-0.6459641", "1.5707964"):
        s = fma32(x2, s, F(c))
    cos = F("-2.5202042e-05")
    for c in ("0.00091926026", "-0.02086348", "0.2536695", "-1.2337005", "1"):
        cos = fma32(x2, cos, F(c))
    return quadrant(q, x * s, cos)


def sincos_quarter64(x):
    """sin(pi/2 x) and cos(pi/2 x) for |x| <= 1/2."""
    x2 = x * x
    s = 6.0669357311061955e-12
    for c in (-6.688035109811468e-10, 5.692172921967927e-08, -3.598843235212085e-06, 0.00016044118478735983,
              -0.004681754135318688, 0.07969262624616705, -0.6459640975062463, 1.5707963267948966):
        s = c + x2 * s
    cos = 6.565963114979473e-11
    for c in (-6.386603083791852e-09, 4.710874778818172e-07, -2.5202042373060607e-05, 0.0009192602748394266,
              -0.02086348076335296, 0.25366950790104803, -1.2337005501361697):
        cos = c + x2 * cos
    return x * s, 1.0 + x2 * cos


def sincos64(k53):
    q = (k53 + numpy.uint64(1 << 50)) >> numpy.uint64(51)
    x = (k53.astype(numpy.int64) - (q.astype(numpy.int64) << 51)).astype(numpy.float64) * 2.0**-51
    return quadrant(q.astype(numpy.int64), *sincos_quarter64(x))


def normal_reference(words, dtype):
    if dtype == numpy.float32:
        out = numpy.empty(words.shape, F)
        for pair in range(2):
            u1 = ((words[:, 2 * pair] >> 8) + numpy.uint32(1)).astype(F) * F(2.0**-24)
            r = numpy.sqrt(F(-2) * log32(u1))
            s, c = sincos32(words[:, 2 * pair + 1] >> 8)
            out[:, 2 * pair], out[:, 2 * pair + 1] = r * c, r * s
        return out.reshape(-1)
    u1 = (bits53(words[:, 0], words[:, 1]) + numpy.uint64(1)).astype(numpy.float64) * 2.0**-53
    r = numpy.sqrt(-2.0 * log64(u1))
    s, c = sincos64(bits53(words[:, 2], words[:, 3]))
    return numpy.stack([r * c, r * s], axis=1).reshape(-1)


SEED = 0x0123_4567_89AB_CDEF
KEY = (SEED & MASK32, SEED >> 32)


@pytest.mark.parametrize("n", [0, 1, 3, 5, 1003])
def test_random_integers_and_normals_are_the_documented_bits(n):
    rng = gpukit.random.default_rng(SEED)
    offset = 0
    singles = rng.random(n, dtype=numpy.float32).get()
    expected = uniform32(blocks(KEY, offset, -(-n // 4)).reshape(-1)[:n])
    numpy.testing.assert_array_equal(singles, expected)
    offset += -(-n // 4)
    doubles = rng.random(n).get()
    words = blocks(KEY, offset, -(-n // 2))
    expected = (bits53(words[:, 0::2].reshape(-1), words[:, 1::2].reshape(-1)).astype(numpy.float64) * 2.0**-53)[:n]
    numpy.testing.assert_array_equal(doubles, expected)
    offset += -(-n // 2)
    raw = rng.integers(0, 2**32, size=n, dtype=numpy.uint32).get()
    numpy.testing.assert_array_equal(raw, blocks(KEY, offset, -(-n // 4)).reshape(-1)[:n])
    offset += -(-n // 4)
    for dtype, per_block in ((numpy.float32, 4), (numpy.float64, 2)):
        normals = rng.standard_normal(n, dtype=dtype).get()
        numpy.testing.assert_array_equal(normals, normal_reference(blocks(KEY, offset, -(-n // per_block)), dtype)[:n])
        offset += -(-n // per_block)
    assert gpukit.random.default_rng(SEED).random(n).shape == (n,)
    assert (rng.offset.low, rng.offset.high) == (offset, 0)


def test_our_logarithm_and_sine_are_within_two_ulp():
    words = blocks(KEY, 7, 20000)
    for dtype in (numpy.float32, numpy.float64):
        normal = normal_reference(words, dtype)
        if dtype == numpy.float32:
            u1 = ((words[:, 0::2] >> 8) + numpy.uint32(1)).astype(numpy.float64).reshape(-1) * 2.0**-24
            angle = 2 * numpy.pi * (words[:, 1::2] >> 8).astype(numpy.float64).reshape(-1) * 2.0**-24
            exact = (numpy.sqrt(-2 * numpy.log(u1))[:, None] * numpy.stack([numpy.cos(angle), numpy.sin(angle)], 1))
            numpy.testing.assert_allclose(log32(u1.astype(F)), numpy.log(u1), rtol=2.5e-7, atol=1e-7)
        else:
            u1 = (bits53(words[:, 0], words[:, 1]) + numpy.uint64(1)).astype(numpy.float64) * 2.0**-53
            angle = 2 * numpy.pi * bits53(words[:, 2], words[:, 3]).astype(numpy.float64) * 2.0**-53
            exact = (numpy.sqrt(-2 * numpy.log(u1))[:, None] * numpy.stack([numpy.cos(angle), numpy.sin(angle)], 1))
            numpy.testing.assert_allclose(log64(u1), numpy.log(u1), rtol=5e-16, atol=1e-16)
        # The reference's own angle 2 pi u is rounded: an absolute error of a few ulp of 2 pi, times r.
        numpy.testing.assert_allclose(normal, exact.reshape(-1), rtol=4 * numpy.finfo(dtype).eps,
                                      atol=32 * numpy.finfo(dtype).eps)


def test_the_float32_logarithm_is_within_one_and_a_half_ulp_for_every_uniform():
    """Every value the float32 conversions take the logarithm of, k 2^-24 for k in 1..2^24."""
    for start in range(1, 2**24 + 1, 2**22):
        exact = numpy.arange(start, min(start + 2**22, 2**24 + 1), dtype=numpy.float64) * 2.0**-24
        ours = log32(exact.astype(F)).astype(numpy.float64)
        reference = numpy.log(exact)
        ulp = numpy.spacing(numpy.abs(reference).astype(F)).astype(numpy.float64)
        assert numpy.all(numpy.abs(ours - reference) <= 1.5 * ulp + (reference == 0))


INTEGER_DTYPES = [numpy.bool_, numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint16,
                  numpy.uint32, numpy.uint64]


def lemire32(key, offset, n, low, span):
    """integers' 32-bit path: Lemire's multiply-shift, a rejected element retried at the next attempt."""
    range_ = span + 1
    threshold = (2**32 - range_) % range_
    words = blocks(key, offset, -(-n // 4)).reshape(-1)[:n].astype(numpy.uint64)
    product = words * numpy.uint64(range_)
    attempt = 0
    while True:
        rejected = numpy.nonzero((product & numpy.uint64(MASK32)) < threshold)[0]
        if not rejected.size:
            return low + (product >> numpy.uint64(32)).astype(object)
        attempt += 1
        retry = blocks(key, offset, -(-n // 4), attempt).reshape(-1)[:n].astype(numpy.uint64)
        product[rejected] = retry[rejected] * numpy.uint64(range_)


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_integers_are_lemires_unbiased_draws(dtype):
    info = numpy.iinfo(dtype) if dtype != numpy.bool_ else None
    low, high = (0, 2) if info is None else (max(int(info.min), -1000), min(int(info.max), 2**31 + 12345))
    n = 30001
    rng = gpukit.random.default_rng(99)
    values = rng.integers(low, high, size=n, dtype=dtype).get()
    assert values.dtype == numpy.dtype(dtype)
    expected = lemire32(KEY_99, 0, n, low, high - 1 - low)
    assert values.astype(object).tolist() == expected.astype(dtype).astype(object).tolist()
    bins = 2 if info is None else 7
    counts = numpy.bincount(rng.integers(0, bins, size=70000, dtype=dtype).get().astype(numpy.int64), minlength=bins)
    assert scipy.stats.chisquare(counts).pvalue > P_VALUE
    smallest, largest = (0, 1) if info is None else (int(info.min), int(info.max))
    extremes = rng.integers(smallest, largest, size=1000, dtype=dtype, endpoint=True).get().astype(numpy.float64)
    assert extremes.min() < smallest + (largest - smallest) / 4 and extremes.max() > largest - (largest - smallest) / 4


KEY_99 = (99, 0)


def test_wide_integer_ranges_use_64_bit_words():
    rng = gpukit.random.default_rng(5)
    values = rng.integers(-(2**62), 2**62, size=20001).get()
    assert values.min() < -(2**61) and values.max() > 2**61
    words = blocks((5, 0), 0, 10001)
    x = [(int(a) << 32) | int(b) for a, b in zip(words[:, 0::2].reshape(-1), words[:, 1::2].reshape(-1))]
    range_ = 2**63
    expected = [-(2**62) + ((v * range_) >> 64) for v in x[:20001]]  # 2^64 mod 2^63 = 0: no rejection
    assert values.tolist() == expected
    full = rng.integers(0, 2**64, size=5, dtype=numpy.uint64).get()
    assert full.dtype == numpy.uint64
    assert scipy.stats.kstest(values / 2.0**62, scipy.stats.uniform(-1, 2).cdf).pvalue > P_VALUE


FLOAT_DTYPES = [numpy.float32, numpy.float64]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_continuous_distributions_pass_kolmogorov_smirnov(dtype):
    rng = gpukit.random.default_rng(2024)
    n = 100_000
    checks = [
        (rng.random(n, dtype=dtype), scipy.stats.uniform().cdf, 0.5, 1 / 12),
        (rng.standard_normal(n, dtype=dtype), scipy.stats.norm().cdf, 0.0, 1.0),
        (rng.normal(3.0, 2.0, n, dtype=dtype), scipy.stats.norm(3, 2).cdf, 3.0, 4.0),
        (rng.uniform(-2.0, 5.0, n, dtype=dtype), scipy.stats.uniform(-2, 7).cdf, 1.5, 49 / 12),
        (rng.exponential(0.5, n, dtype=dtype), scipy.stats.expon(scale=0.5).cdf, 0.5, 0.25),
    ]
    for array, cdf, mean, variance in checks:
        assert array.dtype == numpy.dtype(dtype)
        values = array.get().astype(numpy.float64)
        assert scipy.stats.kstest(values, cdf).pvalue > P_VALUE
        assert abs(values.mean() - mean) < 5 * numpy.sqrt(variance / n)
        assert abs(values.var() / variance - 1) < 0.05


def gamma_family_checks(rng, n):
    """(name, draw, scipy distribution) for the distributions built on the standard gamma, the normal
    and the uniform (src/ops/random/generator.cpp)."""
    stats = scipy.stats
    return [
        ("standard_gamma 0.3 (k < 1)", rng.standard_gamma(0.3, n), stats.gamma(0.3)),
        ("standard_gamma 1", rng.standard_gamma(1.0, n), stats.gamma(1.0)),
        ("gamma 7.5, 2", rng.gamma(7.5, 2.0, n), stats.gamma(7.5, scale=2.0)),
        ("beta 0.5, 0.7", rng.beta(0.5, 0.7, n), stats.beta(0.5, 0.7)),
        ("beta 3, 2", rng.beta(3.0, 2.0, n), stats.beta(3.0, 2.0)),
        ("chisquare 3", rng.chisquare(3.0, n), stats.chi2(3)),
        ("f 4, 7", rng.f(4.0, 7.0, n), stats.f(4, 7)),
        ("standard_t 5", rng.standard_t(5.0, n), stats.t(5)),
        ("lognormal 0.5, 0.3", rng.lognormal(0.5, 0.3, n), stats.lognorm(0.3, scale=numpy.exp(0.5))),
        ("laplace 1, 2", rng.laplace(1.0, 2.0, n), stats.laplace(1, 2)),
        ("logistic 1, 2", rng.logistic(1.0, 2.0, n), stats.logistic(1, 2)),
        ("gumbel 1, 2", rng.gumbel(1.0, 2.0, n), stats.gumbel_r(1, 2)),
        ("weibull 1.5", rng.weibull(1.5, n), stats.weibull_min(1.5)),
        ("pareto 3", rng.pareto(3.0, n), stats.lomax(3)),
        ("power 2.5", rng.power(2.5, n), stats.powerlaw(2.5)),
        ("rayleigh 2", rng.rayleigh(2.0, n), stats.rayleigh(scale=2)),
        ("standard_cauchy", rng.standard_cauchy(n), stats.cauchy()),
        ("standard_exponential", rng.standard_exponential(n), stats.expon()),
    ]


def test_wald_triangular_and_the_noncentral_ones_pass_kolmogorov_smirnov():
    rng = gpukit.random.default_rng(31)
    n = 60_000
    checks = [
        ("wald 2, 3", rng.wald(2.0, 3.0, n), scipy.stats.invgauss(2.0 / 3.0, scale=3.0)),
        ("triangular 1, 2, 5", rng.triangular(1.0, 2.0, 5.0, n), scipy.stats.triang(0.25, loc=1.0, scale=4.0)),
        ("triangular at the left end", rng.triangular(0.0, 0.0, 1.0, n), scipy.stats.triang(0.0, scale=1.0)),
        ("noncentral_chisquare 3, 2", rng.noncentral_chisquare(3.0, 2.0, n), scipy.stats.ncx2(3, 2)),
        ("noncentral_chisquare 0.5, 1.5", rng.noncentral_chisquare(0.5, 1.5, n), scipy.stats.ncx2(0.5, 1.5)),
        ("noncentral_chisquare 4, 0", rng.noncentral_chisquare(4.0, 0.0, n), scipy.stats.chi2(4)),
        ("noncentral_f 3, 20, 3", rng.noncentral_f(3.0, 20.0, 3.0, n), scipy.stats.ncf(3, 20, 3)),
    ]
    for name, array, distribution in checks:
        assert array.shape == (n,), name
        assert scipy.stats.kstest(array.get(), distribution.cdf).pvalue > P_VALUE, name


def test_multinomial_counts_add_up_and_follow_their_marginals():
    rng = gpukit.random.default_rng(12)
    pvals = [0.2, 0.3, 0.5]
    counts = rng.multinomial(20, pvals, 50_000).get()
    assert counts.shape == (50_000, 3) and counts.dtype == numpy.int64
    assert (counts.sum(axis=1) == 20).all()
    for category, p in enumerate(pvals):
        assert abs(counts[:, category].mean() / (20 * p) - 1) < 0.02
        assert abs(counts[:, category].var() / (20 * p * (1 - p)) - 1) < 0.05
    # n and pvals broadcast: pvals's last axis holds the categories; the last takes what is left.
    many = rng.multinomial(gpukit.asarray(numpy.array([[5], [50]])), [[0.5, 0.5], [0.9, 0.1]]).get()
    assert many.shape == (2, 2, 2) and (many.sum(axis=-1) == numpy.array([[5, 5], [50, 50]])).all()
    assert (rng.multinomial(7, [0.0, 1.0], 10).get() == [0, 7]).all()
    assert (rng.multinomial(7, [0.5, 0.6], 10).get().sum(axis=1) == 7).all()  # the last p is not read


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_has_its_mean_and_covariance(method):
    rng = gpukit.random.default_rng(9)
    mean = numpy.array([1.0, -2.0, 0.5])
    cov = numpy.array([[2.0, 0.6, 0.2], [0.6, 1.0, -0.3], [0.2, -0.3, 0.5]])
    draws = rng.multivariate_normal(mean, gpukit.asarray(cov), (200, 300), method=method).get()
    assert draws.shape == (200, 300, 3)
    flat = draws.reshape(-1, 3)
    numpy.testing.assert_allclose(flat.mean(axis=0), mean, atol=0.02)
    numpy.testing.assert_allclose(numpy.cov(flat.T), cov, atol=0.03)


def test_multivariate_normal_checks_the_covariance_as_numpy_does():
    rng = gpukit.random.default_rng(0)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite"):
        rng.multivariate_normal([0.0, 0.0], bad)
    with pytest.raises(ValueError, match="covariance is not symmetric positive-semidefinite"):
        rng.multivariate_normal([0.0, 0.0], bad, check_valid="raise")
    rng.multivariate_normal([0.0, 0.0], bad, check_valid="ignore")
    with pytest.raises(ValueError, match="check_valid must equal"):
        rng.multivariate_normal([0.0, 0.0], bad, check_valid="loud")
    with pytest.raises(ValueError, match="mean and cov must have same length"):
        rng.multivariate_normal([0.0, 0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(numpy.linalg.LinAlgError):
        rng.multivariate_normal([0.0, 0.0], bad, method="cholesky")


def test_the_gamma_family_passes_kolmogorov_smirnov():
    rng = gpukit.random.default_rng(77)
    for name, array, distribution in gamma_family_checks(rng, 60_000):
        assert array.dtype == numpy.float64 and array.shape == (60_000,), name
        assert scipy.stats.kstest(array.get(), distribution.cdf).pvalue > P_VALUE, name
    assert rng.standard_gamma(2.0, 10, dtype=numpy.float32).dtype == numpy.float32


def test_discrete_and_multivariate_draws_of_the_gamma_family():
    rng = gpukit.random.default_rng(5)
    n = 60_000
    trials = rng.geometric(0.3, n).get()
    assert trials.dtype == numpy.int64 and trials.min() >= 1
    observed = numpy.bincount(numpy.minimum(trials, 15))[1:]
    expected = scipy.stats.geom(0.3).pmf(numpy.arange(1, 16)) * n
    expected[-1] = scipy.stats.geom(0.3).sf(14) * n
    assert scipy.stats.chisquare(observed, expected).pvalue > P_VALUE
    failures = rng.negative_binomial(5, 0.4, n).get()
    assert failures.dtype == numpy.int64
    assert abs(failures.mean() / 7.5 - 1) < 0.02 and abs(failures.var() / 18.75 - 1) < 0.05
    points = rng.dirichlet(gpukit.asarray(numpy.array([1.0, 2.0, 3.0])), (400, 5)).get()
    assert points.shape == (400, 5, 3)
    numpy.testing.assert_allclose(points.sum(axis=-1), 1.0, rtol=1e-12)
    numpy.testing.assert_allclose(points.reshape(-1, 3).mean(axis=0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)
    # Array parameters broadcast; shape 0 gives 0 and a NaN shape NaN, as NumPy's.
    assert rng.gamma(gpukit.asarray(numpy.array([[1.0], [2.0]])), gpukit.asarray(numpy.array([1.0, 10.0]))).shape == (
        2, 2)
    numpy.testing.assert_array_equal(rng.standard_gamma(0.0, 3).get(), [0.0, 0.0, 0.0])
    assert numpy.isnan(rng.standard_gamma(numpy.nan, 2).get()).all()
    assert rng.beta(1e-300, 1e-300, 1000).get().min() >= 0  # both gammas underflow: the limit, 0 or 1


@pytest.mark.parametrize("n, p", [(1, 0.5), (10, 0.3), (100, 0.05), (37, 0.99), (100, 0.5), (1000, 0.9),
                                  (10**6, 0.3), (5000, 0.002)])
def test_binomial_counts_follow_the_distribution(n, p):
    # n min(p, 1 - p) < 10 by inversion, the others by BTRD; p > 1/2 by n - binomial(n, 1 - p).
    size = 100_000
    counts = gpukit.random.default_rng(n).binomial(n, p, size).get()
    assert counts.dtype == numpy.int64 and counts.min() >= 0 and counts.max() <= n
    distribution = scipy.stats.binom(n, p)
    low, high = distribution.ppf([1e-5, 1 - 1e-5]).astype(int)
    observed = numpy.bincount(numpy.clip(counts, low, high) - low, minlength=high - low + 1)
    expected = numpy.diff(numpy.concatenate([[0], distribution.cdf(numpy.arange(low, high)), [1]])) * size
    kept = expected > 5
    expected = expected[kept] * observed[kept].sum() / expected[kept].sum()
    assert scipy.stats.chisquare(observed[kept], expected).pvalue > P_VALUE


@pytest.mark.parametrize("name, draw, distribution, low, high", [
    ("logseries 0.6", lambda rng, n: rng.logseries(0.6, n), scipy.stats.logser(0.6), 1, 15),
    ("logseries 0.99", lambda rng, n: rng.logseries(0.99, n), scipy.stats.logser(0.99), 1, 60),
    ("zipf 2", lambda rng, n: rng.zipf(2.0, n), scipy.stats.zipf(2.0), 1, 30),
    ("zipf 3.5", lambda rng, n: rng.zipf(3.5, n), scipy.stats.zipf(3.5), 1, 10),
    ("hypergeometric 10, 20, 12", lambda rng, n: rng.hypergeometric(10, 20, 12, n), scipy.stats.hypergeom(30, 10, 12),
     0, 10),
    ("hypergeometric of millions", lambda rng, n: rng.hypergeometric(10**6, 2 * 10**6, 5000, n),
     scipy.stats.hypergeom(3 * 10**6, 10**6, 5000), 1550, 1780),
])
def test_logseries_zipf_and_hypergeometric_follow_their_distributions(name, draw, distribution, low, high):
    size = 100_000
    counts = draw(gpukit.random.default_rng(21), size).get()
    assert counts.dtype == numpy.int64, name
    observed = numpy.bincount(numpy.clip(counts, low, high) - low, minlength=high - low + 1)
    expected = distribution.pmf(numpy.arange(low, high + 1))
    expected[0], expected[-1] = distribution.cdf(low), distribution.sf(high - 1)
    kept = expected * size > 5
    expected = expected[kept] * observed[kept].sum() / expected[kept].sum()
    assert scipy.stats.chisquare(observed[kept], expected).pvalue > P_VALUE, name


# ---- vonmises: every step of the kernel repeated in NumPy's IEEE arithmetic, then statistics

# asin's Taylor coefficients (2n)! / (4^n (n!)^2 (2n + 1)), n = 1..25, each rounded once.
ASIN_SERIES = [float(Fraction(math.factorial(2 * n), 4**n * math.factorial(n) ** 2 * (2 * n + 1)))
               for n in range(1, 26)]


def cos_pi64(u):
    quarters = u + u
    q = numpy.floor(quarters + 0.5)
    return quadrant(q.astype(numpy.int64), *sincos_quarter64(quarters - q))[1]


def asin_half64(z):
    z2 = z * z
    series = ASIN_SERIES[-1]
    for c in reversed(ASIN_SERIES[:-1]):
        series = c + z2 * series
    return z + z * (z2 * series)


def acos64(w):
    w = numpy.asarray(w, numpy.float64)
    half = asin_half64(numpy.sqrt(numpy.maximum((1.0 - numpy.abs(w)) * 0.5, 0.0)))
    middle = 1.5707963267948966 - (asin_half64(w) - 6.123233995736766e-17)
    outer = numpy.where(w > 0, half + half, 3.141592653589793 - ((half + half) - 1.2246467991473532e-16))
    angle = numpy.where(numpy.abs(w) <= 0.5, middle, outer)
    return numpy.where(w >= 1, 0.0, numpy.where(w <= -1, numpy.pi, angle))


def substream_uniforms(key, offset, element):
    """Element `element`'s own substream: [0, 1) doubles, two a block, at attempts 0, 1, ..."""
    attempt = 0
    while True:
        words = blocks(key, offset + element, 1, attempt)[0]
        yield from (bits53(words[0:1], words[1:2])[0] * 2.0**-53, bits53(words[2:3], words[3:4])[0] * 2.0**-53)
        attempt += 1


def vonmises_reference(key, offset, element, mu, kappa):
    """gk_vonmises of kernels/gpukit_random.cuh, one element, in the same operations and order."""
    uniforms = substream_uniforms(key, offset, element)
    if math.isnan(kappa):
        return math.nan
    if kappa < 1e-8:
        return math.pi * (2.0 * next(uniforms) - 1.0)
    if kappa > 1e6:
        u1 = 1.0 - next(uniforms)
        angle = numpy.array([next(uniforms) * 2.0**53], numpy.float64).astype(numpy.uint64)
        normal = math.sqrt(-2.0 * log64(numpy.array([u1]))[0]) * sincos64(angle)[1][0]
        result = mu + math.sqrt(1.0 / kappa) * normal
        if result < -math.pi:
            result = result + 2.0 * math.pi
        if result > math.pi:
            result = result - 2.0 * math.pi
        return result
    if kappa < 1e-5:
        envelope = 1.0 / kappa + kappa
    else:
        r = 1.0 + math.sqrt(1.0 + 4.0 * kappa * kappa)
        rho = (r - math.sqrt(2.0 * r)) / (2.0 * kappa)
        envelope = (1.0 + rho * rho) / (2.0 * rho)
    while True:
        z = float(cos_pi64(numpy.float64(next(uniforms))))
        w = (1.0 + envelope * z) / (envelope + z)
        y = kappa * (envelope - w)
        v = next(uniforms)
        if y * (2.0 - y) - v >= 0.0:
            break
        if y > 0.0 and (v == 0.0 or log64(numpy.array([y / v]))[0] + 1.0 - y >= 0.0):
            break
    u = next(uniforms)
    angle = float(acos64(w))
    if u < 0.5:
        angle = -angle
    angle = angle + mu
    if math.isinf(angle):
        return math.nan
    folded = math.fmod(abs(angle) + math.pi, 2.0 * math.pi) - math.pi
    return -folded if angle < 0.0 else folded


def test_vonmises_is_the_documented_bits():
    # Every branch: kappa 0 and below 1e-8 (uniform), the Taylor envelope below 1e-5, Best and
    # Fisher's up to 1e6, the wrapped normal beyond; mu far outside the circle, infinite and NaN.
    mu = numpy.array([0.0, 2.5, -3.0, 40.0, -1e6, numpy.inf, numpy.nan])[:, None]
    kappa = numpy.array([0.0, 1e-9, 3e-6, 0.5, 4.0, 200.0, 5e5, 2e6, numpy.inf, numpy.nan])
    rng = gpukit.random.default_rng(SEED)
    rng.random(3)  # a nonzero offset
    offset = rng.offset.low
    values = rng.vonmises(gpukit.asarray(mu), gpukit.asarray(kappa), size=(6, 7, 10)).get()
    parameters = numpy.broadcast_arrays(mu, kappa, values)
    expected = [vonmises_reference(KEY, offset, i, m, k)
                for i, (m, k) in enumerate(zip(parameters[0].ravel(), parameters[1].ravel()))]
    numpy.testing.assert_array_equal(values.ravel(), expected)
    assert rng.offset.low == offset + values.size


def test_our_cosine_and_arccosine_are_within_two_ulp():
    if numpy.finfo(numpy.longdouble).nmant < 63:
        pytest.skip("the reference is the x87 extended precision of numpy.longdouble")
    generator = numpy.random.default_rng(3)
    u = numpy.concatenate([generator.random(200_000), [0.0, 0.25, 0.5, 0.75, 1 - 2.0**-53],
                           0.5 + numpy.arange(-50, 50) * 2.0**-53])
    pi = numpy.longdouble("3.14159265358979323846264338327950288")
    exact = numpy.sin(pi * (0.5 - u.astype(numpy.longdouble)))  # 1/2 - u exact: no cancellation near the zero
    ours = cos_pi64(u)  # relative to the result even near its zero, where cos(M_PI * u) is not
    assert numpy.all(numpy.abs(ours - exact) <= 2 * numpy.spacing(numpy.abs(exact).astype(numpy.float64)))
    w = numpy.concatenate([generator.uniform(-1, 1, 200_000), [-1.0, -0.5, 0.0, 0.5, 1.0],
                           1 - generator.random(1000) * 1e-6, -1 + generator.random(1000) * 1e-6,
                           numpy.nextafter(0.5, [0, 1]), numpy.nextafter(-0.5, [0, -1])])
    exact = numpy.arccos(w.astype(numpy.longdouble))
    ours = acos64(w)
    assert numpy.all(numpy.abs(ours - exact) <= 1.5 * numpy.spacing(exact.astype(numpy.float64)))


@pytest.mark.parametrize("mu, kappa", [(0.0, 3e-6), (1.0, 0.3), (-2.5, 2.0), (3.0, 30.0), (0.5, 5e5), (25.0, 4.0)])
def test_vonmises_follows_the_distribution(mu, kappa):
    n = 100_000
    values = gpukit.random.default_rng(31).vonmises(mu, kappa, n).get()
    assert values.dtype == numpy.float64 and values.shape == (n,)
    assert numpy.all(numpy.abs(values) <= numpy.pi)
    offsets = numpy.mod(values - mu + numpy.pi, 2 * numpy.pi) - numpy.pi
    assert scipy.stats.kstest(offsets, scipy.stats.vonmises(kappa).cdf).pvalue > P_VALUE


def test_vonmises_is_uniform_for_tiny_kappa_and_wrapped_normal_for_huge():
    rng = gpukit.random.default_rng(32)
    n = 100_000
    for kappa in (0.0, 5e-9):
        values = rng.vonmises(1.0, kappa, n).get()
        assert scipy.stats.kstest(values, scipy.stats.uniform(-numpy.pi, 2 * numpy.pi).cdf).pvalue > P_VALUE
    kappa = 4e6
    values = rng.vonmises(3.14159, kappa, n).get()
    offsets = numpy.mod(values - 3.14159 + numpy.pi, 2 * numpy.pi) - numpy.pi
    assert scipy.stats.kstest(offsets, scipy.stats.norm(0, 1 / numpy.sqrt(kappa)).cdf).pvalue > P_VALUE
    assert (values < -3).any() and numpy.all(numpy.abs(values) <= numpy.pi)  # wrapped past pi


def test_vonmises_edges_match_numpys():
    # NaN kappa gives NaN; kappa below 1e-8 ignores mu; an infinite mu gives NaN except in the wrapped
    # normal, which wraps once (mu = 100 stays near 100 - 2 pi); infinite kappa gives mu itself.
    mu = numpy.array([0.0, 1.0, 100.0, numpy.inf, -numpy.inf, numpy.nan])[:, None]
    kappa = numpy.array([0.0, 1e-9, 1e-6, 2.0, 1e7, numpy.inf, numpy.nan])
    ours = gpukit.random.default_rng(4).vonmises(gpukit.asarray(mu), gpukit.asarray(kappa), (50, 6, 7)).get()
    theirs = numpy.random.default_rng(4).vonmises(mu, kappa, (50, 6, 7))
    numpy.testing.assert_array_equal(numpy.isnan(ours), numpy.isnan(theirs))
    numpy.testing.assert_array_equal(numpy.isinf(ours), numpy.isinf(theirs))
    numpy.testing.assert_allclose(ours[:, :, 4:6], theirs[:, :, 4:6], atol=3e-3)
    numpy.testing.assert_array_equal(ours[:, 1, 5], 1.0)


def test_vonmises_parameters_broadcast_and_the_legacy_function_draws():
    rng = gpukit.random.default_rng(6)
    mu = gpukit.asarray(numpy.array([[-3.0], [0.0], [3.0]]))
    kappa = gpukit.asarray(numpy.array([1.0, 10.0, 100.0, 1000.0]))
    assert rng.vonmises(mu, kappa).shape == (3, 4)
    values = rng.vonmises(mu, kappa, size=(2000, 3, 4)).get()
    circular_mean = numpy.angle(numpy.exp(1j * values).mean(axis=0))
    numpy.testing.assert_allclose(circular_mean, numpy.broadcast_to([[-3.0], [0.0], [3.0]], (3, 4)), atol=0.15)
    assert rng.vonmises(0.0, 1.0).shape == () and rng.vonmises(0.0, 1.0, 0).shape == (0,)
    with pytest.raises(ValueError, match="shape mismatch"):
        rng.vonmises(mu, kappa, size=(2, 4))
    with pytest.raises(ValueError, match="shape mismatch"):
        rng.vonmises(mu, gpukit.ones((2, 1)))
    first = gpukit.random.default_rng(12).vonmises(mu, 2.0, size=(5, 3, 1)).get()
    numpy.testing.assert_array_equal(gpukit.random.default_rng(12).vonmises(mu, 2.0, size=(5, 3, 1)).get(), first)
    assert "vonmises" in gpukit.random.__all__
    assert gpukit.random.vonmises(1.0, 2.0, 7).shape == (7,)


@pytest.mark.parametrize("kappa", [-1.0, -0.0, numpy.array([1.0, -2.0]), numpy.array([1.0, -0.0, numpy.nan])])
def test_vonmises_refuses_a_negative_kappa_as_numpy_does(kappa):
    with pytest.raises(ValueError, match="kappa < 0") as numpys:
        numpy.random.default_rng(0).vonmises(0.0, kappa)
    device_kappa = gpukit.asarray(kappa) if isinstance(kappa, numpy.ndarray) else kappa
    with pytest.raises(ValueError) as ours:
        gpukit.random.default_rng(0).vonmises(0.0, device_kappa)
    assert str(ours.value) == str(numpys.value)
    with pytest.raises(TypeError):
        gpukit.random.default_rng(0).vonmises(1j, 1.0)
    with pytest.raises(TypeError):
        gpukit.random.default_rng(0).vonmises(0.0, 1j)


def test_binomial_edges_and_array_parameters():
    rng = gpukit.random.default_rng(1)
    numpy.testing.assert_array_equal(rng.binomial(0, 0.5, 3).get(), [0, 0, 0])
    numpy.testing.assert_array_equal(rng.binomial(5, 0.0, 3).get(), [0, 0, 0])
    numpy.testing.assert_array_equal(rng.binomial(5, 1.0, 3).get(), [5, 5, 5])
    counts = rng.binomial(gpukit.asarray(numpy.array([[5], [500]])), gpukit.asarray(numpy.array([0.1, 0.9])), (2, 2))
    assert counts.shape == (2, 2) and (counts.get() <= numpy.array([[5], [500]])).all()
    assert gpukit.random.binomial(7.9, 0.5, 1000).get().max() <= 7  # n taken as an integer, as NumPy's
    numpy.testing.assert_array_equal(rng.hypergeometric(5, 5, 0, 3).get(), [0, 0, 0])
    numpy.testing.assert_array_equal(rng.logseries(0.0, 3).get(), [1, 1, 1])
    assert rng.hypergeometric(gpukit.asarray(numpy.array([5, 50])), 5, 3).shape == (2,)


@pytest.mark.parametrize("call, message", [
    (lambda rng: rng.logseries(1.0), "p < 0, p >= 1 or p is NaN"),
    (lambda rng: rng.zipf(1.0), "a <= 1 or a is NaN"),
    (lambda rng: rng.hypergeometric(-1, 2, 1), "ngood < 0"),
    (lambda rng: rng.hypergeometric(1, 2, -1), "nsample < 0"),
    (lambda rng: rng.hypergeometric(1, 2, 4), "ngood \\+ nbad < nsample"),
    (lambda rng: rng.hypergeometric(10**9, 2, 1), "less than 1000000000"),
    (lambda rng: rng.wald(0.0, 1.0), "mean <= 0"),
    (lambda rng: rng.wald(1.0, 0.0), "scale <= 0"),
    (lambda rng: rng.triangular(2.0, 1.0, 3.0), "left > mode"),
    (lambda rng: rng.triangular(1.0, 4.0, 3.0), "mode > right"),
    (lambda rng: rng.triangular(1.0, 1.0, 1.0), "left == right"),
    (lambda rng: rng.noncentral_chisquare(0.0, 1.0), "df <= 0"),
    (lambda rng: rng.noncentral_chisquare(1.0, -1.0), "nonc < 0"),
    (lambda rng: rng.noncentral_f(1.0, 1.0, -1.0), "nonc < 0"),
    (lambda rng: rng.multinomial(-1, [0.5, 0.5]), "n < 0"),
    (lambda rng: rng.multinomial(3, [0.5, 1.5]), "pvals < 0, pvals > 1"),
    (lambda rng: rng.multinomial(3, [0.7, 0.6, 0.1]), "sum\\(pvals\\[:-1\\]\\) > 1.0"),
    (lambda rng: rng.binomial(-1, 0.5), "n < 0"),
    (lambda rng: rng.binomial(3, 1.5), "p < 0, p > 1 or p is NaN"),
    (lambda rng: rng.gamma(-1.0), "shape < 0"),
    (lambda rng: rng.gamma(1.0, -2.0), "scale < 0"),
    (lambda rng: rng.beta(0.0, 1.0), "a <= 0"),
    (lambda rng: rng.beta(1.0, gpukit.asarray(numpy.array([1.0, -1.0]))), "b <= 0"),
    (lambda rng: rng.chisquare(0.0), "df <= 0"),
    (lambda rng: rng.f(1.0, 0.0), "dfden <= 0"),
    (lambda rng: rng.standard_t(-1.0), "df <= 0"),
    (lambda rng: rng.lognormal(0.0, -1.0), "sigma < 0"),
    (lambda rng: rng.weibull(-1.0), "a < 0"),
    (lambda rng: rng.pareto(0.0), "a <= 0"),
    (lambda rng: rng.geometric(1.5), "p > 1"),
    (lambda rng: rng.geometric(0.0), "p <= 0"),
    (lambda rng: rng.negative_binomial(1.0, 2.0), "p < 0, p > 1 or p is NaN"),
    (lambda rng: rng.dirichlet(gpukit.asarray(numpy.array([1.0, 0.0]))), "alpha <= 0"),
    (lambda rng: rng.dirichlet(gpukit.ones((2, 2))), "one-dimensional"),
])
def test_the_gamma_family_refuses_numpys_bad_parameters(call, message):
    with pytest.raises(ValueError, match=message):
        call(gpukit.random.default_rng(0))
    with pytest.raises(TypeError):
        gpukit.random.default_rng(0).standard_gamma(1.0, dtype=numpy.int32)


@pytest.mark.parametrize("lam", [0.0, 0.7, 4.0, 9.99, 10.0, 37.5, 5000.0])
def test_poisson_counts_follow_the_distribution(lam):
    rng = gpukit.random.default_rng(11)
    counts = rng.poisson(lam, 50_000).get()
    assert counts.dtype == numpy.int64
    if lam == 0:
        assert not counts.any()
        return
    assert abs(counts.mean() - lam) < 5 * numpy.sqrt(lam / counts.size)
    assert abs(counts.var() / lam - 1) < 0.05
    # Chi-square over the bins with enough expected counts, the tails pooled.
    low, high = scipy.stats.poisson(lam).ppf([1e-3, 1 - 1e-3]).astype(int)
    observed = numpy.bincount(numpy.clip(counts, low, high) - low, minlength=high - low + 1)
    expected = numpy.diff(numpy.concatenate([[0], scipy.stats.poisson(lam).cdf(numpy.arange(low, high)), [1]]))
    expected = expected * counts.size
    assert scipy.stats.chisquare(observed, expected).pvalue > P_VALUE


def test_sizes_none_tuples_out_and_fresh_numbers():
    rng = gpukit.random.default_rng(3)
    for draw in (rng.random(), rng.standard_normal(), rng.integers(5), rng.normal(), rng.uniform(),
                 rng.exponential(), rng.poisson(2.0), rng.choice(4)):
        assert isinstance(draw, gpukit.ndarray) and draw.shape == ()
    assert rng.random((2, 3, 5)).shape == (2, 3, 5)
    assert rng.integers(0, 3, size=(0, 4)).shape == (0, 4)
    first, second = rng.random(9).get(), rng.random(9).get()
    assert not numpy.array_equal(first, second)
    out = gpukit.empty((3, 7), numpy.float32)
    assert rng.random(out=out) is not None
    values = out.get()
    assert ((values >= 0) & (values < 1)).all()
    assert rng.standard_normal(out=gpukit.empty(5)).shape == (5,)
    assert gpukit.random.default_rng(rng) is rng
    first_four = gpukit.random.default_rng(3).random(4).get()
    numpy.testing.assert_array_equal(gpukit.random.default_rng(3).random(4).get(), first_four)


def test_array_parameters_broadcast():
    rng = gpukit.random.default_rng(8)
    loc = gpukit.asarray(numpy.array([0.0, 100.0, -100.0]))
    scale = gpukit.asarray(numpy.array([[1.0], [0.0]]))
    values = rng.normal(loc, scale).get()
    assert values.shape == (2, 3)
    numpy.testing.assert_array_equal(values[1], [0.0, 100.0, -100.0])
    assert numpy.all(numpy.abs(values[0] - [0, 100, -100]) < 10)
    wide = rng.normal(loc, 1.0, size=(4000, 3)).get()
    numpy.testing.assert_allclose(wide.mean(axis=0), [0, 100, -100], atol=0.1)
    bounded = rng.uniform(loc, loc + 1, size=(1000, 3)).get()
    assert ((bounded >= [0, 100, -100]) & (bounded < [1, 101, -99])).all()
    scaled = rng.exponential(gpukit.asarray(numpy.array([1.0, 10.0])), size=(5000, 2)).get()
    numpy.testing.assert_allclose(scaled.mean(axis=0), [1, 10], rtol=0.1)
    with pytest.raises(ValueError):
        rng.normal(loc, 1.0, size=(2, 4))


@pytest.mark.parametrize("name,parameters", [
    ("poisson", (3.5,)), ("standard_gamma", (0.7,)), ("binomial", (40, 0.3)), ("logseries", (0.6,)),
    ("zipf", (2.5,)), ("hypergeometric", (60, 40, 30)), ("vonmises", (1.5, 3.0))])
def test_one_parameter_value_draws_what_a_full_array_of_it_draws(name, parameters):
    # A parameter of one value is read by every element in place of a full-size copy: the same bits.
    size = (37, 5)
    scalar = getattr(gpukit.random.default_rng(21), name)(*parameters, size=size).get()
    arrays = [gpukit.full(size, value, dtype="float64" if isinstance(value, float) else "int64")
              for value in parameters]
    full = getattr(gpukit.random.default_rng(21), name)(*arrays).get()
    numpy.testing.assert_array_equal(scalar, full)
    mixed = getattr(gpukit.random.default_rng(21), name)(arrays[0][:1, :1], *parameters[1:], size=size).get()
    numpy.testing.assert_array_equal(mixed, full)
    if name == "standard_gamma":  # float32 is written by the kernel: the float64 draw, rounded
        single = gpukit.random.default_rng(21).standard_gamma(*parameters, size=size, dtype=numpy.float32).get()
        numpy.testing.assert_array_equal(single, scalar.astype(numpy.float32))


def test_poisson_with_an_array_lam_broadcasts_and_follows_each_mean():
    rng = gpukit.random.default_rng(9)
    lam = numpy.array([0.0, 0.5, 4.0, 30.0, 700.0])
    counts = rng.poisson(gpukit.asarray(lam), size=(20000, 5)).get()
    assert counts.dtype == numpy.int64 and counts.shape == (20000, 5)
    assert (counts[:, 0] == 0).all()
    numpy.testing.assert_allclose(counts.mean(axis=0), lam, rtol=0.03, atol=0.02)
    numpy.testing.assert_allclose(counts.var(axis=0), lam, rtol=0.06, atol=0.02)
    assert rng.poisson(gpukit.asarray(numpy.array([[1.0], [2.0]], numpy.float32))).shape == (2, 1)
    assert rng.poisson(gpukit.asarray(numpy.array([3, 4], numpy.int16)), size=(0, 2)).shape == (0, 2)
    # An array lam of one value: the same numbers as the number itself (one element's own substream).
    numpy.testing.assert_array_equal(gpukit.random.default_rng(4).poisson(gpukit.full(7, 12.5)).get(),
                                     gpukit.random.default_rng(4).poisson(12.5, 7).get())


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint32", "int64", "uint64", "bool"])
def test_integers_with_array_bounds_stay_in_each_range(dtype):
    info = numpy.iinfo(dtype) if dtype != "bool" else None
    low = numpy.array([0, 1, 5, 0]) if info is None or info.min == 0 else numpy.array([info.min, -3, 5, 0])
    high = numpy.array([1, 2, 6, 2]) if info is None else numpy.array([10, 4, 100, int(info.max)], dtype=object)
    if info is None:
        low, high = numpy.array([0, 0, 1, 0]), numpy.array([1, 2, 2, 2])
    rng = gpukit.random.default_rng(11)
    g_low = gpukit.asarray(low.astype(numpy.int64))
    g_high = gpukit.asarray(high.astype(numpy.uint64 if dtype == "uint64" else numpy.int64))
    values = rng.integers(g_low, g_high, size=(3000, 4), dtype=dtype).get().astype(object)
    assert values.shape == (3000, 4)
    assert ((values >= low) & (values < high)).all()
    for column in range(4):  # every value of a small range appears
        if int(high[column]) - int(low[column]) <= 10:
            assert set(values[:, column]) == set(range(int(low[column]), int(high[column])))
    top = (high - 1).astype(numpy.uint64 if dtype == "uint64" else numpy.int64)
    inclusive = rng.integers(g_low, gpukit.asarray(top), size=(2000, 4), dtype=dtype, endpoint=True).get()
    assert ((inclusive.astype(object) >= low) & (inclusive.astype(object) <= top.astype(object))).all()


def test_integers_with_one_array_bound_and_without_high():
    rng = gpukit.random.default_rng(12)
    tops = gpukit.asarray(numpy.array([1, 3, 1000]))
    only_high = rng.integers(tops, size=(4000, 3)).get()
    assert (only_high >= 0).all() and (only_high < [1, 3, 1000]).all()
    assert set(only_high[:, 1]) == {0, 1, 2}
    mixed = rng.integers(-5, tops, size=(4000, 3)).get()
    assert (mixed >= -5).all() and (mixed < [1, 3, 1000]).all()
    big = rng.integers(gpukit.asarray(numpy.array([0], numpy.uint64)), 2**64 - 1, size=2000, dtype=numpy.uint64).get()
    assert big.max() > 2**63


def test_permutation_and_shuffle():
    rng = gpukit.random.default_rng(21)
    order = rng.permutation(1001).get()
    assert sorted(order.tolist()) == list(range(1001))
    assert rng.permutation(0).shape == (0,)
    host = numpy.arange(24).reshape(4, 6)
    shuffled = rng.permutation(gpukit.asarray(host), axis=1).get()
    assert sorted(shuffled[0].tolist()) == list(range(6))
    assert (shuffled - shuffled[:1] == host - host[:1]).all()  # whole columns moved
    array = gpukit.asarray(host.copy())
    rng.shuffle(array)
    rows = array.get()
    assert sorted(map(tuple, rows.tolist())) == sorted(map(tuple, host.tolist()))
    rng.shuffle(array, axis=1)
    assert sorted(array.get()[0].tolist()) == sorted(rows[0].tolist())


def test_choice_with_and_without_replacement():
    rng = gpukit.random.default_rng(12)
    sample = rng.choice(10, size=50_000).get()
    assert scipy.stats.chisquare(numpy.bincount(sample, minlength=10)).pvalue > P_VALUE
    p = [0.1, 0.0, 0.6, 0.3]
    weighted = rng.choice(4, size=50_000, p=p).get()
    counts = numpy.bincount(weighted, minlength=4)
    assert counts[1] == 0
    assert scipy.stats.chisquare(counts[[0, 2, 3]], 50_000 * numpy.array([0.1, 0.6, 0.3])).pvalue > P_VALUE
    distinct = rng.choice(100, size=(10, 10), replace=False).get()
    assert sorted(distinct.reshape(-1).tolist()) == list(range(100))
    pair = rng.choice(4, size=2, replace=False, p=p).get()
    assert len(set(pair.tolist())) == 2 and 1 not in pair
    items = gpukit.asarray(numpy.arange(30).reshape(10, 3))
    rows = rng.choice(items, 4, replace=False).get()
    assert rows.shape == (4, 3) and (rows[:, 1] - rows[:, 0] == 1).all()
    columns = rng.choice(items, 2, axis=1).get()
    assert columns.shape == (10, 2)
    assert rng.choice([5, 6, 7], 3).get().tolist() != []
    # Without replacement, weighted: the first pick follows p.
    firsts = numpy.array([gpukit.random.default_rng(s).choice(4, 1, replace=False, p=p).get()[0] for s in range(300)])
    assert abs((firsts == 2).mean() - 0.6) < 0.1


def test_legacy_functions_use_one_global_generator():
    gpukit.random.seed(77)
    first = gpukit.random.rand(3, 2).get()
    gpukit.random.seed(77)
    numpy.testing.assert_array_equal(gpukit.random.rand(3, 2).get(), first)
    assert gpukit.random.randn(4).shape == (4,)
    assert gpukit.random.rand().shape == ()
    ints = gpukit.random.randint(5, size=100).get()
    assert ints.dtype == numpy.int64 and ints.min() >= 0 and ints.max() < 5
    assert gpukit.random.randint(-3, 3, size=(2, 2), dtype=numpy.int8).dtype == numpy.int8
    for draw in (gpukit.random.random_sample(3), gpukit.random.random(3), gpukit.random.normal(size=3),
                 gpukit.random.uniform(size=3), gpukit.random.exponential(size=3), gpukit.random.poisson(size=3),
                 gpukit.random.choice(5, 3), gpukit.random.permutation(3)):
        assert draw.shape == (3,)
    array = gpukit.arange(5)
    gpukit.random.shuffle(array)
    assert sorted(array.get().tolist()) == list(range(5))


def rng0():
    return gpukit.random.default_rng(0)


@pytest.mark.parametrize(("call", "error"), [
    (lambda: rng0().integers(5, 5), ValueError),
    (lambda: rng0().integers(5, 4, endpoint=True), ValueError),
    (lambda: rng0().integers(0, 300, dtype=numpy.uint8), ValueError),
    (lambda: rng0().integers(-1, 3, dtype=numpy.uint8), ValueError),
    (lambda: rng0().integers(0, 2**70), ValueError),
    (lambda: rng0().integers(0, 3, dtype=numpy.float64), TypeError),
    (lambda: rng0().random(dtype=numpy.int32), TypeError),
    (lambda: rng0().random(dtype=numpy.float16), TypeError),
    (lambda: rng0().standard_normal(dtype=numpy.int64), TypeError),
    (lambda: rng0().random(-1), ValueError),
    (lambda: rng0().random(out=gpukit.empty(10)[::2]), ValueError),
    (lambda: rng0().normal(0, -1), ValueError),
    (lambda: rng0().normal(0, -0.0), ValueError),
    (lambda: rng0().normal(0, gpukit.asarray(numpy.array([1.0, -1.0]))), ValueError),
    (lambda: rng0().exponential(-1), ValueError),
    (lambda: rng0().uniform(0, numpy.inf), OverflowError),
    (lambda: rng0().poisson(-1), ValueError),
    (lambda: rng0().poisson(numpy.nan), ValueError),
    (lambda: rng0().poisson(1e19), ValueError),
    (lambda: rng0().poisson(gpukit.asarray(numpy.array([1.0, -1.0]))), ValueError),
    (lambda: rng0().poisson(gpukit.asarray(numpy.array([1.0, numpy.nan]))), ValueError),
    (lambda: rng0().poisson(gpukit.asarray(numpy.array([1e19]))), ValueError),
    (lambda: rng0().poisson(gpukit.asarray(numpy.array([1.0, 2.0])), size=(2, 3)), ValueError),
    (lambda: rng0().integers(gpukit.asarray(numpy.array([5, 1])), 5), ValueError),
    (lambda: rng0().integers(gpukit.asarray(numpy.array([5, 1])), 4, endpoint=True), ValueError),
    (lambda: rng0().integers(gpukit.asarray(numpy.array([0, 1])), 300, dtype=numpy.uint8), ValueError),
    (lambda: rng0().integers(gpukit.asarray(numpy.array([-1, 1])), 3, dtype=numpy.uint8), ValueError),
    (lambda: rng0().integers(gpukit.asarray(numpy.array([0, 1])), gpukit.asarray(numpy.array([2, 3, 4]))),
     ValueError),
    (lambda: rng0().choice(3, 4, replace=False), ValueError),
    (lambda: rng0().choice(0), ValueError),
    (lambda: rng0().choice(-3), ValueError),
    (lambda: rng0().choice(gpukit.empty(0)), ValueError),
    (lambda: rng0().choice(3, 2, p=[0.5, 0.6, 0]), ValueError),
    (lambda: rng0().choice(3, 2, p=[1.5, -0.5, 0]), ValueError),
    (lambda: rng0().choice(3, 2, p=[0.5, 0.5]), ValueError),
    (lambda: rng0().choice(3, 2, p=[[0.5, 0.5, 0]]), ValueError),
    (lambda: rng0().choice(3, 1, p=[numpy.nan, 0.5, 0.5]), ValueError),
    (lambda: rng0().choice(3, 3, replace=False, p=[0.5, 0.5, 0]), ValueError),
    (lambda: rng0().permutation(gpukit.empty((2, 3)), axis=2), numpy.exceptions.AxisError),
    (lambda: rng0().permutation(gpukit.empty(())), numpy.exceptions.AxisError),
    (lambda: rng0().shuffle(gpukit.empty(())), TypeError),
    (lambda: rng0().normal(numpy.zeros(3)), TypeError),
    (lambda: gpukit.random.default_rng(-1), ValueError),
    (lambda: gpukit.random.default_rng(1.5), TypeError),
])
def test_bad_arguments_raise_numpys_exceptions(call, error):
    with pytest.raises(error):
        call()
