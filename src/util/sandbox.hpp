// src/util/sandbox.hpp: the sandbox a process enters before it runs kernels it does not trust.
//
// On the simulator a kernel is native code with the user's rights. A process that enters this
// sandbox keeps reading what the user can read, but:
// - it has a network namespace of its own, with no interface but a loopback that is down, and a
//   seccomp filter refuses socket(2) (Unix sockets on the read-only file system would connect);
// - every mount is read-only to it, recursively, and an empty tmpfs (mode 0700) on `private_tmp`
//   becomes $TMPDIR, the one place it can write;
// - it has no System V IPC shared with the machine, no capability, no_new_privs (nothing it runs
//   can undo the above), and ptrace(2), process_vm_readv/writev, the kernel keyring and io_uring
//   are refused.
// Asked for, it also gets a PID namespace of its own (SandboxOptions::own_pids): the caller forks,
// and the child, process 1 of a namespace holding only it and what it starts, can then see,
// signal or trace no other process (`kill(-1, SIGKILL)` reaches nothing of the user's), with a
// /proc of its own where the kernel allows mounting one. Without it the sandboxed process still
// sees, and can signal, the user's other processes. All of it without privilege, through a user
// namespace (unshare(2)), which the kernel may forbid (kernel.unprivileged_userns_clone=0,
// user.max_user_namespaces=0, AppArmor's apparmor_restrict_unprivileged_userns): then the error
// says so. python/gpukit/cli/_sandbox.py does the same for `gpukit check --sandbox`, for a whole
// interpreter; the simulator's device process (backends/sim/device_process.hpp) enters it with
// own_pids for set_sandbox(true).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>

namespace gpukit::detail {

struct SandboxOptions {
    // A PID namespace of its own too. enter_sandbox then forks and returns in the child, process
    // 1 of the new namespace; the caller stays in enter_sandbox, waits for the child and ends as
    // it ends (the same exit status, or the same signal), and the child is killed when the caller
    // ends (PR_SET_PDEATHSIG), so that whoever supervises the caller supervises the child.
    bool own_pids = false;
    // With own_pids: runs in the caller with the child's process id (as the caller's namespace
    // numbers it), before the child goes on.
    std::function<void(pid_t)> child_started;
};

// Enters the sandbox. The calling process must be single-threaded (the kernel refuses a user
// namespace to a threaded one): call it in a child just forked or started, before it starts any
// thread. `private_tmp`: an existing empty directory that becomes the private $TMPDIR. Cannot be
// left. Throws BackendUnavailableError naming the step the kernel refused and what to change.
void enter_sandbox(const std::filesystem::path& private_tmp, const SandboxOptions& options = {});

}  // namespace gpukit::detail
