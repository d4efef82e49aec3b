// tests/device/collectives_test.cpp: gpukit's collectives (gpukit/collectives.hpp) against host
// arithmetic, in both modes (one process over every device; a rank per thread meeting by a
// UniqueId), and the bad inputs that must raise on every rank rather than hang. On the simulator:
// its four devices (main.cpp); on GPUs: NCCL, skipped where it is missing or there is one GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "device/device_test_fixture.hpp"
#include "gpukit/collectives.hpp"

namespace gpukit::testing {
namespace {

using namespace std::chrono_literals;

class Collectives : public DeviceTest {
protected:
    void SetUp() override {
        DeviceTest::SetUp();
        if (IsSkipped() || HasFailure()) return;
        if (devices().size() < 2) GTEST_SKIP() << "needs two devices; this machine has " << devices().size();
        try {
            static_cast<void>(UniqueId::create(device(0)));
        } catch (const BackendUnavailableError& e) {
            GTEST_SKIP() << "no collectives here: " << e.what();
        }
    }

    static std::vector<Device> some_devices(std::size_t n) {
        auto all = devices();
        all.erase(all.begin() + static_cast<std::ptrdiff_t>(std::min(n, all.size())), all.end());
        return all;
    }

    // Random floats per rank, each on its rank's device.
    static std::vector<std::vector<float>> values_per_rank(std::size_t ranks, std::size_t n) {
        std::vector<std::vector<float>> values;
        for (std::size_t r = 0; r < ranks; ++r) values.push_back(random_floats(n, static_cast<unsigned>(11 + r)));
        return values;
    }
    static Communicator::Arrays arrays_of(const std::vector<std::vector<float>>& values,
                                          const std::vector<Device>& on) {
        Communicator::Arrays arrays;
        for (std::size_t r = 0; r < values.size(); ++r)
            arrays.push_back(Array::from_host(std::span<const float>(values[r]),
                                              {static_cast<std::int64_t>(values[r].size())}, on[r]));
        return arrays;
    }

    // Runs `body(rank)` on one thread per rank; returns each rank's exception (null: none).
    static std::vector<std::exception_ptr> on_threads(int ranks, const std::function<void(int)>& body) {
        std::vector<std::exception_ptr> failures(static_cast<std::size_t>(ranks));
        std::vector<std::thread> threads;
        for (int r = 0; r < ranks; ++r)
            threads.emplace_back([&, r] {
                try {
                    body(r);
                } catch (...) {
                    failures[static_cast<std::size_t>(r)] = std::current_exception();
                }
            });
        for (auto& thread : threads) thread.join();
        return failures;
    }

    template <class E>
    static std::string message_of(const std::exception_ptr& failure) {
        try {
            if (failure) std::rethrow_exception(failure);
        } catch (const E& e) {
            return e.what();
        } catch (const std::exception& e) {
            return std::string("another exception: ") + e.what();
        }
        return "no exception";
    }
};

TEST_F(Collectives, AllReduceOverDevicesMatchesTheHostForEveryOp) {
    const auto on = some_devices(3);
    auto comm = Communicator::over(on);
    EXPECT_EQ(comm.size(), static_cast<int>(on.size()));
    const std::size_t n = 1001;
    const auto values = values_per_rank(on.size(), n);
    const auto inputs = arrays_of(values, on);
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg}) {
        const auto outputs = comm.all_reduce(inputs, op);
        ASSERT_EQ(outputs.size(), on.size());
        for (std::size_t r = 0; r < on.size(); ++r) {
            EXPECT_EQ(outputs[r].device(), on[r]);
            const auto got = outputs[r].to_vector<float>();
            for (std::size_t i = 0; i < n; i += 97) {
                float expected = op == ReduceOp::avg ? values[0][i] / static_cast<float>(on.size()) : values[0][i];
                for (std::size_t k = 1; k < on.size(); ++k) {
                    const float v = values[k][i];
                    switch (op) {
                        case ReduceOp::sum: expected += v; break;
                        case ReduceOp::prod: expected *= v; break;
                        case ReduceOp::max: expected = std::max(expected, v); break;
                        case ReduceOp::min: expected = std::min(expected, v); break;
                        case ReduceOp::avg: expected += v / static_cast<float>(on.size()); break;
                    }
                }
                EXPECT_NEAR(got[i], expected, 1e-5f) << to_string(op) << " rank " << r << " element " << i;
            }
        }
    }
}

