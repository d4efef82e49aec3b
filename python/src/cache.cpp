// python/src/cache.cpp: the compile cache — where it is, what it holds, its counts, clearing it.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "arguments.hpp"
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
                "False under GPUKIT_CACHE_DISABLE=1 or without a directory.")
        .def_ro("memory_max_entries", &CacheConfig::memory_max_entries,
                "The most images, and the most loaded modules, this process keeps for the next compile of the same "
                "source (GPUKIT_CACHE_MEMORY_MAX_ENTRIES, default 256).")
        .def_ro("memory_max_bytes", &CacheConfig::memory_max_bytes,
                "The most bytes of images, and of the images of loaded modules, kept likewise "
                "(GPUKIT_CACHE_MEMORY_MAX_BYTES, default 256 MiB).");

    nb::class_<CacheStats>(m, "CacheStats", "This process's cache lookups.")
        .def_ro("memory_hits", &CacheStats::memory_hits)
        .def_ro("disk_hits", &CacheStats::disk_hits)
        .def_ro("misses", &CacheStats::misses, "Lookups that compiled.")
        .def_ro("corrupt_entries", &CacheStats::corrupt_entries)
        .def_ro("evictions", &CacheStats::evictions, "Disk entries deleted to stay under the disk's bound.")
        .def_ro("compile_seconds", &CacheStats::compile_seconds)
        .def_ro("memory_evictions", &CacheStats::memory_evictions,
                "Images and modules this process let go of to stay under the in-process bound.");

    nb::class_<MemoryCacheUsage>(m, "MemoryCacheUsage",
                                 "What this process keeps for the next compile of the same source: compiled images "
                                 "and loaded modules (a module's bytes are its image's).")
        .def_ro("images", &MemoryCacheUsage::images)
        .def_ro("image_bytes", &MemoryCacheUsage::image_bytes)
        .def_ro("modules", &MemoryCacheUsage::modules)
        .def_ro("module_bytes", &MemoryCacheUsage::module_bytes)
        .def("__repr__", [](const MemoryCacheUsage& u) {
            return "<gpukit MemoryCacheUsage " + std::to_string(u.images) + " images (" +
                   std::to_string(u.image_bytes) + " bytes), " + std::to_string(u.modules) + " modules (" +
                   std::to_string(u.module_bytes) + " bytes)>";
        });

    nb::class_<DiskCacheStats>(m, "DiskCacheStats",
                               "The disk cache's counts over every process since it was created or cleared.")
        .def_ro("hits", &DiskCacheStats::hits)
        .def_ro("misses", &DiskCacheStats::misses, "Lookups that compiled: no entry, or a damaged one.")
        .def_ro("corrupt_entries", &DiskCacheStats::corrupt_entries)
        .def_ro("evictions", &DiskCacheStats::evictions);

    m.def("cache_config", &cache_config, "The cache's configuration (from GPUKIT_CACHE_* on first use).");
    m.def("cache_directory_refusal", &cache_directory_refusal,
          "Why the configured directory is not used (it is not private to you); '' when it is used.");
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
    m.def("clear_memory_cache", &clear_memory_cache,
          "Forgets the compiled images and loaded modules this process keeps (modules still held stay loaded).");
    m.def("memory_cache_usage", &memory_cache_usage, "What the in-process memo holds now.");
    m.def(
        "configure_memory_cache",
        [](nb::handle max_entries, nb::handle max_bytes) {
            CacheConfig config = cache_config();
            if (!max_entries.is_none()) config.memory_max_entries = to_size(max_entries, "max_entries");
            if (!max_bytes.is_none()) config.memory_max_bytes = to_size(max_bytes, "max_bytes");
            configure_cache(config);
        },
        nb::arg("max_entries").none() = nb::none(), nb::arg("max_bytes").none() = nb::none(),
        nb::sig("def configure_memory_cache(max_entries: int | None = None, max_bytes: int | None = None) -> None"),
        "Bounds the in-process memo (None keeps a bound as it is), trimming it at once.");
}

}  // namespace gpukit::python
