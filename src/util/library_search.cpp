// src/util/library_search.cpp: where the dynamic linker would find a library, without loading it.
#include "util/library_search.hpp"

#include <glob.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

namespace gpukit::detail {

namespace {

namespace fs = std::filesystem;

void read_ld_so_conf(const std::string& file, std::vector<std::string>& dirs, std::set<std::string>& visited) {
    if (!visited.insert(file).second) return;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::string first;
        if (!(words >> first)) continue;
        if (first == "include") {
            std::string pattern;
            while (words >> pattern) {
                if (pattern.front() != '/') pattern = (fs::path(file).parent_path() / pattern).string();
                glob_t matches{};
                if (glob(pattern.c_str(), 0, nullptr, &matches) == 0)
                    for (std::size_t i = 0; i < matches.gl_pathc; ++i)
                        read_ld_so_conf(matches.gl_pathv[i], dirs, visited);
                globfree(&matches);
            }
        } else if (first.front() == '/') {
            dirs.push_back(first);
        }
    }
}

std::vector<std::string> search_directories() {
    std::vector<std::string> dirs;
    if (const char* paths = std::getenv("LD_LIBRARY_PATH")) {
        std::string entry;
        for (std::istringstream in(paths); std::getline(in, entry, ':');)
            if (!entry.empty()) dirs.push_back(entry);
    }
    std::set<std::string> visited;
    read_ld_so_conf("/etc/ld.so.conf", dirs, visited);
    for (const char* dir : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                            "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
        dirs.emplace_back(dir);
    return dirs;
}

std::optional<std::string> canonical_file(const fs::path& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    auto resolved = fs::canonical(path, ec);
    if (ec) return std::nullopt;
    return resolved.string();
}

}  // namespace

std::optional<std::string> find_library_file(std::string_view name) {
    if (name.find('/') != std::string_view::npos) return canonical_file(fs::path(name));
    for (const auto& dir : search_directories())
        if (auto found = canonical_file(fs::path(dir) / name)) return found;
    return std::nullopt;
}

}  // namespace gpukit::detail
