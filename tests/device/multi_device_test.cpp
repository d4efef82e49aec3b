// tests/device/multi_device_test.cpp: one array's work split across devices and combined again
// (gpukit/multi_device.hpp): the blocks and halos, the course's operations (elementwise, sum,
// histogram, matmul by row blocks, conv2d with halos) against one device, the threads running at
// once on the caller's streams, and the failures. On the simulator: its four devices (main.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

namespace md = multi_device;

class MultiDevice : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped() || HasFailure()) return;
        if (devices().size() < 2) GTEST_SKIP() << "needs two devices; this machine has " << devices().size();
    }

    // The first n devices (at most the machine's).
    static std::vector<Device> first(std::size_t n) {
        const std::vector<Device> all = devices();
        return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(n, all.size()))};
    }
};

template <class T>
std::vector<T> host_of(const Array& array) {
    return array.to_vector<T>();
}

Array random_array(const Shape& shape, unsigned seed, const Device& device = Device::current()) {
    const auto values = random_floats(static_cast<std::size_t>(element_count(shape)), seed);
    return Array::from_host(std::span<const float>(values), shape, device);
}

// Whether every part between two others holds at least `halo` entries (split refuses it otherwise).
bool halo_fits(std::int64_t rows, std::size_t count, std::int64_t halo) {
    const auto bounds = md::block_bounds(rows, std::max<std::size_t>(1, std::min<std::size_t>(count, rows)));
    for (std::size_t i = 1; i + 2 < bounds.size(); ++i)
        if (bounds[i + 1] - bounds[i] < halo) return false;
    return true;
}

TEST_F(MultiDevice, BlockBoundsAreArraySplits) {
    EXPECT_EQ(md::block_bounds(10, 3), (std::vector<std::int64_t>{0, 4, 7, 10}));
    EXPECT_EQ(md::block_bounds(2, 4), (std::vector<std::int64_t>{0, 1, 2, 2, 2}));
    EXPECT_EQ(md::block_bounds(0, 2), (std::vector<std::int64_t>{0, 0, 0}));
    EXPECT_THROW((void)md::block_bounds(5, 0), InvalidArgumentError);
}

TEST_F(MultiDevice, SplitCutsBlocksWithHalosAndGathersBack) {
    for (const std::int64_t rows : {0, 1, 7, 13}) {
        for (std::size_t count = 1; count <= 4; ++count) {
            for (const std::int64_t halo : {0, 1}) {
                const Array x = random_array({rows, 5}, static_cast<unsigned>(rows * 10 + count));
                const auto devices = first(count);                     // fewer where the machine has fewer
                if (!halo_fits(rows, devices.size(), halo)) continue;  // refused: BadInputsAreRefused
                const md::Split split = md::split(x, devices, {.axis = 0, .halo = halo});
                const auto expected_parts = std::max<std::size_t>(1, std::min<std::size_t>(devices.size(), rows));
                ASSERT_EQ(split.parts.size(), expected_parts) << rows << " rows on " << count;
                const auto bounds = md::block_bounds(rows, expected_parts);
                const auto whole = host_of<float>(x);
                for (const md::Part& part : split.parts) {
                    SCOPED_TRACE(::testing::Message() << rows << " rows, " << count << " devices, part " << part.index);
                    EXPECT_EQ(part.device(), devices[part.index]);
                    EXPECT_EQ(part.offset, bounds[part.index]);
                    EXPECT_EQ(part.length, bounds[part.index + 1] - bounds[part.index]);
                    EXPECT_EQ(part.halo_before, std::min(halo, part.offset));
                    EXPECT_EQ(part.halo_after, std::min(halo, rows - part.offset - part.length));
                    const auto data = host_of<float>(part.data);
                    const std::int64_t begin = part.offset - part.halo_before;
                    ASSERT_EQ(data.size(),
                              static_cast<std::size_t>((part.length + part.halo_before + part.halo_after) * 5));
                    EXPECT_TRUE(std::equal(data.begin(), data.end(), whole.begin() + begin * 5));
                    EXPECT_EQ(part.interior().shape(), (Shape{part.length, 5}));
                }
                const Array back = md::gather(split, devices.back());
                EXPECT_EQ(back.device(), devices.back());
                EXPECT_EQ(host_of<float>(back), whole);
            }
        }
    }
}

