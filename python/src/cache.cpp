// python/src/cache.cpp: the compile cache — where it is, what it holds, its counts, clearing it.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "bindings.hpp"
#include "gpukit/cache.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {

void bind_cache(nb::module_& m) {
    nb::class_<CacheConfig>(m, "CacheConfig", "Where the disk cache is and how much it may keep.")
        .def_prop_ro(
            "directory",
            [](const CacheConfig& c) -> std::optional<std::string> {
                if (c.directory.empty()) return std::nullopt;
                return c.directory.string();
            },
            "The disk cache's directory; None when no GPUKIT_CACHE_DIR, XDG_CACHE_HOME or HOME names one.")
        .def_ro("max_bytes", &CacheConfig::max_bytes)
        .def_ro("disk_enabled", &CacheConfig::disk_enabled,
                "False under GPUKIT_CACHE_DISABLE=1 or without a directory.");

    nb::class_<CacheStats>(m, "CacheStats", "This process's cache lookups.")
        .def_ro("memory_hits", &CacheStats::memory_hits)
        .def_ro("disk_hits", &CacheStats::disk_hits)
        .def_ro("misses", &CacheStats::misses, "Lookups that compiled.")
        .def_ro("corrupt_entries", &CacheStats::corrupt_entries)
        .def_ro("evictions", &CacheStats::evictions)
        .def_ro("compile_seconds", &CacheStats::compile_seconds);

    nb::class_<DiskCacheStats>(m, "DiskCacheStats",
                               "The disk cache's counts over every process since it was created or cleared.")
        .def_ro("hits", &DiskCacheStats::hits)
        .def_ro("misses", &DiskCacheStats::misses, "Lookups that compiled: no entry, or a damaged one.")
        .def_ro("corrupt_entries", &DiskCacheStats::corrupt_entries)
        .def_ro("evictions", &DiskCacheStats::evictions);

    m.def("cache_config", &cache_config, "The cache's configuration (from GPUKIT_CACHE_* on first use).");
    m.def("cache_stats", &cache_stats);
    m.def("cache_disk_stats", &cache_disk_stats);
    m.def(
        "cache_disk_usage",
        [] {
            const DiskUsage usage = cache_disk_usage();
            return nb::make_tuple(usage.bytes, usage.entries);
        },
        "(bytes, entries) of the disk cache now.");
    m.def(
        "clear_disk_cache",
        [] {
            GilRelease unlocked;
            clear_disk_cache();
        },
        "Deletes every entry of the disk cache and its counts.");
    m.def("clear_memory_cache", &clear_memory_cache, "Forgets the compiled images this process holds.");
}

}  // namespace gpukit::python
