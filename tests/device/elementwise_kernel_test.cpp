// tests/device/elementwise_kernel_test.cpp: user ElementwiseKernels (gpukit/elementwise_kernel.hpp)
// on every backend, against references computed here: the course's saxpy, CuPy's documented
// squared_diff (type placeholders) and add_reverse (raw arrays), broadcasting, given outputs,
// size=, `i` in every kernel shape, preambles, compile options, the kernel cache, and each error.
//
// Each kernel and dtype is one compile on the simulator (about half a second cold): the tests reuse
// kernels across layouts and keep dtypes to the few that exercise something different.
#include <complex>
#include <numeric>

#include "device_test_fixture.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::testing {
namespace {

class ElementwiseKernelTest : public DeviceTest {};

std::vector<double> random_values(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(-60, 60);
    std::vector<double> values(n);
    for (auto& v : values) v = pick(random) / 8.0 + (pick(random) == 0 ? 3 : 0);
    return values;
}

Array array_of(const std::vector<double>& values, Shape shape, DType dtype) {
    return Array::from_host(std::span<const double>(values), std::move(shape)).astype(dtype);
}

std::vector<double> as_doubles(const Array& array) { return array.astype(DType::float64).to_vector<double>(); }

std::int64_t count_of(const Shape& shape) {
    return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

// The flat C-order index in `shape` of the element at `flat` in a shape broadcasting to it.
std::size_t broadcast_index(const Shape& from, const Shape& to, std::int64_t flat) {
    std::int64_t index = 0, stride = 1;
    for (std::size_t d = to.size(); d-- > 0;) {
        const std::int64_t coordinate = flat % to[d];
        flat /= to[d];
        const std::size_t lead = to.size() - from.size();
        if (d >= lead) {
            if (from[d - lead] != 1) index += coordinate * stride;
            stride *= from[d - lead];
        }
    }
    return static_cast<std::size_t>(index);
}

TEST_F(ElementwiseKernelTest, SaxpyWithAScalarParameter) {
    const ElementwiseKernel saxpy("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "saxpy");
    EXPECT_EQ(saxpy.nin(), 3u);
    EXPECT_EQ(saxpy.nout(), 1u);
    const std::size_t n = 4097;
    const std::vector<double> x = random_values(n, 1), y = random_values(n, 2);
    const Array dx = array_of(x, {4097}, DType::float32), dy = array_of(y, {4097}, DType::float32);
    // A C++ float is a float32 scalar; a weak (Python-like) double converts to the parameter's type.
    for (const Array& z : {saxpy({2.5f, dx, dy})[0], saxpy({Scalar(2.5), dx, dy})[0]}) {
        EXPECT_EQ(z.dtype(), DType::float32);
        EXPECT_EQ(z.shape(), Shape{4097});
        const std::vector<double> got = as_doubles(z);
        for (std::size_t i = 0; i < n; ++i)
            EXPECT_EQ(got[i], static_cast<float>(2.5f * static_cast<float>(x[i]) + static_cast<float>(y[i]))) << i;
    }
}

// CuPy's documented example: T is whatever the arrays are, for every dtype.
TEST_F(ElementwiseKernelTest, SquaredDiffTakesItsTypeFromTheArrays) {
    const ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
    const std::vector<double> x = random_values(31, 3), y = random_values(31, 4);
    for (DType dtype : {DType::float32, DType::float64, DType::int32, DType::float16, DType::complex64}) {
        SCOPED_TRACE(std::string(to_string(dtype)));
        std::vector<double> xi = x, yi = y;
        if (kind(dtype) == DTypeKind::signed_integer)
            for (std::size_t i = 0; i < x.size(); ++i) xi[i] = std::round(x[i] * 4), yi[i] = std::round(y[i] * 4);
        const Array z = squared_diff({array_of(xi, {31}, dtype), array_of(yi, {31}, dtype)})[0];
        EXPECT_EQ(z.dtype(), dtype);
        const std::vector<double> got = as_doubles(z);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double want = (xi[i] - yi[i]) * (xi[i] - yi[i]);
            // float16 rounds each input and the result to 11 bits.
            EXPECT_NEAR(got[i], want, dtype == DType::float16 ? 2e-3 * want + 1e-2 : 1e-5 * want) << i;
        }
    }
    // Complex values with imaginary parts: (x - y)^2 in complex arithmetic.
    const ElementwiseKernel make_complex("T re, T im", "complex64 z", "z = complex<float>{re, im}", "make_complex");
    const Array a = make_complex({array_of(x, {31}, DType::float32), array_of(y, {31}, DType::float32)})[0];
    const Array b = make_complex({array_of(y, {31}, DType::float32), array_of(x, {31}, DType::float32)})[0];
    const std::vector<std::complex<float>> got = squared_diff({a, b})[0].to_vector<std::complex<float>>();
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::complex<double> d(x[i] - y[i], y[i] - x[i]);
        EXPECT_NEAR(std::abs(std::complex<double>(got[i]) - d * d), 0.0, 1e-4) << i;
    }
}

TEST_F(ElementwiseKernelTest, ArraysBroadcastAndGivenOutputsDecideTheShape) {
    const ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
    const std::vector<double> x = random_values(4, 5), y = random_values(5, 6);
    const Array dx = array_of(x, {4, 1}, DType::float32), dy = array_of(y, {5}, DType::float32);
    const Array z = squared_diff({dx, dy})[0];
    ASSERT_EQ(z.shape(), (Shape{4, 5}));
    std::vector<double> got = as_doubles(z);
    for (std::size_t r = 0; r < 4; ++r)
        for (std::size_t c = 0; c < 5; ++c)
            EXPECT_EQ(got[r * 5 + c], static_cast<float>((float(x[r]) - float(y[c])) * (float(x[r]) - float(y[c]))));

    // Into every other column of a given (5, 8) output: the inputs broadcast to it, the rest untouched.
    const Array out = array_of(std::vector<double>(40, -7.0), {5, 8}, DType::float32);
    const Array columns = out.index({Slice{}, Slice{{}, {}, 2}});
    const std::vector<double> row = random_values(4, 7);
    const std::vector<Array> result = squared_diff({array_of(row, {4}, DType::float32), Scalar(1.5), columns});
    EXPECT_EQ(result[0].address(), columns.address());
    got = as_doubles(out);
    for (std::size_t r = 0; r < 5; ++r)
        for (std::size_t c = 0; c < 8; ++c)
            EXPECT_EQ(got[r * 8 + c], c % 2 ? -7.0 : (row[c / 2] - 1.5) * (row[c / 2] - 1.5)) << r << "," << c;

    // An output can be read as well as written (CuPy binds it by reference).
    const ElementwiseKernel accumulate("T x", "T y", "y += x", "accumulate");
    accumulate({array_of(row, {4}, DType::float32), columns});
    const std::vector<double> twice = as_doubles(out);
    for (std::size_t r = 0; r < 5; ++r)
        for (std::size_t c = 0; c < 8; c += 2) EXPECT_EQ(twice[r * 8 + c], got[r * 8 + c] + row[c / 2]);
}

// CuPy's documented add_reverse: y is indexed whole, in C order, whatever its layout.
TEST_F(ElementwiseKernelTest, RawArraysAreIndexedByTheOperation) {
    const ElementwiseKernel add_reverse("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse");
    const std::vector<double> x = random_values(12, 8), y = random_values(12, 9);
    const Array dx = array_of(x, {3, 4}, DType::float64);
    const Array dy = array_of(y, {3, 4}, DType::float64);
    // y contiguous, y transposed (its own C order is the transpose's), y reversed by a view.
    const Array ty = array_of(y, {4, 3}, DType::float64).transpose();
    const Array ry = array_of(y, {12}, DType::float64).index({Slice{{}, {}, -1}});
    for (const Array* raw : {&dy, &ty, &ry}) {
        const std::vector<double> got = as_doubles(add_reverse({dx, *raw})[0]);
        const std::vector<double> held = as_doubles(*raw);  // C order
        for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(got[i], x[i] + held[11 - i]) << i;
    }
    // One index per dimension, and the raw array's shape.
    const ElementwiseKernel corner(
        "raw T m", "T z", "long long at[2] = {i % m.shape()[0], m.shape()[1] - 1}; z = m[at] * m.size()", "corner");
    const std::vector<double> got = as_doubles(corner({dy, array_of(std::vector<double>(6), {6}, DType::float64)})[0]);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i], y[(i % 3) * 4 + 3] * 12) << i;
}

