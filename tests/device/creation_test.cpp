// tests/device/creation_test.cpp: new arrays made on the device (gpukit/creation.hpp): fills,
// layouts of the *_like forms, arange and linspace against NumPy's formulas computed here on the
// host (tests/python/array/test_creation.py compares with NumPy itself), eye, asarray's layouts.
#include <cmath>
#include <limits>

#include "array/convert.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class Creation : public DeviceTest {};

std::vector<double> as_doubles(const Array& array) { return array.astype(DType::float64).to_vector<double>(); }

TEST_F(Creation, ZerosOnesAndFullInEveryDtypeAndOrder) {
    for (const DTypeInfo& row : dtype_table) {
        const std::string name(row.name);
        EXPECT_EQ(as_doubles(zeros({3, 5}, row.dtype)), std::vector<double>(15, 0.0)) << name;
        EXPECT_EQ(as_doubles(ones({7}, row.dtype)), std::vector<double>(7, 1.0)) << name;
        const Array f = full({4, 3}, Scalar(std::int64_t{3}), row.dtype, Order::F);
        EXPECT_TRUE(f.is_f_contiguous() && f.dtype() == row.dtype) << name;
        EXPECT_EQ(as_doubles(f), std::vector<double>(12, row.dtype == DType::bool_ ? 1.0 : 3.0)) << name;
    }
    EXPECT_EQ(full({2}, Scalar::of(2.5f)).dtype(), DType::float32);  // the value's dtype
    EXPECT_EQ(full({0, 3}, Scalar(1.0)).size(), 0);
    EXPECT_EQ(as_doubles(full({}, Scalar(-4.0))), std::vector<double>{-4.0});
    EXPECT_THROW(empty({2}, DType::float32, Order::K), InvalidArgumentError);
    EXPECT_THROW(zeros({-1}), InvalidArgumentError);
}

TEST_F(Creation, LikeFormsFollowThePrototypesLayoutUnlessTold) {
    const Array prototype = empty({4, 5, 6}, DType::int16).transpose(std::vector<std::int64_t>{2, 0, 1});
    const Array like = empty_like(prototype);
    EXPECT_EQ(like.shape(), prototype.shape());
    EXPECT_EQ(like.strides(), prototype.strides());  // K: the same order in memory
    LikeOptions options;
    options.dtype = DType::float64;
    options.order = Order::C;
    const Array c = zeros_like(prototype, options);
    EXPECT_TRUE(c.is_c_contiguous() && c.dtype() == DType::float64);
    options.shape = Shape{2, 3};
    options.order = Order::K;
    const Array reshaped = full_like(prototype, Scalar(9), options);
    EXPECT_EQ(reshaped.shape(), (Shape{2, 3}));
    EXPECT_TRUE(reshaped.is_c_contiguous());  // another ndim: K falls back to C
    EXPECT_EQ(as_doubles(reshaped), std::vector<double>(6, 9.0));
    EXPECT_EQ(as_doubles(ones_like(prototype)), std::vector<double>(120, 1.0));
}

// NumPy's arange fill in double: start, start + step, then start + i * (second - first).
std::vector<double> numpy_arange(double start, double stop, double step) {
    const auto n = static_cast<std::int64_t>(std::max(0.0, std::ceil((stop - start) / step)));
    std::vector<double> values;
    const double second = start + step, delta = second - start;
    for (std::int64_t i = 0; i < n; ++i) values.push_back(i == 0 ? start : i == 1 ? second : start + i * delta);
    return values;
}