TEST_F(MultiDevice, SplitsAlongAnotherAxisAndFromHostMemory) {
    const auto values = random_floats(6 * 11, 4);
    const ConstHostView host(reinterpret_cast<const std::byte*>(values.data()), DType::float32, {6, 11});
    const Array x = Array::from_host(host);
    const auto devices = first(3);
    if (devices.size() < 3) GTEST_SKIP() << "needs three devices (the simulator's four run it)";
    for (const bool from_host : {false, true}) {
        const md::Split split = from_host ? md::split(host, devices, {.axis = -1, .halo = 2})
                                          : md::split(x, devices, {.axis = 1, .halo = 2});
        ASSERT_EQ(split.parts.size(), 3U);
        EXPECT_EQ(split.axis, 1U);
        EXPECT_EQ(split.parts[1].data.shape(), (Shape{6, 4 + 2 + 2}));
        EXPECT_EQ(split.parts[1].data.device(), devices[1]);
        EXPECT_EQ(host_of<float>(split.parts[2].data), host_of<float>(x.index({Slice{}, Slice{6, 11}})));
        EXPECT_EQ(host_of<float>(md::gather(split, devices[0])), values);
    }
}

TEST_F(MultiDevice, ElementwiseWorkMatchesOneDevice) {
    const Array x =
        add(random_array({1001}, 7), Array::from_host(std::span<const float>(std::vector<float>{1.5f}), {1}));
    const Array expected = multiply(sqrt(x), x);
    for (std::size_t count = 1; count <= 4; ++count) {
        const Array result =
            md::map([](const md::Part& part) { return multiply(sqrt(part.data), part.data); }, x, first(count));
        EXPECT_EQ(result.device(), x.device());
        EXPECT_EQ(host_of<float>(result), host_of<float>(expected)) << count << " devices";
    }
}

TEST_F(MultiDevice, SumsMaximaAndHistogramCountsCombinePartials) {
    const Array x = random_array({997, 3}, 9);
    const auto all = first(4);
    const Array total = md::map([](const md::Part& part) { return sum(part.data, {.dtype = DType::float64}); }, x, all,
                                {.combine = md::Combine::sum});
    EXPECT_NEAR(host_of<double>(total)[0], host_of<double>(sum(x, {.dtype = DType::float64}))[0], 1e-9);
    const Array largest = md::map([](const md::Part& part) { return amax(part.data); }, x, all,
                                  {.combine = md::Combine::max, .out_device = all.back()});
    EXPECT_EQ(largest.device(), all.back());
    EXPECT_EQ(host_of<float>(largest), host_of<float>(amax(x)));

    const HistogramOptions bins{.bins = std::int64_t{16}, .range = BinRange{-1.0, 1.0}};
    const Array counts = md::map([&](const md::Part& part) { return histogram(part.data, bins).hist; }, x, all,
                                 {.combine = md::Combine::sum});
    EXPECT_EQ(host_of<std::int64_t>(counts), host_of<std::int64_t>(histogram(x, bins).hist));

    // reduce() itself: partials on different devices, one result on the one asked for.
    std::vector<Array> partials;
    for (const Device& device : all) partials.push_back(random_array({4}, 20 + device.ordinal(), device));
    std::vector<float> product(4, 1.0f);
    for (const Array& p : partials) {
        const auto v = host_of<float>(p);
        for (std::size_t i = 0; i < 4; ++i) product[i] *= v[i];
    }
    const Array reduced = md::reduce(partials, md::ReduceOp::prod, all[1]);
    EXPECT_EQ(reduced.device(), all[1]);
    const auto got = host_of<float>(reduced);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(got[i], product[i]);
}

TEST_F(MultiDevice, MatmulByRowBlocksWithTheRightHandSideOnEveryDevice) {
    const Array a = random_array({37, 19}, 11);
    const Array b = random_array({19, 8}, 12);
    const auto all = first(4);
    const std::vector<Array> b_on = md::broadcast(b, all);
    ASSERT_EQ(b_on.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(b_on[i].device(), all[i]);
    const Array product = md::map([&](const md::Part& part) { return matmul(part.data, b_on[part.index]); }, a, all);
    const auto expected = host_of<float>(matmul(a, b));
    const auto got = host_of<float>(product);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-5) << i;
}

