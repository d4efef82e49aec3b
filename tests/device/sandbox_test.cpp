// tests/device/sandbox_test.cpp: gpukit::set_sandbox. Where the backend has a sandbox (the
// simulator, whose kernels are native code), a kernel that writes a file outside its private
// temporary directory, or makes a socket, fails inside it and works outside; where it has none,
// asking for it is refused with the backends that have one, and turning it off changes nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "device/device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

namespace fs = std::filesystem;

// Kernels are native code on the simulator: these make the system calls themselves.
constexpr const char* probes = R"(
extern "C" int open(const char*, int, ...);
extern "C" int close(int);
extern "C" long write(int, const void*, unsigned long);
extern "C" int socket(int, int, int);
extern "C" int* __errno_location(void);

// Creates `path` holding `byte`: 0, or the errno that refused it.
extern "C" __global__ void create_file(const char* path, unsigned char byte, int* result) {
  const int fd = open(path, 01 | 0100 | 01000 /* O_WRONLY|O_CREAT|O_TRUNC */, 0600);
  result[0] = fd >= 0 ? 0 : *__errno_location();
  if (fd >= 0) {
    if (write(fd, &byte, 1) != 1) result[0] = -1;
    close(fd);
  }
}

// An Internet socket: 0, or the errno that refused it.
extern "C" __global__ void make_socket(int* result) {
  const int s = socket(2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
  result[0] = s >= 0 ? 0 : *__errno_location();
  if (s >= 0) close(s);
}
)";

class Sandbox : public DeviceTest {
protected:
    void TearDown() override {
        if (!IsSkipped() && backend_info(tested_backend()).capabilities.sandbox) set_sandbox(false);
    }

    // Turns the sandbox on, or skips where this system forbids it.
    static bool enter() {
        try {
            set_sandbox(true);
            return true;
        } catch (const BackendUnavailableError& e) {
            set_sandbox(false);
            if (std::string(e.what()).find("namespace") == std::string::npos) throw;
            return false;
        }
    }

    static int create_file(const fs::path& path, unsigned char byte) {
        const std::string name = path.string();
        auto text = DeviceBuffer::from_host(std::span<const char>(name.c_str(), name.size() + 1));
        DeviceBuffer result(sizeof(int));
        memset(result.view(), 0xff);
        Module::compile(probes).kernel("create_file")({.grid = 1, .block = 1}, text, byte, result);
        int value = 0;
        copy(std::span<int>(&value, 1), result.view());
        return value;
    }

    static int make_socket() {
        DeviceBuffer result(sizeof(int));
        memset(result.view(), 0xff);
        Module::compile(probes).kernel("make_socket")({.grid = 1, .block = 1}, result);
        int value = 0;
        copy(std::span<int>(&value, 1), result.view());
        return value;
    }

    static std::string read_file(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
};

TEST_F(Sandbox, AKernelWritesOutsideItsTmpOnlyWithoutIt) {
    if (!selected_backend().capabilities.sandbox) GTEST_SKIP() << "this backend has no sandbox (tested below)";
    if (checking_everything()) GTEST_SKIP() << "the probes read errno, host memory, which memcheck rightly reports";
    const fs::path directory = fs::temp_directory_path() / ("gpukit-sandbox-device-test-" + std::to_string(getpid()));
    fs::create_directories(directory);
    const fs::path outside = directory / "outside";
    std::mt19937 random(std::random_device{}());
    const auto byte = static_cast<unsigned char>(1 + random() % 255);

    EXPECT_FALSE(sandboxed());
    EXPECT_EQ(create_file(outside, byte), 0);
    EXPECT_EQ(read_file(outside), std::string(1, static_cast<char>(byte)));
    fs::remove(outside);

    if (!enter()) {
        fs::remove_all(directory);
        GTEST_SKIP() << "this system forbids the sandbox";
    }
    EXPECT_TRUE(sandboxed());
    EXPECT_EQ(create_file(outside, byte), EROFS);
    EXPECT_FALSE(fs::exists(outside));
    EXPECT_EQ(make_socket(), EPERM);

    set_sandbox(false);
    EXPECT_FALSE(sandboxed());
    EXPECT_EQ(create_file(outside, byte ^ 0xff), 0);
    EXPECT_EQ(read_file(outside), std::string(1, static_cast<char>(byte ^ 0xff)));
    EXPECT_EQ(make_socket(), 0);
    fs::remove_all(directory);
}

TEST_F(Sandbox, ABackendWithoutOneRefusesItAndNamesThoseThatHaveOne) {
    if (selected_backend().capabilities.sandbox) GTEST_SKIP() << "this backend has a sandbox (tested above)";
    const std::string message = GPUKIT_MESSAGE_OF(BackendUnavailableError, set_sandbox(true));
    expect_contains(message, "Cannot run kernels in a sandbox: the " + selected_backend().name + " backend has none");
    for (const auto& info : backends())
        if (info.capabilities.sandbox) expect_contains(message, info.name);
    EXPECT_FALSE(sandboxed());
    set_sandbox(false);  // nothing to turn off
    EXPECT_FALSE(sandboxed());
}

}  // namespace
}  // namespace gpukit::testing
