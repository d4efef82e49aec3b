"""``gpukit check --sandbox``: the check in a child process that cannot reach the network, write
anywhere but a private temporary directory, or see, signal or trace other processes.

On the simulator a kernel is native code running with your rights; the sandbox lets you check one
you do not trust. The child is a fresh interpreter running this file by path, so that nothing of
gpukit, NumPy or their threads exists yet (a process must be single-threaded to enter a user
namespace). It then, without any privilege:

- enters new user, mount, network, IPC and PID namespaces (unshare(2)): no network interface but
  a loopback that is down; no System V IPC or abstract socket shared with the rest of the machine;
  no other process visible, so none can be signalled or traced;
- makes every mount read-only (mount_setattr(2), recursively) and mounts an empty tmpfs, mode
  0700, on a fresh directory that becomes TMPDIR: the only place it can write;
- mounts its own /proc where the kernel allows it (other processes' details vanish too);
- gives up every capability and sets no_new_privs, so nothing it runs can undo the above (remount
  read-write, unmount the tmpfs), and installs a seccomp filter refusing socket(2) (Unix sockets
  on the read-only file system would still connect), io_uring, the kernel keyring, ptrace(2) and
  process_vm_readv/writev;
- runs in a session of its own with no terminal (TIOCSTI cannot type into your shell): its
  output comes back through pipes.

Then it runs ``gpukit check`` as usual. It still reads what you can read (read-only), uses the CPU
and memory it likes (the per-launch time limit of ``gpukit check`` still applies) and prints what it
likes to its output. The compile cache is read, never written, from inside.
"""

import ctypes
import errno
import os
import platform
import struct
import sys

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = (0x00020000, 0x08000000, 0x10000000,
                                                                       0x20000000, 0x40000000)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = (
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18)
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP = 1, 38, 22
SECCOMP_MODE_FILTER = 2
AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = -100, 0x8000, 0x1

# Per machine: the seccomp architecture tag, and the numbers of the calls the filter refuses
# (socket, ptrace, process_vm_readv/writev, add_key, request_key, keyctl, io_uring_setup/enter/
# register), capset and mount_setattr.
MACHINES = {
    "x86_64": {"arch": 0xC000003E, "refused": (41, 101, 310, 311, 248, 249, 250, 425, 426, 427),
               "capset": 126, "mount_setattr": 442},
    "aarch64": {"arch": 0xC00000B7, "refused": (198, 117, 270, 271, 217, 218, 219, 425, 426, 427),
                "capset": 91, "mount_setattr": 442},
}


class SandboxError(OSError):
    """The sandbox could not be entered: the kernel does not offer what it needs."""


def run(argv, private_parent=None):
    """Runs ``gpukit <argv>`` in the sandbox; returns its exit status. Its standard output and error
    come through this process's. ``private_parent``: where the private temporary directory is made
    (default: $TMPDIR)."""
    import selectors
    import shutil
    import signal
    import subprocess
    import tempfile

    temporary = tempfile.mkdtemp(prefix="gpukit-sandbox-", dir=private_parent)  # mode 0700
    command = [sys.executable, os.path.abspath(__file__), temporary, *argv]
    try:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True)
        try:
            relay = selectors.DefaultSelector()
            relay.register(child.stdout, selectors.EVENT_READ, sys.stdout)
            relay.register(child.stderr, selectors.EVENT_READ, sys.stderr)
            while relay.get_map():
                for key, _ in relay.select():
                    data = os.read(key.fileobj.fileno(), 65536)
                    if not data:
                        relay.unregister(key.fileobj)
                        continue
                    key.data.flush()
                    key.data.buffer.write(data)
                    key.data.flush()
            return child.wait()
        finally:
            if child.poll() is None:  # interrupted: the whole sandbox goes (its PID namespace with it)
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


# --- inside the child ----------------------------------------------------------------------------------

_libc = None


def _ulong(value):
    """A variadic argument as the kernel reads it: a whole register."""
    return ctypes.c_ulong(value)


def _call(function, *args):
    result = function(*args)
    if result < 0:
        error = ctypes.get_errno()
        raise SandboxError(error, f"{function.__name__}: {os.strerror(error)}")
    return result


def _write(path, text):
    with open(path, "w") as file:
        file.write(text)