// _non_const inputs are written through, and float16 raw elements read and assigned as float.
TEST_F(ElementwiseKernelTest, NonConstInputsAndHalfRawArraysAreWritable) {
    const ElementwiseKernel bump("_non_const T x, raw T h", "T y", "y = x + h[i]; x = x * 2; h[i] += (T)1", "bump");
    const std::vector<double> x = random_values(40, 17), h = random_values(40, 18);
    const Array dx = array_of(x, {40}, DType::float16), dh = array_of(h, {40}, DType::float16);
    const std::vector<double> x16 = as_doubles(dx), h16 = as_doubles(dh);
    const std::vector<double> y = as_doubles(bump({dx, dh})[0]);
    const std::vector<double> x_after = as_doubles(dx), h_after = as_doubles(dh);
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_NEAR(y[i], x16[i] + h16[i], 1e-2) << i;
        EXPECT_EQ(x_after[i], x16[i] * 2) << i;
        EXPECT_NEAR(h_after[i], h16[i] + 1, 5e-3) << i;
    }
}

TEST_F(ElementwiseKernelTest, SizeSetsTheLoopWhenEveryArrayIsRaw) {
    const ElementwiseKernel twice("raw T x", "raw T y", "y[i] = x[i] * 2", "twice_raw");
    const Array dx = array_of(random_values(50, 10), {50}, DType::int64);
    const std::vector<double> x = as_doubles(dx);
    // A raw output allocated for size= is 1-D of that size.
    const Array y = twice({dx}, {.size = 20})[0];
    ASSERT_EQ(y.shape(), Shape{20});
    std::vector<double> got = as_doubles(y);
    for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(got[i], x[i] * 2) << i;
    // Given outputs keep their shape; the loop runs size elements of them.
    const Array out = array_of(std::vector<double>(50, 1.0), {5, 10}, DType::int64);
    twice({dx, out}, {.size = 30});
    got = as_doubles(out);
    for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(got[i], i < 30 ? x[i] * 2 : 1.0) << i;
    // size=0 runs nothing.
    EXPECT_EQ(twice({dx}, {.size = 0})[0].size(), 0);
}

