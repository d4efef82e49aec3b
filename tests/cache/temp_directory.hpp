// tests/cache/temp_directory.hpp: a fresh directory per test, deleted with everything in it after.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>

namespace gpukit::testing {

class TempDirectory {
public:
    TempDirectory() {
        static std::atomic<int> counter{0};
        std::random_device random;
        path_ = std::filesystem::temp_directory_path() / ("gpukit-cache-test-" + std::to_string(::getpid()) + "-" +
                                                          std::to_string(counter++) + "-" + std::to_string(random()));
        std::filesystem::create_directories(path_);
        // The cache trusts only what no one else can write, whatever the umask.
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all);
    }
    TempDirectory(const TempDirectory&) = delete;
    TempDirectory& operator=(const TempDirectory&) = delete;
    ~TempDirectory() {
        std::error_code ignored;  // a destructor must not throw; a leftover in /tmp is harmless
        std::filesystem::remove_all(path_, ignored);
    }

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline void write_file(const std::filesystem::path& path, std::string_view content) {
    std::filesystem::create_directories(path.parent_path());
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
    }
    // Only the owner may write, whatever the umask: the cache refuses files others can write.
    std::filesystem::permissions(path, std::filesystem::perms::group_write | std::filesystem::perms::others_write,
                                 std::filesystem::perm_options::remove);
}

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace gpukit::testing
