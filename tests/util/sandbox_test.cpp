// tests/util/sandbox_test.cpp: what a process that entered the sandbox can no longer do, and the
// one place it can still write. Each case runs in a forked child (the sandbox cannot be left).
#include "util/sandbox.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
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

// What the child saw, one bit each.
enum Seen : int {
    entered = 1 << 0,
    wrote_outside = 1 << 1,
    wrote_private_tmp = 1 << 2,
    made_inet_socket = 1 << 3,
    connected = 1 << 4,
    traced_parent = 1 << 5,
    tmpdir_is_private = 1 << 6,
    signalled_outside = 1 << 7,  // kill(0) reached the test's process, or any process but itself
    is_process_one = 1 << 8,
};

// Runs the sandbox in a forked child that tries each thing; returns what worked, or -1 with the
// reason the kernel refused the sandbox in `why`.
int probe(const fs::path& outside, const fs::path& private_tmp, int port, std::string& why,
          const SandboxOptions& options = {}) {
    const pid_t test_process = getpid();
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) return -2;
    const pid_t child = fork();
    if (child == 0) {
        close(pipe_ends[0]);
        int seen = 0;
        try {
            enter_sandbox(private_tmp, options);
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
        if (::kill(test_process, 0) == 0 || ::kill(-1, 0) == 0) seen |= signalled_outside;
        if (getpid() == 1) seen |= is_process_one;
        // More bits than an exit status holds: through the pipe.
        const std::string text = "seen " + std::to_string(seen);
        std::_Exit(::write(pipe_ends[1], text.data(), text.size()) < 0 ? 100 : 0);
    }
    close(pipe_ends[1]);
    char buffer[4096];
    for (ssize_t got; (got = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
        why.append(buffer, static_cast<std::size_t>(got));
    close(pipe_ends[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status)) return -3;
    if (WEXITSTATUS(status) == 101) return -1;
    if (WEXITSTATUS(status) != 0 || why.rfind("seen ", 0) != 0) return -4;
    return std::stoi(why.substr(5));
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
    EXPECT_TRUE(seen & signalled_outside);  // without a PID namespace of its own, it can
    EXPECT_FALSE(seen & is_process_one);
    // The private tmp was a tmpfs of the child's: nothing it wrote is left in the directory.
    EXPECT_FALSE(fs::exists(private_tmp / "scratch"));
    std::printf("fork + enter_sandbox + probes + exit: %.2f ms\n",
                std::chrono::duration<double, std::milli>(took).count());
}

TEST(Sandbox, WithItsOwnPidsItSignalsNoOtherProcessAndEndsAsItsChildEnds) {
    const PrivateDirectory outside("gpukit-sandbox-test-");
    const fs::path private_tmp = outside.make_directory("tmp");
    pid_t child = 0;
    SandboxOptions options;
    options.own_pids = true;
    options.child_started = [&](pid_t started) { child = started; };  // in the waiting process: unseen here
    std::string why;
    const auto start = std::chrono::steady_clock::now();
    const int seen = probe(outside.path(), private_tmp, 1, why, options);
    const auto took = std::chrono::steady_clock::now() - start;
    if (seen == -1) GTEST_SKIP() << "this kernel forbids the sandbox: " << why;
    ASSERT_GE(seen, 0) << why;
    EXPECT_TRUE(seen & entered);
    EXPECT_TRUE(seen & is_process_one);
    EXPECT_FALSE(seen & signalled_outside);
    EXPECT_FALSE(seen & wrote_outside);
    EXPECT_FALSE(fs::exists(outside.path() / "written"));
    EXPECT_TRUE(seen & wrote_private_tmp);
    EXPECT_FALSE(seen & made_inet_socket);
    EXPECT_FALSE(seen & traced_parent);
    std::printf("fork + enter_sandbox with its own PIDs + probes + exit: %.2f ms\n",
                std::chrono::duration<double, std::milli>(took).count());
}

TEST(Sandbox, WithItsOwnPidsAChildKilledByASignalEndsItsWaiterTheSameWay) {
    const PrivateDirectory outside("gpukit-sandbox-test-");
    const fs::path private_tmp = outside.make_directory("tmp");
    const pid_t waiter = fork();
    if (waiter == 0) {
        SandboxOptions options;
        options.own_pids = true;
        try {
            enter_sandbox(private_tmp, options);
        } catch (const Error&) {
            std::_Exit(101);
        }
        ::signal(SIGSEGV, SIG_DFL);
        // Process 1 of a PID namespace ignores a signal it sends itself without a handler; a fault
        // is another matter.
        volatile int* nowhere = nullptr;
        *nowhere = 1;
        std::_Exit(0);
    }
    int status = 0;
    waitpid(waiter, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 101) GTEST_SKIP() << "this kernel forbids the sandbox";
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), SIGSEGV);
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
