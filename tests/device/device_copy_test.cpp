// tests/device/device_copy_test.cpp: copies, conversions, fills and assignments on the device
// (src/array/device_copy.cpp) against the host converter (src/array/convert.cpp, itself checked
// against NumPy in tests/array/convert_test.cpp): the values NumPy gives for NaN, infinities and
// out-of-range floats into integers, rounding into float16/bfloat16 from double and from large
// integers, complex to real and bool; and every layout a copy meets.
//
// Kernel count: each (source, target) dtype pair is a kernel of its own, so the pairs are chosen to
// reach every conversion path of gpukit_elementwise.cuh once, not all 225.
#include <cmath>
#include <cstring>
#include <limits>

#include "array/convert.hpp"
#include "array/host_copy.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class DeviceCopy : public DeviceTest {};

std::vector<std::byte> bytes_of(const Array& array) {
    std::vector<std::byte> bytes(static_cast<std::size_t>(array.nbytes()));
    array.copy_to_host(HostView(bytes.data(), array.dtype(), array.shape()));
    return bytes;
}

// Values every conversion has an edge at: NaN, infinities, beyond int32/uint32/int64/uint64, below
// and above float16's range, float16 and bfloat16 ties that rounding through float would break,
// fractions (truncation toward zero), negative zero.
const double special_floats[] = {
    std::numeric_limits<double>::quiet_NaN(),
    std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity(),
    1e10,
    -1e10,
    3e9,
    1.5e19,
    -9.3e18,
    -2.5,
    2.5,
    255.9,
    256.5,
    -129.7,
    65504,
    65520,
    1e-8,
    0.1,
    -0.0,
    1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30),  // float16: rounding to float first ties to 1.0
    1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30),   // bfloat16: the same at its precision
    -(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
    3.4e38,
    7.0,
};

const std::int64_t special_integers[] = {
    0,
    1,
    -1,
    127,
    -128,
    255,
    65535,
    (std::int64_t{1} << 24) + (std::int64_t{1} << 16) + 1,  // bfloat16 through float rounds twice
    2049,
    std::numeric_limits<std::int32_t>::max(),
    std::numeric_limits<std::int64_t>::min(),
    std::numeric_limits<std::int64_t>::max(),
    (std::int64_t{1} << 53) + 1,
    -(std::int64_t{1} << 62) - (std::int64_t{1} << 38) - 1,
};

// The special values in `dtype`, as the host converter makes them (from double for floating and
// complex types, from int64 for the others), complex ones with a nonzero imaginary part.
std::vector<std::byte> special_values(DType dtype) {
    const bool integral = kind(dtype) != DTypeKind::floating && kind(dtype) != DTypeKind::complex;
    const std::size_t count = integral ? std::size(special_integers) : std::size(special_floats);
    std::vector<std::byte> bytes(count * itemsize(dtype));
    const auto item = static_cast<std::int64_t>(itemsize(dtype));
    if (integral) {
        detail::convert_elements(reinterpret_cast<const std::byte*>(special_integers), 8, DType::int64, bytes.data(),
                                 item, dtype, static_cast<std::int64_t>(count));
    } else if (kind(dtype) == DTypeKind::complex) {
        std::vector<std::complex<double>> values;
        for (std::size_t k = 0; k < count; ++k) values.emplace_back(special_floats[k], special_floats[(k + 3) % count]);
        detail::convert_elements(reinterpret_cast<const std::byte*>(values.data()), 16, DType::complex128, bytes.data(),
                                 item, dtype, static_cast<std::int64_t>(count));
    } else {
        detail::convert_elements(reinterpret_cast<const std::byte*>(special_floats), 8, DType::float64, bytes.data(),
                                 item, dtype, static_cast<std::int64_t>(count));
    }
    return bytes;
}