TEST_F(Creation, ArangeMatchesNumPysFill) {
    for (const auto& [start, stop, step] : std::vector<std::tuple<double, double, double>>{
             {0, 10, 1}, {-3, 4, 0.75}, {1, 0, -0.1}, {0.1, 1.3, 0.1}, {5, 5, 1}, {0, 1e-300, 1}, {-0.0, 3, 1}}) {
        const Array values = arange(Scalar(start), Scalar(stop), Scalar(step));
        EXPECT_EQ(values.dtype(), DType::float64);
        const std::vector<double> got = values.to_vector<double>(), expected = numpy_arange(start, stop, step);
        ASSERT_EQ(got.size(), expected.size()) << start << " " << stop << " " << step;
        for (std::size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i], expected[i]) << start << " " << stop << " " << step << " at " << i;
            EXPECT_EQ(std::signbit(got[i]), std::signbit(expected[i]));
        }
    }
    // Integers: int64 by default, exact, wrapping in a narrow dtype as NumPy's fill does.
    const Array integers = arange(Scalar(std::int64_t{-7}), Scalar(std::int64_t{30}), Scalar(std::int64_t{4}));
    EXPECT_EQ(integers.dtype(), DType::int64);
    EXPECT_EQ(integers.to_vector<std::int64_t>(), (std::vector<std::int64_t>{-7, -3, 1, 5, 9, 13, 17, 21, 25, 29}));
    const Array wrapped =
        arange(Scalar(std::int64_t{100}), Scalar(std::int64_t{160}), Scalar(std::int64_t{10}), DType::int8);
    EXPECT_EQ(wrapped.to_vector<std::int8_t>(), (std::vector<std::int8_t>{100, 110, 120, -126, -116, -106}));
    EXPECT_EQ(arange(Scalar(std::int64_t{5})).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{-3})).size(), 0);
    // float32 computes in float32; float16 and complex through their parts.
    const std::vector<float> f32 = arange(Scalar(0.5), Scalar(3.0), Scalar(0.3), DType::float32).to_vector<float>();
    const float first = 0.5f, second = static_cast<float>(0.5 + 0.3), delta = second - first;
    for (std::size_t i = 2; i < f32.size(); ++i) EXPECT_EQ(f32[i], first + static_cast<float>(i) * delta);
    EXPECT_EQ(
        as_doubles(arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{6}), Scalar(std::int64_t{2}), DType::float16)),
        (std::vector<double>{0, 2, 4}));
    const Array complex_range = arange(Scalar(1.0), Scalar(4.0), Scalar(1.0), DType::complex64);
    EXPECT_EQ(complex_range.to_vector<std::complex<float>>(),
              (std::vector<std::complex<float>>{{1, 0}, {2, 0}, {3, 0}}));
    EXPECT_THROW(arange(Scalar(0.0), Scalar(1.0), Scalar(0.0)), InvalidArgumentError);
    EXPECT_THROW(arange(Scalar(std::numeric_limits<double>::quiet_NaN()), Scalar(1.0)), InvalidArgumentError);
    EXPECT_THROW(arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{5}), Scalar(std::int64_t{1}), DType::bool_),
                 InvalidArgumentError);
}

// NumPy's linspace in double: i * step + start, stop at the end; (i / div) * delta when step is 0.
std::vector<double> numpy_linspace(double start, double stop, std::int64_t num, bool endpoint) {
    const std::int64_t div = endpoint ? num - 1 : num;
    const double delta = stop - start;
    std::vector<double> values;
    for (std::int64_t i = 0; i < num; ++i) {
        double y;
        if (div > 0) {
            const double step = delta / static_cast<double>(div);
            y = step == 0 ? (static_cast<double>(i) / static_cast<double>(div)) * delta : static_cast<double>(i) * step;
        } else {
            y = static_cast<double>(i) * delta;
        }
        values.push_back(y + start);
    }
    if (endpoint && num > 1) values.back() = stop;
    return values;
}

