// src/cache/disk_cache_stats.cpp: the statistics file, read and updated under flock(2).
#include "cache/disk_cache_stats.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <charconv>
#include <string>
#include <string_view>
#include <system_error>

#include "gpukit/error.hpp"

namespace gpukit::detail {

namespace {

namespace fs = std::filesystem;

// Each counter's name in the file, in the order it is written.
struct Field {
    std::string_view name;
    std::uint64_t DiskCacheStats::*counter;
};
constexpr Field fields[] = {
    {"hits", &DiskCacheStats::hits},
    {"misses", &DiskCacheStats::misses},
    {"corrupt_entries", &DiskCacheStats::corrupt_entries},
    {"evictions", &DiskCacheStats::evictions},
};

// "name value" lines; anything else (a line cut short by a crash, a stray edit) is skipped.
DiskCacheStats parse(std::string_view text) {
    DiskCacheStats stats;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        const auto space = line.find(' ');
        if (space == std::string_view::npos) continue;
        for (const Field& field : fields) {
            if (line.substr(0, space) != field.name) continue;
            std::uint64_t value = 0;
            const char* first = line.data() + space + 1;
            const char* last = line.data() + line.size();
            if (auto [ptr, error] = std::from_chars(first, last, value); error == std::errc{} && ptr == last)
                stats.*field.counter = value;
        }
    }
    return stats;
}

std::string format(const DiskCacheStats& stats) {
    std::string text;
    for (const Field& field : fields) {
        text += field.name;
        text += ' ';
        text += std::to_string(stats.*field.counter);
        text += '\n';
    }
    return text;
}

// An open descriptor holding a flock, both released on scope exit.
class LockedFile {
public:
    LockedFile(const fs::path& path, int open_flags, int lock)
        : fd_(::open(path.c_str(), open_flags | O_CLOEXEC, 0644)) {
        if (fd_ >= 0 && ::flock(fd_, lock) != 0) close();
    }
    ~LockedFile() { close(); }
    LockedFile(const LockedFile&) = delete;
    LockedFile& operator=(const LockedFile&) = delete;

    bool is_open() const noexcept { return fd_ >= 0; }

    std::string read_all() const {
        std::string text;
        char buffer[512];
        for (off_t offset = 0;;) {
            const ssize_t got = ::pread(fd_, buffer, sizeof buffer, offset);
            if (got <= 0) break;
            text.append(buffer, static_cast<std::size_t>(got));
            offset += got;
        }
        return text;
    }

    // False when the file could not be rewritten; a short write leaves a damaged file, which
    // parses as fewer counts: advisory, as documented.
    bool replace_with(const std::string& text) const {
        return ::pwrite(fd_, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()) &&
               ::ftruncate(fd_, static_cast<off_t>(text.size())) == 0;
    }

private:
    void close() noexcept {
        if (fd_ >= 0) ::close(fd_);  // closing releases the flock
        fd_ = -1;
    }
    int fd_;
};

}  // namespace

DiskCacheStatsFile::DiskCacheStatsFile(const fs::path& cache_directory) : path_(cache_directory / "stats") {}

void DiskCacheStatsFile::add(const DiskCacheStats& delta) const noexcept {
    try {
        LockedFile file(path_, O_RDWR | O_CREAT, LOCK_EX);
        if (!file.is_open()) return;
        DiskCacheStats stats = parse(file.read_all());
        for (const Field& field : fields) stats.*field.counter += delta.*field.counter;
        file.replace_with(format(stats));
    } catch (...) {
        // std::bad_alloc from a string this small: the counts are advisory, the lookup goes on.
    }
}

DiskCacheStats DiskCacheStatsFile::read() const noexcept {
    try {
        LockedFile file(path_, O_RDONLY, LOCK_SH);
        return file.is_open() ? parse(file.read_all()) : DiskCacheStats{};
    } catch (...) {
        return {};
    }
}

void DiskCacheStatsFile::remove() const {
    std::error_code error;
    fs::remove(path_, error);  // absent already is fine
    if (error) throw Error("cannot delete the compile cache's statistics " + path_.string() + ": " + error.message());
}

}  // namespace gpukit::detail