// Equal bytes, or both NaN (payloads may differ) in a floating or complex part.
bool same_element(const std::byte* a, const std::byte* b, DType dtype) {
    if (std::memcmp(a, b, itemsize(dtype)) == 0) return true;
    if (kind(dtype) != DTypeKind::floating && kind(dtype) != DTypeKind::complex) return false;
    const std::size_t parts = kind(dtype) == DTypeKind::complex ? 2 : 1;
    const std::size_t part_size = itemsize(dtype) / parts;
    const DType part =
        kind(dtype) == DTypeKind::complex ? (dtype == DType::complex64 ? DType::float32 : DType::float64) : dtype;
    for (std::size_t p = 0; p < parts; ++p) {
        double x = 0, y = 0;
        detail::convert_elements(a + p * part_size, 0, part, reinterpret_cast<std::byte*>(&x), 0, DType::float64, 1);
        detail::convert_elements(b + p * part_size, 0, part, reinterpret_cast<std::byte*>(&y), 0, DType::float64, 1);
        if (!(std::isnan(x) && std::isnan(y)) && std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

void expect_same_elements(const std::vector<std::byte>& got, const std::vector<std::byte>& expected, DType dtype,
                          const std::string& what) {
    ASSERT_EQ(got.size(), expected.size()) << what;
    const std::size_t item = itemsize(dtype);
    for (std::size_t k = 0; k < got.size() / item; ++k)
        EXPECT_TRUE(same_element(got.data() + k * item, expected.data() + k * item, dtype)) << what << " element " << k;
}

// (source, targets): every path of gk_converter once: from double and float to every type; the
// half types, complex, wide integers and bool to the types whose conversion from them is special.
struct Conversions {
    DType from;
    std::vector<DType> to;
};
const Conversions conversions[] = {
    {DType::float64,
     {DType::bool_, DType::int8, DType::int16, DType::int32, DType::int64, DType::uint8, DType::uint16, DType::uint32,
      DType::uint64, DType::float16, DType::bfloat16, DType::float32, DType::complex64, DType::complex128}},
    {DType::float32,
     {DType::bool_, DType::int8, DType::int32, DType::int64, DType::uint8, DType::uint32, DType::uint64, DType::float16,
      DType::bfloat16, DType::float64, DType::complex128}},
    {DType::float16, {DType::int8, DType::int64, DType::uint64, DType::bfloat16, DType::complex64, DType::bool_}},
    {DType::bfloat16, {DType::float16, DType::int32, DType::uint8, DType::float64}},
    {DType::complex128,
     {DType::int32, DType::uint64, DType::float16, DType::bfloat16, DType::float32, DType::bool_, DType::complex64}},
    {DType::complex64, {DType::float64, DType::int16, DType::complex128}},
    {DType::int64,
     {DType::float16, DType::bfloat16, DType::float32, DType::float64, DType::uint8, DType::int8, DType::bool_,
      DType::complex64}},
    {DType::uint64, {DType::float32, DType::float64, DType::bfloat16, DType::int64}},
    {DType::int32, {DType::bfloat16, DType::float16, DType::uint16}},
    {DType::bool_, {DType::float16, DType::int64, DType::complex128, DType::float32}},
    {DType::uint8, {DType::int8, DType::float64}},
};

TEST_F(DeviceCopy, AstypeConvertsAsTheHostConverterDoes) {
    for (const Conversions& row : conversions) {
        const std::vector<std::byte> host = special_values(row.from);
        const auto count = static_cast<std::int64_t>(host.size() / itemsize(row.from));
        const Array source = Array::from_host(ConstHostView(host.data(), row.from, {count}));
        for (DType to : row.to) {
            std::vector<std::byte> expected(static_cast<std::size_t>(count) * itemsize(to));
            detail::convert_elements(host.data(), static_cast<std::int64_t>(itemsize(row.from)), row.from,
                                     expected.data(), static_cast<std::int64_t>(itemsize(to)), to, count);
            const Array converted = source.astype(to);
            EXPECT_EQ(converted.dtype(), to);
            expect_same_elements(bytes_of(converted), expected, to,
                                 std::string(to_string(row.from)) + " -> " + std::string(to_string(to)));
        }
    }
}

// Random bytes, never all zero: every bit pattern a copy must move unchanged.
std::vector<std::byte> random_bytes(std::int64_t count, DType dtype, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::byte> bytes(static_cast<std::size_t>(count) * itemsize(dtype));
    for (auto& b : bytes) b = static_cast<std::byte>(1 + random() % 255);
    if (dtype == DType::bool_)
        for (auto& b : bytes) b = static_cast<std::byte>(std::to_integer<int>(b) & 1);
    return bytes;
}

// The elements `key` selects of a C-ordered host array, in C order.
std::vector<std::byte> gather(const std::vector<std::byte>& base, DType dtype, const Shape& shape,
                              std::span<const Index> key) {
    const ViewLayout layout = select(shape, c_strides(shape, static_cast<std::int64_t>(itemsize(dtype))), key);
    std::vector<std::byte> out(static_cast<std::size_t>(element_count(layout.shape)) * itemsize(dtype));
    detail::copy_host_elements(ConstHostView(base.data() + layout.offset, dtype, layout.shape, layout.strides),
                               HostView(out.data(), dtype, layout.shape));
    return out;
}

TEST_F(DeviceCopy, CopiesEveryLayoutOfEveryItemSize) {
    const std::vector<std::vector<Index>> keys = {
        {Slice{}, Slice{}},                      // contiguous: one memcpy
        {Slice{{}, {}, 2}, Slice{1, {}, 3}},     // strided
        {Slice{{}, {}, -1}, Slice{{}, {}, -2}},  // negative strides
        {Slice{3, 4}, Slice{}},                  // one row
        {Slice{2, 2}, Slice{}},                  // 0-size
        {2, 5},                                  // 0-d
        {Slice{{}, {}, -3}, 7},                  // a strided column
    };
    for (DType dtype : {DType::int8, DType::bfloat16, DType::float32, DType::complex128}) {
        const Shape shape{31, 9};
        const auto host = random_bytes(31 * 9, dtype, 7);
        const Array base = Array::from_host(ConstHostView(host.data(), dtype, shape));
        for (const auto& key : keys) {
            const Array view = base.index(key);
            const Array copied = view.copy();
            EXPECT_TRUE(copied.is_c_contiguous() && copied.owns_data());
            EXPECT_EQ(bytes_of(copied), gather(host, dtype, shape, key)) << to_string(dtype);
        }
        // Transposed, into either order, and its F-ordered copy's bytes are the transpose's.
        const Array transposed = base.transpose();
        const Array c_copy = transposed.copy(Order::C), f_copy = transposed.copy(Order::F);
        EXPECT_TRUE(c_copy.is_c_contiguous());
        EXPECT_TRUE(f_copy.is_f_contiguous() && !f_copy.is_c_contiguous());
        EXPECT_EQ(bytes_of(c_copy), bytes_of(transposed));
        EXPECT_EQ(bytes_of(f_copy), bytes_of(transposed));
        EXPECT_EQ(transposed.copy(Order::K).strides(), transposed.strides());  // K keeps the layout: a memcpy
    }
}

TEST_F(DeviceCopy, CopiesAtEdgeSizes) {
    for (std::int64_t n : {0, 1, 31, 4097}) {
        const auto host = random_bytes(2 * n, DType::float32, 3);
        const Array base = Array::from_host(ConstHostView(host.data(), DType::float32, {2 * n}));
        const std::vector<Index> every_other{Slice{{}, {}, 2}};
        EXPECT_EQ(bytes_of(base.index(every_other).copy()), gather(host, DType::float32, {2 * n}, every_other)) << n;
        const Array wide = base.index(every_other).astype(DType::float64);
        std::vector<std::byte> expected(static_cast<std::size_t>(n) * 8);
        detail::convert_elements(host.data(), 8, DType::float32, expected.data(), 8, DType::float64, n);
        expect_same_elements(bytes_of(wide), expected, DType::float64,
                             "float32[::2] -> float64, n=" + std::to_string(n));
    }
}

TEST_F(DeviceCopy, AstypeKeepsTheLayoutAsNumPyDoes) {
    const Array matrix = Array::empty({5, 6}, DType::float32);
    matrix.fill(1.5f);
    EXPECT_TRUE(matrix.transpose().astype(DType::float64).is_f_contiguous());  // order K
    EXPECT_TRUE(matrix.transpose().astype(DType::float64, Order::C).is_c_contiguous());
    const Array wide = matrix.transpose().astype(DType::float64);
    EXPECT_EQ(wide.to_vector<double>(), std::vector<double>(30, 1.5));
}

TEST_F(DeviceCopy, FillsWithWeakIntegersOnlyWhereTheDtypeHoldsThem) {
    const Array bytes = Array::empty({5}, DType::int8);
    bytes.fill(Scalar(std::int64_t{-128}));  // a Python int: NumPy 2 takes it where it fits
    EXPECT_EQ(bytes.to_vector<std::int8_t>(), std::vector<std::int8_t>(5, -128));
    EXPECT_THROW(bytes.fill(Scalar(std::int64_t{300})), ScalarOverflowError);  // NumPy's OverflowError
    EXPECT_THROW(Array::empty({3}, DType::uint8).fill(Scalar(std::int64_t{-1})), ScalarOverflowError);
    bytes.fill(Scalar::of(std::int64_t{300}));  // a typed int64 converts as astype: it wraps
    EXPECT_EQ(bytes.to_vector<std::int8_t>(), std::vector<std::int8_t>(5, 44));
    EXPECT_THROW(full({2}, Scalar(std::int64_t{70000}), DType::int16), ScalarOverflowError);
    EXPECT_EQ(full({2}, Scalar(2.75), DType::int16).to_vector<std::int16_t>(), std::vector<std::int16_t>(2, 2));
}

TEST_F(DeviceCopy, FillsEveryDtypeWithValuesWhoseBytesDiffer) {
    for (const DTypeInfo& row : dtype_table) {
        const Array array = Array::empty({4097}, row.dtype);
        const Array strided = Array::empty({40, 3}, row.dtype).index({Slice{{}, {}, -3}, Slice{1, 3}});
        for (const Scalar& value : {Scalar(-3.25), Scalar(std::int64_t{7}), Scalar(std::complex<double>(1.5, -2))}) {
            array.fill(value);
            strided.fill(value);
            const std::array<std::byte, 16> element = value.converted(row.dtype);
            for (const Array* target : {&array, &strided}) {
                const std::vector<std::byte> bytes = bytes_of(*target);
                for (std::size_t k = 0; k < bytes.size(); k += row.itemsize)
                    ASSERT_TRUE(same_element(bytes.data() + k, element.data(), row.dtype)) << row.name << " at " << k;
            }
        }
    }
}

TEST_F(DeviceCopy, AssignBroadcastsConvertsAndReadsOverlappingSourcesFirst) {
    std::vector<std::int32_t> values(24);
    for (int i = 0; i < 24; ++i) values[i] = 5 * i - 40;
    Array array = Array::from_host(std::span<const std::int32_t>(values), {4, 6});
    // A row of float64 broadcast over a strided target.
    const std::vector<double> row{1.9, -2.9, 3.5, 1e10, -7.25, 0.5};
    const Array source = Array::from_host(std::span<const double>(row), {6});
    array.index({Slice{{}, {}, 2}}).assign(source);
    for (int r = 0; r < 4; r += 2)
        for (int c = 0; c < 6; ++c) {
            double v = row[c];
            std::int32_t converted = 0;
            detail::convert_elements(reinterpret_cast<const std::byte*>(&v), 0, DType::float64,
                                     reinterpret_cast<std::byte*>(&converted), 0, DType::int32, 1);
            values[r * 6 + c] = converted;
        }
    EXPECT_EQ(array.to_vector<std::int32_t>(), values);
    // A reversed view of itself: NumPy reads the whole source first.
    Array flat = array.reshape({-1});
    flat.assign(flat.index({Slice{{}, {}, -1}}));
    std::reverse(values.begin(), values.end());
    EXPECT_EQ(flat.to_vector<std::int32_t>(), values);
    // Host data of another dtype, one element broadcast: converted on the device.
    const double seven = 7.75;
    array.index({Slice{}, 0}).assign(ConstHostView(reinterpret_cast<const std::byte*>(&seven), DType::float64, {}));
    for (int r = 0; r < 4; ++r) values[r * 6] = 7;
    EXPECT_EQ(array.to_vector<std::int32_t>(), values);
    const auto refused = GPUKIT_MESSAGE_OF(InvalidArgumentError, array.assign(source.index({Slice{0, 4}})));
    expect_contains(refused, "could not broadcast input array from shape (4,) into shape (4, 6)");
}

}  // namespace
}  // namespace gpukit::testing
