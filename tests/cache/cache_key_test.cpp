// tests/cache/cache_key_test.cpp: what the cache key covers, and the includes it reports.
#include "cache/cache_key.hpp"

#include <gtest/gtest.h>

#include "gpukit/error.hpp"
#include "temp_directory.hpp"
#include "util/sha256.hpp"

namespace gpukit::detail {
namespace {

using gpukit::testing::TempDirectory;
using gpukit::testing::write_file;

constexpr std::string_view identity = "nvrtc 12.4 (test)";
constexpr std::string_view kernel_source = R"(#include "params.h"
#include <cuda_fp16.h>
extern "C" __global__ void scale(float* x) { x[threadIdx.x] *= FACTOR; }
)";

std::string key_of(std::string_view source, const CompileOptions& options, std::string target = "sm_80",
                   std::string_view compiler = identity) {
    return compute_cache_key(compiler, CompileInput{source, options, std::move(target)});
}

CompileOptions base_options() { return CompileOptions{}.define("N", "256").header("params.h", "#define FACTOR 2\n"); }

TEST(CacheKey, IsHexSha256) {
    const std::string key = key_of(kernel_source, base_options());
    EXPECT_EQ(key.size(), 64u);
    EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(CacheKey, StableForEqualInputs) {
    EXPECT_EQ(key_of(kernel_source, base_options()), key_of(std::string(kernel_source), base_options()));
}

TEST(CacheKey, ChangesWithTheSource) {
    EXPECT_NE(key_of(kernel_source, base_options()), key_of(std::string(kernel_source) + " ", base_options()));
}

TEST(CacheKey, ChangesWithAnOption) {
    CompileOptions fast = base_options();
    fast.fast_math = true;
    CompileOptions no_line_info = base_options();
    no_line_info.line_info = false;
    CompileOptions other_std = base_options();
    other_std.std = "c++20";
    const std::string base = key_of(kernel_source, base_options());
    EXPECT_NE(base, key_of(kernel_source, fast));
    EXPECT_NE(base, key_of(kernel_source, no_line_info));
    EXPECT_NE(base, key_of(kernel_source, other_std));
    EXPECT_NE(base, key_of(kernel_source, base_options().option("-G")));
    // -O has no NVRTC spelling (the simulator's alone) and still changes the key.
    EXPECT_NE(key_of(kernel_source, base_options().option("-O0")), key_of(kernel_source, base_options().option("-O3")));
    EXPECT_NE(base, key_of(kernel_source, base_options().option("-O3")));
}

TEST(CacheKey, ChangesWithADefine) {
    const std::string base = key_of(kernel_source, base_options());
    EXPECT_NE(base, key_of(kernel_source, base_options().define("EXTRA")));
    CompileOptions other_value = CompileOptions{}.define("N", "512").header("params.h", "#define FACTOR 2\n");
    EXPECT_NE(base, key_of(kernel_source, other_value));
}

TEST(CacheKey, ChangesWithTheTarget) {
    EXPECT_NE(key_of(kernel_source, base_options(), "sm_80"), key_of(kernel_source, base_options(), "sm_90"));
}

TEST(CacheKey, ChangesWithTheCompilerIdentity) {
    EXPECT_NE(key_of(kernel_source, base_options(), "sm_80", "nvrtc 12.4"),
              key_of(kernel_source, base_options(), "sm_80", "nvrtc 12.5"));
}

TEST(CacheKey, ChangesWithNameExpressions) {
    const std::string base = key_of(kernel_source, base_options());
    EXPECT_NE(base, key_of(kernel_source, base_options().name_expression("axpy<float>")));
    EXPECT_NE(key_of(kernel_source, base_options().name_expression("axpy<float>")),
              key_of(kernel_source, base_options().name_expression("axpy<double>")));
}

TEST(CacheKey, ChangesWithTheProgramName) {
    CompileOptions renamed = base_options();
    renamed.program_name = "other.cu";
    EXPECT_NE(key_of(kernel_source, base_options()), key_of(kernel_source, renamed));
}

TEST(CacheKey, ChangesWithAStringHeadersContent) {
    CompileOptions changed = CompileOptions{}.define("N", "256").header("params.h", "#define FACTOR 3\n");
    EXPECT_NE(key_of(kernel_source, base_options()), key_of(kernel_source, changed));
}

TEST(CacheKey, ChangesWithAFileFoundThroughIncludeDir) {
    TempDirectory directory;
    write_file(directory.path() / "params.h", "#define FACTOR 2\n");
    const CompileOptions options = CompileOptions{}.include_dir(directory.path());
    const std::string before = key_of(kernel_source, options);
    EXPECT_EQ(before, key_of(kernel_source, options));
    write_file(directory.path() / "params.h", "#define FACTOR 4\n");
    EXPECT_NE(before, key_of(kernel_source, options));
}

TEST(CacheKey, ChangesWithANestedIncludesContent) {
    TempDirectory directory;
    write_file(directory.path() / "params.h", "#include \"detail/inner.h\"\n");
    write_file(directory.path() / "detail" / "inner.h", "#include \"deepest.h\"\n");
    write_file(directory.path() / "detail" / "deepest.h", "#define FACTOR 2\n");
    const CompileOptions options = CompileOptions{}.include_dir(directory.path());
    const std::string before = key_of(kernel_source, options);
    write_file(directory.path() / "detail" / "deepest.h", "#define FACTOR 5\n");
    EXPECT_NE(before, key_of(kernel_source, options));
}

TEST(CacheKey, ChangesWhenAStringHeaderIncludesAChangedFile) {
    TempDirectory directory;
    write_file(directory.path() / "values.h", "#define FACTOR 2\n");
    const CompileOptions options =
        CompileOptions{}.include_dir(directory.path()).header("params.h", "#include <values.h>\n");
    const std::string before = key_of(kernel_source, options);
    write_file(directory.path() / "values.h", "#define FACTOR 6\n");
    EXPECT_NE(before, key_of(kernel_source, options));
}

TEST(CacheKey, ChangesWhenAMissingHeaderAppears) {
    TempDirectory directory;
    const CompileOptions options = CompileOptions{}.include_dir(directory.path());
    const std::string before = key_of(kernel_source, options);
    write_file(directory.path() / "cuda_fp16.h", "// a shadowing header\n");
    EXPECT_NE(before, key_of(kernel_source, options));
}

TEST(CacheKey, IncludesInCommentsDoNotCount) {
    TempDirectory directory;
    write_file(directory.path() / "unused.h", "#define A 1\n");
    const std::string source = "// #include \"unused.h\"\n/* #include <unused.h> */\n__global__ void k() {}\n";
    const CompileOptions options = CompileOptions{}.include_dir(directory.path());
    const std::string before = key_of(source, options);
    write_file(directory.path() / "unused.h", "#define A 2\n");
    EXPECT_EQ(before, key_of(source, options));
    EXPECT_TRUE(find_includes(CompileInput{source, options, "sm_80"}).empty());
}

TEST(CacheKey, IncludesUnderACertainlyFalseConditionDoNotCountButUnknownOnesDo) {
    TempDirectory directory;
    write_file(directory.path() / "dead.h", "#define A 1\n");
    write_file(directory.path() / "maybe.h", "#define B 1\n");
    const std::string source = "#if 0\n#include \"dead.h\"\n#endif\n#ifdef USE_B\n#include \"maybe.h\"\n#endif\n";
    const CompileOptions options = CompileOptions{}.include_dir(directory.path());
    const std::string before = key_of(source, options);
    write_file(directory.path() / "dead.h", "#define A 2\n");
    EXPECT_EQ(before, key_of(source, options));
    write_file(directory.path() / "maybe.h", "#define B 2\n");  // -DUSE_B may include it
    EXPECT_NE(before, key_of(source, options));
}

TEST(CacheKey, ListOrderCounts) {
    // Documented behaviour: lists are hashed in the order given, because order can change the
    // compile (a later -D wins, -I directories are searched in order).
    const CompileOptions ab = CompileOptions{}.define("A").define("B");
    const CompileOptions ba = CompileOptions{}.define("B").define("A");
    EXPECT_NE(key_of(kernel_source, ab), key_of(kernel_source, ba));
}

TEST(CacheKey, FieldBoundariesAreUnambiguous) {
    // Moving text between neighbouring fields must change the key.
    const CompileOptions ab_c = CompileOptions{}.option("-DAB").option("-DC");
    const CompileOptions a_bc = CompileOptions{}.option("-DA").option("-DBC");
    EXPECT_NE(key_of(kernel_source, ab_c), key_of(kernel_source, a_bc));
    CompileOptions name_a = CompileOptions{}.header("a", "bc");
    CompileOptions name_ab = CompileOptions{}.header("ab", "c");
    EXPECT_NE(key_of("x", name_a), key_of("x", name_ab));
}

TEST(FindIncludes, ResolvesStringHeadersFilesAndToolkitHeaders) {
    TempDirectory directory;
    write_file(directory.path() / "from_file.h", "#define B 1\n");
    const std::string source = "#include \"params.h\"\n#include <from_file.h>\n#include <cuda_fp16.h>\n";
    const CompileOptions options = CompileOptions{}.header("params.h", "#define A 1\n").include_dir(directory.path());
    const auto found = find_includes(CompileInput{source, options, "sm_80"});
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0].name, "params.h");
    EXPECT_EQ(found[0].resolved, string_header_marker);
    EXPECT_EQ(found[0].content_hash, sha256_hex("#define A 1\n"));
    EXPECT_EQ(found[1].name, "from_file.h");
    EXPECT_EQ(found[1].resolved, (directory.path() / "from_file.h").string());
    EXPECT_EQ(found[1].content_hash, sha256_hex("#define B 1\n"));
    EXPECT_EQ(found[2].name, "cuda_fp16.h");
    EXPECT_EQ(found[2].resolved, "");
    EXPECT_EQ(found[2].content_hash, "");
}

