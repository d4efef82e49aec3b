// tests/backends/sim/device_protocol_test.cpp: what travels between the host and the simulator's
// device process survives the trip, and a reply the host cannot trust (the device process runs
// kernels, which in the sandbox may be hostile and can write the control block) is refused as
// cut short, never read past its end or trusted with an allocation.
#include "backends/sim/device_protocol.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gpukit/error.hpp"

namespace gpukit::detail::sim::protocol {
namespace {

std::vector<unsigned char> buffer(std::size_t bytes) { return std::vector<unsigned char>(bytes); }

TEST(DeviceProtocol, AModuleDescriptionSurvivesTheTrip) {
    std::mt19937_64 random(20240517);
    ModuleInfo info;
    for (int k = 0; k < 3; ++k) {
        KernelInfo kernel;
        kernel.name = "kernel_" + std::to_string(random() % 1000);
        for (int p = 0; p <= k; ++p) {
            kernel.param_sizes.push_back(1 + random() % 64);
            kernel.param_offsets.push_back(random() % 256);
        }
        kernel.synchronises = k % 2;
        kernel.static_shared_bytes = random() % 49152;
        info.kernels.push_back(kernel);
    }
    info.globals.emplace_back("table", GlobalInfo{0x200000001000 + random() % 4096, 1 + random() % 100});
    info.global_names = {"table"};
    info.check_tools = 5;
    auto bytes = buffer(4096);
    Writer out(bytes.data(), bytes.size());
    write_module_info(out, info);
    ASSERT_TRUE(out.complete());
    Reader in(bytes.data(), out.size());
    const ModuleInfo back = read_module_info(in);
    ASSERT_EQ(back.kernels.size(), info.kernels.size());
    for (std::size_t k = 0; k < info.kernels.size(); ++k) {
        EXPECT_EQ(back.kernels[k].name, info.kernels[k].name);
        EXPECT_EQ(back.kernels[k].param_sizes, info.kernels[k].param_sizes);
        EXPECT_EQ(back.kernels[k].param_offsets, info.kernels[k].param_offsets);
        EXPECT_EQ(back.kernels[k].synchronises, info.kernels[k].synchronises);
        EXPECT_EQ(back.kernels[k].static_shared_bytes, info.kernels[k].static_shared_bytes);
    }
    ASSERT_EQ(back.globals.size(), 1u);
    EXPECT_EQ(back.globals[0].second.address, info.globals[0].second.address);
    EXPECT_EQ(back.global_names, info.global_names);
    EXPECT_EQ(back.check_tools, info.check_tools);
    EXPECT_TRUE(in.done());
}

TEST(DeviceProtocol, ACountLargerThanTheReplyIsRefusedNotAllocated) {
    auto bytes = buffer(64);
    Writer out(bytes.data(), bytes.size());
    out.u64(std::uint64_t{1} << 60);  // "2^60 kernels follow"
    Reader in(bytes.data(), out.size());
    EXPECT_THROW(read_module_info(in), BackendUnavailableError);

    Writer result(bytes.data(), bytes.size());
    write_error(result, nullptr);
    result.u64(1000);  // hazards in all
    result.u64(999);   // hazards sent, in a reply of a few bytes
    Reader hazards(bytes.data(), result.size());
    EXPECT_THROW(read_result(hazards), BackendUnavailableError);
}

TEST(DeviceProtocol, ATextLongerThanTheReplyIsRefused) {
    auto bytes = buffer(64);
    Writer out(bytes.data(), bytes.size());
    out.u64(1);                       // one kernel
    out.u64(std::uint64_t{1} << 40);  // whose name is a terabyte long
    Reader in(bytes.data(), out.size());
    EXPECT_THROW(read_module_info(in), BackendUnavailableError);
}

TEST(DeviceProtocol, AnErrorKeepsItsTypeAndMessage) {
    auto bytes = buffer(1024);
    Writer out(bytes.data(), bytes.size());
    write_error(out, std::make_exception_ptr(UsageError("the reason, word for word")));
    Reader in(bytes.data(), out.size());
    const std::exception_ptr error = read_error(in);
    ASSERT_TRUE(error);
    try {
        std::rethrow_exception(error);
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "the reason, word for word");
    } catch (...) {
        FAIL() << "another type";
    }
}

}  // namespace
}  // namespace gpukit::detail::sim::protocol
