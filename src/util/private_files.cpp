// src/util/private_files.cpp: mkdtemp directories, exclusive creation, and checked opens.
#include "util/private_files.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <system_error>
#include <utility>
#include <vector>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace {

namespace fs = std::filesystem;

std::string user_name(uid_t uid) {
    struct passwd entry {};
    struct passwd* found = nullptr;
    std::vector<char> buffer(4096);
    if (getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_name)
        return concat(found->pw_name, " (uid ", uid, ")");
    return concat("uid ", uid);
}

std::string octal_mode(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

std::string describe_errno(int error) { return std::generic_category().message(error); }

// Throws gpukit::Error: "<what>: <the error errno holds now>[; <advice>]". errno is read first.
template <class Describe>
[[noreturn]] void throw_errno(Describe what, std::string_view advice = {}) {
    const int error = errno;
    throw Error(concat(what(), ": ", describe_errno(error), advice.empty() ? "" : "; ", advice));
}

// The plain names of `relative`; empty when it is not a contained name.
std::vector<std::string> parts_of(std::string_view relative) {
    std::vector<std::string> parts;
    if (!is_contained_name(relative)) return parts;
    std::size_t start = 0;
    while (start <= relative.size()) {
        const std::size_t slash = std::min(relative.find('/', start), relative.size());
        parts.emplace_back(relative.substr(start, slash - start));
        start = slash + 1;
    }
    return parts;
}

// What is at `name` in the directory `dir`, described for a refusal: "a FIFO", "missing", ...
std::string kind_at(int dir, const char* name) {
    struct stat status {};
    if (fstatat(dir, name, &status, AT_SYMLINK_NOFOLLOW) != 0) return describe_errno(errno);
    return std::string(file_kind(status.st_mode));
}

OwnedFile refused(std::string problem) { return {OwnedFile::refused, FileDescriptor(), std::move(problem)}; }

std::optional<std::string> check_descriptor(int fd, const fs::path& path, bool directory) {
    struct stat status {};
    if (fstat(fd, &status) != 0) {
        const int error = errno;
        return concat(path.string(), ": ", describe_errno(error));
    }
    if (directory ? !S_ISDIR(status.st_mode) : !S_ISREG(status.st_mode))
        return concat(path.string(), " is ", file_kind(status.st_mode), ", not ",
                      directory ? "a directory" : "a regular file");
    if (auto problem = trust_problem(status, geteuid())) return concat(path.string(), " is ", *problem);
    return std::nullopt;
}

void write_all(int fd, std::string_view bytes, const fs::path& path) {
    while (!bytes.empty()) {
        const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) throw_errno([&] { return concat("Cannot write ", path.string()); });
        bytes.remove_prefix(static_cast<std::size_t>(wrote));
    }
}

// Copies the directory `source` (private: nothing in it can change under us) into a new directory
// `name` of the open directory `destination`, creating everything exclusively.
void copy_tree(const fs::path& source, int destination, const std::string& name, const fs::path& shown) {
    if (mkdirat(destination, name.c_str(), 0700) != 0)
        throw_errno([&] { return concat("Cannot create ", shown.string()); });
    FileDescriptor copy(openat(destination, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!copy.is_open()) throw_errno([&] { return concat("Cannot open ", shown.string()); });
    std::error_code error;
    for (fs::directory_iterator entry(source, error), end; !error && entry != end; entry.increment(error)) {
        const std::string child = entry->path().filename().string();
        struct stat status {};
        if (lstat(entry->path().c_str(), &status) != 0) continue;  // removed meanwhile: nothing to copy
        if (S_ISDIR(status.st_mode)) {
            copy_tree(entry->path(), copy.get(), child, shown / child);
        } else if (S_ISREG(status.st_mode)) {  // symbolic links and anything else are not copied
            FileDescriptor in(::open(entry->path().c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
            std::optional<std::string> bytes = in.is_open() ? read_descriptor(in.get()) : std::nullopt;
            if (!bytes) throw_errno([&] { return concat("Cannot read ", entry->path().string()); });
            FileDescriptor out(openat(copy.get(), child.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                      status.st_mode & 0700));
            if (!out.is_open()) throw_errno([&] { return concat("Cannot create ", (shown / child).string()); });
            write_all(out.get(), *bytes, shown / child);
        }
    }
    if (error) throw Error(concat("Cannot list ", source.string(), ": ", error.message()));
}

}  // namespace

FileDescriptor::FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
    FileDescriptor moved(std::move(other));
    std::swap(fd_, moved.fd_);
    return *this;
}

FileDescriptor::~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
}

std::string_view file_kind(mode_t mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "of an unknown kind";
}

std::optional<std::string> trust_problem(const struct stat& status, uid_t user) {
    std::string problem;
    if (status.st_uid != user)
        problem = concat("owned by ", user_name(status.st_uid), ", not by you (", user_name(user), ")");
    const bool by_group = (status.st_mode & S_IWGRP) != 0;
    const bool by_others = (status.st_mode & S_IWOTH) != 0;
    if (by_group || by_others) {
        if (!problem.empty()) problem += " and ";
        problem += concat("writable by ",
                          by_group && by_others ? "its group and others"
                          : by_group            ? "its group"
                                                : "others",
                          " (mode ", octal_mode(status.st_mode), ")");
    }
    if (problem.empty()) return std::nullopt;
    return problem;
}

