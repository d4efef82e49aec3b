// gpukit/cache.hpp: the compile cache, in process and on disk.
//
// A compiled image is found again by a key over the source, the content of every header it can
// include (headers given as strings and files found through -I), the options, the target
// architecture and the compiler's identity and version. On disk (GPUKIT_CACHE_DIR, default
// ~/.cache/gpukit) entries are written atomically and carry a checksum: a corrupt entry is
// compiled again, never loaded. The directory is kept under a size bound (GPUKIT_CACHE_MAX_BYTES,
// default 1 GiB) by evicting the least recently used entries. GPUKIT_CACHE_DISABLE=1 turns the
// disk cache off.
//
// In the process, the images compiled or read from disk and the modules loaded from them are kept
// for the next compile of the same thing (the memo), least recently used first out beyond a bound
// in entries and in bytes (GPUKIT_CACHE_MEMORY_MAX_ENTRIES, default 256, and
// GPUKIT_CACHE_MEMORY_MAX_BYTES, default 256 MiB, for the images and for the modules each): a
// program that compiles thousands of distinct modules holds a bounded number, where each
// simulator module is a loaded shared object. Evicting a module drops the memo's reference only:
// a Module (or kernel, or array of its globals) still held keeps it loaded, and compiling the same
// thing again while one is held gives that module back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace gpukit {

struct CacheStats {
    std::uint64_t memory_hits = 0;
    std::uint64_t disk_hits = 0;
    std::uint64_t misses = 0;            // compiles
    std::uint64_t corrupt_entries = 0;   // disk entries found damaged and compiled again
    std::uint64_t evictions = 0;         // disk entries deleted to stay under the disk bound
    double compile_seconds = 0.0;        // total time spent compiling on misses
    std::uint64_t memory_evictions = 0;  // images and modules the memo let go of to stay under its bound
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
    // The memo's bound, for its images and for its modules each (0: keep none).
    std::uint64_t memory_max_entries = 256;
    std::uint64_t memory_max_bytes = std::uint64_t{256} << 20;
};

CacheConfig cache_config();
// Changes where and how much the disk cache keeps, taking effect for the next lookup, and the
// memo's bound, trimming it at once.
void configure_cache(const CacheConfig& config);
// Total bytes and entries on disk now.
struct DiskUsage {
    std::uint64_t bytes = 0;
    std::uint64_t entries = 0;
};
DiskUsage cache_disk_usage();

// What the memo holds now. A module's bytes are those of the image it was loaded from.
struct MemoryCacheUsage {
    std::uint64_t images = 0;
    std::uint64_t image_bytes = 0;
    std::uint64_t modules = 0;
    std::uint64_t module_bytes = 0;
};
MemoryCacheUsage memory_cache_usage();

// Forgets the in-process cache (loaded modules stay alive while Module objects hold them).
void clear_memory_cache();
// Deletes every entry of the disk cache and its counts (cache_disk_stats starts from zero).
void clear_disk_cache();

}  // namespace gpukit
