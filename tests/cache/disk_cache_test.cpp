// tests/cache/disk_cache_test.cpp: round trips, damaged entries, failed writes, eviction, races.
#include "cache/disk_cache.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include "cache/cache_entry.hpp"
#include "gpukit/error.hpp"
#include "temp_directory.hpp"
#include "util/sha256.hpp"

namespace gpukit::detail {
namespace {

namespace fs = std::filesystem;
using gpukit::testing::read_file;
using gpukit::testing::TempDirectory;
using gpukit::testing::write_file;

constexpr std::uint64_t plenty = std::uint64_t{1} << 30;

std::string key_for(std::string_view name) { return sha256_hex(name); }

CompiledImage sample_image() {
    CompiledImage image;
    image.format = ImageFormat::fatbin;
    image.data = std::string(
                     "\x7f"
                     "ELF\0\0\x01\x02",
                     8) +
                 std::string(300, '\0') + "tail\xff";
    image.log = "warning: something\nsecond line";
    image.lowered_names = {{"axpy<float>", "_Z4axpyIfEvT_PKS0_PS0_"}, {"scale<2>", std::string("with\0nul", 8)}};
    return image;
}

void expect_same_image(const CompiledImage& actual, const CompiledImage& expected) {
    EXPECT_EQ(actual.format, expected.format);
    EXPECT_EQ(actual.data, expected.data);
    EXPECT_EQ(actual.log, expected.log);
    EXPECT_EQ(actual.lowered_names, expected.lowered_names);
}

std::vector<fs::path> files_under(const fs::path& directory) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(directory))
        if (entry.is_regular_file()) files.push_back(entry.path());
    return files;
}

class DiskCacheTest : public ::testing::Test {
protected:
    TempDirectory directory_;
    DiskCache cache_{directory_.path() / "cache", plenty};
};

TEST_F(DiskCacheTest, RoundTripsEveryField) {
    const std::string key = key_for("round trip");
    ASSERT_TRUE(cache_.store(key, sample_image()));
    const DiskCache::LoadResult loaded = cache_.load(key);
    ASSERT_EQ(loaded.status, DiskCache::LoadResult::hit);
    expect_same_image(loaded.image, sample_image());
}

TEST_F(DiskCacheTest, RoundTripsEmptyImageAndEveryFormat) {
    for (ImageFormat format : {ImageFormat::cubin, ImageFormat::ptx, ImageFormat::fatbin, ImageFormat::shared_object}) {
        CompiledImage image;
        image.format = format;
        const std::string key = key_for(to_string(format));
        ASSERT_TRUE(cache_.store(key, image));
        const DiskCache::LoadResult loaded = cache_.load(key);
        ASSERT_EQ(loaded.status, DiskCache::LoadResult::hit);
        expect_same_image(loaded.image, image);
    }
}

TEST_F(DiskCacheTest, EntryLivesUnderItsTwoDigitShard) {
    const std::string key = key_for("layout");
    ASSERT_TRUE(cache_.store(key, sample_image()));
    const fs::path expected = directory_.path() / "cache" / key.substr(0, 2) / (key + ".gkc");
    EXPECT_EQ(cache_.entry_path(key), expected);
    EXPECT_TRUE(fs::is_regular_file(expected));
    EXPECT_EQ(read_file(expected).substr(0, 7), "GPUKITC");
}

TEST_F(DiskCacheTest, MissingEntryIsAMiss) {
    EXPECT_EQ(cache_.load(key_for("never stored")).status, DiskCache::LoadResult::miss);
}

TEST_F(DiskCacheTest, StoringAgainReplacesTheEntry) {
    const std::string key = key_for("replace");
    CompiledImage first = sample_image();
    CompiledImage second = sample_image();
    second.data = "second";
    ASSERT_TRUE(cache_.store(key, first));
    ASSERT_TRUE(cache_.store(key, second));
    expect_same_image(cache_.load(key).image, second);
    EXPECT_EQ(cache_.usage().entries, 1u);
}

TEST_F(DiskCacheTest, RejectsKeysThatAreNotHex) {
    EXPECT_THROW(cache_.load("../../etc/passwd"), InvalidArgumentError);
    EXPECT_THROW(cache_.load("a"), InvalidArgumentError);
    EXPECT_FALSE(cache_.store("../escape", sample_image()));
    EXPECT_FALSE(cache_.store("ABCDEF", sample_image()));
}