TEST_F(Collectives, AllReduceInPlaceAndIntegersWrapAsOnTheGpu) {
    const auto on = some_devices(2);
    auto comm = Communicator::over(on);
    const std::vector<std::int32_t> a{2147483647, -7, 5}, b{1, -2, -9};
    Communicator::Arrays arrays{Array::from_host(std::span<const std::int32_t>(a), {3}, on[0]),
                                Array::from_host(std::span<const std::int32_t>(b), {3}, on[1])};
    const auto results = comm.all_reduce(arrays, ReduceOp::sum, arrays);
    EXPECT_EQ(results[0].address(), arrays[0].address());  // in place
    const std::vector<std::int32_t> expected{-2147483647 - 1, -9, -4};
    EXPECT_EQ(arrays[0].to_vector<std::int32_t>(), expected);
    EXPECT_EQ(arrays[1].to_vector<std::int32_t>(), expected);
    const auto average = comm.all_reduce({Array::from_host(std::span<const std::int32_t>(b), {3}, on[0]),
                                          Array::from_host(std::span<const std::int32_t>(b), {3}, on[1])},
                                         ReduceOp::avg);
    EXPECT_EQ(average[1].to_vector<std::int32_t>(), b);
}

TEST_F(Collectives, HalfPrecisionFloatsReduceInFloatAndRoundOnce) {
    const auto on = some_devices(3);
    auto comm = Communicator::over(on);
    const std::size_t n = 515;
    const auto values = values_per_rank(on.size(), n);
    const auto inputs = arrays_of(values, on);
    for (DType dtype : {DType::float16, DType::bfloat16}) {
        Communicator::Arrays narrow;
        std::vector<std::vector<float>> rounded;
        for (const auto& input : inputs) {
            narrow.push_back(input.astype(dtype));
            rounded.push_back(narrow.back().astype(DType::float32).to_vector<float>());
        }
        for (ReduceOp op : {ReduceOp::sum, ReduceOp::max, ReduceOp::avg}) {
            const auto results = comm.all_reduce(narrow, op);
            const auto got = results[1].astype(DType::float32).to_vector<float>();
            for (std::size_t i = 0; i < n; ++i) {
                float expected = op == ReduceOp::max ? rounded[0][i] : 0.0f;
                for (const auto& r : rounded)
                    expected = op == ReduceOp::max ? std::max(expected, r[i]) : expected + r[i];
                if (op == ReduceOp::avg) expected /= static_cast<float>(on.size());
                EXPECT_NEAR(got[i], expected, dtype == DType::bfloat16 ? 2e-2f : 3e-3f)
                    << to_string(dtype) << " " << to_string(op) << " element " << i;
            }
        }
    }
}

TEST_F(Collectives, ReduceBroadcastAllGatherAndReduceScatterOverDevices) {
    const auto on = some_devices(4);
    const auto size = static_cast<std::int64_t>(on.size());
    auto comm = Communicator::over(on);
    const std::size_t n = 4 * 5;
    const auto values = values_per_rank(on.size(), n);
    const auto inputs = arrays_of(values, on);
    std::vector<float> sum(n, 0.0f);
    for (const auto& v : values)
        for (std::size_t i = 0; i < n; ++i) sum[i] += v[i];

    const auto reduced = comm.reduce(inputs, 1);
    ASSERT_TRUE(reduced.has_value());
    EXPECT_EQ(reduced->device(), on[1]);
    const auto got = reduced->to_vector<float>();
    for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(got[i], sum[i], 1e-5f);

    auto copies = arrays_of(values, on);
    comm.broadcast(copies, static_cast<int>(size - 1));
    for (const auto& copy : copies) EXPECT_EQ(copy.to_vector<float>(), values.back());

    const auto gathered = comm.all_gather(inputs);
    for (const auto& g : gathered) {
        EXPECT_EQ(g.shape(), (Shape{size, static_cast<std::int64_t>(n)}));
        const auto all = g.to_vector<float>();
        for (std::size_t r = 0; r < on.size(); ++r)
            EXPECT_TRUE(
                std::equal(values[r].begin(), values[r].end(), all.begin() + static_cast<std::ptrdiff_t>(r * n)));
    }

    const auto scattered = comm.reduce_scatter(inputs);
    for (std::size_t r = 0; r < on.size(); ++r) {
        const std::size_t part = n / on.size();
        EXPECT_EQ(scattered[r].shape(), (Shape{static_cast<std::int64_t>(part)}));
        const auto mine = scattered[r].to_vector<float>();
        for (std::size_t i = 0; i < part; ++i) EXPECT_NEAR(mine[i], sum[r * part + i], 1e-5f);
    }
}

TEST_F(Collectives, StridedArraysAreCopiedInAndOut) {
    const auto on = some_devices(2);
    auto comm = Communicator::over(on);
    const auto values = values_per_rank(2, 6 * 4);
    Communicator::Arrays matrices;
    for (std::size_t r = 0; r < 2; ++r)
        matrices.push_back(Array::from_host(std::span<const float>(values[r]), {6, 4}, on[r]).transpose());
    const Communicator::Arrays outputs{Array::empty({6, 4}, DType::float32, on[0]).transpose(),
                                       Array::empty({6, 4}, DType::float32, on[1]).transpose()};
    comm.all_reduce(matrices, ReduceOp::sum, outputs);
    for (std::size_t r = 0; r < 2; ++r) {
        const auto got = outputs[r].copy().to_vector<float>();
        const auto a = matrices[0].copy().to_vector<float>(), b = matrices[1].copy().to_vector<float>();
        for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], a[i] + b[i], 1e-6f);
    }
}