// `i` is the flat C-order index of the broadcast shape in every kernel shape: the simulator's
// generic one and (through the test switch) the GPU's, contiguous, strided and broadcast, with
// 0-d and empty loops.
TEST_F(ElementwiseKernelTest, IndexIsTheFlatIndexInEveryKernelShape) {
    const ElementwiseKernel index("T x", "int64 y", "y = i + 1000 * (long long)x", "flat_index");
    for (bool gpu_shapes : {false, true}) {
        SCOPED_TRACE(gpu_shapes ? "GPU shapes" : "default shapes");
        detail::set_specialized_elementwise_on_simulator(gpu_shapes);
        const std::vector<double> values = random_values(60, 11);
        std::vector<double> whole(values.size());
        for (std::size_t k = 0; k < whole.size(); ++k) whole[k] = std::round(values[k]);
        const Array base = array_of(whole, {3, 4, 5}, DType::int16);
        struct Case {
            Array input;
            Shape shape;
        };
        const std::vector<Case> cases = {
            {base, {3, 4, 5}},                                                   // contiguous
            {base.transpose(), {5, 4, 3}},                                       // strided
            {base.index({Slice{}, Slice{1, 3}, Slice{{}, {}, -2}}), {3, 2, 3}},  // sliced, reversed
            {base.index({1, 2}), {5}},                                           // a row
            {base.index({0, 0, 0}), {}},                                         // 0-d
            {base.index({Slice{}, Slice{2, 2}}), {3, 0, 5}},                     // empty
        };
        for (const Case& c : cases) {
            const Array y = index({c.input})[0];
            ASSERT_EQ(y.shape(), c.shape);
            const std::vector<double> in = as_doubles(c.input), got = as_doubles(y);
            for (std::size_t k = 0; k < got.size(); ++k) EXPECT_EQ(got[k], double(k) + 1000 * in[k]) << k;
        }
        // Broadcast: a column against a row, the output strided.
        const ElementwiseKernel mix("T a, T b", "int64 y", "y = i * 1000 + a * 10 + b", "flat_mix");
        const Array column = array_of({1, 2, 3}, {3, 1}, DType::int16), row = array_of({4, 5, 6, 7}, {4}, DType::int16);
        const Array out = Array::empty({4, 3}, DType::int64).transpose();
        mix({column, row, out});
        const std::vector<double> got = as_doubles(out);
        for (std::size_t k = 0; k < 12; ++k) EXPECT_EQ(got[k], double(k) * 1000 + (1 + k / 4) * 10 + 4 + k % 4) << k;
    }
    detail::set_specialized_elementwise_on_simulator(false);
}

