// src/util/files.cpp: whole files in and out.
#include "util/files.hpp"

#include <fstream>
#include <iterator>

namespace gpukit::detail {

std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return bytes;
}

}  // namespace gpukit::detail
