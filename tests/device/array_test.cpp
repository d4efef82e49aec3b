// tests/device/array_test.cpp: arrays on the device: transfers (contiguous and strided), views,
// fills, copies, conversions, module globals, the current stream, and memory that launches use.
// Host-side references come from the layout and conversion code tests/array checks against NumPy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "array/convert.hpp"
#include "array/host_copy.hpp"
#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

class Arrays : public DeviceTest {};

const std::int64_t edge_sizes[] = {0, 1, 7, 255, 1000, 4097};

// Random bytes, never zero, for `count` elements of `dtype`.
std::vector<std::byte> random_bytes(std::int64_t count, DType dtype, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::byte> bytes(static_cast<std::size_t>(count) * itemsize(dtype));
    for (auto& b : bytes) b = static_cast<std::byte>(1 + random() % 255);
    return bytes;
}

// Random values (small integers, floats in [-1, 1]) converted to `dtype`, never all zero.
std::vector<std::byte> random_values(std::int64_t count, DType dtype, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> values(static_cast<std::size_t>(count));
    const bool integral = kind(dtype) != DTypeKind::floating && kind(dtype) != DTypeKind::complex;
    for (auto& v : values) v = integral ? static_cast<double>(1 + random() % 100) : uniform(random);
    std::vector<std::byte> bytes(values.size() * itemsize(dtype));
    detail::convert_elements(reinterpret_cast<const std::byte*>(values.data()), 8, DType::float64, bytes.data(),
                             static_cast<std::int64_t>(itemsize(dtype)), dtype, count);
    return bytes;
}

std::vector<std::byte> bytes_of(const Array& array) {
    std::vector<std::byte> bytes(static_cast<std::size_t>(array.nbytes()));
    array.copy_to_host(HostView(bytes.data(), array.dtype(), array.shape()));
    return bytes;
}

// The elements `layout` selects of host memory laid out as `base`, in C order.
std::vector<std::byte> gather(const std::vector<std::byte>& base, DType dtype, const ViewLayout& layout) {
    std::vector<std::byte> out(static_cast<std::size_t>(element_count(layout.shape)) * itemsize(dtype));
    detail::copy_host_elements(ConstHostView(base.data() + layout.offset, dtype, layout.shape, layout.strides),
                               HostView(out.data(), dtype, layout.shape));
    return out;
}

TEST_F(Arrays, RoundTripEveryDtypeAndEdgeSizeExactly) {
    unsigned seed = 100;
    for (const DTypeInfo& row : dtype_table)
        for (std::int64_t size : edge_sizes) {
            const auto values = random_bytes(size, row.dtype, ++seed);
            Array array = Array::from_host(ConstHostView(values.data(), row.dtype, {size}));
            EXPECT_EQ(array.shape(), Shape{size});
            EXPECT_EQ(array.nbytes(), size * static_cast<std::int64_t>(row.itemsize));
            EXPECT_TRUE(array.is_c_contiguous() && array.owns_data());
            EXPECT_EQ(bytes_of(array), values) << row.name << " " << size;
            const auto other = random_bytes(size, row.dtype, ++seed);
            array.copy_from_host(ConstHostView(other.data(), row.dtype, {size}));
            EXPECT_EQ(bytes_of(array), other) << row.name << " " << size;
        }
}

TEST_F(Arrays, ZeroDimensionalArraysHoldOneElement) {
    const std::vector<double> one{0.625};
    const Array scalar = Array::from_host(std::span<const double>(one), {});
    EXPECT_EQ(scalar.size(), 1);
    EXPECT_EQ(scalar.ndim(), 0u);
    EXPECT_EQ(scalar.to_vector<double>(), one);
}

// Views of a (13, 17) array, as NumPy's keys write them.
std::vector<std::vector<Index>> view_keys() {
    return {
        {Slice{{}, {}, -1}},                   // [::-1]
        {Slice{1, {}, 3}},                     // [1::3]
        {Slice{}, Slice{{}, {}, -2}},          // [:, ::-2]
        {Slice{{}, {}, 2}, Slice{1, 4}},       // [::2, 1:4]
        {newaxis, 5, Slice{2, -1, 4}},         // [None, 5, 2:-1:4]
        {ellipsis, 16},                        // [..., 16]
        {Slice{4, 4}},                         // [4:4], empty
        {Slice{12, 0, -5}, Slice{16, 0, -7}},  // [12:0:-5, 16:0:-7]
    };
}

