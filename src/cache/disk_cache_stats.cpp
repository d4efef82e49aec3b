// src/cache/disk_cache_stats.cpp: the statistics file, read and updated under flock(2).
#include "cache/disk_cache_stats.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <charconv>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "gpukit/error.hpp"
#include "util/private_files.hpp"
#include "util/text.hpp"
#include "util/warning.hpp"

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

// The statistics file of `cache_directory`, opened as cache entries are: a symbolic link, FIFO,
// directory or device planted in its place, or a file another user owns or can write, is skipped
// with a warning and reads as no file.
FileDescriptor open_stats(const fs::path& cache_directory, int open_flags) {
    OwnedFile file = open_owned_file(cache_directory, "stats", open_flags);
    if (file.outcome == OwnedFile::refused)
        warn_once(concat("compile cache: skipped ", file.problem,
                         "; the cache's statistics are kept only in a regular file that is yours and that no one "
                         "else can write (remove it, or run `gpukit cache clear`)"));
    return std::move(file.fd);  // not open unless opened
}

// An open descriptor holding a flock, both released on scope exit.
class LockedFile {
public:
    LockedFile(const fs::path& cache_directory, int open_flags, int lock)
        : fd_(open_stats(cache_directory, open_flags)) {
        if (fd_.is_open() && ::flock(fd_.get(), lock) != 0) fd_ = FileDescriptor();
    }

    bool is_open() const noexcept { return fd_.is_open(); }

    std::string read_all() const { return read_descriptor(fd_.get()).value_or(std::string()); }

    // False when the file could not be rewritten; a short write leaves a damaged file, which
    // parses as fewer counts: advisory, as documented.
    bool replace_with(const std::string& text) const {
        return ::pwrite(fd_.get(), text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()) &&
               ::ftruncate(fd_.get(), static_cast<off_t>(text.size())) == 0;
    }

private:
    FileDescriptor fd_;  // closing releases the flock
};

}  // namespace

DiskCacheStatsFile::DiskCacheStatsFile(const fs::path& cache_directory) : path_(cache_directory / "stats") {}

void DiskCacheStatsFile::add(const DiskCacheStats& delta) const noexcept {
    try {
        LockedFile file(path_.parent_path(), O_RDWR | O_CREAT, LOCK_EX);
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
        LockedFile file(path_.parent_path(), O_RDONLY, LOCK_SH);
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