TEST_F(Creation, LinspaceMatchesNumPysFormula) {
    for (const auto& [start, stop, num, endpoint] :
         std::vector<std::tuple<double, double, std::int64_t, bool>>{{0, 1, 50, true},
                                                                     {-2.5, 7.1, 31, true},
                                                                     {1, 0, 7, false},
                                                                     {3, 3, 5, true},
                                                                     {0, 1, 1, true},
                                                                     {0, 1, 0, true},
                                                                     {0, 1e-320, 4, true},
                                                                     {0.1, 0.7, 4097, true}}) {
        const LinspaceResult result =
            linspace_with_step(Scalar(start), Scalar(stop), num, {.endpoint = endpoint, .dtype = {}});
        EXPECT_EQ(result.values.to_vector<double>(), numpy_linspace(start, stop, num, endpoint))
            << start << " " << stop << " " << num;
        const std::int64_t div = endpoint ? num - 1 : num;
        if (div > 0)
            EXPECT_EQ(result.step.value<double>(), (stop - start) / static_cast<double>(div));
        else
            EXPECT_TRUE(std::isnan(result.step.value<double>()));
    }
    // An integer dtype floors (NumPy's, for negative values too).
    EXPECT_EQ(
        linspace(Scalar(-3.0), Scalar(3.0), 5, {.endpoint = true, .dtype = DType::int32}).to_vector<std::int32_t>(),
        (std::vector<std::int32_t>{-3, -2, 0, 1, 3}));
    // Complex bounds: each part on its own.
    const auto complex_values = linspace(Scalar(std::complex<double>(0, 1)), Scalar(std::complex<double>(2, -1)), 3)
                                    .to_vector<std::complex<double>>();
    EXPECT_EQ(complex_values, (std::vector<std::complex<double>>{{0, 1}, {1, 0}, {2, -1}}));
    EXPECT_THROW(linspace(Scalar(0.0), Scalar(1.0), -1), InvalidArgumentError);
}

TEST_F(Creation, EyeAndIdentity) {
    for (const auto& [n, m, k] : std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>>{
             {4, 4, 0}, {3, 5, 1}, {5, 3, -2}, {3, 3, 7}, {0, 2, 0}}) {
        for (Order order : {Order::C, Order::F}) {
            const Array matrix = eye(n, m, k, DType::int32, order);
            EXPECT_EQ(matrix.shape(), (Shape{n, m}));
            const std::vector<std::int32_t> got = matrix.to_vector<std::int32_t>();
            for (std::int64_t r = 0; r < n; ++r)
                for (std::int64_t c = 0; c < m; ++c) EXPECT_EQ(got[r * m + c], c - r == k ? 1 : 0) << n << m << k;
        }
    }
    EXPECT_EQ(as_doubles(identity(2, DType::complex64)), (std::vector<double>{1, 0, 0, 1}));
}

TEST_F(Creation, AsarrayKeepsTheHostLayoutAndConvertsOnTheDevice) {
    std::vector<float> values(12);
    for (int i = 0; i < 12; ++i) values[i] = 0.5f * i - 2;
    // The host array seen in F order (a transposed view of the 3x4 values).
    const ConstHostView fortran(reinterpret_cast<const std::byte*>(values.data()), DType::float32, {4, 3},
                                Strides{4, 16});
    const Array kept = asarray(fortran);
    EXPECT_TRUE(kept.is_f_contiguous() && !kept.is_c_contiguous());
    const Array c = asarray(fortran, DType::float64, Order::C);
    EXPECT_TRUE(c.is_c_contiguous());
    std::vector<double> transposed;
    for (int r = 0; r < 4; ++r)
        for (int col = 0; col < 3; ++col) transposed.push_back(values[col * 4 + r]);
    EXPECT_EQ(c.to_vector<double>(), transposed);
    EXPECT_EQ(as_doubles(kept), transposed);
    EXPECT_EQ(asarray(c).address(), c.address());  // nothing to change: itself
    EXPECT_NE(asarray(c, DType::float32).address(), c.address());
    EXPECT_EQ(ascontiguousarray(kept).strides(), (Strides{12, 4}));
    EXPECT_EQ(asfortranarray(c).strides(), (Strides{8, 32}));
    EXPECT_EQ(ascontiguousarray(full({}, Scalar(1.0))).shape(), (Shape{1}));  // at least 1-D, as NumPy's
}

}  // namespace
}  // namespace gpukit::testing
