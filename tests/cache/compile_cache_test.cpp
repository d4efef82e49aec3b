// tests/cache/compile_cache_test.cpp: memory, disk and compile, with a fake compiler.
#include "cache/compile_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

#include "cache/disk_cache.hpp"
#include "gpukit/error.hpp"
#include "support/scoped_environment.hpp"
#include "temp_directory.hpp"

namespace gpukit::detail {
namespace {

namespace fs = std::filesystem;
using gpukit::testing::read_file;
using gpukit::testing::ScopedEnvironment;
using gpukit::testing::TempDirectory;
using gpukit::testing::write_file;

// Counts its calls; the image it returns is derived from the input so that mix-ups show.
class FakeCompiler : public Compiler {
public:
    std::string identity() const override { return identity_; }

    CompiledImage compile(const CompileInput& input) const override {
        ++calls;
        if (sleep_per_compile.count() > 0) std::this_thread::sleep_for(sleep_per_compile);
        if (fail)
            throw CompileError(input.options.program_name, input.target, "error: expected a ';'",
                               input.options.to_arguments(), std::string(input.source));
        CompiledImage image;
        image.format = ImageFormat::ptx;
        image.data = "compiled for " + input.target + ": " + std::string(input.source);
        image.log = "fake log";
        for (const std::string& expression : input.options.name_expressions)
            image.lowered_names.emplace_back(expression, "_mangled_" + expression);
        return image;
    }

    mutable std::atomic<int> calls{0};
    bool fail = false;
    std::chrono::milliseconds sleep_per_compile{0};
    std::string identity_ = "fake compiler 1.0";
};

constexpr std::string_view source = "extern \"C\" __global__ void k(float* x) { x[0] = 1; }";

class CompileCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        previous_config_ = cache_config();
        configure_cache({directory_.path() / "cache", std::uint64_t{1} << 30, true});
        clear_memory_cache();
        reset_cache_stats();
    }
    void TearDown() override {
        clear_memory_cache();
        reset_cache_stats();
        configure_cache(previous_config_);
    }

    CachedCompile get(std::string_view text = source, std::string target = "sm_80") {
        return get_or_compile(compiler_, CompileInput{text, options_, std::move(target)});
    }
    fs::path entry_path(const std::string& key) const {
        return DiskCache(directory_.path() / "cache", 1).entry_path(key);
    }

    TempDirectory directory_;
    CacheConfig previous_config_;
    FakeCompiler compiler_;
    CompileOptions options_ = CompileOptions{}.name_expression("k");
};

TEST_F(CompileCacheTest, FirstCallMissesSecondHitsMemory) {
    const CachedCompile first = get();
    const CachedCompile second = get();
    EXPECT_EQ(compiler_.calls, 1);
    EXPECT_EQ(first.key, second.key);
    EXPECT_EQ(first.image, second.image);  // the very same image object
    EXPECT_EQ(first.image->data, "compiled for sm_80: " + std::string(source));
    EXPECT_EQ(first.image->lowered_names, (std::vector<std::pair<std::string, std::string>>{{"k", "_mangled_k"}}));
    const CacheStats stats = cache_stats();
    EXPECT_EQ(stats.misses, 1u);
    EXPECT_EQ(stats.memory_hits, 1u);
    EXPECT_EQ(stats.disk_hits, 0u);
}

TEST_F(CompileCacheTest, AfterClearingMemoryItHitsDisk) {
    const CachedCompile first = get();
    clear_memory_cache();
    const CachedCompile second = get();
    EXPECT_EQ(compiler_.calls, 1);
    EXPECT_EQ(second.image->data, first.image->data);
    EXPECT_EQ(second.image->log, first.image->log);
    EXPECT_EQ(second.image->lowered_names, first.image->lowered_names);
    EXPECT_EQ(cache_stats().disk_hits, 1u);
    // The disk hit filled memory.
    get();
    EXPECT_EQ(cache_stats().memory_hits, 1u);
}

