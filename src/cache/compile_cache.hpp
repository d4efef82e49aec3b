// src/cache/compile_cache.hpp: the process-wide compile cache (memory, then disk, then compile),
// and the modules it loaded from what it compiled.
#pragma once

#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "core/module_state.hpp"
#include "gpukit/cache.hpp"

namespace gpukit::detail {

struct CachedCompile {
    std::string key;  // hex SHA-256 of everything the output depends on
    std::shared_ptr<const CompiledImage> image;
};

// Returns the image for `input`, compiling it with `compiler` only when neither the in-process
// map nor the disk cache has it. Thread-safe. Compile errors propagate and are not cached.
CachedCompile get_or_compile(const Compiler& compiler, const CompileInput& input);

// The module `input` compiles to, loaded on `device`: compiled through get_or_compile with the
// device's backend's compiler, and loaded once per (image, device), so that compiling the same
// thing again in this process costs a hash and a lookup. Thread-safe; clear_memory_cache() forgets
// it (Module objects keep what they hold alive).
std::shared_ptr<ModuleState> get_or_load(const Device& device, const CompileInput& input);

// The configuration the environment asks for: GPUKIT_CACHE_DIR (default $XDG_CACHE_HOME/gpukit,
// else ~/.cache/gpukit; the disk cache is off when none is set), GPUKIT_CACHE_MAX_BYTES (a plain
// number of bytes, default 1 GiB), GPUKIT_CACHE_DISABLE (1/true/yes/on or 0/false/no/off).
// Throws InvalidArgumentError naming the variable when a value cannot be read. The cache reads it
// once, on first use; configure_cache() replaces it.
CacheConfig cache_config_from_environment();

// Forgets the configuration and reads the environment again, as the first lookup does (tests).
void configure_cache_from_environment();

}  // namespace gpukit::detail