namespace {

// Opens `base` (followed) and then each of `parts` (never followed) as directories, each checked;
// with `create`, missing ones are made (mode 0700).
OwnedFile open_directories(const fs::path& base, std::span<const std::string> parts, bool create, fs::path& shown) {
    shown = base;
    FileDescriptor dir(::open(base.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dir.is_open()) {
        // Not there or not ours to enter: nothing to read. Something else in its place: refused.
        if (errno != ENOTDIR) return {};
        return refused(concat(base.string(), " is not a directory"));
    }
    if (auto problem = check_descriptor(dir.get(), base, true)) return refused(*problem);
    for (const std::string& part : parts) {
        shown /= part;
        // A directory that cannot be made (a read-only file system) is simply not there.
        if (create && mkdirat(dir.get(), part.c_str(), 0700) != 0 && errno != EEXIST) return {};
        FileDescriptor next(openat(dir.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (!next.is_open()) {
            if (errno != ELOOP && errno != ENOTDIR) return {};  // not there, or not ours to enter
            return refused(concat(shown.string(), " is ", kind_at(dir.get(), part.c_str()), ", not a directory"));
        }
        if (auto problem = check_descriptor(next.get(), shown, true)) return refused(*problem);
        dir = std::move(next);
    }
    return {OwnedFile::opened, std::move(dir), {}};
}

}  // namespace

OwnedFile open_owned_directory(const fs::path& base, const fs::path& relative, bool create) {
    std::vector<std::string> parts;
    if (!relative.empty()) {
        parts = parts_of(relative.string());
        if (parts.empty()) return refused(concat(relative.string(), " is not a plain directory name"));
    }
    fs::path shown;
    return open_directories(base, parts, create, shown);
}

OwnedFile open_owned_file(const fs::path& base, const fs::path& relative, int flags) {
    const std::vector<std::string> parts = parts_of(relative.string());
    if (parts.empty()) return refused(concat(relative.string(), " is not a plain file name"));
    fs::path shown;
    OwnedFile dir = open_directories(base, std::span(parts).first(parts.size() - 1), false, shown);
    if (dir.outcome != OwnedFile::opened) return dir;
    return open_owned_file_at(dir.fd.get(), parts.back(), flags, shown / parts.back());
}

OwnedFile open_owned_file_at(int directory, const std::string& name, int flags, const fs::path& shown) {
    // Look before opening: opening a device can have effects of its own (a tape rewinds).
    struct stat status {};
    if (fstatat(directory, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0) {
        if (!S_ISREG(status.st_mode))
            return refused(concat(shown.string(), " is ", file_kind(status.st_mode), ", not a regular file"));
    } else if (errno != ENOENT || !(flags & O_CREAT)) {
        return {};  // not there, or not ours to look at
    }
    // O_NONBLOCK: whatever replaced the file since the look, a FIFO never blocks the open.
    FileDescriptor file(openat(directory, name.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600));
    if (!file.is_open()) {
        // A link put there since the look is refused; anything else (gone, a read-only file system,
        // no permission) only means there is nothing to use.
        if (errno == ELOOP) return refused(concat(shown.string(), " is a symbolic link"));
        return {};
    }
    if (auto problem = check_descriptor(file.get(), shown, false)) return refused(*problem);
    const int status_flags = fcntl(file.get(), F_GETFL);
    if (status_flags >= 0) fcntl(file.get(), F_SETFL, status_flags & ~O_NONBLOCK);
    return {OwnedFile::opened, std::move(file), {}};
}

std::optional<std::string> read_descriptor(int fd) {
    std::string bytes;
    char buffer[1 << 16];
    for (off_t offset = 0;;) {
        const ssize_t got = ::pread(fd, buffer, sizeof buffer, offset);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return std::nullopt;
        if (got == 0) return bytes;
        bytes.append(buffer, static_cast<std::size_t>(got));
        offset += got;
    }
}

std::optional<std::string> make_private_directory(const fs::path& path) {
    std::error_code error;
    if (!fs::exists(path, error)) {
        fs::path prefix;
        for (const fs::path& part : path) {
            prefix /= part;
            if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
                const int failure = errno;
                return concat("cannot create ", prefix.string(), ": ", describe_errno(failure));
            }
        }
    }
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        const int failure = errno;
        return concat(path.string(), ": ", describe_errno(failure));
    }
    if (!S_ISDIR(status.st_mode)) return concat(path.string(), " is ", file_kind(status.st_mode), ", not a directory");
    if (auto problem = trust_problem(status, geteuid())) return concat(path.string(), " is ", *problem);
    return std::nullopt;
}

void write_new_file(const fs::path& path, std::string_view bytes, mode_t mode) {
    FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (!file.is_open()) throw_errno([&] { return concat("Cannot create ", path.string()); });
    write_all(file.get(), bytes, path);
}

bool is_contained_name(std::string_view relative) {
    if (relative.empty() || relative.front() == '/' || relative.find('\0') != std::string_view::npos) return false;
    std::size_t start = 0;
    while (start <= relative.size()) {
        const std::size_t slash = std::min(relative.find('/', start), relative.size());
        const std::string_view part = relative.substr(start, slash - start);
        if (part.empty() || part == "." || part == "..") return false;
        start = slash + 1;
    }
    return true;
}

PrivateDirectory::PrivateDirectory(std::string_view prefix) {
    std::error_code error;
    const fs::path temporary = fs::temp_directory_path(error);
    if (error) throw Error(concat("Cannot find the temporary directory ($TMPDIR, /tmp): ", error.message()));
    std::string pattern = (temporary / concat(prefix, "XXXXXX")).string();
    if (!mkdtemp(pattern.data()))
        throw_errno([&] { return concat("Cannot create a private directory under ", temporary.string()); },
                    "set TMPDIR to a directory you can write");
    path_ = pattern;
    creator_ = getpid();
}

PrivateDirectory PrivateDirectory::adopt(fs::path path) {
    PrivateDirectory directory;
    directory.path_ = std::move(path);
    directory.creator_ = getpid();
    return directory;
}

PrivateDirectory::PrivateDirectory(PrivateDirectory&& other) noexcept
    : path_(std::exchange(other.path_, {})), creator_(std::exchange(other.creator_, 0)) {}

void PrivateDirectory::remove() noexcept {
    if (path_.empty() || getpid() != creator_) return;  // moved from, or a forked child's copy
    std::error_code ignored;                            // a leftover private directory is not worth an exception
    fs::remove_all(path_, ignored);
    path_.clear();
}

void PrivateDirectory::remove_at_exit() const {
    struct Entry {
        fs::path path;
        pid_t creator;
    };
    static std::mutex mutex;
    static auto* entries = new std::vector<Entry>;  // never destroyed: the exit handler reads it
    const std::lock_guard lock(mutex);
    if (entries->empty())
        std::atexit([] {
            const std::lock_guard inner(mutex);
            for (const auto& entry : *entries)
                if (entry.creator == getpid()) {
                    std::error_code ignored;
                    fs::remove_all(entry.path, ignored);
                }
        });
    entries->push_back({path_, creator_});
}

const PrivateDirectory& process_private_directory() {
    // Destroyed at exit, after everything constructed later (the module memo) is gone.
    static std::mutex mutex;
    static std::unique_ptr<PrivateDirectory> directory;
    std::lock_guard lock(mutex);
    if (!directory || !fs::is_directory(directory->path()) || directory->creator() != getpid()) {
        // After fork(): the parent's directory goes when the parent exits, so the child makes its own
        // (and releases the parent's object without removing anything: its destructor checks).
        directory = std::make_unique<PrivateDirectory>(concat("gpukit-", getpid(), "-"));
    }
    return *directory;
}

fs::path PrivateDirectory::make_directory(std::string_view relative) const {
    const std::vector<std::string> parts = parts_of(relative);
    if (parts.empty())
        throw InvalidArgumentError(concat("'", relative, "' is not a name inside a directory: use plain names ",
                                          "separated by '/', without '..' or a leading '/'"));
    fs::path at = path_;
    for (const std::string& part : parts) {
        at /= part;
        if (::mkdir(at.c_str(), 0700) == 0) continue;
        struct stat status {};
        if (errno != EEXIST || lstat(at.c_str(), &status) != 0 || !S_ISDIR(status.st_mode))
            throw_errno([&] { return concat("Cannot create the directory ", at.string()); });
    }
    return at;
}

fs::path PrivateDirectory::write_file(std::string_view relative, std::string_view bytes, mode_t mode) const {
    const std::size_t slash = relative.rfind('/');
    if (!is_contained_name(relative))
        throw InvalidArgumentError(concat("'", relative, "' is not a name inside a directory: use plain names ",
                                          "separated by '/', without '..' or a leading '/'"));
    const fs::path directory = slash == std::string_view::npos ? path_ : make_directory(relative.substr(0, slash));
    fs::path file = directory / std::string(relative.substr(slash == std::string_view::npos ? 0 : slash + 1));
    write_new_file(file, bytes, mode);
    return file;
}

fs::path PrivateDirectory::copy_to(const fs::path& destination) const {
    if (auto problem = make_private_directory(destination))
        throw InvalidArgumentError(concat("Cannot copy files to ", destination.string(), ": ", *problem,
                                          ". Choose a directory that is yours and that no one else can write ",
                                          "(gpukit creates a missing one with mode 0700)"));
    FileDescriptor target(::open(destination.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!target.is_open()) throw_errno([&] { return concat("Cannot open ", destination.string()); });
    if (auto problem = check_descriptor(target.get(), destination, true))  // it may have changed since
        throw InvalidArgumentError(concat("Cannot copy files to ", destination.string(), ": ", *problem));
    const std::string name = path_.filename().string();
    copy_tree(path_, target.get(), name, destination / name);
    return destination / name;
}

}  // namespace gpukit::detail