// Each damage: the load reports corrupt, deletes the file, and a second load is a plain miss.
class DamagedEntryTest : public DiskCacheTest {
protected:
    void expect_corrupt_then_gone(const std::string& key) {
        const fs::path path = cache_.entry_path(key);
        ASSERT_TRUE(fs::exists(path));
        EXPECT_EQ(cache_.load(key).status, DiskCache::LoadResult::corrupt);
        EXPECT_FALSE(fs::exists(path));
        EXPECT_EQ(cache_.load(key).status, DiskCache::LoadResult::miss);
    }
    std::string stored(std::string_view name) {
        const std::string key = key_for(name);
        EXPECT_TRUE(cache_.store(key, sample_image()));
        return key;
    }
};

TEST_F(DamagedEntryTest, EmptyFile) {
    const std::string key = key_for("empty");
    write_file(cache_.entry_path(key), "");
    expect_corrupt_then_gone(key);
}

TEST_F(DamagedEntryTest, TruncatedAtEveryLength) {
    const std::string key = key_for("truncated");
    const std::string whole = encode_cache_entry(key, sample_image());
    for (std::size_t length = 0; length < whole.size(); length += 7) {
        write_file(cache_.entry_path(key), whole.substr(0, length));
        expect_corrupt_then_gone(key);
    }
}

TEST_F(DamagedEntryTest, BitFlippedAnywhere) {
    const std::string key = key_for("flipped");
    const std::string whole = encode_cache_entry(key, sample_image());
    for (std::size_t position = 0; position < whole.size(); position += 5) {
        std::string damaged = whole;
        damaged[position] = static_cast<char>(damaged[position] ^ 0x10);
        write_file(cache_.entry_path(key), damaged);
        expect_corrupt_then_gone(key);
    }
}

TEST_F(DamagedEntryTest, WrongMagic) {
    const std::string key = stored("magic");
    std::string bytes = read_file(cache_.entry_path(key));
    bytes.replace(0, 7, "NOTGPUK");
    write_file(cache_.entry_path(key), bytes);
    expect_corrupt_then_gone(key);
}

TEST_F(DamagedEntryTest, OtherFormatVersion) {
    const std::string key = stored("version");
    std::string bytes = read_file(cache_.entry_path(key));
    bytes[7] = 99;
    write_file(cache_.entry_path(key), bytes);
    expect_corrupt_then_gone(key);
}

TEST_F(DamagedEntryTest, EntryOfAnotherKeyUnderThisName) {
    const std::string key = key_for("mine");
    write_file(cache_.entry_path(key), encode_cache_entry(key_for("someone else's"), sample_image()));
    expect_corrupt_then_gone(key);
}

TEST_F(DamagedEntryTest, TrailingGarbage) {
    const std::string key = stored("trailing");
    write_file(cache_.entry_path(key), read_file(cache_.entry_path(key)) + "x");
    expect_corrupt_then_gone(key);
}

TEST_F(DamagedEntryTest, RandomBytes) {
    const std::string key = key_for("random");
    std::string noise(500, '\0');
    for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<char>(i * 131 + 7);
    write_file(cache_.entry_path(key), noise);
    expect_corrupt_then_gone(key);
}

TEST(DiskCacheStore, FailsQuietlyWhenTheDirectoryCannotBeCreated) {
    // A regular file where the cache directory should be: mkdir fails even for root.
    TempDirectory directory;
    write_file(directory.path() / "not_a_directory", "I am a file");
    DiskCache cache(directory.path() / "not_a_directory", plenty);
    const std::string key = key_for("nowhere");
    EXPECT_FALSE(cache.store(key, sample_image()));
    EXPECT_EQ(cache.load(key).status, DiskCache::LoadResult::miss);
    EXPECT_EQ(cache.usage().entries, 0u);
}

TEST(DiskCacheStore, FailsQuietlyWhenTheShardIsAFile) {
    TempDirectory directory;
    const std::string key = key_for("blocked shard");
    write_file(directory.path() / key.substr(0, 2), "blocks the shard directory");
    DiskCache cache(directory.path(), plenty);
    EXPECT_FALSE(cache.store(key, sample_image()));
}

