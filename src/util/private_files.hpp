// src/util/private_files.hpp: files that no other user can plant, replace or read first.
//
// gpukit writes compiled code to disk and loads it again (the simulator's scratch files and shared
// objects, the compile cache). Anyone who can write such a file, or put a symbolic link where it
// will be written, runs code as the user who loads it. So: scratch files live in a directory made
// by mkdtemp (mode 0700) and are created with O_EXCL|O_NOFOLLOW, never through a name that could
// already exist; files read back are opened with O_NOFOLLOW|O_NONBLOCK (a planted symbolic link
// is not followed, a planted FIFO never blocks) and checked on the open descriptor: a regular
// file, owned by this user, writable by no one else. Directories are checked the same way.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gpukit::detail {

// An open file descriptor, closed when destroyed (-1: none).
class FileDescriptor {
public:
    FileDescriptor() = default;
    explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
    FileDescriptor(FileDescriptor&& other) noexcept;
    FileDescriptor& operator=(FileDescriptor&& other) noexcept;
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor();

    int get() const noexcept { return fd_; }
    bool is_open() const noexcept { return fd_ >= 0; }

private:
    int fd_ = -1;
};

// "a FIFO", "a directory", "a symbolic link", "a character device", ...: what `mode` says a file is.
std::string_view file_kind(mode_t mode);

// Why `user` must not trust a file or directory with this status: it belongs to another user, or
// its group or others may write it. nullopt when neither is so. Names the owner and the mode.
std::optional<std::string> trust_problem(const struct stat& status, uid_t user);

// What opening a file that must be this user's own found.
struct OwnedFile {
    enum Outcome {
        opened,   // `fd` is the file: a regular file, the user's, writable by no one else
        absent,   // nothing to use: no such file (or directory on the way), or one that cannot be
                  // opened or made (no permission, a read-only file system)
        refused,  // something else is there: `problem` says what, naming the path
    };
    Outcome outcome = absent;
    FileDescriptor fd;
    std::string problem;
};

// Opens `base`/`relative` (`relative`: one or more plain names, no "..") with `flags` (O_RDONLY or
// O_RDWR, with O_CREAT to create a missing file with mode 0600). `base` is followed if it is a
// symbolic link (the user chose it); no part of `relative` is. `base`, every directory on the way
// and the file must pass trust_problem for the calling user, and the file must be a regular file.
// Never blocks, never throws for what it finds.
OwnedFile open_owned_file(const std::filesystem::path& base, const std::filesystem::path& relative, int flags);
// The same for the file `name` of a directory already opened (and checked) as `directory`;
// `shown`: the file's path, for the problem's wording.
OwnedFile open_owned_file_at(int directory, const std::string& name, int flags, const std::filesystem::path& shown);
// Opens the directory `base`/`relative` (`relative` may be empty: `base` itself) with the same
// checks; with `create`, missing directories of `relative` are made with mode 0700.
OwnedFile open_owned_directory(const std::filesystem::path& base, const std::filesystem::path& relative, bool create);

// The bytes of an open file, from its start; nullopt when a read fails.
std::optional<std::string> read_descriptor(int fd);

// Makes `path` a directory of this user's if it is missing (each directory created with mode
// 0700), then checks it: nullopt when it is a directory that passes trust_problem, else why not
// (naming the path, its owner and mode). Follows symbolic links, which the user chose.
std::optional<std::string> make_private_directory(const std::filesystem::path& path);

// Creates `path` with `bytes` and `mode`, failing if anything (a file, a symbolic link) is there
// already: O_CREAT|O_EXCL|O_NOFOLLOW. Throws gpukit::Error naming the path when it cannot.
void write_new_file(const std::filesystem::path& path, std::string_view bytes, mode_t mode = 0600);

// A directory only this user can enter, created by mkdtemp (mode 0700) under the temporary
// directory ($TMPDIR, else /tmp), and removed with everything in it when destroyed, by the process
// that created it only (a forked child's copy of the object leaves it to its parent).
class PrivateDirectory {
public:
    // `prefix`: the start of the directory's name, e.g. "gpukit-sim-". Throws gpukit::Error.
    explicit PrivateDirectory(std::string_view prefix);
    // Adopts a directory made by another process of this program (the simulator's device process
    // made it and died), to remove it.
    static PrivateDirectory adopt(std::filesystem::path path);
    PrivateDirectory(PrivateDirectory&& other) noexcept;
    PrivateDirectory& operator=(PrivateDirectory&&) = delete;
    PrivateDirectory(const PrivateDirectory&) = delete;
    PrivateDirectory& operator=(const PrivateDirectory&) = delete;
    ~PrivateDirectory() { remove(); }

    const std::filesystem::path& path() const noexcept { return path_; }
    // The process that created it, the only one that removes it.
    pid_t creator() const noexcept { return creator_; }

    // Creates `relative` (plain names separated by '/', no "..", not absolute) inside, with the
    // directories on the way (mode 0700), as write_new_file does. Returns its full path. Throws
    // InvalidArgumentError for a name that would leave the directory, gpukit::Error otherwise.
    std::filesystem::path write_file(std::string_view relative, std::string_view bytes, mode_t mode = 0600) const;
    // Creates the directory `relative` (mode 0700) and those on the way; returns its full path.
    std::filesystem::path make_directory(std::string_view relative) const;

    // Copies everything inside to a new directory `destination`/<this directory's name>, creating
    // files with O_EXCL|O_NOFOLLOW and following no symbolic link. `destination` is created if
    // missing and must be this user's and writable by no one else: otherwise InvalidArgumentError
    // naming it, its owner and mode. Returns the copy's path.
    std::filesystem::path copy_to(const std::filesystem::path& destination) const;

    // Removes the directory and what it holds now (a no-op for a moved-from object, or in another
    // process than the one that made it: a forked child's copy leaves it to its parent). Never throws.
    void remove() noexcept;
    // Removes it when the program exits, for a directory whose owner lives to the end.
    void remove_at_exit() const;

private:
    PrivateDirectory() = default;
    std::filesystem::path path_;
    pid_t creator_ = 0;
};

// This process's own private directory ("gpukit-<pid>-XXXXXX" under $TMPDIR), made on first use
// and removed with everything in it when the process exits normally. A forked child that calls
// it gets a directory of its own. Throws gpukit::Error when it cannot be made.
const PrivateDirectory& process_private_directory();

// Whether `relative` is a name that stays inside the directory it is taken in: not empty, not
// absolute, no "." or ".." part, no empty part, no NUL.
bool is_contained_name(std::string_view relative);

}  // namespace gpukit::detail
