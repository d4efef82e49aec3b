// tests/util/sandbox_test.cpp: what a process that entered the sandbox can no longer do, and the
// one place it can still write. Each case runs in a forked child (the sandbox cannot be left).
#include "util/sandbox.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "gpukit/error.hpp"
#include "util/private_files.hpp"

namespace gpukit::detail {
namespace {

namespace fs = std::filesystem;

// What the child saw, one bit each; 1 << 0: entered.
enum Seen : int {
    entered = 1 << 0,
    wrote_outside = 1 << 1,
    wrote_private_tmp = 1 << 2,
    made_inet_socket = 1 << 3,
    connected = 1 << 4,
    traced_parent = 1 << 5,
    tmpdir_is_private = 1 << 6,
};

// Runs the sandbox in a forked child that tries each thing; returns what worked, or -1 with the
// reason the kernel refused the sandbox in `why`.
int probe(const fs::path& outside, const fs::path& private_tmp, int port, std::string& why) {
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) return -2;
    const pid_t child = fork();
    if (child == 0) {
        close(pipe_ends[0]);
        int seen = 0;
        try {
            enter_sandbox(private_tmp);
            seen |= entered;
        } catch (const Error& error) {
            const std::string text = error.what();
            if (::write(pipe_ends[1], text.data(), text.size()) < 0) std::_Exit(100);
            std::_Exit(101);
        }
        const int out = ::open((outside / "written").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (out >= 0) seen |= wrote_outside;
        const char* tmpdir = std::getenv("TMPDIR");
        if (tmpdir && fs::path(tmpdir) == private_tmp) seen |= tmpdir_is_private;
        if (::open((private_tmp / "scratch").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600) >= 0)
            seen |= wrote_private_tmp;
        const int s = ::socket(AF_INET, SOCK_STREAM, 0);
        if (s >= 0) seen |= made_inet_socket;
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(static_cast<std::uint16_t>(port));
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (s >= 0 && ::connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) seen |= connected;
        if (::ptrace(PTRACE_ATTACH, getppid(), nullptr, nullptr) == 0) seen |= traced_parent;
        std::_Exit(seen);
    }
    close(pipe_ends[1]);
    char buffer[4096];
    for (ssize_t got; (got = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
        why.append(buffer, static_cast<std::size_t>(got));
    close(pipe_ends[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status)) return -3;
    return WEXITSTATUS(status) == 101 ? -1 : WEXITSTATUS(status);
}

TEST(Sandbox, BlocksWritesOutsideItsTmpTheNetworkAndTracing) {
    const PrivateDirectory outside("gpukit-sandbox-test-");
    const fs::path private_tmp = outside.make_directory("tmp");
    // A listening socket outside, at a random port: a connection from inside must not reach it.
    const int server = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(server, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(server, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ASSERT_EQ(::listen(server, 1), 0);
    socklen_t length = sizeof address;
    ::getsockname(server, reinterpret_cast<sockaddr*>(&address), &length);

    std::string why;
    const auto start = std::chrono::steady_clock::now();
    const int seen = probe(outside.path(), private_tmp, ntohs(address.sin_port), why);
    const auto took = std::chrono::steady_clock::now() - start;
    ::close(server);
    if (seen == -1) GTEST_SKIP() << "this kernel forbids the sandbox: " << why;
    ASSERT_GE(seen, 0) << why;
    EXPECT_TRUE(seen & entered);
    EXPECT_FALSE(seen & wrote_outside);
    EXPECT_FALSE(fs::exists(outside.path() / "written"));
    EXPECT_TRUE(seen & wrote_private_tmp);
    EXPECT_TRUE(seen & tmpdir_is_private);
    EXPECT_FALSE(seen & made_inet_socket);
    EXPECT_FALSE(seen & connected);
    EXPECT_FALSE(seen & traced_parent);
    // The private tmp was a tmpfs of the child's: nothing it wrote is left in the directory.
    EXPECT_FALSE(fs::exists(private_tmp / "scratch"));
    std::printf("fork + enter_sandbox + probes + exit: %.2f ms\n",
                std::chrono::duration<double, std::milli>(took).count());
}

TEST(Sandbox, AMissingPrivateTmpIsANamedErrorOrTheKernelsRefusal) {
    const PrivateDirectory outside("gpukit-sandbox-test-");
    std::string why;
    const int seen = probe(outside.path(), outside.path() / "missing", 1, why);
    EXPECT_EQ(seen, -1);
    EXPECT_NE(why.find("Cannot enter the sandbox: "), std::string::npos) << why;
    EXPECT_NE(why.find("run only kernels you trust"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpukit::detail