// The GPU's vector shape (every array contiguous and aligned: one 16-byte group per thread), run
// on the simulator: outputs only assigned are not loaded, outputs read or written conditionally
// are (elements left alone keep their values, `continue` moves to the next element), mixed item
// sizes share a group, the tail goes element by element, and an unaligned array or a `return`
// takes the element-by-element shape.
TEST_F(ElementwiseKernelTest, VectorGroupsKeepTheElementByElementMeaning) {
    detail::set_specialized_elementwise_on_simulator(true);
    const ElementwiseKernel scale("float16 x", "float16 y", "y = x * 2", "scale_half");
    const ElementwiseKernel accumulate("T x", "T y", "y += x", "accumulate");
    const ElementwiseKernel positive("T x", "T y", "if (x > 0) y = x", "keep_positive");
    const ElementwiseKernel widen("int8 a, float64 b", "float32 y", "y = a + b", "widen");
    const ElementwiseKernel skip("T x", "T y", "if (x > 0) continue; y = x", "skip_positive");
    // `return` ends the thread's loop (as in CuPy): which elements that skips depends on the shape.
    const ElementwiseKernel early("T x", "T y", "if (x > 0) return; y = x", "ends_early");
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{31}, std::int64_t{4097}}) {
        SCOPED_TRACE("n=" + std::to_string(n));
        const auto size = static_cast<std::size_t>(n);
        const std::vector<double> x = random_values(size, 21), y0 = random_values(size, 22);
        const Array half = array_of(x, {n}, DType::float16);
        const std::vector<double> scaled = as_doubles(scale({half})[0]);
        const Array xs = array_of(x, {n}, DType::float32);
        Array sum = array_of(y0, {n}, DType::float32);
        accumulate({xs, sum});
        Array kept = array_of(y0, {n}, DType::float32);
        positive({xs, kept});
        const Array wide = widen({array_of(y0, {n}, DType::int8), array_of(x, {n}, DType::float64)})[0];
        const std::vector<double> summed = as_doubles(sum), kept_values = as_doubles(kept), widened = as_doubles(wide);
        for (std::size_t k = 0; k < size; ++k) {
            ASSERT_EQ(scaled[k], x[k] * 2) << k;
            ASSERT_EQ(summed[k], static_cast<double>(static_cast<float>(y0[k]) + static_cast<float>(x[k]))) << k;
            ASSERT_EQ(kept_values[k], x[k] > 0 ? x[k] : y0[k]) << k;
            ASSERT_EQ(widened[k], static_cast<double>(static_cast<float>(static_cast<std::int8_t>(y0[k]) + x[k]))) << k;
        }
        // Unaligned (one element in): element by element.
        const Array from_second = array_of(x, {n}, DType::float32).index({Slice{std::min<std::int64_t>(1, n - 1), {}}});
        Array target = array_of(y0, {from_second.size()}, DType::float32);
        accumulate({from_second, target});
        const std::vector<double> shifted = as_doubles(target);
        const std::size_t first = n > 1 ? 1 : 0;
        for (std::size_t k = 0; k < shifted.size(); ++k)
            ASSERT_EQ(shifted[k], static_cast<double>(static_cast<float>(y0[k]) + static_cast<float>(x[k + first])))
                << k;
        Array skipped = array_of(y0, {n}, DType::float32);
        skip({xs, skipped});
        const std::vector<double> skipped_values = as_doubles(skipped);
        for (std::size_t k = 0; k < size; ++k) ASSERT_EQ(skipped_values[k], x[k] > 0 ? y0[k] : x[k]) << k;
    }
    const Array xs = array_of(random_values(64, 23), {64}, DType::float32);
    const Array ys = Array::empty({64}, DType::float32);
    EXPECT_NE(accumulate.source({xs, ys}).find("gk_v_y = (("), std::string::npos) << "y += x reads y's group";
    const std::string assigned = widen.source(
        {array_of(random_values(64, 24), {64}, DType::int8), array_of(random_values(64, 25), {64}, DType::float64)});
    EXPECT_NE(assigned.find("gk_vector<float, 2> gk_v_y;"), std::string::npos) << "y = a + b does not:\n" << assigned;
    EXPECT_EQ(early.source({xs, ys}).find("gk_vector"), std::string::npos) << "return: element by element";
    detail::set_specialized_elementwise_on_simulator(false);
}

