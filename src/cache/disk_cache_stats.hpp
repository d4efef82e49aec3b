// src/cache/disk_cache_stats.hpp: hit and miss counts kept beside the disk cache's entries.
//
// The in-process counters (gpukit::cache_stats) start at zero in every process, so a command such
// as `gpukit info` would always report nothing. These counts add up every process that used one
// cache directory since it was created or cleared, as ccache's statistics do. They live in
// <directory>/stats, a few lines of text updated under an exclusive flock(2), so that concurrent
// processes never lose an increment. They are advisory: a file that cannot be read or written
// reads as zeros and costs nothing else.
#pragma once

#include <filesystem>

#include "gpukit/cache.hpp"

namespace gpukit::detail {

class DiskCacheStatsFile {
public:
    explicit DiskCacheStatsFile(const std::filesystem::path& cache_directory);

    // Adds `delta` to the counts on disk. Never throws: a failure loses these counts only.
    void add(const DiskCacheStats& delta) const noexcept;
    // The counts on disk now; zeros when there is no readable file.
    DiskCacheStats read() const noexcept;
    // Deletes the file (the counts start again from zero). Throws gpukit::Error when it cannot.
    void remove() const;

    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace gpukit::detail