def _enter_namespaces():
    uid, gid = os.getuid(), os.getgid()
    _call(_libc.unshare, CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID)
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")  # the same user inside: files stay yours
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def _read_only_everywhere(machine):
    _call(_libc.mount, None, b"/", None, MS_REC | MS_PRIVATE, None)  # nothing propagates out
    attributes = struct.pack("QQQQ", MOUNT_ATTR_RDONLY, 0, 0, 0)  # struct mount_attr
    result = _libc.syscall(ctypes.c_long(machine["mount_setattr"]), ctypes.c_long(AT_FDCWD), b"/",
                           ctypes.c_long(AT_RECURSIVE), attributes, ctypes.c_long(len(attributes)))
    if result == 0:
        return
    if ctypes.get_errno() != errno.ENOSYS:
        raise SandboxError(ctypes.get_errno(), f"mount_setattr: {os.strerror(ctypes.get_errno())}")
    # Before Linux 5.12: each mount on its own, keeping the flags a user namespace may not clear.
    with open("/proc/self/mountinfo") as mounts:
        points = [line.split()[4].encode().decode("unicode_escape").encode() for line in mounts]
    for point in points:
        try:
            flags = os.statvfs(point).f_flag
        except OSError:
            continue  # hidden under a later mount
        kept = 0
        for statvfs_flag, mount_flag in ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV),
                                         (os.ST_NOEXEC, MS_NOEXEC), (os.ST_NOATIME, MS_NOATIME),
                                         (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME)):
            kept |= mount_flag if flags & statvfs_flag else 0
        _call(_libc.mount, None, point, None, MS_REMOUNT | MS_BIND | MS_RDONLY | kept, None)


def _seccomp_filter(machine):
    """A classic BPF program: refuse calls of another architecture and the listed ones with EPERM."""
    load, jump_equal, jump_at_least, ret = 0x20, 0x15, 0x35, 0x06
    allow, refuse = 0x7FFF0000, 0x00050000 | errno.EPERM
    refused = machine["refused"]
    # 0: load arch; 1: another -> refuse; 2: load nr; 3: x32 numbers -> refuse; then one test per call.
    count = 4 + len(refused) + 2
    deny_at = count - 1

    def to_deny(i):
        return deny_at - i - 1

    program = [(load, 0, 0, 4), (jump_equal, 0, to_deny(1), machine["arch"]), (load, 0, 0, 0),
               (jump_at_least, to_deny(3), 0, 0x40000000)]
    for number in refused:
        program.append((jump_equal, to_deny(len(program)), 0, number))
    program += [(ret, 0, 0, allow), (ret, 0, 0, refuse)]
    code = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
    buffer = ctypes.create_string_buffer(code)
    fprog = struct.pack("HxxxxxxP", len(program), ctypes.addressof(buffer))  # struct sock_fprog
    return buffer, fprog


def _give_up_privileges(machine):
    _call(_libc.prctl, PR_SET_NO_NEW_PRIVS, _ulong(1), _ulong(0), _ulong(0), _ulong(0))
    header = struct.pack("Ii", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    nothing = bytes(24)  # two __user_cap_data_struct: effective, permitted, inheritable all empty
    _call(_libc.syscall, ctypes.c_long(machine["capset"]), header, nothing)
    buffer, fprog = _seccomp_filter(machine)
    _call(_libc.prctl, PR_SET_SECCOMP, _ulong(SECCOMP_MODE_FILTER), fprog, _ulong(0), _ulong(0))
    return buffer


def _enter(temporary):
    """Enters the sandbox; returns in the process that runs the check (PID 1 of its namespace)."""
    global _libc
    machine = MACHINES.get(platform.machine())
    if machine is None:
        raise SandboxError(errno.ENOSYS, f"the sandbox knows x86-64 and aarch64 Linux, not {platform.machine()}")
    _libc = ctypes.CDLL(None, use_errno=True)
    _libc.syscall.restype = ctypes.c_long
    _libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p)
    _enter_namespaces()  # in a session of its own already (start_new_session): no terminal
    _read_only_everywhere(machine)
    _call(_libc.mount, b"tmpfs", temporary.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, ctypes.c_char_p(b"mode=0700"))
    pid = os.fork()  # the first child is PID 1 of the new PID namespace
    if pid:
        _, status = os.waitpid(pid, 0)
        os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)
    _call(_libc.prctl, PR_SET_PDEATHSIG, _ulong(9), _ulong(0), _ulong(0), _ulong(0))  # SIGKILL with the parent
    try:
        _call(_libc.mount, b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    except SandboxError:
        pass  # a /proc with parts hidden (a container's) cannot be mounted again: the host's stays, read-only
    os.environ["TMPDIR"] = temporary
    return _give_up_privileges(machine)


def _main():
    sys.path.pop(0)  # this file's folder (gpukit/cli) is no place to import from
    temporary, argv = sys.argv[1], sys.argv[2:]
    try:
        keep = _enter(temporary)  # noqa: F841 (the filter's code must outlive the prctl call)
    except (OSError, SandboxError) as error:
        print(f"gpukit check: error: cannot enter the sandbox: {error}. It needs Linux user namespaces "
              "(kernel.unprivileged_userns_clone, user.max_user_namespaces, or AppArmor's "
              "apparmor_restrict_unprivileged_userns may forbid them); run without --sandbox only kernels you "
              "trust", file=sys.stderr)
        sys.exit(2)
    import runpy

    sys.argv = ["gpukit", *argv]
    runpy.run_module("gpukit", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _main()