TEST_F(ElementwiseKernelTest, PreambleLoopPrepAndOptions) {
    ElementwiseKernelOptions options;
    options.preamble = "__device__ T cube(T v) { return v * v * v; }  // T is the placeholder's typedef";
    options.loop_prep = "const T offset = (T)SHIFT";
    options.options = {"-DSHIFT=3", "-std=c++17"};
    const ElementwiseKernel kernel("T x", "T y", "y = cube(x) + offset", "cube_shift", options);
    const std::vector<double> x = random_values(33, 12);
    const std::vector<double> got = as_doubles(kernel({array_of(x, {33}, DType::float64)})[0]);
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_DOUBLE_EQ(got[i], x[i] * x[i] * x[i] + 3) << i;
    EXPECT_NE(kernel.source({array_of(x, {33}, DType::float64)}).find("typedef double T;"), std::string::npos);
}

TEST_F(ElementwiseKernelTest, CompilesOncePerDtypes) {
    const ElementwiseKernel kernel("T x", "T y", "y = x * x", "square_once");
    const Array a = array_of(random_values(40, 13), {8, 5}, DType::float32);
    kernel({a});
    reset_cache_stats();
    kernel({a});
    kernel({a.index({Slice{4, 8}})});  // same layout class: contiguous, and 16-byte aligned as a is
    const CacheStats stats = cache_stats();
    EXPECT_EQ(stats.memory_hits + stats.disk_hits + stats.misses, 0u) << "the kernel object keeps its kernels";
    // Another object of the same definition finds the module in the compile cache.
    const ElementwiseKernel again("T x", "T y", "y = x * x", "square_once");
    again({a});
    EXPECT_EQ(cache_stats().misses, 0u);
}