TEST(FindIncludes, ComputedIncludesInAHeaderUnderARootAreListedByTheirText) {
    TempDirectory directory;
    write_file(directory.path() / "kernel.h", "#include KERNEL_HEADER\n");
    const CompileOptions options = CompileOptions{}.include_dir(directory.path());
    const auto found = find_includes(CompileInput{"#include \"kernel.h\"\n", options, "sm_80"});
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[1].form, IncludeDirective::Form::computed);
    EXPECT_EQ(found[1].name, "KERNEL_HEADER");
    EXPECT_EQ(found[1].resolved, "");
}

// The include rules (source/include_resolver.hpp) hold before any lookup: the key is never made
// for a source that reaches a refused header, and the error quotes nothing of the file.
TEST(CacheKey, ARefusedIncludeIsACompileErrorThatQuotesNothing) {
    TempDirectory directory;
    write_file(directory.path() / "secret.txt", "the secret line\n");
    const std::string absolute = "int a;\n#include \"" + (directory.path() / "secret.txt").string() + "\"\n";
    const CompileOptions options = CompileOptions{}.include_dir(directory.path() / "..");
    for (const std::string& source : {absolute, std::string("#include KERNEL_HEADER\n"),
                                      std::string("#include <../../../../../../etc/passwd>\n")}) {
        try {
            key_of(source, CompileOptions{});
            ADD_FAILURE() << "accepted: " << source;
        } catch (const CompileError& error) {
            EXPECT_EQ(error.log().find("the secret line"), std::string::npos) << error.log();
            EXPECT_NE(error.log().find("kernel.cu:"), std::string::npos) << error.log();
            EXPECT_NE(error.log().find("not allowed"), std::string::npos) << error.log();
        }
        EXPECT_THROW(find_includes(CompileInput{source, CompileOptions{}, "sm_80"}), CompileError);
    }
}

}  // namespace
}  // namespace gpukit::detail