TEST_F(Arrays, StridedViewsReadAndWriteOnlyTheirElements) {
    const Shape shape{13, 17};
    unsigned seed = 200;
    for (DType dtype : {DType::int8, DType::float16, DType::float32, DType::complex128}) {
        const auto item = static_cast<std::int64_t>(itemsize(dtype));
        auto host = random_bytes(13 * 17, dtype, ++seed);
        Array base = Array::from_host(ConstHostView(host.data(), dtype, shape));
        for (const auto& key : view_keys()) {
            const ViewLayout layout = select(shape, c_strides(shape, item), key);
            Array view = base.index(key);
            EXPECT_EQ(view.shape(), layout.shape);
            EXPECT_EQ(view.strides(), layout.strides);
            EXPECT_FALSE(view.owns_data());
            EXPECT_EQ(bytes_of(view), gather(host, dtype, layout)) << to_string(dtype);

            const auto replacement = random_bytes(view.size(), dtype, ++seed);
            view.copy_from_host(ConstHostView(replacement.data(), dtype, layout.shape));
            detail::copy_host_elements(ConstHostView(replacement.data(), dtype, layout.shape),
                                       HostView(host.data() + layout.offset, dtype, layout.shape, layout.strides));
            EXPECT_EQ(bytes_of(base), host) << to_string(dtype) << ": the gaps between the view's elements changed";
        }
    }
}

TEST_F(Arrays, HostMemoryMayBeStridedToo) {
    const std::vector<std::int32_t> host{1, -2, 3, -4, 5, -6, 7, -8};
    Array array = Array::empty({4}, DType::int32);
    array.copy_from_host(
        ConstHostView(reinterpret_cast<const std::byte*>(host.data() + 6), DType::int32, {4}, Strides{-8}));
    EXPECT_EQ(array.to_vector<std::int32_t>(), (std::vector<std::int32_t>{7, 5, 3, 1}));
    std::vector<std::int32_t> out(8, 0);
    array.copy_to_host(HostView(reinterpret_cast<std::byte*>(out.data() + 1), DType::int32, {4}, Strides{8}));
    EXPECT_EQ(out, (std::vector<std::int32_t>{0, 7, 0, 5, 0, 3, 0, 1}));
    const auto mismatch =
        GPUKIT_MESSAGE_OF(InvalidArgumentError, array.copy_to_host(HostView(nullptr, DType::int32, {5})));
    expect_contains(mismatch, "shape (5,)");
    const auto wrong_type =
        GPUKIT_MESSAGE_OF(InvalidArgumentError, array.copy_from_host(ConstHostView(nullptr, DType::float32, {4})));
    expect_contains(wrong_type, "cannot set a int32 array from float32 data");
}

TEST_F(Arrays, FillSetsEveryElementOfEveryDtype) {
    for (const DTypeInfo& row : dtype_table)
        for (std::int64_t size : {0, 1, 7, 1001, 4097}) {
            Array array = Array::empty({size}, row.dtype);
            for (int value : {0, 1, 5}) {  // 0: one memset; the others through the host for most types
                array.fill(value);
                std::vector<std::byte> element(row.itemsize);
                detail::convert_elements(reinterpret_cast<const std::byte*>(&value), 0, DType::int32, element.data(), 0,
                                         row.dtype, 1);
                std::vector<std::byte> expected;
                for (std::int64_t i = 0; i < size; ++i) expected.insert(expected.end(), element.begin(), element.end());
                EXPECT_EQ(bytes_of(array), expected) << row.name << " " << size << " " << value;
            }
        }
}

