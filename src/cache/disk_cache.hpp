// src/cache/disk_cache.hpp: compiled images kept on disk, one checksummed file per key.
//
// Layout: <directory>/<key[0:2]>/<key>.gkc. Writers go through a temporary file and a rename, so
// readers (other threads, other processes) see a whole entry or none; any damage that still gets
// in (a crash before the data reached the disk, a bad sector, a stray edit) fails the checksum
// and reads as `corrupt`, never as an image. The directory is kept under a size bound by deleting
// the least recently used entries (the last-write time, refreshed on every hit).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "gpukit/cache.hpp"
#include "gpukit/module.hpp"

namespace gpukit::detail {

// Immutable after construction: one object may serve any number of threads at once.
class DiskCache {
public:
    struct LoadResult {
        enum Status { hit, miss, corrupt };
        Status status = miss;
        CompiledImage image;  // set on a hit
    };

    DiskCache(std::filesystem::path directory, std::uint64_t max_bytes);

    const std::filesystem::path& directory() const noexcept { return directory_; }
    std::uint64_t max_bytes() const noexcept { return max_bytes_; }

    // `key`: lower-case hex, at least 2 characters (InvalidArgumentError otherwise). Never throws
    // for what it finds on disk: a damaged entry is deleted and reported as `corrupt`.
    LoadResult load(std::string_view key) const;

    // Writes the entry atomically, then evicts down to max_bytes. Returns false, never throws,
    // when it could not (read-only or missing permissions, full disk, an entry larger than the
    // bound, a bad key): the cache is an optimisation, losing an entry only costs a compile.
    bool store(std::string_view key, const CompiledImage& image) const;
    // The same, adding the number of entries evicted to make room to `evicted`.
    bool store(std::string_view key, const CompiledImage& image, std::uint64_t& evicted) const;

    // Bytes and count of the entries on disk now (temporary files not included).
    DiskUsage usage() const;
    // Deletes every entry and temporary file of this cache (and nothing else in the directory).
    // Throws gpukit::Error when one cannot be deleted.
    void clear() const;
    // Deletes least recently used entries until the entries total at most max_bytes; deletes
    // temporary files older than a minute (left by a crashed writer). Returns the entries deleted.
    std::uint64_t evict_to(std::uint64_t max_bytes) const;

    // Where the entry of `key` lives (whether or not it exists).
    std::filesystem::path entry_path(std::string_view key) const;

private:
    // evict_to, deleting `keep` only after every other entry (used for the entry just stored,
    // whose time may equal older ones' on file systems with coarse timestamps).
    std::uint64_t evict_to(std::uint64_t max_bytes, const std::filesystem::path* keep) const;

    std::filesystem::path directory_;
    std::uint64_t max_bytes_;
};

}  // namespace gpukit::detail