TEST_F(CompileCacheTest, ADamagedDiskEntryIsCompiledAgain) {
    const CachedCompile first = get();
    clear_memory_cache();
    const fs::path path = entry_path(first.key);
    std::string bytes = read_file(path);
    ASSERT_GT(bytes.size(), 100u);
    bytes.replace(bytes.size() - 20, 10, "XXXXXXXXXX");
    write_file(path, bytes);

    const CachedCompile second = get();
    EXPECT_EQ(compiler_.calls, 2);
    EXPECT_EQ(second.image->data, first.image->data);
    EXPECT_EQ(cache_stats().corrupt_entries, 1u);
    EXPECT_EQ(cache_stats().misses, 2u);

    // The recompile rewrote a good entry.
    clear_memory_cache();
    get();
    EXPECT_EQ(compiler_.calls, 2);
    EXPECT_EQ(cache_stats().disk_hits, 1u);
}

TEST_F(CompileCacheTest, CompileErrorsAreNotCached) {
    compiler_.fail = true;
    EXPECT_THROW(get(), CompileError);
    EXPECT_THROW(get(), CompileError);
    EXPECT_EQ(compiler_.calls, 2);
    EXPECT_EQ(cache_disk_usage().entries, 0u);
    compiler_.fail = false;
    get();
    EXPECT_EQ(compiler_.calls, 3);
}

TEST_F(CompileCacheTest, WorksWithTheDiskDisabled) {
    configure_cache({directory_.path() / "cache", std::uint64_t{1} << 30, false});
    get();
    get();
    EXPECT_EQ(compiler_.calls, 1);
    clear_memory_cache();
    get();
    EXPECT_EQ(compiler_.calls, 2);
    EXPECT_TRUE(fs::is_empty(directory_.path() / "cache"));  // made private when configured, then left alone
    EXPECT_EQ(cache_stats().disk_hits, 0u);
}

TEST_F(CompileCacheTest, CompileTimeIsMeasured) {
    compiler_.sleep_per_compile = std::chrono::milliseconds(1);
    get();
    EXPECT_GE(cache_stats().compile_seconds, 0.001);
    reset_cache_stats();
    EXPECT_EQ(cache_stats().compile_seconds, 0.0);
    EXPECT_EQ(cache_stats().misses, 0u);
}

TEST_F(CompileCacheTest, DifferentInputsAreDifferentEntries) {
    const CachedCompile a = get(source, "sm_80");
    const CachedCompile b = get(source, "sm_90");
    const CachedCompile c = get("__global__ void other() {}", "sm_80");
    EXPECT_NE(a.key, b.key);
    EXPECT_NE(a.key, c.key);
    EXPECT_EQ(b.image->data, "compiled for sm_90: " + std::string(source));
    EXPECT_EQ(compiler_.calls, 3);
    EXPECT_EQ(cache_disk_usage().entries, 3u);

    compiler_.identity_ = "fake compiler 2.0";  // a new compiler version compiles again
    get(source, "sm_80");
    EXPECT_EQ(compiler_.calls, 4);
}

TEST_F(CompileCacheTest, ChangingAnIncludedFileCompilesAgain) {
    TempDirectory headers;
    write_file(headers.path() / "params.h", "#define FACTOR 2\n");
    options_.include_dir(headers.path());
    const std::string text = "#include \"params.h\"\n__global__ void k() {}\n";
    const CachedCompile first = get(text);
    get(text);
    EXPECT_EQ(compiler_.calls, 1);
    write_file(headers.path() / "params.h", "#define FACTOR 3\n");
    const CachedCompile second = get(text);
    EXPECT_EQ(compiler_.calls, 2);
    EXPECT_NE(first.key, second.key);
}

TEST_F(CompileCacheTest, ClearingTheDiskCache) {
    get(source, "sm_80");
    get(source, "sm_90");
    EXPECT_EQ(cache_disk_usage().entries, 2u);
    EXPECT_GT(cache_disk_usage().bytes, 0u);
    clear_disk_cache();
    EXPECT_EQ(cache_disk_usage().entries, 0u);
    clear_memory_cache();
    get(source, "sm_80");
    EXPECT_EQ(compiler_.calls, 3);
}

