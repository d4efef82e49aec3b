// tests/cache/disk_cache_stats_test.cpp: the statistics file under concurrent updates and damage.
#include "cache/disk_cache_stats.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include "temp_directory.hpp"

namespace gpukit::detail {
namespace {

namespace fs = std::filesystem;
using gpukit::testing::read_file;
using gpukit::testing::TempDirectory;
using gpukit::testing::write_file;

TEST(DiskCacheStatsFile, NoFileReadsAsZeros) {
    TempDirectory directory;
    const DiskCacheStats stats = DiskCacheStatsFile(directory.path()).read();
    EXPECT_EQ(stats.hits, 0u);
    EXPECT_EQ(stats.misses, 0u);
    EXPECT_EQ(stats.corrupt_entries, 0u);
    EXPECT_EQ(stats.evictions, 0u);
}

TEST(DiskCacheStatsFile, AddsToWhatIsThere) {
    TempDirectory directory;
    const DiskCacheStatsFile file(directory.path());
    file.add({.hits = 2, .misses = 1});
    file.add({.hits = 1, .misses = 3, .corrupt_entries = 1, .evictions = 4});
    const DiskCacheStats stats = file.read();
    EXPECT_EQ(stats.hits, 3u);
    EXPECT_EQ(stats.misses, 4u);
    EXPECT_EQ(stats.corrupt_entries, 1u);
    EXPECT_EQ(stats.evictions, 4u);
    EXPECT_EQ(read_file(directory.path() / "stats"), "hits 3\nmisses 4\ncorrupt_entries 1\nevictions 4\n");
}

TEST(DiskCacheStatsFile, ConcurrentWritersLoseNoIncrement) {
    TempDirectory directory;
    constexpr int threads = 8, increments = 200;
    std::vector<std::thread> writers;
    for (int t = 0; t < threads; ++t)
        writers.emplace_back([&] {
            // One object per thread, as separate processes would have: flock serialises them.
            const DiskCacheStatsFile file(directory.path());
            for (int i = 0; i < increments; ++i) file.add({.hits = 1});
        });
    for (auto& writer : writers) writer.join();
    EXPECT_EQ(DiskCacheStatsFile(directory.path()).read().hits, std::uint64_t{threads * increments});
}

TEST(DiskCacheStatsFile, ADamagedFileKeepsTheLinesItCanRead) {
    TempDirectory directory;
    write_file(directory.path() / "stats", "hits 7\nmisses 1x\ngarbage\nevictions 2");  // cut short, edited
    const DiskCacheStatsFile file(directory.path());
    EXPECT_EQ(file.read().hits, 7u);
    EXPECT_EQ(file.read().misses, 0u);
    EXPECT_EQ(file.read().evictions, 2u);
    file.add({.misses = 1});
    EXPECT_EQ(read_file(directory.path() / "stats"), "hits 7\nmisses 1\ncorrupt_entries 0\nevictions 2\n");
}

TEST(DiskCacheStatsFile, AMissingDirectoryCostsOnlyTheCounts) {
    TempDirectory directory;
    const DiskCacheStatsFile file(directory.path() / "never" / "made");
    file.add({.hits = 1});  // must not throw
    EXPECT_EQ(file.read().hits, 0u);
    EXPECT_FALSE(fs::exists(file.path()));
}

TEST(DiskCacheStatsFile, RemoveStartsFromZero) {
    TempDirectory directory;
    const DiskCacheStatsFile file(directory.path());
    file.add({.hits = 5});
    file.remove();
    EXPECT_EQ(file.read().hits, 0u);
    file.remove();  // nothing there: fine
}

// --- planted in place of the file: skipped with a warning, never written through or blocked on ----

TEST(DiskCacheStatsFile, ASymbolicLinkIsNotFollowed) {
    TempDirectory directory, elsewhere;
    write_file(elsewhere.path() / "target", "hits 40\n");
    fs::create_symlink(elsewhere.path() / "target", directory.path() / "stats");
    const DiskCacheStatsFile file(directory.path());
    EXPECT_EQ(file.read().hits, 0u);
    file.add({.hits = 1});
    EXPECT_EQ(read_file(elsewhere.path() / "target"), "hits 40\n");
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(directory.path() / "stats")));
}

TEST(DiskCacheStatsFile, AFifoNeverBlocks) {
    TempDirectory directory;
    ASSERT_EQ(mkfifo((directory.path() / "stats").c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    const DiskCacheStatsFile file(directory.path());
    file.add({.hits = 1});
    EXPECT_EQ(file.read().hits, 0u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(DiskCacheStatsFile, ADirectoryOrAFileOthersCanWriteIsSkipped) {
    TempDirectory directory;
    fs::create_directory(directory.path() / "stats");
    EXPECT_EQ(DiskCacheStatsFile(directory.path()).read().hits, 0u);
    DiskCacheStatsFile(directory.path()).add({.hits = 1});
    fs::remove(directory.path() / "stats");
    write_file(directory.path() / "stats", "hits 9\n");
    fs::permissions(directory.path() / "stats", fs::perms::others_write, fs::perm_options::add);
    EXPECT_EQ(DiskCacheStatsFile(directory.path()).read().hits, 0u);
    DiskCacheStatsFile(directory.path()).add({.hits = 1});
    EXPECT_EQ(read_file(directory.path() / "stats"), "hits 9\n");
}

TEST(DiskCacheStatsFile, AnotherUsersFileIsSkipped) {
    if (geteuid() != 0)
        GTEST_SKIP() << "only root can give a file to another user; tests/util's TrustProblem covers it";
    TempDirectory directory;
    write_file(directory.path() / "stats", "hits 9\n");
    ASSERT_EQ(chown((directory.path() / "stats").c_str(), 65534, 65534), 0);
    EXPECT_EQ(DiskCacheStatsFile(directory.path()).read().hits, 0u);
}

TEST(DiskCacheStatsFile, ANewFileIsMode0600) {
    TempDirectory directory;
    DiskCacheStatsFile(directory.path()).add({.misses = 1});
    struct stat status {};
    ASSERT_EQ(stat((directory.path() / "stats").c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0600u);
}

}  // namespace
}  // namespace gpukit::detail
