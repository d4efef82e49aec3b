// gpukit/cache.hpp: the compile cache, in process and on disk.
//
// A compiled image is found again by a key over the source, the content of every header it can
// include (headers given as strings and files found through -I), the options, the target
// architecture and the compiler's identity and version. On disk (GPUKIT_CACHE_DIR, default
// ~/.cache/gpukit) entries are written atomically and carry a checksum: a corrupt entry is
// compiled again, never loaded. The directory is kept under a size bound (GPUKIT_CACHE_MAX_BYTES,
// default 1 GiB) by evicting the least recently used entries. GPUKIT_CACHE_DISABLE=1 turns the
// disk cache off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace gpukit {

struct CacheStats {
    std::uint64_t memory_hits = 0;
    std::uint64_t disk_hits = 0;
    std::uint64_t misses = 0;           // compiles
    std::uint64_t corrupt_entries = 0;  // disk entries found damaged and compiled again
    std::uint64_t evictions = 0;
    double compile_seconds = 0.0;  // total time spent compiling on misses
};

// This process's lookups since it started (or since reset_cache_stats).
CacheStats cache_stats();
void reset_cache_stats();

// The disk cache's own counts: every process that looked up a compile in the cache directory
// since the directory was created or last cleared (kept in <directory>/stats, like ccache's).
// Memory hits are not counted here: they never reach the disk.
struct DiskCacheStats {
    std::uint64_t hits = 0;             // lookups the disk answered
    std::uint64_t misses = 0;           // lookups that compiled: no entry, or a damaged one
    std::uint64_t corrupt_entries = 0;  // damaged entries found (each also counted as a miss)
    std::uint64_t evictions = 0;        // entries deleted to stay under the size bound
};

// The counts of the configured directory; zeros when there is none or nothing was counted yet.
DiskCacheStats cache_disk_stats();

struct CacheConfig {
    std::filesystem::path directory;
    std::uint64_t max_bytes = 0;
    bool disk_enabled = true;
};

CacheConfig cache_config();
// Changes where and how much the disk cache keeps; takes effect for the next lookup.
void configure_cache(const CacheConfig& config);
// Total bytes and entries on disk now.
struct DiskUsage {
    std::uint64_t bytes = 0;
    std::uint64_t entries = 0;
};
DiskUsage cache_disk_usage();

// Forgets the in-process cache (loaded modules stay alive while Module objects hold them).
void clear_memory_cache();
// Deletes every entry of the disk cache and its counts (cache_disk_stats starts from zero).
void clear_disk_cache();

}  // namespace gpukit
