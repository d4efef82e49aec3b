// src/util/private_directory.cpp: a directory only this user can enter.
#include "util/private_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace fs = std::filesystem;

PrivateDirectory::PrivateDirectory(std::string_view prefix) {
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / concat(prefix, "-XXXXXX")).string();
    if (!mkdtemp(pattern.data()))  // mode 0700, a name nobody could predict
        throw BackendUnavailableError(concat("Cannot create a private directory under ", base.string(), ": ",
                                             std::strerror(errno), ". Set TMPDIR to a writable directory"));
    path_ = pattern;
    owner_ = getpid();
}

PrivateDirectory PrivateDirectory::adopt(fs::path path) {
    PrivateDirectory directory;
    directory.path_ = std::move(path);
    directory.owner_ = getpid();
    return directory;
}

PrivateDirectory::~PrivateDirectory() { remove(); }

PrivateDirectory::PrivateDirectory(PrivateDirectory&& other) noexcept
    : path_(std::exchange(other.path_, {})), owner_(std::exchange(other.owner_, 0)) {}

fs::path PrivateDirectory::write_file(std::string_view name, std::string_view bytes, mode_t mode) const {
    if (name.empty() || name.find('/') != std::string_view::npos)
        throw InvalidArgumentError(
            concat("Cannot write '", name, "' into ", path_.string(), ": not a plain file name"));
    fs::path path = path_ / name;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) throw BackendUnavailableError(concat("Cannot create ", path.string(), ": ", std::strerror(errno)));
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int error = errno;
            close(fd);
            ::unlink(path.c_str());
            throw BackendUnavailableError(concat("Cannot write ", path.string(), ": ", std::strerror(error)));
        }
        written += static_cast<std::size_t>(n);
    }
    if (close(fd) != 0) {
        const int error = errno;
        ::unlink(path.c_str());
        throw BackendUnavailableError(concat("Cannot write ", path.string(), ": ", std::strerror(error)));
    }
    return path;
}

void PrivateDirectory::remove_at_exit() const {
    struct Entry {
        fs::path path;
        pid_t owner;
    };
    static std::mutex mutex;
    static auto* entries = new std::vector<Entry>;
    std::lock_guard lock(mutex);
    if (entries->empty())
        std::atexit([] {
            std::lock_guard inner(mutex);
            for (const auto& entry : *entries)
                if (entry.owner == getpid()) {
                    std::error_code ignored;
                    fs::remove_all(entry.path, ignored);
                }
        });
    entries->push_back({path_, owner_});
}

void PrivateDirectory::remove() noexcept {
    if (path_.empty() || owner_ != getpid()) return;
    std::error_code ignored;  // nothing to report to; a leftover directory is only untidy
    fs::remove_all(path_, ignored);
    path_.clear();
}

}  // namespace gpukit::detail
