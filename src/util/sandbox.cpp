// src/util/sandbox.cpp: user, mount, network and IPC namespaces, read-only mounts, a private
// tmpfs, no capabilities and a small seccomp deny list; see sandbox.hpp.
#include "util/sandbox.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace fs = std::filesystem;

namespace {

#ifndef SYS_mount_setattr
constexpr long sys_mount_setattr = 442;  // the same number on every architecture
#else
constexpr long sys_mount_setattr = SYS_mount_setattr;
#endif
constexpr unsigned mount_attr_read_only = 0x1;  // MOUNT_ATTR_RDONLY
constexpr unsigned at_recursive = 0x8000;       // AT_RECURSIVE
struct MountAttributes {                        // struct mount_attr
    std::uint64_t set, clear, propagation, user_namespace;
};

#if defined(__x86_64__)
constexpr std::uint32_t audit_arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t audit_arch = AUDIT_ARCH_AARCH64;
#endif

[[noreturn]] void refused(std::string_view step, int error) {
    throw BackendUnavailableError(
        concat("Cannot enter the sandbox: ", step, " was refused (", std::strerror(error),
               "). It needs Linux user namespaces without privilege (kernel.unprivileged_userns_clone, "
               "user.max_user_namespaces or AppArmor's apparmor_restrict_unprivileged_userns may forbid them): "
               "allow them, or run only kernels you trust without the sandbox"));
}

void write_text(const char* path, const std::string& text) {
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) refused(concat("opening ", path), errno);
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int error = errno;
    ::close(fd);
    if (!written) refused(concat("writing ", path), error);
}

// Every mount read-only: at once where the kernel has mount_setattr (5.12), else one by one,
// keeping the flags a user namespace may not clear.
void make_mounts_read_only() {
    MountAttributes attributes{mount_attr_read_only, 0, 0, 0};
    if (::syscall(sys_mount_setattr, AT_FDCWD, "/", at_recursive, &attributes, sizeof attributes) == 0) return;
    if (errno != ENOSYS) refused("making the mounts read-only (mount_setattr)", errno);
    std::ifstream mounts("/proc/self/mountinfo");
    std::vector<std::string> points;
    for (std::string line; std::getline(mounts, line);) {
        std::size_t at = 0;
        for (int field = 0; field < 4 && at != std::string::npos; ++field) at = line.find(' ', at + 1);
        if (at == std::string::npos) continue;
        points.push_back(line.substr(at + 1, line.find(' ', at + 1) - at - 1));
    }
    for (const std::string& point : points) {
        struct statvfs status {};
        if (::statvfs(point.c_str(), &status) != 0) continue;  // hidden under a later mount
        unsigned long kept = 0;
        for (auto [vfs, flag] : {std::pair{ST_NOSUID, MS_NOSUID},
                                 {ST_NODEV, MS_NODEV},
                                 {ST_NOEXEC, MS_NOEXEC},
                                 {ST_NOATIME, MS_NOATIME},
                                 {ST_NODIRATIME, MS_NODIRATIME},
                                 {ST_RELATIME, MS_RELATIME}})
            if (status.f_flag & vfs) kept |= flag;
        if (::mount(nullptr, point.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | kept, nullptr) != 0)
            refused(concat("remounting ", point, " read-only"), errno);
    }
}

// Refuses calls of another architecture, and the listed calls with EPERM.
void install_filter() {
#if defined(__x86_64__) || defined(__aarch64__)
    const long denied[] = {
        SYS_socket,      SYS_ptrace, SYS_process_vm_readv,     SYS_process_vm_writev, SYS_add_key,
        SYS_request_key, SYS_keyctl, 425 /* io_uring_setup */, 426 /* enter */,       427 /* register */};
    std::vector<sock_filter> program = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, audit_arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
    };
    for (const long number : denied) {
        program.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(number), 0, 1));
        program.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    }
    program.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    const sock_fprog filter{static_cast<unsigned short>(program.size()), program.data()};
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter, 0, 0) != 0) refused("the seccomp filter", errno);
#else
    throw BackendUnavailableError("The sandbox knows x86-64 and aarch64 Linux only: run only kernels you trust");
#endif
}

// With SandboxOptions::own_pids: forks; the caller waits for the child and ends as it ends, and
// the child returns, process 1 of the PID namespace unshare() made for the caller's children.
void enter_own_pid_namespace(const SandboxOptions& options) {
    int go[2];
    if (::pipe2(go, O_CLOEXEC) != 0) refused("a pipe to the sandbox's first process", errno);
    const pid_t child = ::fork();
    if (child < 0) refused("starting the sandbox's first process (fork)", errno);
    if (child > 0) {
        ::close(go[0]);
        if (options.child_started) options.child_started(child);
        const char start = 1;
        if (::write(go[1], &start, 1) != 1) ::kill(child, SIGKILL);
        int status = 0;
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        if (WIFSIGNALED(status)) {
            // The same end as the child's, for whoever waits for this process.
            const int signal = WTERMSIG(status);
            ::signal(signal, SIG_DFL);
            sigset_t only;
            sigemptyset(&only);
            sigaddset(&only, signal);
            ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
            ::raise(signal);
        }
        ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
    }
    ::close(go[1]);
    // Dies with the caller; if the caller died before this, the pipe says so (no byte, end of file).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    char start = 0;
    if (::read(go[0], &start, 1) != 1) ::_exit(1);
    ::close(go[0]);
    ::setsid();  // no process group or session shared with a process outside
    // A /proc of the new namespace, where the kernel allows it (a container that masks parts of
    // /proc does not): without it the old one shows the other processes, which can still not be
    // reached by their numbers.
    ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, nullptr);
}

}  // namespace

void enter_sandbox(const fs::path& private_tmp, const SandboxOptions& options) {
    const uid_t user = ::geteuid();
    const gid_t group = ::getegid();
    const int namespaces =
        CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | (options.own_pids ? CLONE_NEWPID : 0);
    if (::unshare(namespaces) != 0) refused("a new user namespace (unshare)", errno);
    write_text("/proc/self/setgroups", "deny");
    write_text("/proc/self/uid_map", concat(user, " ", user, " 1"));  // the same user inside: files stay yours
    write_text("/proc/self/gid_map", concat(group, " ", group, " 1"));
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)  // nothing propagates out
        refused("making the mounts private", errno);
    make_mounts_read_only();
    if (::mount("tmpfs", private_tmp.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0)
        refused(concat("mounting a private tmpfs on ", private_tmp.string()), errno);
    ::setenv("TMPDIR", private_tmp.c_str(), 1);
    if (options.own_pids) enter_own_pid_namespace(options);
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) refused("no_new_privs", errno);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[2] = {};
    if (::syscall(SYS_capset, &header, none) != 0) refused("dropping the capabilities", errno);
    install_filter();
}

}  // namespace gpukit::detail