TEST_F(Arrays, FillOfAStridedViewLeavesTheRest) {
    std::vector<float> values(30);
    std::mt19937 random(3);
    for (auto& v : values) v = std::uniform_real_distribution<float>(-1, 1)(random);
    Array array = Array::from_host(std::span<const float>(values), {30});
    array.index({Slice{1, {}, 4}}).fill(2.5f);
    array.index({Slice{{}, {}, -7}}).fill(0.0f);  // a memset cannot do a strided view
    for (std::size_t i = 1; i < 30; i += 4) values[i] = 2.5f;
    for (std::size_t i = 29; i < 30; i -= 7) values[i] = 0.0f;
    EXPECT_EQ(array.to_vector<float>(), values);
}

TEST_F(Arrays, CopyIsContiguousAndIndependent) {
    const auto host = random_values(16, DType::int64, 4);
    Array array = Array::from_host(ConstHostView(host.data(), DType::int64, {16}));
    for (const auto& key : {std::vector<Index>{Slice{}}, {Slice{{}, {}, -2}}, {Slice{3, 11}}}) {
        const Array copied = array.index(key).copy();
        EXPECT_TRUE(copied.is_c_contiguous() && copied.owns_data());
        EXPECT_NE(copied.address(), array.address());
        const auto expected = gather(host, DType::int64, select(Shape{16}, Strides{8}, key));
        EXPECT_EQ(bytes_of(copied), expected);
        array.fill(0);
        EXPECT_EQ(bytes_of(copied), expected);
        array.copy_from_host(ConstHostView(host.data(), DType::int64, {16}));
    }
}

TEST_F(Arrays, AstypeConvertsAsTheHostConversionDoes) {
    unsigned seed = 300;
    for (DType from : {DType::float64, DType::int16, DType::complex64, DType::bool_})
        for (DType to : {DType::int32, DType::float16, DType::uint8, DType::complex128, DType::float64}) {
            const auto host = random_values(37, from, ++seed);
            const Array source = Array::from_host(ConstHostView(host.data(), from, {37}));
            const Array converted = source.astype(to);
            EXPECT_EQ(converted.dtype(), to);
            std::vector<std::byte> expected(37 * itemsize(to));
            detail::convert_elements(host.data(), static_cast<std::int64_t>(itemsize(from)), from, expected.data(),
                                     static_cast<std::int64_t>(itemsize(to)), to, 37);
            EXPECT_EQ(bytes_of(converted), expected) << to_string(from) << " -> " << to_string(to);
        }
}

TEST_F(Arrays, AssignConvertsBroadcastsAndCopiesBetweenArrays) {
    std::vector<std::int32_t> values(20);
    for (int i = 0; i < 20; ++i) values[i] = 3 * i - 17;
    Array array = Array::from_host(std::span<const std::int32_t>(values), {4, 5});
    const std::vector<std::int64_t> row{9, 8, 7, 6, 5};
    array.index({Slice{2, 4}}).assign(ConstHostView(reinterpret_cast<const std::byte*>(row.data()), DType::int64, {5}));
    for (int r = 2; r < 4; ++r)
        for (int c = 0; c < 5; ++c) values[r * 5 + c] = static_cast<std::int32_t>(row[c]);
    const std::vector<std::int32_t> column_values{-1, -2, -3, -4};
    const Array column = Array::from_host(std::span<const std::int32_t>(column_values), {4});
    array.index({ellipsis, 0}).assign(column);  // a strided target: through the host
    for (int r = 0; r < 4; ++r) values[r * 5] = column_values[r];
    array.index({1}).assign(array.index({3}));  // contiguous, same dtype: a device copy
    for (int c = 0; c < 5; ++c) values[5 + c] = values[15 + c];
    EXPECT_EQ(array.to_vector<std::int32_t>(), values);

    // Overlapping memory behaves as NumPy's a[1:] = a[:-1]: every element moves by one.
    Array flat = array.reshape({-1});
    flat.index({Slice{1, {}}}).assign(flat.index({Slice{{}, -1}}));
    std::vector<std::int32_t> shifted = values;
    std::copy(values.begin(), values.end() - 1, shifted.begin() + 1);
    EXPECT_EQ(flat.to_vector<std::int32_t>(), shifted);

    const auto refused = GPUKIT_MESSAGE_OF(InvalidArgumentError, array.assign(column));
    expect_contains(refused, "could not broadcast input array from shape (4,) into shape (4, 5)");
}