TEST_F(Collectives, RanksOnThreadsMeetByAUniqueId) {
    const int ranks = static_cast<int>(some_devices(4).size());
    const auto id = UniqueId::create(device(0));
    EXPECT_EQ(UniqueId::from_bytes(id.bytes()), id);
    const std::size_t n = 333;
    const auto values = values_per_rank(static_cast<std::size_t>(ranks), n);
    std::vector<std::vector<float>> sums(static_cast<std::size_t>(ranks)), gathered(static_cast<std::size_t>(ranks));
    const auto failures = on_threads(ranks, [&](int rank) {
        const Device mine = device(rank);
        Communicator comm(id, rank, ranks, mine, {.timeout = 60s});
        EXPECT_EQ(comm.ranks(), std::vector<int>{rank});
        const auto& v = values[static_cast<std::size_t>(rank)];
        const Array x = Array::from_host(std::span<const float>(v), {static_cast<std::int64_t>(n)}, mine);
        sums[static_cast<std::size_t>(rank)] = comm.all_reduce({x})[0].to_vector<float>();
        gathered[static_cast<std::size_t>(rank)] = comm.all_gather({x})[0].to_vector<float>();
        const auto reduced = comm.reduce({x}, 0, ReduceOp::max);
        EXPECT_EQ(reduced.has_value(), rank == 0);
    });
    for (const auto& failure : failures) EXPECT_EQ(message_of<Error>(failure), "no exception");
    for (int r = 0; r < ranks; ++r)
        for (std::size_t i = 0; i < n; i += 37) {
            float expected = 0;
            for (const auto& v : values) expected += v[i];
            EXPECT_NEAR(sums[static_cast<std::size_t>(r)][i], expected, 1e-5f);
            EXPECT_EQ(gathered[static_cast<std::size_t>(r)][static_cast<std::size_t>(r) * n + i],
                      values[static_cast<std::size_t>(r)][i]);
        }
}

TEST_F(Collectives, ArraysThatDifferBetweenRanksAreRefusedBeforeAnythingRuns) {
    const auto on = some_devices(2);
    auto comm = Communicator::over(on);
    const auto a = Array::empty({10}, DType::float32, on[0]), b = Array::empty({12}, DType::float32, on[1]);
    EXPECT_THROW(comm.all_reduce({a, b}), InvalidArgumentError);
    EXPECT_THROW(comm.all_reduce({a, Array::empty({10}, DType::float64, on[1])}), InvalidArgumentError);
    EXPECT_THROW(comm.all_reduce({a, a}), InvalidArgumentError);  // rank 1's array on rank 0's device
    EXPECT_THROW(comm.all_reduce({a}), InvalidArgumentError);     // one array for two ranks
    EXPECT_THROW(comm.reduce({a, a.to_device(on[1])}, 2), InvalidArgumentError);
    EXPECT_THROW(comm.all_reduce({Array::empty({3}, DType::int16, on[0]), Array::empty({3}, DType::int16, on[1])}),
                 InvalidArgumentError);
    EXPECT_THROW(comm.all_reduce({Array::empty({3}, DType::bool_, on[0]), Array::empty({3}, DType::bool_, on[1])}),
                 InvalidArgumentError);
    EXPECT_THROW(Communicator::over({on[0], on[0]}), InvalidArgumentError);
    EXPECT_THROW(static_cast<void>(device(static_cast<int>(devices().size()))), InvalidArgumentError);
}

// Every rank of a communicator whose ranks call with different sizes gets an InvalidArgumentError,
// with the exchange before the call and without it (the simulator compares the calls itself).
TEST_F(Collectives, RanksOnThreadsThatDisagreeAllFailInsteadOfHanging) {
    // Unverified, NCCL cannot see the disagreement: its ranks would wait in a kernel until the
    // timeout (documented); the host implementation sees it at the meeting either way.
    for (bool verify : {true, false}) {
        if (!verify && !on_simulator()) continue;
        const auto id = UniqueId::create(device(0));
        const auto failures = on_threads(2, [&](int rank) {
            Communicator comm(id, rank, 2, device(rank), {.timeout = 60s, .verify_calls = verify});
            comm.all_reduce({Array::empty({10 + rank}, DType::float32, device(rank))});
        });
        for (const auto& failure : failures) {
            const std::string message = message_of<InvalidArgumentError>(failure);
            EXPECT_NE(message.find("same"), std::string::npos) << "verify " << verify << ": " << message;
        }
    }
}

