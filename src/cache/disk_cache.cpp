// src/cache/disk_cache.cpp: atomic writes, checked reads and LRU eviction of disk cache entries.
#include "cache/disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "cache/cache_entry.hpp"
#include "gpukit/error.hpp"
#include "util/private_files.hpp"
#include "util/text.hpp"
#include "util/warning.hpp"

namespace gpukit::detail {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view entry_extension = ".gkc";
constexpr std::string_view temporary_extension = ".tmp";
// A temporary file this old belongs to a writer that died; a younger one may still be renamed.
constexpr auto stale_temporary_age = std::chrono::minutes(1);

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool valid_key(std::string_view key) { return key.size() >= 2 && std::all_of(key.begin(), key.end(), is_lower_hex); }

bool is_shard_directory_name(const std::string& name) {
    return name.size() == 2 && is_lower_hex(name[0]) && is_lower_hex(name[1]);
}

// Unique among every writer on this machine: no two threads ever write the same temporary file.
std::string unique_temporary_suffix() {
    static std::atomic<std::uint64_t> counter{0};
    return std::to_string(::getpid()) + "-" + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) +
           "-" + std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

struct FileOnDisk {
    fs::path path;
    std::uint64_t bytes = 0;
    fs::file_time_type last_write;
};

struct CacheFiles {
    std::vector<FileOnDisk> entries;
    std::vector<FileOnDisk> temporaries;
};

// The cache's own files only: <2 hex digits>/<name>.gkc or .tmp, each a real directory and a
// regular file (a symbolic link is never followed). Anything else a user keeps in the directory is
// never counted nor deleted. Files that vanish meanwhile (another process evicting) are skipped.
CacheFiles list_cache_files(const fs::path& directory) {
    CacheFiles files;
    std::error_code error;
    for (fs::directory_iterator shard(directory, error), end; !error && shard != end; shard.increment(error)) {
        std::error_code shard_error;
        if (!is_shard_directory_name(shard->path().filename().string()) || !shard->is_directory(shard_error) ||
            shard->is_symlink(shard_error))
            continue;
        for (fs::directory_iterator file(shard->path(), shard_error); !shard_error && file != end;
             file.increment(shard_error)) {
            const std::string extension = file->path().extension().string();
            const bool is_entry = extension == entry_extension;
            if (!is_entry && extension != temporary_extension) continue;
            std::error_code file_error;
            if (!fs::is_regular_file(file->symlink_status(file_error))) continue;
            FileOnDisk found{file->path(), file->file_size(file_error), {}};
            if (file_error) continue;
            found.last_write = file->last_write_time(file_error);
            if (file_error) continue;
            (is_entry ? files.entries : files.temporaries).push_back(std::move(found));
        }
    }
    return files;
}

// A temporary file of an open shard directory, deleted on scope exit unless renamed into place.
class TemporaryFile {
public:
    TemporaryFile(int directory, std::string name) : directory_(directory), name_(std::move(name)) {}
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    ~TemporaryFile() {
        // A leftover is removed by a later eviction; a destructor must not throw.
        if (created_ && !renamed_) ::unlinkat(directory_, name_.c_str(), 0);
    }
    // Creates it (mode 0600, failing if anything is there) with `bytes`; false when it could not.
    bool write(std::string_view bytes) {
        FileDescriptor file(
            ::openat(directory_, name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!file.is_open()) return false;
        created_ = true;
        while (!bytes.empty()) {
            const ssize_t wrote = ::write(file.get(), bytes.data(), bytes.size());
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote <= 0) return false;
            bytes.remove_prefix(static_cast<std::size_t>(wrote));
        }
        return true;
    }
    bool rename_to(const std::string& target) {
        renamed_ = ::renameat(directory_, name_.c_str(), directory_, target.c_str()) == 0;
        return renamed_;
    }

private:
    int directory_;
    std::string name_;
    bool created_ = false;
    bool renamed_ = false;
};

// Says once per path that something not to be trusted sits where the cache looks, and that it is
// left alone.
void warn_skipped(const std::string& problem) {
    warn_once(concat("compile cache: skipped ", problem,
                     "; the cache reads only regular files that are yours and that no one else can write ",
                     "(remove it, or run `gpukit cache clear`)"));
}

}  // namespace

DiskCache::DiskCache(std::filesystem::path directory, std::uint64_t max_bytes)
    : directory_(std::move(directory)), max_bytes_(max_bytes) {}

fs::path DiskCache::entry_path(std::string_view key) const {
    return directory_ / std::string(key.substr(0, 2)) / (std::string(key) + std::string(entry_extension));
}