TEST_F(Arrays, ReshapeTransposeAndRavelAreViewsWherePossible) {
    std::vector<float> values(24);
    for (int i = 0; i < 24; ++i) values[i] = 0.5f * i - 3;
    const Array array = Array::from_host(std::span<const float>(values), {2, 3, 4});
    const Array reshaped = array.reshape({4, -1});
    EXPECT_EQ(reshaped.shape(), (Shape{4, 6}));
    EXPECT_EQ(reshaped.address(), array.address());
    EXPECT_EQ(reshaped.to_vector<float>(), values);
    const Array transposed = array.transpose();
    EXPECT_EQ(transposed.shape(), (Shape{4, 3, 2}));
    EXPECT_EQ(transposed.strides(), (Strides{4, 16, 48}));
    EXPECT_TRUE(transposed.is_f_contiguous() && !transposed.is_c_contiguous());
    std::vector<float> expected;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 2; ++i) expected.push_back(values[i * 12 + j * 4 + k]);
    EXPECT_EQ(transposed.to_vector<float>(), expected);
    const Array raveled = transposed.ravel();  // strided: a copy
    EXPECT_NE(raveled.address(), array.address());
    EXPECT_EQ(raveled.to_vector<float>(), expected);
    EXPECT_EQ(array.ravel().address(), array.address());
    const Array reshaped_copy = transposed.reshape({24});  // not evenly spaced in C order: a copy
    EXPECT_NE(reshaped_copy.address(), array.address());
    EXPECT_EQ(reshaped_copy.to_vector<float>(), expected);
    EXPECT_EQ(transposed.reshape({24}, Order::F).address(), array.address());  // F order: a view
}

TEST_F(Arrays, ReinterpretViewsTheBytesAsAnotherTypeAndShape) {
    const std::vector<float> values{1.0f, -2.0f, 0.5f, 8.0f};
    const Array array = Array::from_host(std::span<const float>(values), {4});
    const Array as_ints = array.reinterpret(DType::int32, {2, 2});
    std::vector<std::int32_t> bits(4);
    std::memcpy(bits.data(), values.data(), 16);
    EXPECT_EQ(as_ints.to_vector<std::int32_t>(), bits);
    const auto too_big = GPUKIT_MESSAGE_OF(InvalidArgumentError, array.reinterpret(DType::float32, {5}));
    expect_contains(too_big, "needs bytes [0, 20) but the array it views holds 16 bytes");
}

constexpr const char* scale_source = R"(
__constant__ float factors[4];
__device__ char tag[6];
extern "C" __global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factors[i % 4];
}
)";

TEST_F(Arrays, ModuleGlobalsAreArraysThatKeepTheirModuleLoaded) {
    Array factors = [] {
        const Module module = Module::compile(scale_source);
        return module_global(module, "factors", DType::float32);
    }();  // the module object is gone; the array holds it
    EXPECT_EQ(factors.shape(), Shape{4});
    const std::vector<float> chosen{2.0f, -1.0f, 0.5f, 3.0f};
    factors.copy_from_host(ConstHostView(reinterpret_cast<const std::byte*>(chosen.data()), DType::float32, {4}));
    EXPECT_EQ(factors.to_vector<float>(), chosen);
    EXPECT_EQ(module_global(Module::compile(scale_source), "factors").shape(), Shape{16});  // its bytes
    const Module module = Module::compile(scale_source);
    const auto ragged = GPUKIT_MESSAGE_OF(InvalidArgumentError, module_global(module, "tag", DType::int32));
    expect_contains(ragged, "tag is 6 bytes, not a whole number of int32 elements");
    const auto too_big =
        GPUKIT_MESSAGE_OF(InvalidArgumentError, module_global(module, "factors", DType::float32, Shape{5}));
    expect_contains(too_big, "needs bytes [0, 20)");
}

