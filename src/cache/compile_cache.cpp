// src/cache/compile_cache.cpp: the process-wide cache state and the public gpukit/cache.hpp API.
#include "cache/compile_cache.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "cache/cache_key.hpp"
#include "cache/disk_cache.hpp"
#include "cache/disk_cache_stats.hpp"
#include "cache/lru_map.hpp"
#include "core/module_state.hpp"
#include "gpukit/error.hpp"

namespace gpukit {

namespace detail {

namespace {

constexpr std::uint64_t default_max_bytes = std::uint64_t{1} << 30;

using ModuleKey = std::tuple<std::string, const Backend*, int>;  // (cache key, backend, device)

struct CacheState {
    std::mutex mutex;
    std::optional<CacheConfig> config;      // read from the environment on first use
    std::shared_ptr<const DiskCache> disk;  // null while the disk cache is off
    // The memo, each within config's memory bounds.
    LruMap<std::string, std::shared_ptr<const CompiledImage>> memory;
    LruMap<ModuleKey, std::shared_ptr<ModuleState>> loaded;
    // Every module loaded and not yet freed, evicted ones included: while a Module holds one,
    // compiling the same thing gives it back rather than loading a second copy with its own
    // __device__ variables. Expired entries are swept when they outnumber the live ones.
    std::map<ModuleKey, std::weak_ptr<ModuleState>, std::less<>> alive;
    CacheStats stats;
};

// Never destroyed: modules may still be compiled or released from other static destructors.
CacheState& cache_state() {
    static CacheState* state = new CacheState;
    return *state;
}

std::optional<std::string_view> environment(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string_view(value);
}

std::uint64_t parse_count(const char* variable, std::string_view text, const char* unit, const char* example) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size())
        throw InvalidArgumentError(std::string(variable) + " must be a whole number of " + unit + " (e.g. " + example +
                                   "), got '" + std::string(text) + "'");
    return value;
}

bool parse_disable_flag(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
    if (lower == "0" || lower == "false" || lower == "no" || lower == "off") return false;
    throw InvalidArgumentError("GPUKIT_CACHE_DISABLE must be 1/true/yes/on or 0/false/no/off, got '" +
                               std::string(text) + "'");
}

std::shared_ptr<const DiskCache> make_disk_cache(const CacheConfig& config) {
    if (!config.disk_enabled || config.directory.empty()) return nullptr;
    return std::make_shared<const DiskCache>(config.directory, config.max_bytes);
}

// Call with the mutex held.
void ensure_configured(CacheState& state) {
    if (state.config) return;
    CacheConfig config = cache_config_from_environment();
    state.disk = make_disk_cache(config);
    state.config = std::move(config);
}

// The directory and bound to report on or clear, or nullopt when no directory is configured.
// Usage and clearing look at the directory even while lookups leave the disk alone, so that a
// disabled cache can still be inspected and emptied.
std::optional<DiskCache> configured_directory() {
    CacheState& state = cache_state();
    std::lock_guard lock(state.mutex);
    ensure_configured(state);
    if (state.config->directory.empty()) return std::nullopt;
    return DiskCache(state.config->directory, state.config->max_bytes);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Stores an image in the memo and trims it; returns the image kept for `key`. Call with the mutex
// held; `evicted` is freed by the caller after unlocking.
std::shared_ptr<const CompiledImage> remember_image(CacheState& state, const std::string& key,
                                                    std::shared_ptr<const CompiledImage> image,
                                                    std::vector<std::shared_ptr<const CompiledImage>>& evicted) {
    const std::uint64_t bytes = image->data.size();
    std::shared_ptr<const CompiledImage> kept = state.memory.emplace(key, std::move(image), bytes);
    state.stats.memory_evictions +=
        state.memory.trim(state.config->memory_max_entries, state.config->memory_max_bytes, evicted);
    return kept;
}

}  // namespace

CacheConfig cache_config_from_environment() {
    CacheConfig config;
    if (auto directory = environment("GPUKIT_CACHE_DIR")) {
        config.directory = *directory;
    } else if (auto xdg = environment("XDG_CACHE_HOME"); xdg && std::filesystem::path(*xdg).is_absolute()) {
        config.directory = std::filesystem::path(*xdg) / "gpukit";  // the XDG spec ignores relative paths
    } else if (auto home = environment("HOME")) {
        config.directory = std::filesystem::path(*home) / ".cache" / "gpukit";
    }
    config.max_bytes = default_max_bytes;
    if (auto max_bytes = environment("GPUKIT_CACHE_MAX_BYTES"))
        config.max_bytes = parse_count("GPUKIT_CACHE_MAX_BYTES", *max_bytes, "bytes", "1073741824");
    if (auto entries = environment("GPUKIT_CACHE_MEMORY_MAX_ENTRIES"))
        config.memory_max_entries = parse_count("GPUKIT_CACHE_MEMORY_MAX_ENTRIES", *entries, "entries", "256");
    if (auto bytes = environment("GPUKIT_CACHE_MEMORY_MAX_BYTES"))
        config.memory_max_bytes = parse_count("GPUKIT_CACHE_MEMORY_MAX_BYTES", *bytes, "bytes", "268435456");
    config.disk_enabled = !config.directory.empty();
    if (auto disable = environment("GPUKIT_CACHE_DISABLE"); disable && parse_disable_flag(*disable))
        config.disk_enabled = false;
    return config;
}

CachedCompile get_or_compile(const Compiler& compiler, const CompileInput& input) {
    // The key once, outside the lock: it is the whole cost of an in-process hit besides one lookup.
    std::string key = compute_cache_key(compiler.identity(), input);
    CacheState& state = cache_state();

    std::shared_ptr<const DiskCache> disk;
    {
        std::lock_guard lock(state.mutex);
        if (const auto* found = state.memory.find(key)) {
            ++state.stats.memory_hits;
            return {std::move(key), *found};
        }
        ensure_configured(state);
        disk = state.disk;
    }
    std::vector<std::shared_ptr<const CompiledImage>> forgotten;  // freed after the lock is let go of

    // Disk and compiler run without the lock: other threads keep hitting memory meanwhile. Two
    // threads missing the same key both compile; the first image stored in memory is the one kept.
    bool found_corrupt = false;
    if (disk) {
        DiskCache::LoadResult loaded = disk->load(key);
        if (loaded.status == DiskCache::LoadResult::hit) {
            DiskCacheStatsFile(disk->directory()).add({.hits = 1});
            auto image = std::make_shared<const CompiledImage>(std::move(loaded.image));
            std::lock_guard lock(state.mutex);
            ++state.stats.disk_hits;
            auto kept = remember_image(state, key, std::move(image), forgotten);
            return {std::move(key), std::move(kept)};
        }
        found_corrupt = loaded.status == DiskCache::LoadResult::corrupt;
    }

    const auto compile_start = std::chrono::steady_clock::now();
    std::shared_ptr<const CompiledImage> image;
    try {
        image = std::make_shared<const CompiledImage>(compiler.compile(input));
    } catch (...) {
        // A failed compile is still a compile: it counts, its time counts, and nothing is cached.
        const double seconds = seconds_since(compile_start);
        if (disk) DiskCacheStatsFile(disk->directory()).add({.misses = 1, .corrupt_entries = found_corrupt ? 1u : 0u});
        std::lock_guard lock(state.mutex);
        ++state.stats.misses;
        state.stats.compile_seconds += seconds;
        if (found_corrupt) ++state.stats.corrupt_entries;
        throw;
    }
    const double seconds = seconds_since(compile_start);

    std::uint64_t evicted = 0;
    if (disk) {
        disk->store(key, *image, evicted);  // false (read-only, full disk) only costs a compile later
        DiskCacheStatsFile(disk->directory())
            .add({.misses = 1, .corrupt_entries = found_corrupt ? 1u : 0u, .evictions = evicted});
    }

    std::lock_guard lock(state.mutex);
    ++state.stats.misses;
    state.stats.compile_seconds += seconds;
    state.stats.evictions += evicted;
    if (found_corrupt) ++state.stats.corrupt_entries;
    auto kept = remember_image(state, key, std::move(image), forgotten);
    return {std::move(key), std::move(kept)};
}

std::shared_ptr<ModuleState> get_or_load(const Device& device, const CompileInput& input) {
    Backend& backend = device.backend();
    CachedCompile compiled = get_or_compile(backend.compiler(), input);
    CacheState& state = cache_state();
    ModuleKey key{std::move(compiled.key), &backend, device.ordinal()};
    std::vector<std::shared_ptr<ModuleState>> evicted;                // freed (unloaded) after the lock is let go of
    const auto remember = [&](std::shared_ptr<ModuleState> module) {  // call with the mutex held
        auto kept = state.loaded.emplace(key, std::move(module), compiled.image->data.size());
        state.alive.insert_or_assign(key, kept);
        state.stats.memory_evictions +=
            state.loaded.trim(state.config->memory_max_entries, state.config->memory_max_bytes, evicted);
        if (state.alive.size() > 2 * state.loaded.size() + 64)
            std::erase_if(state.alive, [](const auto& entry) { return entry.second.expired(); });
        return kept;
    };
    {
        std::lock_guard lock(state.mutex);
        ensure_configured(state);
        if (const auto* found = state.loaded.find(key)) return *found;
        if (const auto found = state.alive.find(key); found != state.alive.end())
            if (auto held = found->second.lock()) return remember(std::move(held));
    }
    // Loading runs without the lock (a shared object's constructors, a driver call).
    const CompiledImage& image = *compiled.image;
    auto module = std::make_shared<ModuleState>(backend, device.ordinal(),
                                                backend.load_module(device.ordinal(), image.format, image.data));
    module->compile_log = image.log;
    module->source = std::string(input.source);
    module->lowered_names = image.lowered_names;
    module->options = input.options;
    module->check = input.check;
    std::lock_guard lock(state.mutex);
    ensure_configured(state);
    if (const auto found = state.alive.find(key); found != state.alive.end())
        if (auto held = found->second.lock()) {  // another thread loaded it meanwhile: keep theirs
            evicted.push_back(std::move(module));
            return remember(std::move(held));
        }
    return remember(std::move(module));
}

}  // namespace detail