TEST_F(CompileCacheTest, EvictionsAreCounted) {
    const std::string big(2000, 'x');
    configure_cache({directory_.path() / "cache", 3000, true});  // room for one entry of ~2 KB
    get(big + "1");
    get(big + "2");
    EXPECT_EQ(cache_stats().evictions, 1u);
    EXPECT_EQ(cache_disk_usage().entries, 1u);
}

// A new process starts with empty in-process counters and memory; the disk's counts go on.
void as_if_in_a_new_process() {
    clear_memory_cache();
    reset_cache_stats();
}

TEST_F(CompileCacheTest, DiskStatisticsAddUpOverProcesses) {
    get();  // miss: compiled and stored
    get();  // memory hit: never reaches the disk, not counted there
    as_if_in_a_new_process();
    get();  // disk hit
    as_if_in_a_new_process();
    get();                 // disk hit
    get(source, "sm_90");  // miss
    const DiskCacheStats stats = cache_disk_stats();
    EXPECT_EQ(stats.hits, 2u);
    EXPECT_EQ(stats.misses, 2u);
    EXPECT_EQ(stats.corrupt_entries, 0u);
    EXPECT_EQ(cache_stats().disk_hits, 1u);  // this "process" saw one of them
}

TEST_F(CompileCacheTest, DiskStatisticsCountDamagedEntriesAndEvictions) {
    const CachedCompile first = get();
    as_if_in_a_new_process();
    const fs::path path = entry_path(first.key);
    std::string bytes = read_file(path);
    bytes.replace(bytes.size() - 20, 10, "XXXXXXXXXX");
    write_file(path, bytes);
    get();
    EXPECT_EQ(cache_disk_stats().corrupt_entries, 1u);
    EXPECT_EQ(cache_disk_stats().misses, 2u);

    configure_cache({directory_.path() / "cache", 3000, true});  // room for one entry of ~2 KB
    const std::string big(2000, 'x');
    get(big + "1");
    get(big + "2");
    EXPECT_GE(cache_disk_stats().evictions, 1u);
}

TEST_F(CompileCacheTest, ClearingTheDiskCacheStartsItsStatisticsAgain) {
    get();
    as_if_in_a_new_process();
    get();
    ASSERT_EQ(cache_disk_stats().hits, 1u);
    clear_disk_cache();
    const DiskCacheStats cleared = cache_disk_stats();
    EXPECT_EQ(cleared.hits, 0u);
    EXPECT_EQ(cleared.misses, 0u);
}

TEST_F(CompileCacheTest, NoDiskStatisticsWhileTheDiskIsOff) {
    configure_cache({directory_.path() / "cache", std::uint64_t{1} << 30, false});
    get();
    EXPECT_EQ(cache_disk_stats().misses, 0u);
    EXPECT_TRUE(fs::is_empty(directory_.path() / "cache"));
}

TEST_F(CompileCacheTest, ConfigurationIsReportedBack) {
    const CacheConfig config{directory_.path() / "elsewhere", 12345, true};
    configure_cache(config);
    EXPECT_EQ(cache_config().directory, config.directory);
    EXPECT_EQ(cache_config().max_bytes, 12345u);
    EXPECT_TRUE(cache_config().disk_enabled);
    EXPECT_THROW(configure_cache({"", 1, true}), InvalidArgumentError);
}

TEST_F(CompileCacheTest, ConcurrentLookupsAgree) {
    compiler_.sleep_per_compile = std::chrono::milliseconds(2);
    std::vector<std::thread> threads;
    std::vector<std::string> data(8);
    for (std::size_t i = 0; i < data.size(); ++i) threads.emplace_back([&, i] { data[i] = get().image->data; });
    for (std::thread& thread : threads) thread.join();
    for (const std::string& image : data) EXPECT_EQ(image, "compiled for sm_80: " + std::string(source));
    const CacheStats stats = cache_stats();
    EXPECT_EQ(stats.memory_hits + stats.disk_hits + stats.misses, 8u);
    EXPECT_EQ(stats.misses, static_cast<std::uint64_t>(compiler_.calls.load()));
}

