// src/util/files.hpp: whole files in and out, for the cache, the source reader and the simulator.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gpukit::detail {

// The file's bytes, or nullopt when it cannot be opened or read through.
std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace gpukit::detail
