// src/util/process.cpp: runs a program and collects what it prints.
#include "util/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "gpukit/error.hpp"
#include "util/text.hpp"

extern char** environ;

namespace gpukit::detail {

ProcessResult run_process(const std::vector<std::string>& argv) { return run_process(argv, {}); }

ProcessResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& directory) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0)
        throw BackendUnavailableError(concat("Cannot run ", argv.at(0), ": pipe failed: ", std::strerror(errno)));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    if (!directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, directory.c_str());
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    if (spawned != 0) {
        close(pipe_fds[0]);
        throw BackendUnavailableError(concat("Cannot run ", argv[0], ": ", std::strerror(spawned)));
    }
    ProcessResult result;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
        if (n > 0) {
            result.output.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
            break;
        }
    }
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string find_program(const std::vector<std::string>& names) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& name : names) {
        if (name.empty()) continue;
        if (name.find('/') != std::string::npos) {
            if (access(name.c_str(), X_OK) == 0) return fs::canonical(name, ec).string();
            continue;
        }
        const char* path = std::getenv("PATH");
        std::string dir;
        for (std::istringstream in(path ? path : "/usr/bin:/bin"); std::getline(in, dir, ':');) {
            const auto candidate = fs::path(dir.empty() ? "." : dir) / name;
            if (access(candidate.c_str(), X_OK) == 0) return fs::canonical(candidate, ec).string();
        }
    }
    return {};
}

}  // namespace gpukit::detail