// ---- the in-process memo's bound

TEST_F(CompileCacheTest, TheMemoKeepsAtMostItsBoundOfImages) {
    // Two thousand distinct modules, as a long session or a parameter sweep compiles: the memo keeps
    // the last 64 (the disk is off here, so that what left memory is compiled again).
    CacheConfig config = cache_config();
    config.memory_max_entries = 64;
    config.disk_enabled = false;
    configure_cache(config);
    for (int i = 0; i < 2000; ++i) {
        get("kernel " + std::to_string(i));
        const MemoryCacheUsage usage = memory_cache_usage();
        ASSERT_LE(usage.images, 64u) << "after " << i + 1 << " modules";
        ASSERT_LE(usage.image_bytes, 64u * 64u);
    }
    EXPECT_EQ(memory_cache_usage().images, 64u);
    EXPECT_EQ(cache_stats().memory_evictions, 2000u - 64u);
    EXPECT_EQ(compiler_.calls, 2000);
    get("kernel 1999");  // among the last 64: a memory hit
    EXPECT_EQ(cache_stats().memory_hits, 1u);
    EXPECT_EQ(compiler_.calls, 2000);
    get("kernel 0");  // evicted long ago
    EXPECT_EQ(compiler_.calls, 2001);
}

TEST_F(CompileCacheTest, TheMemoKeepsWhatWasUsedLast) {
    CacheConfig config = cache_config();
    config.memory_max_entries = 3;
    configure_cache(config);
    get("a");
    get("b");
    get("c");
    get("a");  // a is now the most recently used, b the least
    get("d");
    reset_cache_stats();
    get("a");
    get("c");
    get("d");
    EXPECT_EQ(cache_stats().memory_hits, 3u);
    get("b");
    EXPECT_EQ(cache_stats().disk_hits, 1u);
}