TEST(DiskCacheStore, RefusesAnEntryLargerThanTheBound) {
    TempDirectory directory;
    DiskCache cache(directory.path(), 100);
    EXPECT_FALSE(cache.store(key_for("too big"), sample_image()));
    EXPECT_EQ(cache.usage().entries, 0u);
}

TEST(DiskCacheUsage, MissingDirectoryIsEmpty) {
    TempDirectory directory;
    DiskCache cache(directory.path() / "absent", plenty);
    EXPECT_EQ(cache.usage().bytes, 0u);
    EXPECT_EQ(cache.usage().entries, 0u);
    EXPECT_NO_THROW(cache.clear());
    EXPECT_EQ(cache.evict_to(0), 0u);
}

TEST_F(DiskCacheTest, UsageCountsEntriesAndTheirBytes) {
    ASSERT_TRUE(cache_.store(key_for("one"), sample_image()));
    ASSERT_TRUE(cache_.store(key_for("two"), CompiledImage{}));
    const std::uint64_t expected =
        fs::file_size(cache_.entry_path(key_for("one"))) + fs::file_size(cache_.entry_path(key_for("two")));
    EXPECT_EQ(cache_.usage().entries, 2u);
    EXPECT_EQ(cache_.usage().bytes, expected);
}

TEST_F(DiskCacheTest, ClearDeletesOnlyTheCachesOwnFiles) {
    ASSERT_TRUE(cache_.store(key_for("one"), sample_image()));
    ASSERT_TRUE(cache_.store(key_for("two"), sample_image()));
    const fs::path foreign = directory_.path() / "cache" / "notes.txt";
    write_file(foreign, "a user's file");
    cache_.clear();
    EXPECT_EQ(cache_.usage().entries, 0u);
    EXPECT_EQ(cache_.load(key_for("one")).status, DiskCache::LoadResult::miss);
    EXPECT_TRUE(fs::exists(foreign));
    EXPECT_EQ(files_under(directory_.path() / "cache"), std::vector<fs::path>{foreign});
}

TEST_F(DiskCacheTest, EvictionKeepsTheMostRecentlyUsedUnderTheBound) {
    const auto now = fs::file_time_type::clock::now();
    std::vector<std::string> keys;
    for (int i = 0; i < 6; ++i) {
        keys.push_back(key_for("entry " + std::to_string(i)));
        ASSERT_TRUE(cache_.store(keys.back(), sample_image()));
        // Entry i was last used i minutes after entry 0: entry 5 is the most recent.
        fs::last_write_time(cache_.entry_path(keys.back()), now - std::chrono::minutes(10 - i));
    }
    const std::uint64_t entry_bytes = fs::file_size(cache_.entry_path(keys[0]));
    // A hit makes entry 0 the most recently used.
    ASSERT_EQ(cache_.load(keys[0]).status, DiskCache::LoadResult::hit);

    EXPECT_EQ(cache_.evict_to(3 * entry_bytes + entry_bytes / 2), 3u);
    EXPECT_LE(cache_.usage().bytes, 3 * entry_bytes + entry_bytes / 2);
    for (int i : {0, 4, 5}) EXPECT_EQ(cache_.load(keys[i]).status, DiskCache::LoadResult::hit) << i;
    for (int i : {1, 2, 3}) EXPECT_EQ(cache_.load(keys[i]).status, DiskCache::LoadResult::miss) << i;
}

TEST(DiskCacheBound, StoreEvictsLeastRecentlyUsedToFit) {
    TempDirectory directory;
    const std::string probe_key = key_for("probe");
    const std::uint64_t entry_bytes = encode_cache_entry(probe_key, sample_image()).size();
    DiskCache cache(directory.path(), 2 * entry_bytes);
    const auto now = fs::file_time_type::clock::now();
    std::vector<std::string> keys;
    std::uint64_t evicted = 0;
    for (int i = 0; i < 4; ++i) {
        keys.push_back(key_for("bounded " + std::to_string(i)));
        ASSERT_TRUE(cache.store(keys.back(), sample_image(), evicted));
        fs::last_write_time(cache.entry_path(keys.back()), now - std::chrono::minutes(10 - i));
    }
    EXPECT_EQ(evicted, 2u);
    EXPECT_EQ(cache.usage().entries, 2u);
    EXPECT_EQ(cache.load(keys[2]).status, DiskCache::LoadResult::hit);
    EXPECT_EQ(cache.load(keys[3]).status, DiskCache::LoadResult::hit);
}