TEST_F(ElementwiseKernelTest, BadDefinitionsAreRefused) {
    EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "my-kernel"), InvalidArgumentError);
    EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "2fast"), InvalidArgumentError);
    EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "k(){}; void evil"), InvalidArgumentError);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, ElementwiseKernel("float32", "T y", "y = 1", "k")),
                    "each parameter is a type and a name");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, ElementwiseKernel("flaot32 x", "T y", "y = x", "k")),
                    "'flaot32'");
    EXPECT_THROW(ElementwiseKernel("T x, T x", "T y", "y = x", "k"), InvalidArgumentError);
    EXPECT_THROW(ElementwiseKernel("T i", "T y", "y = i", "k"), InvalidArgumentError);
    EXPECT_THROW(ElementwiseKernel("T x", "T y;", "y = x", "k"), InvalidArgumentError);
    EXPECT_THROW(ElementwiseKernel("const T x", "T y", "y = x", "k"), InvalidArgumentError);
    EXPECT_THROW(ElementwiseKernel("T x,", "T y", "y = x", "k"), InvalidArgumentError);
    ElementwiseKernelOptions bad;
    bad.options = {"-fplugin=/tmp/evil.so"};
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, ElementwiseKernel("T x", "T y", "y = x", "k", bad)),
                    "-fplugin=/tmp/evil.so");
}

TEST_F(ElementwiseKernelTest, BadCallsAreRefused) {
    const ElementwiseKernel saxpy("float32 a, float32 x, float32 y", "float32 z", "z = a * x + y", "saxpy");
    const Array x = array_of(random_values(8, 14), {8}, DType::float32);
    const Array wide = array_of(random_values(8, 15), {8}, DType::float64);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, saxpy({1.0f, x})), "takes 3 arguments or 4");
    // An array of another dtype than its parameter's is an error, as in CuPy (no silent cast).
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, saxpy({1.0f, x, wide})),
                    "is a float64 array, but the parameter is float32");
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, saxpy({Scalar(std::complex<double>(1, 1)), x, x})),
                    "cannot take a complex number");
    EXPECT_THROW(saxpy({1.0f, x, x, Scalar(1.0)}), InvalidArgumentError);  // a scalar output
    const Array short_x = array_of(random_values(3, 16), {3}, DType::float32);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, saxpy({1.0f, x, short_x})), "(8,) (3,)");
    const Array one = Array::empty({1}, DType::float32);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, saxpy({1.0f, x, x, one})), "not the loop's shape");
    EXPECT_THROW(saxpy({1.0f, x, x}, {.size = 8}), InvalidArgumentError);  // size= with non-raw arrays
    EXPECT_THROW(saxpy({1.0f, x, x}, {.block_size = 0}), InvalidArgumentError);

    const ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, squared_diff({x, wide})), "T (decided by 'T x')");
    // A placeholder that only Python-like numbers meet is undecided; a typed scalar decides it.
    const ElementwiseKernel scale("T a, float32 x", "float32 y", "y = a * x", "scale");
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, scale({Scalar(2.0), x})), "nothing decides the type placeholder T");
    EXPECT_EQ(as_doubles(scale({Scalar::of(2.0), x})[0]), [&] {
        std::vector<double> v = as_doubles(x);
        for (double& e : v) e *= 2;
        return v;
    }());
    // A placeholder only outputs have needs the outputs.
    const ElementwiseKernel convert("T x", "U y", "y = x", "convert");
    expect_contains(GPUKIT_MESSAGE_OF(DTypeError, convert({x})), "placeholder U");
    const Array y = Array::empty({8}, DType::int32);
    convert({x, y});
    const std::vector<double> xs = as_doubles(x), ys = as_doubles(y);
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(ys[i], std::trunc(float(xs[i]))) << i;
    // Only raw arrays and no size; a raw output without size.
    const ElementwiseKernel raw_only("raw T x", "T y", "y = x[i]", "raw_only");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, raw_only({x})), "give size=");
    const ElementwiseKernel raw_out("T x", "raw T y", "y[i] = x", "raw_out");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, raw_out({x})), "undecided");
    // A Python int out of the parameter's range.
    const ElementwiseKernel bytes("uint8 a, T x", "T y", "y = x + a", "add_byte");
    EXPECT_THROW(bytes({Scalar(300), x}), ScalarOverflowError);
    // The operation's own mistakes are the compiler's.
    const ElementwiseKernel broken("T x", "T y", "y = x +* ;", "broken");
    EXPECT_THROW(broken({x}), CompileError);
}

}  // namespace
}  // namespace gpukit::testing
