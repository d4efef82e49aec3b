// tests/source/include_resolver_test.cpp: which headers a source reaches, found as the compiler finds them.
#include "source/include_resolver.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cache/temp_directory.hpp"

namespace gpukit::detail {
namespace {

using gpukit::testing::TempDirectory;
using gpukit::testing::write_file;
using Names = std::vector<std::string>;

// A reached header, kept beyond the visit.
struct Reached {
    HeaderName header;
    HeaderOrigin origin;
    std::string path;
    std::string content;
};

std::vector<Reached> reach(std::string_view source, const IncludeSearch& search = {}) {
    std::vector<Reached> found;
    walk_includes(source, search, [&](const ReachedHeader& reached) {
        found.push_back({reached.header, reached.origin, std::string(reached.path), std::string(reached.content)});
    });
    return found;
}

Names names(const std::vector<Reached>& found) {
    Names out;
    for (const Reached& reached : found) out.push_back(reached.header.name);
    return out;
}

IncludeSearch search_in(std::vector<std::filesystem::path> directories, std::vector<StringHeader> string_headers = {}) {
    return IncludeSearch{std::move(string_headers), std::move(directories)};
}

TEST(IncludeResolver, ResolvesStringHeadersFilesAndToolkitHeaders) {
    TempDirectory directory;
    write_file(directory.path() / "from_file.h", "#define B 1\n");
    const std::string source = "#include \"params.h\"\n#include <from_file.h>\n#include <cuda_fp16.h>\n";
    const auto found = reach(source, search_in({directory.path()}, {{"params.h", "#define A 1\n"}}));
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0].header, (HeaderName{IncludeForm::quoted, "params.h"}));
    EXPECT_EQ(found[0].origin, HeaderOrigin::string_header);
    EXPECT_EQ(found[0].content, "#define A 1\n");
    EXPECT_EQ(found[1].header, (HeaderName{IncludeForm::angled, "from_file.h"}));
    EXPECT_EQ(found[1].origin, HeaderOrigin::file);
    EXPECT_EQ(found[1].path, (directory.path() / "from_file.h").string());
    EXPECT_EQ(found[1].content, "#define B 1\n");
    EXPECT_EQ(found[2].header.name, "cuda_fp16.h");
    EXPECT_EQ(found[2].origin, HeaderOrigin::not_found);
    EXPECT_EQ(found[2].path, "");
    EXPECT_EQ(found[2].content, "");
}

TEST(IncludeResolver, StringHeadersComeBeforeIncludeDirectories) {
    TempDirectory directory;
    write_file(directory.path() / "params.h", "#define FROM_FILE 1\n");
    const auto found = reach("#include \"params.h\"\n", search_in({directory.path()}, {{"params.h", "#define A 1\n"}}));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].origin, HeaderOrigin::string_header);
}

TEST(IncludeResolver, IncludeDirectoriesAreSearchedInOrder) {
    TempDirectory first, second;
    write_file(second.path() / "a.h", "second");
    const IncludeSearch search = search_in({first.path(), second.path()});
    EXPECT_EQ(reach("#include <a.h>", search).at(0).path, (second.path() / "a.h").string());
    write_file(first.path() / "a.h", "first");
    EXPECT_EQ(reach("#include <a.h>", search).at(0).path, (first.path() / "a.h").string());
}

TEST(IncludeResolver, QuotedNamesLookNextToTheIncludingFileFirst) {
    TempDirectory directory;
    write_file(directory.path() / "lib" / "outer.h", "#include \"inner.h\"\n#include <inner.h>\n");
    write_file(directory.path() / "lib" / "inner.h", "beside outer.h");
    write_file(directory.path() / "inner.h", "in the include directory");
    const auto found = reach("#include \"lib/outer.h\"\n", search_in({directory.path()}));
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0].path, (directory.path() / "lib" / "outer.h").string());
    // "inner.h" is found beside outer.h; <inner.h> only through -I.
    EXPECT_EQ(found[1].path, (directory.path() / "lib" / "inner.h").string());
    EXPECT_EQ(found[2].path, (directory.path() / "inner.h").string());
}

TEST(IncludeResolver, TheSourceItselfHasNoDirectory) {
    // The source is a string, not a file: a quoted name is not looked up in the working directory.
    TempDirectory directory;
    write_file(directory.path() / "a.h", "in the working directory");
    const std::filesystem::path previous = std::filesystem::current_path();
    std::filesystem::current_path(directory.path());
    const auto found = reach("#include \"a.h\"\n");
    std::filesystem::current_path(previous);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].origin, HeaderOrigin::not_found);
    EXPECT_EQ(found[0].path, "");
}

TEST(IncludeResolver, CyclesTerminateAndEachHeaderIsListedOnce) {
    TempDirectory directory;
    write_file(directory.path() / "a.h", "#pragma once\n#include \"b.h\"\n");
    write_file(directory.path() / "b.h", "#pragma once\n#include \"a.h\"\n#include \"a.h\"\n");
    const IncludeSearch search =
        search_in({directory.path()}, {{"s.h", "#include \"t.h\"\n"}, {"t.h", "#include \"s.h\"\n"}});
    const auto found = reach("#include \"a.h\"\n#include \"s.h\"\n#include \"b.h\"\n", search);
    EXPECT_EQ(names(found), (Names{"a.h", "b.h", "s.h", "t.h"}));
}

TEST(IncludeResolver, AMissingHeaderIsListedOncePerForm) {
    const auto found = reach("#include \"x.h\"\n#include <x.h>\n#include \"x.h\"\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].header.form, IncludeForm::quoted);
    EXPECT_EQ(found[1].header.form, IncludeForm::angled);
}

TEST(IncludeResolver, ComputedIncludesAreListedByTheirText) {
    const auto found = reach("#include KERNEL_HEADER\n");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].header, (HeaderName{IncludeForm::computed, "KERNEL_HEADER"}));
    EXPECT_EQ(found[0].origin, HeaderOrigin::computed);
}

TEST(IncludeResolver, IncludesUnderACertainlyFalseConditionAreNotFollowed) {
    // The old scanner evaluated no conditional: a header under `#if 0` was followed (and hashed).
    TempDirectory directory;
    write_file(directory.path() / "live.h", "#if 0x0\n#include \"dead_in_header.h\"\n#endif\n");
    const std::string source =
        "#if 0\n#include \"dead.h\"\n#elif 1\n#include \"live.h\"\n#else\n#include \"else.h\"\n#endif\n";
    EXPECT_EQ(names(reach(source, search_in({directory.path()}))), Names{"live.h"});
}

TEST(IncludeResolver, IncludesUnderAnUnknownConditionAreFollowed) {
    const std::string source =
        "#ifdef USE_HALF\n#include <cuda_fp16.h>\n#else\n#include <float_only.h>\n#endif\n"
        "#if __CUDA_ARCH__ >= 800\n#include <cuda_bf16.h>\n#endif\n";
    EXPECT_EQ(names(reach(source)), (Names{"cuda_fp16.h", "float_only.h", "cuda_bf16.h"}));
}

TEST(IncludeResolver, MayIncludeIsOneSubstringSearch) {
    EXPECT_FALSE(may_include("__global__ void k(float* x) { x[threadIdx.x] = 1; }"));
    EXPECT_TRUE(may_include("int include = 3;"));  // a false alarm costs a read, never a missed header
    EXPECT_TRUE(reach("int include = 3;\n").empty());
}

}  // namespace
}  // namespace gpukit::detail