TEST_F(MultiDevice, Conv2dWithHalosMatchesOneDevice) {
    const Array image = random_array({29, 17}, 13);
    for (const std::int64_t kernel_rows : {3, 4, 5}) {
        const Array kernel = random_array({kernel_rows, 3}, 14);
        const signal::Convolve2dOptions same{.mode = ConvolveMode::same};
        const auto expected = host_of<float>(signal::convolve2d(image, kernel, same));
        for (std::size_t count = 1; count <= 4; ++count) {
            const auto devices = first(count);
            const std::vector<Array> kernels = md::broadcast(kernel, devices);
            const Array result =
                md::map([&](const md::Part& part) { return signal::convolve2d(part.data, kernels[part.index], same); },
                        image, devices, {.halo = kernel_rows / 2});
            const auto got = host_of<float>(result);
            ASSERT_EQ(got.size(), expected.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                ASSERT_NEAR(got[i], expected[i], 1e-5)
                    << "kernel rows " << kernel_rows << ", " << count << " devices, " << i;
        }
    }
}

TEST_F(MultiDevice, PartsRunAtOnceOnTheCallersStreams) {
    const auto all = first(4);
    const Array x = random_array({64}, 15);
    Stream stream(all[1]);
    const StreamScope scope(stream);
    std::atomic<std::size_t> started{0};
    std::atomic<bool> together{true};
    std::atomic<bool> callers_stream{false};
    (void)md::map(
        [&](const md::Part& part) {
            // Each part waits (a bounded time) for every other to start: only threads running at once all get through.
            ++started;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (started.load() < all.size())
                if (std::chrono::steady_clock::now() > deadline) {
                    together = false;
                    break;
                }
            EXPECT_EQ(Device::current(), part.device());
            if (part.device() == all[1]) callers_stream = current_stream(all[1]) == stream.ref();
            return part.data.copy();
        },
        x, all);
    EXPECT_TRUE(together.load()) << "the parts' functions did not run at the same time";
    EXPECT_TRUE(callers_stream.load()) << "the work on device 1 did not run on the caller's current stream there";
}

TEST_F(MultiDevice, AFailureNamesItsDeviceAfterTheOthersFinish) {
    if (devices().size() < 4) GTEST_SKIP() << "needs four devices (the simulator's four run it)";
    const auto all = first(4);
    const Array x = random_array({40}, 16);
    std::atomic<int> finished{0};
    try {
        (void)md::map(
            [&](const md::Part& part) {
                if (part.index == 2) throw std::runtime_error("planted failure");
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                ++finished;
                return part.data.copy();
            },
            x, all);
        FAIL() << "the failure was not raised";
    } catch (const md::PartFailedError& e) {
        EXPECT_EQ(finished.load(), 3);
        EXPECT_EQ(e.part(), 2U);
        EXPECT_EQ(e.device(), all[2].ordinal());
        EXPECT_EQ(e.failures(), 1U);
        expect_contains(e.what(), all[2].describe());
        expect_contains(e.what(), "entries [20, 30) along axis 0");
        expect_contains(e.what(), "planted failure");
        EXPECT_THROW(std::rethrow_exception(e.cause()), std::runtime_error);
    }
    // A result left on another device is refused, naming both.
    const std::string message = GPUKIT_MESSAGE_OF(
        md::PartFailedError, (void)md::map([&](const md::Part& part) { return part.data.to_device(all[0]); }, x, all));
    expect_contains(message, "the function returned an array on " + all[0].describe());
    expect_contains(message, "and on 2 more devices");
}

TEST_F(MultiDevice, BadInputsAreRefused) {
    const Array x = random_array({10, 4}, 17);
    const auto all = first(4);
    EXPECT_THROW((void)md::split(x, std::span<const Device>{}), InvalidArgumentError);
    EXPECT_THROW((void)md::split(random_array({}, 1), all), InvalidArgumentError);
    EXPECT_THROW((void)md::split(x, all, {.axis = 2}), AxisError);
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, (void)md::split(x, all, {.halo = -1})), "halo=-1");
    // 10 rows on 4 devices: parts of 3, 3, 2 and 2 rows; a halo of 3 would reach past a neighbour.
    if (all.size() == 4) {
        expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, (void)md::split(x, all, {.halo = 3})),
                        "the part of entries [6, 8) has only 2");
        EXPECT_NO_THROW((void)md::split(x, all, {.halo = 2}));
    }
    // Concatenating results that lost their halos' rows cannot crop them.
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError,
                                      (void)md::map([](const md::Part& part) { return part.interior().copy(); }, x, all,
                                                    {.halo = 1})),
                    "must keep the part's extent with its halos");
    EXPECT_THROW((void)md::reduce(std::span<const Array>{}, md::ReduceOp::sum, all[0]), InvalidArgumentError);
    EXPECT_THROW((void)md::reduce_op_from_name("mean"), InvalidArgumentError);
    EXPECT_THROW((void)md::combine_from_name("add"), InvalidArgumentError);
    EXPECT_THROW((void)md::gather(std::span<const Array>{}, all[0]), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
