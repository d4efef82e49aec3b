// src/cache/compile_cache.hpp: the process-wide compile cache (memory, then disk, then compile).
#pragma once

#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "gpukit/cache.hpp"

namespace gpukit::detail {

struct CachedCompile {
    std::string key;  // hex SHA-256 of everything the output depends on
    std::shared_ptr<const CompiledImage> image;
};

// Returns the image for `input`, compiling it with `compiler` only when neither the in-process
// map nor the disk cache has it. Thread-safe. Compile errors propagate and are not cached.
CachedCompile get_or_compile(const Compiler& compiler, const CompileInput& input);

// The configuration the environment asks for: GPUKIT_CACHE_DIR (default $XDG_CACHE_HOME/gpukit,
// else ~/.cache/gpukit; the disk cache is off when none is set), GPUKIT_CACHE_MAX_BYTES (a plain
// number of bytes, default 1 GiB), GPUKIT_CACHE_DISABLE (1/true/yes/on or 0/false/no/off).
// Throws InvalidArgumentError naming the variable when a value cannot be read. The cache reads it
// once, on first use; configure_cache() replaces it.
CacheConfig cache_config_from_environment();

}  // namespace gpukit::detail