CacheStats cache_stats() {
    detail::CacheState& state = detail::cache_state();
    std::lock_guard lock(state.mutex);
    return state.stats;
}

void reset_cache_stats() {
    detail::CacheState& state = detail::cache_state();
    std::lock_guard lock(state.mutex);
    state.stats = {};
}

CacheConfig cache_config() {
    detail::CacheState& state = detail::cache_state();
    std::lock_guard lock(state.mutex);
    detail::ensure_configured(state);
    return *state.config;
}

void configure_cache(const CacheConfig& config) {
    if (config.disk_enabled && config.directory.empty())
        throw InvalidArgumentError("configure_cache: the disk cache is enabled but no directory is given");
    detail::CacheState& state = detail::cache_state();
    std::vector<std::shared_ptr<const CompiledImage>> forgotten_images;  // freed after unlocking
    std::vector<std::shared_ptr<detail::ModuleState>> forgotten_modules;
    std::lock_guard lock(state.mutex);
    state.disk = detail::make_disk_cache(config);
    state.config = config;
    state.stats.memory_evictions +=
        state.memory.trim(config.memory_max_entries, config.memory_max_bytes, forgotten_images) +
        state.loaded.trim(config.memory_max_entries, config.memory_max_bytes, forgotten_modules);
}

DiskUsage cache_disk_usage() {
    const std::optional<detail::DiskCache> disk = detail::configured_directory();
    return disk ? disk->usage() : DiskUsage{};
}

MemoryCacheUsage memory_cache_usage() {
    detail::CacheState& state = detail::cache_state();
    std::lock_guard lock(state.mutex);
    return {state.memory.size(), state.memory.bytes(), state.loaded.size(), state.loaded.bytes()};
}

void clear_memory_cache() {
    detail::CacheState& state = detail::cache_state();
    std::vector<std::shared_ptr<const CompiledImage>> forgotten_images;
    std::vector<std::shared_ptr<detail::ModuleState>> forgotten_modules;
    {
        std::lock_guard lock(state.mutex);
        state.memory.clear(forgotten_images);
        state.loaded.clear(forgotten_modules);
        state.alive.clear();
    }  // freed here, outside the lock: unloading a module may take a while
}

DiskCacheStats cache_disk_stats() {
    const std::optional<detail::DiskCache> disk = detail::configured_directory();
    return disk ? detail::DiskCacheStatsFile(disk->directory()).read() : DiskCacheStats{};
}

void clear_disk_cache() {
    const std::optional<detail::DiskCache> disk = detail::configured_directory();
    if (!disk) return;
    disk->clear();
    detail::DiskCacheStatsFile(disk->directory()).remove();
}

}  // namespace gpukit