TEST_F(Collectives, ARankThatRefusesItsArgumentsFailsEveryRank) {
    // Unverified on NCCL, the other rank learns of it only at its timeout (the refusing rank aborts
    // its own communicator, not the other's): a minute, too long for the suite.
    for (bool verify : {true, false}) {
        if (!verify && !on_simulator()) continue;
        const auto id = UniqueId::create(device(0));
        const auto failures = on_threads(2, [&](int rank) {
            Communicator comm(id, rank, 2, device(rank), {.timeout = 60s, .verify_calls = verify});
            const DType dtype = rank == 1 ? DType::bool_ : DType::uint8;  // bool cannot be summed
            comm.all_reduce({Array::empty({4}, dtype, device(rank))});
        });
        EXPECT_NE(message_of<InvalidArgumentError>(failures[1]).find("bool"), std::string::npos);
        EXPECT_NE(message_of<Error>(failures[0]), "no exception") << "verify " << verify;
    }
}

TEST_F(Collectives, ARankThatNeverCallsEndsTheOthersWaitAtTheTimeout) {
    if (!on_simulator()) GTEST_SKIP() << "NCCL's ranks would wait in a kernel; this runs on the simulator";
    const auto id = UniqueId::create(device(0));
    const auto start = std::chrono::steady_clock::now();
    const auto failures = on_threads(2, [&](int rank) {
        Communicator comm(id, rank, 2, device(rank), {.timeout = 0.5s});
        if (rank == 0) comm.all_reduce({Array::empty({4}, DType::float32, device(rank))});
        if (rank == 1) std::this_thread::sleep_for(2s);  // alive but silent
    });
    EXPECT_NE(message_of<WaitTimeoutError>(failures[0]).find("did not"), std::string::npos)
        << message_of<WaitTimeoutError>(failures[0]);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST_F(Collectives, ARankThatLeavesFailsTheOthersAtOnce) {
    if (!on_simulator()) GTEST_SKIP() << "NCCL's ranks would wait in a kernel; this runs on the simulator";
    const auto id = UniqueId::create(device(0));
    const auto failures = on_threads(2, [&](int rank) {
        Communicator comm(id, rank, 2, device(rank), {.timeout = 600s});
        if (rank == 1) throw Error("rank 1 gave up");  // its communicator goes with it
        comm.all_reduce({Array::empty({4}, DType::float32, device(rank))});
    });
    EXPECT_NE(message_of<Error>(failures[0]).find("left"), std::string::npos) << message_of<Error>(failures[0]);
}

TEST_F(Collectives, AFailedStreamFailsTheCollectiveOnEveryRank) {
    if (!on_simulator()) GTEST_SKIP() << "on a GPU a faulting kernel is a sticky error";
    if (checking_everything()) GTEST_SKIP() << "check mode stops the access before it happens";
    const auto on = some_devices(2);
    auto comm = Communicator::over(on);
    Stream faulty(on[1]);
    auto kernel =
        Module::compile(R"(extern "C" __global__ void bad(int* p) { p[1 << 28] = 1; })", {}, on[1]).kernel("bad");
    DeviceBuffer out(on[1], 16);
    // Everything else is loaded and done before the fault: only the faulty stream's work follows it.
    const Array a = Array::empty({8}, DType::float32, on[0]);
    a.fill(1.0f);
    const Array b = Array::empty({8}, DType::float32, on[1]);
    b.fill(0.0f);
    on[0].synchronize();
    on[1].synchronize();
    kernel({.grid = 1, .block = 1, .stream = faulty}, out);
    {
        StreamScope scope(faulty);
        b.fill(2.0f);  // skipped: the stream is stopped by the fault
        comm.all_reduce({a, b}, ReduceOp::sum, {a, b});
    }
    EXPECT_THROW(faulty.synchronize(), KernelFaultError);
    try {
        static_cast<void>(a.to_vector<float>());
        ADD_FAILURE() << "rank 0 did not learn that rank 1's stream skipped the collective";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("skipped"), std::string::npos) << e.what();
    }
}

TEST_F(Collectives, AnIdOfAnotherKindIsRefused) {
    if (!on_simulator()) GTEST_SKIP() << "NCCL takes any 128 bytes and finds out at its bootstrap";
    std::array<std::byte, unique_id_bytes> zeros{};
    EXPECT_THROW(Communicator(UniqueId::from_bytes(zeros), 0, 1, device(0)), InvalidArgumentError);
    EXPECT_THROW(UniqueId::from_bytes(std::span<const std::byte>(zeros.data(), 5)), InvalidArgumentError);
    EXPECT_THROW(Communicator(UniqueId::create(device(0)), 2, 2, device(0)), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