TEST(DiskCacheBound, JustStoredEntrySurvivesEvenWithAnOlderLookingTime) {
    // Coarse file system clocks can give a new entry the same time as old ones: it still stays.
    TempDirectory directory;
    const std::uint64_t entry_bytes = encode_cache_entry(key_for("a"), sample_image()).size();
    DiskCache cache(directory.path(), entry_bytes);
    ASSERT_TRUE(cache.store(key_for("a"), sample_image()));
    fs::last_write_time(cache.entry_path(key_for("a")), fs::file_time_type::clock::now() + std::chrono::hours(1));
    ASSERT_TRUE(cache.store(key_for("b"), sample_image()));
    EXPECT_EQ(cache.load(key_for("b")).status, DiskCache::LoadResult::hit);
    EXPECT_EQ(cache.load(key_for("a")).status, DiskCache::LoadResult::miss);
}

TEST_F(DiskCacheTest, StaleTemporaryFilesAreRemovedYoungOnesKept) {
    const std::string key = key_for("temporaries");
    const fs::path shard = cache_.entry_path(key).parent_path();
    const fs::path stale = shard / (key + ".1-2-3.tmp");
    const fs::path young = shard / (key + ".4-5-6.tmp");
    write_file(stale, "left by a crashed writer");
    write_file(young, "being written right now");
    fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::minutes(5));
    ASSERT_TRUE(cache_.store(key, sample_image()));
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(young));
    EXPECT_EQ(cache_.usage().entries, 1u);  // temporaries are not entries
}

TEST_F(DiskCacheTest, ConcurrentStoresOfOneKeyLeaveOneValidEntry) {
    const std::string key = key_for("contended");
    std::vector<CompiledImage> images(8, sample_image());
    for (std::size_t i = 0; i < images.size(); ++i) images[i].log = "writer " + std::to_string(i);
    for (int round = 0; round < 20; ++round) {
        std::vector<std::thread> writers;
        std::atomic<int> stored{0};
        for (const CompiledImage& image : images)
            writers.emplace_back([&, &image = image] { stored += cache_.store(key, image) ? 1 : 0; });
        for (std::thread& writer : writers) writer.join();
        EXPECT_EQ(stored.load(), 8);
        const DiskCache::LoadResult loaded = cache_.load(key);
        ASSERT_EQ(loaded.status, DiskCache::LoadResult::hit);
        EXPECT_EQ(loaded.image.log.rfind("writer ", 0), 0u);
        EXPECT_EQ(loaded.image.data, sample_image().data);
    }
    EXPECT_EQ(files_under(directory_.path() / "cache"), std::vector<fs::path>{cache_.entry_path(key)});
}

TEST_F(DiskCacheTest, ConcurrentStoresAndLoadsNeverSeeAPartialEntry) {
    const std::string key = key_for("readers and writers");
    ASSERT_TRUE(cache_.store(key, sample_image()));
    std::atomic<bool> done{false};
    std::atomic<int> bad{0};
    std::thread writer([&] {
        for (int i = 0; i < 200; ++i) cache_.store(key, sample_image());
        done = true;
    });
    std::vector<std::thread> readers;
    for (int r = 0; r < 4; ++r)
        readers.emplace_back([&] {
            while (!done)
                if (cache_.load(key).status == DiskCache::LoadResult::corrupt) ++bad;
        });
    writer.join();
    for (std::thread& reader : readers) reader.join();
    EXPECT_EQ(bad.load(), 0);
}

// --- what another user may have planted where the cache looks ------------------------------------
// Each is skipped (a miss, with a warning on stderr), never followed, never read, never blocked on.

class PlantedEntryTest : public DiskCacheTest {
protected:
    const std::string key_ = key_for("planted");
    const fs::path entry_ = cache_.entry_path(key_);
    TempDirectory elsewhere_;

    void SetUp() override { fs::create_directories(entry_.parent_path()); }