TEST_F(CompileCacheTest, TheMemoKeepsAtMostItsBoundOfBytes) {
    CacheConfig config = cache_config();
    config.memory_max_bytes = 10'000;
    configure_cache(config);
    const std::string big(3000, 'x');
    for (int i = 0; i < 10; ++i) get(big + std::to_string(i));
    const MemoryCacheUsage usage = memory_cache_usage();
    EXPECT_LE(usage.image_bytes, 10'000u);
    EXPECT_EQ(usage.images, 3u);  // each image is a little over 3000 bytes
    EXPECT_EQ(cache_stats().memory_evictions, 7u);
}

TEST_F(CompileCacheTest, ClearingTheMemoEmptiesIt) {
    get("a");
    get("b");
    EXPECT_EQ(memory_cache_usage().images, 2u);
    clear_memory_cache();
    const MemoryCacheUsage usage = memory_cache_usage();
    EXPECT_EQ(usage.images, 0u);
    EXPECT_EQ(usage.image_bytes, 0u);
    EXPECT_EQ(usage.modules, 0u);
}

class CacheEnvironmentTest : public ::testing::Test {
protected:
    void SetUp() override {
        for (const char* name : {"GPUKIT_CACHE_DIR", "GPUKIT_CACHE_MAX_BYTES", "GPUKIT_CACHE_DISABLE", "XDG_CACHE_HOME",
                                 "GPUKIT_CACHE_MEMORY_MAX_ENTRIES", "GPUKIT_CACHE_MEMORY_MAX_BYTES"})
            environment_.set(name, nullptr);
        environment_.set("HOME", "/home/someone");
    }
    ScopedEnvironment environment_;
};

TEST_F(CacheEnvironmentTest, Defaults) {
    const CacheConfig config = cache_config_from_environment();
    EXPECT_EQ(config.directory, fs::path("/home/someone/.cache/gpukit"));
    EXPECT_EQ(config.max_bytes, std::uint64_t{1} << 30);
    EXPECT_TRUE(config.disk_enabled);
    EXPECT_EQ(config.memory_max_entries, 256u);
    EXPECT_EQ(config.memory_max_bytes, std::uint64_t{256} << 20);
}

TEST_F(CacheEnvironmentTest, MemoBoundsArePlainIntegers) {
    environment_.set("GPUKIT_CACHE_MEMORY_MAX_ENTRIES", "32");
    environment_.set("GPUKIT_CACHE_MEMORY_MAX_BYTES", "1048576");
    EXPECT_EQ(cache_config_from_environment().memory_max_entries, 32u);
    EXPECT_EQ(cache_config_from_environment().memory_max_bytes, 1048576u);
    environment_.set("GPUKIT_CACHE_MEMORY_MAX_ENTRIES", "0");  // keep nothing beyond what Modules hold
    EXPECT_EQ(cache_config_from_environment().memory_max_entries, 0u);
    for (const char* bad : {"-1", "many", "1e3"}) {
        environment_.set("GPUKIT_CACHE_MEMORY_MAX_ENTRIES", bad);
        try {
            cache_config_from_environment();
            ADD_FAILURE() << bad << " was accepted";
        } catch (const InvalidArgumentError& e) {
            EXPECT_EQ(std::string(e.what()), std::string("GPUKIT_CACHE_MEMORY_MAX_ENTRIES must be a whole number of "
                                                         "entries (e.g. 256), got '") +
                                                 bad + "'");
        }
    }
}

TEST_F(CacheEnvironmentTest, XdgCacheHomeWhenAbsolute) {
    environment_.set("XDG_CACHE_HOME", "/var/cache/me");
    EXPECT_EQ(cache_config_from_environment().directory, fs::path("/var/cache/me/gpukit"));
    environment_.set("XDG_CACHE_HOME", "relative/ignored");
    EXPECT_EQ(cache_config_from_environment().directory, fs::path("/home/someone/.cache/gpukit"));
}

TEST_F(CacheEnvironmentTest, ExplicitDirectoryWins) {
    environment_.set("XDG_CACHE_HOME", "/var/cache/me");
    environment_.set("GPUKIT_CACHE_DIR", "/scratch/kernels");
    EXPECT_EQ(cache_config_from_environment().directory, fs::path("/scratch/kernels"));
}

TEST_F(CacheEnvironmentTest, NoHomeMeansNoDiskCache) {
    environment_.set("HOME", nullptr);
    const CacheConfig config = cache_config_from_environment();
    EXPECT_TRUE(config.directory.empty());
    EXPECT_FALSE(config.disk_enabled);
}

TEST_F(CacheEnvironmentTest, MaxBytesIsAPlainInteger) {
    environment_.set("GPUKIT_CACHE_MAX_BYTES", "5000000");
    EXPECT_EQ(cache_config_from_environment().max_bytes, 5000000u);
    for (const char* bad : {"1G", "-1", "12 ", "lots", "99999999999999999999999"}) {
        environment_.set("GPUKIT_CACHE_MAX_BYTES", bad);
        EXPECT_THROW(cache_config_from_environment(), InvalidArgumentError) << bad;
    }
}

TEST_F(CacheEnvironmentTest, DisableFlag) {
    for (const char* off : {"1", "true", "YES", "on"}) {
        environment_.set("GPUKIT_CACHE_DISABLE", off);
        EXPECT_FALSE(cache_config_from_environment().disk_enabled) << off;
    }
    for (const char* on : {"0", "false", "no", "OFF"}) {
        environment_.set("GPUKIT_CACHE_DISABLE", on);
        EXPECT_TRUE(cache_config_from_environment().disk_enabled) << on;
    }
    environment_.set("GPUKIT_CACHE_DISABLE", "maybe");
    EXPECT_THROW(cache_config_from_environment(), InvalidArgumentError);
}

// --- the cache directory must be private ----------------------------------------------------------

class CacheDirectoryPolicyTest : public CompileCacheTest {
protected:
    void TearDown() override {
        environment_.reset();  // the variables first, then the configuration they gave
        CompileCacheTest::TearDown();
    }
    // A directory anyone can write (mode 1777, like /tmp).
    fs::path shared_directory() const {
        const fs::path path = directory_.path() / "shared";
        fs::create_directories(path);
        fs::permissions(path, fs::perms::all | fs::perms::sticky_bit);
        return path;
    }
    std::optional<ScopedEnvironment> environment_{std::in_place};
};

TEST_F(CacheDirectoryPolicyTest, ConfiguringADirectoryOthersCanWriteIsAnError) {
    const fs::path shared = shared_directory();
    try {
        configure_cache({shared, std::uint64_t{1} << 30, true});
        FAIL() << "a directory anyone can write was accepted";
    } catch (const InvalidArgumentError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(shared.string()), std::string::npos) << message;
        EXPECT_NE(message.find("mode 1777"), std::string::npos) << message;
        EXPECT_NE(message.find("GPUKIT_CACHE_DISABLE=1"), std::string::npos) << message;
    }
    EXPECT_EQ(cache_config().directory, directory_.path() / "cache");  // the old configuration stays
    // Off, the directory is not looked at.
    EXPECT_NO_THROW(configure_cache({shared, std::uint64_t{1} << 30, false}));
}