TEST_F(Arrays, KernelsTakeArraysAndWorkGoesToTheCurrentStream) {
    const Module module = Module::compile(scale_source);
    const Kernel scale = module.kernel("scale");
    const int n = 1001;
    const auto host = random_values(n, DType::float32, 9);
    Array x = Array::from_host(ConstHostView(host.data(), DType::float32, {n}));
    const std::vector<float> ones(4, 1.0f);
    module_global(module, "factors", DType::float32)
        .copy_from_host(ConstHostView(reinterpret_cast<const std::byte*>(ones.data()), DType::float32, {4}));

    Stream stream;
    EXPECT_TRUE(current_stream().is_default());
    {
        StreamScope scope(stream);
        EXPECT_EQ(current_stream().native_handle(), stream.ref().native_handle());
        x.fill(2.0f);  // not a single byte value: through the host, on the stream
        scale({.grid = grid_for(n, 128), .block = 128, .stream = current_stream()}, x, n);
        Array doubled = x.copy();  // a device copy on the stream, after the launch
        scale({.grid = grid_for(n, 128), .block = 128, .stream = current_stream()}, doubled, n);
        EXPECT_EQ(doubled.to_vector<float>(), std::vector<float>(n, 2.0f));  // waits for the stream
    }
    EXPECT_TRUE(current_stream().is_default());
    EXPECT_TRUE(x.memory()->used_by_launch());
}

constexpr const char* slow_copy_source = R"(
extern "C" __global__ void slow_copy(const float* in, float* out, const int size, const int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  float value = 0.0f;
  for (int r = 0; r < rounds; ++r) value = value * 0.5f + in[i];  // converges to 2 * in[i]
  out[i] = value;
}
)";

TEST_F(Arrays, MemoryALaunchUsesOutlivesItsLastArray) {
    const Kernel slow_copy = Module::compile(slow_copy_source).kernel("slow_copy");
    const int size = 1 << 16;
    std::vector<float> values(size);
    std::mt19937 random(12);
    for (auto& v : values) v = std::uniform_real_distribution<float>(1, 2)(random);
    Array out = Array::empty({size}, DType::float32);
    Stream stream;
    {
        const Array source = Array::from_host(std::span<const float>(values), {size});
        slow_copy({.grid = grid_for(size, 256), .block = 256, .stream = stream}, source, out, size, 200);
    }  // the source's memory waits for the launch before it goes
    std::vector<Array> scribble;
    for (int i = 0; i < 4; ++i) {
        scribble.push_back(Array::empty({size}, DType::float32));
        scribble.back().fill(-7.0f);
    }
    stream.synchronize();
    const auto result = out.to_vector<float>();
    for (int i = 0; i < size; ++i) ASSERT_NEAR(result[i], 2 * values[i], 1e-5f * 2 * values[i]) << i;
}

TEST_F(Arrays, FillsAndCopiesStillRunningOnAStreamOutliveTheirArrays) {
    const auto host = random_values(4096, DType::float32, 13);
    const Array values = Array::from_host(ConstHostView(host.data(), DType::float32, {4096}));
    Stream stream;
    StreamScope scope(stream);
    for (int i = 0; i < 1000; ++i) {
        Array::empty({4096}, DType::float32).fill(0);  // a memset on the stream, its array gone at once
        (void)values.copy();                           // a device copy likewise
    }
    EXPECT_EQ(bytes_of(values.copy()), host);
}

TEST_F(Arrays, ALaunchErrorMetWhileMemoryGoesIsRaisedAtTheNextWait) {
    if (!backend_info(tested_backend()).capabilities.check_mode)
        GTEST_SKIP() << "needs check mode to make a launch fail";
    const Kernel slow_copy =
        Module::compile(slow_copy_source, CompileOptions{.check = CheckTool::memcheck}).kernel("slow_copy");
    set_raise_on_hazard(true);
    {
        const Array source = Array::empty({4}, DType::float32);
        const Array out = Array::empty({4}, DType::float32);
        slow_copy({.grid = 1, .block = 64}, source, out, 64, 1);  // reads and writes past both
    }  // the owners' waits meet the HazardError, which cannot leave their destructors
    const Array other = Array::empty({2}, DType::float32);
    EXPECT_THROW(other.to_vector<float>(), HazardError);
    EXPECT_NO_THROW(other.to_vector<float>());  // raised once
    EXPECT_NO_THROW(raise_deferred_launch_error());
    set_raise_on_hazard(false);
    EXPECT_FALSE(take_check_report().clean());
}

}  // namespace
}  // namespace gpukit::testing