    // A complete, valid entry for key_ somewhere else: what an attacker would plant.
    fs::path valid_entry_elsewhere() {
        const fs::path path = elsewhere_.path() / "planted.gkc";
        write_file(path, encode_cache_entry(key_, sample_image()));
        return path;
    }
};

TEST_F(PlantedEntryTest, ASymbolicLinkToAValidEntryElsewhereIsNotFollowed) {
    const fs::path target = valid_entry_elsewhere();
    const std::string planted = read_file(target);
    fs::create_symlink(target, entry_);
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
    // Storing replaces the link itself; the file it pointed at is untouched.
    ASSERT_TRUE(cache_.store(key_, sample_image()));
    EXPECT_FALSE(fs::is_symlink(fs::symlink_status(entry_)));
    EXPECT_EQ(read_file(target), planted);
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::hit);
}

TEST_F(PlantedEntryTest, AFifoIsNeverOpenedForABlockingRead) {
    ASSERT_EQ(mkfifo(entry_.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(cache_.usage().entries, 0u);            // not counted as an entry either
    ASSERT_TRUE(cache_.store(key_, sample_image()));  // replaced by a real entry
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::hit);
}

TEST_F(PlantedEntryTest, ADirectoryIsSkipped) {
    fs::create_directories(entry_ / "inside");
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
    EXPECT_FALSE(cache_.store(key_, sample_image()));  // rename() cannot replace a directory
    EXPECT_TRUE(fs::is_directory(entry_ / "inside"));
}

TEST_F(PlantedEntryTest, AnEntryOthersCanWriteIsNotLoaded) {
    ASSERT_TRUE(cache_.store(key_, sample_image()));
    fs::permissions(entry_, fs::perms::others_write, fs::perm_options::add);
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
    fs::permissions(entry_, fs::perms::others_write, fs::perm_options::remove);
    fs::permissions(entry_, fs::perms::group_write, fs::perm_options::add);
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
    ASSERT_TRUE(cache_.store(key_, sample_image()));  // a fresh entry of ours replaces it
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::hit);
}

TEST_F(PlantedEntryTest, AnEntryOwnedByAnotherUserIsNotLoaded) {
    if (geteuid() != 0)
        GTEST_SKIP() << "only root can give a file to another user; tests/util's TrustProblem covers it";
    write_file(entry_, encode_cache_entry(key_, sample_image()));
    ASSERT_EQ(chown(entry_.c_str(), 65534, 65534), 0);
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
}

TEST_F(PlantedEntryTest, AShardThatIsALinkOrOthersCanWriteIsSkipped) {
    fs::remove(entry_.parent_path());
    valid_entry_elsewhere();
    fs::rename(elsewhere_.path() / "planted.gkc", elsewhere_.path() / entry_.filename());
    fs::create_directory_symlink(elsewhere_.path(), entry_.parent_path());
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
    EXPECT_FALSE(cache_.store(key_, sample_image()));
    EXPECT_EQ(cache_.usage().entries, 0u);  // a linked shard is not the cache's
    fs::remove(entry_.parent_path());
    ASSERT_TRUE(cache_.store(key_, sample_image()));
    fs::permissions(entry_.parent_path(), fs::perms::all);
    EXPECT_EQ(cache_.load(key_).status, DiskCache::LoadResult::miss);
}

TEST_F(DiskCacheTest, TheCacheDirectoryAndItsFilesAreMadePrivate) {
    const std::string key = key_for("private");
    ASSERT_TRUE(cache_.store(key, sample_image()));
    struct stat status {};
    ASSERT_EQ(stat((directory_.path() / "cache").c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0700u);
    ASSERT_EQ(stat(cache_.entry_path(key).parent_path().c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0700u);
    ASSERT_EQ(stat(cache_.entry_path(key).c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0600u);
}

TEST(DiskCacheShared, NothingIsStoredInADirectoryOthersCanWrite) {
    TempDirectory directory;
    fs::permissions(directory.path(), fs::perms::all | fs::perms::sticky_bit);
    DiskCache cache(directory.path(), plenty);
    EXPECT_FALSE(cache.store(key_for("shared"), sample_image()));
    EXPECT_TRUE(fs::is_empty(directory.path()));
    EXPECT_EQ(cache.load(key_for("shared")).status, DiskCache::LoadResult::miss);
}

}  // namespace
}  // namespace gpukit::detail