TEST_F(CacheDirectoryPolicyTest, AMissingDirectoryIsCreatedMode0700) {
    const fs::path made = directory_.path() / "new" / "cache";
    configure_cache({made, std::uint64_t{1} << 30, true});
    struct stat status {};
    ASSERT_EQ(stat(made.c_str(), &status), 0);
    EXPECT_EQ(status.st_mode & 07777, 0700u);
    EXPECT_EQ(cache_directory_refusal(), "");
}

TEST_F(CacheDirectoryPolicyTest, AChosenDirectoryOthersCanWriteFailsEveryCompile) {
    environment_->set("GPUKIT_CACHE_DIR", shared_directory().c_str());
    configure_cache_from_environment();
    EXPECT_NE(cache_directory_refusal().find("mode 1777"), std::string::npos);
    EXPECT_THROW(get(), InvalidArgumentError);
    EXPECT_EQ(compiler_.calls.load(), 0);
    EXPECT_TRUE(fs::is_empty(directory_.path() / "shared"));
}

TEST_F(CacheDirectoryPolicyTest, TheDefaultDirectoryFallsBackToTheProcessWithAWarning) {
    environment_->set("GPUKIT_CACHE_DIR", nullptr);
    environment_->set("XDG_CACHE_HOME", shared_directory().parent_path().c_str());
    fs::rename(directory_.path() / "shared", directory_.path() / "gpukit");
    configure_cache_from_environment();
    EXPECT_NE(cache_directory_refusal().find("mode 1777"), std::string::npos);
    const CachedCompile first = get();
    const CachedCompile second = get();
    EXPECT_EQ(first.image, second.image);  // the in-process cache still serves
    EXPECT_EQ(compiler_.calls.load(), 1);
    EXPECT_EQ(cache_stats().memory_hits, 1u);
    EXPECT_TRUE(fs::is_empty(directory_.path() / "gpukit"));  // nothing written there
}

TEST_F(CacheDirectoryPolicyTest, AnotherUsersDirectoryIsRefused) {
    if (geteuid() != 0)
        GTEST_SKIP() << "only root can give a directory to another user; tests/util's TrustProblem covers it";
    const fs::path theirs = directory_.path() / "theirs";
    fs::create_directories(theirs);
    ASSERT_EQ(chown(theirs.c_str(), 65534, 65534), 0);
    EXPECT_THROW(configure_cache({theirs, std::uint64_t{1} << 30, true}), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::detail
