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
// It does not hide other processes: the caller itself stays in its PID namespace, so kill(2) still
// reaches the user's other processes (`gpukit check --sandbox` adds a PID namespace by forking once
// more; a supervised device process can do the same). All of it without privilege, through a user
// namespace (unshare(2)), which the kernel may forbid (kernel.unprivileged_userns_clone=0,
// user.max_user_namespaces=0, AppArmor's apparmor_restrict_unprivileged_userns): then the error
// says so. python/gpukit/cli/_sandbox.py does the same for `gpukit check --sandbox`, for a whole
// interpreter.
#pragma once

#include <filesystem>

namespace gpukit::detail {

// Enters the sandbox. The calling process must be single-threaded (the kernel refuses a user
// namespace to a threaded one): call it in a child just forked, before it starts any thread.
// `private_tmp`: an existing empty directory that becomes the private $TMPDIR. Cannot be left.
// Throws BackendUnavailableError naming the step the kernel refused and what to change.
void enter_sandbox(const std::filesystem::path& private_tmp);

}  // namespace gpukit::detail