DiskCache::LoadResult DiskCache::load(std::string_view key) const {
    if (!valid_key(key))
        throw InvalidArgumentError("disk cache key must be lower-case hexadecimal, at least 2 digits: '" +
                                   std::string(key) + "'");
    // Absent or unreadable: a miss; storing may still work, or else every lookup compiles. Anything
    // but a regular file of this user's, writable by no one else, is never opened for reading.
    OwnedFile file = open_owned_file(directory_, entry_path(key).lexically_relative(directory_), O_RDONLY);
    if (file.outcome == OwnedFile::refused) warn_skipped(file.problem);
    if (file.outcome != OwnedFile::opened) return {};
    std::optional<std::string> bytes = read_descriptor(file.fd.get());
    if (!bytes) return {};
    std::optional<CompiledImage> image = decode_cache_entry(key, *bytes);
    if (!image) {
        std::error_code ignored;  // another process may have removed or replaced it already
        fs::remove(entry_path(key), ignored);
        return {LoadResult::corrupt, {}};
    }
    // A read-only cache still serves hits; its LRU order just goes stale.
    ::futimens(file.fd.get(), nullptr);
    return {LoadResult::hit, std::move(*image)};
}

bool DiskCache::store(std::string_view key, const CompiledImage& image) const {
    std::uint64_t evicted = 0;
    return store(key, image, evicted);
}

bool DiskCache::store(std::string_view key, const CompiledImage& image, std::uint64_t& evicted) const {
    // Every failure is swallowed on purpose and reported as false: see the header.
    try {
        if (!valid_key(key)) return false;
        const std::string entry = encode_cache_entry(key, image);
        if (entry.size() > max_bytes_) return false;

        if (auto problem = make_private_directory(directory_)) {
            warn_once(concat("compile cache: not storing compiled code: ", *problem));
            return false;
        }
        const fs::path target = entry_path(key);
        OwnedFile shard = open_owned_directory(directory_, target.parent_path().filename(), /*create=*/true);
        if (shard.outcome == OwnedFile::refused) warn_skipped(shard.problem);
        if (shard.outcome != OwnedFile::opened) return false;

        TemporaryFile temporary(shard.fd.get(),
                                std::string(key) + "." + unique_temporary_suffix() + std::string(temporary_extension));
        if (!temporary.write(entry)) return false;
        // No fsync: after a crash the entry may be short or empty, which the checksum turns into a
        // recompile. rename() replaces any entry of the same key atomically (same directory), and
        // whatever was planted there: a symbolic link or a FIFO is replaced, never written through.
        if (!temporary.rename_to(target.filename().string())) return false;
        evicted += evict_to(max_bytes_, &target);
        return true;
    } catch (...) {
        return false;
    }
}

DiskUsage DiskCache::usage() const {
    DiskUsage usage;
    for (const FileOnDisk& entry : list_cache_files(directory_).entries) {
        usage.bytes += entry.bytes;
        ++usage.entries;
    }
    return usage;
}

void DiskCache::clear() const {
    CacheFiles files = list_cache_files(directory_);
    std::vector<FileOnDisk> all = std::move(files.entries);
    all.insert(all.end(), files.temporaries.begin(), files.temporaries.end());
    for (const FileOnDisk& file : all) {
        std::error_code error;
        fs::remove(file.path, error);  // already gone (another process) is no error
        if (error) throw Error("cannot delete compile cache entry " + file.path.string() + ": " + error.message());
    }
    std::error_code error;
    for (fs::directory_iterator shard(directory_, error), end; !error && shard != end; shard.increment(error)) {
        std::error_code ignored;  // only empty shard directories go; a busy one stays, harmlessly
        if (is_shard_directory_name(shard->path().filename().string())) fs::remove(shard->path(), ignored);
    }
}

std::uint64_t DiskCache::evict_to(std::uint64_t max_bytes) const { return evict_to(max_bytes, nullptr); }

std::uint64_t DiskCache::evict_to(std::uint64_t max_bytes, const fs::path* keep) const {
    CacheFiles files = list_cache_files(directory_);
    const auto stale_before = fs::file_time_type::clock::now() - stale_temporary_age;
    for (const FileOnDisk& temporary : files.temporaries) {
        std::error_code ignored;  // best effort: the next eviction tries again
        if (temporary.last_write < stale_before) fs::remove(temporary.path, ignored);
    }

    std::uint64_t total = 0;
    for (const FileOnDisk& entry : files.entries) total += entry.bytes;
    if (total <= max_bytes) return 0;

    // Oldest use first, `keep` last; the path breaks ties so that equal times evict in a fixed order.
    std::sort(files.entries.begin(), files.entries.end(), [keep](const FileOnDisk& a, const FileOnDisk& b) {
        const bool a_kept = keep && a.path.filename() == keep->filename();
        const bool b_kept = keep && b.path.filename() == keep->filename();
        if (a_kept != b_kept) return b_kept;
        return a.last_write != b.last_write ? a.last_write < b.last_write : a.path < b.path;
    });
    std::uint64_t evicted = 0;
    for (const FileOnDisk& entry : files.entries) {
        if (total <= max_bytes) break;
        std::error_code error;
        if (fs::remove(entry.path, error)) ++evicted;
        if (!error) total -= entry.bytes;  // removed now, or by another process just before
    }
    return evicted;
}

}  // namespace gpukit::detail
