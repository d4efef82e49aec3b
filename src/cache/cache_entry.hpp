// src/cache/cache_entry.hpp: the byte format of one disk cache entry.
//
//   "GPUKITC" + format version byte
//   key:            u32 length + bytes   (the full key: a file found under the wrong name is caught)
//   payload length: u64
//   payload SHA-256: 32 bytes
//   payload:        format u32, data, log (u64 length + bytes each),
//                   lowered names: u64 count, then expression and mangled name (u64 length + bytes)
// All integers little-endian. Entries of another format version read as damaged and are rewritten.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gpukit/module.hpp"

namespace gpukit::detail {

std::string encode_cache_entry(std::string_view key, const CompiledImage& image);
// The image, or nullopt when `bytes` is not a whole, intact entry for `key`. Never throws for
// any content of `bytes`.
std::optional<CompiledImage> decode_cache_entry(std::string_view key, std::string_view bytes);

}  // namespace gpukit::detail
