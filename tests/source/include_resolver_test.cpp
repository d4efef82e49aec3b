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
    // The source is a string, not a file: a quoted name is not looked up in the working directory,
    // and one that is there is refused (NVRTC would read it from there).
    TempDirectory directory;
    write_file(directory.path() / "a.h", "in the working directory");
    const std::filesystem::path previous = std::filesystem::current_path();
    std::filesystem::current_path(directory.path());
    const auto found = reach("#include \"a.h\"\n#include \"b.h\"\n");
    std::filesystem::current_path(previous);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].origin, HeaderOrigin::refused);
    EXPECT_EQ(found[0].path, "");
    EXPECT_EQ(found[0].content, "");
    EXPECT_EQ(found[1].origin, HeaderOrigin::not_found);
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

TEST(IncludeResolver, ComputedIncludesAreRefusedInTheSourceAndListedInFilesUnderARoot) {
    const auto in_source = reach("#include KERNEL_HEADER\n");
    ASSERT_EQ(in_source.size(), 1u);
    EXPECT_EQ(in_source[0].header, (HeaderName{IncludeForm::computed, "KERNEL_HEADER"}));
    EXPECT_EQ(in_source[0].origin, HeaderOrigin::refused);

    IncludeSearch search;
    search.string_headers.push_back({"given.h", "#include OTHER\n"});
    EXPECT_EQ(reach("#include \"given.h\"\n", search).back().origin, HeaderOrigin::refused);

    TempDirectory directory;
    write_file(directory.path() / "kernel.h", "#include KERNEL_HEADER\n");
    const auto in_file = reach("#include \"kernel.h\"\n", {{}, {directory.path()}});
    ASSERT_EQ(in_file.size(), 2u);
    EXPECT_EQ(in_file[1].header, (HeaderName{IncludeForm::computed, "KERNEL_HEADER"}));
    EXPECT_EQ(in_file[1].origin, HeaderOrigin::computed);
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

// --- the include rules: only string headers and files under the -I roots -------------------------

// Where each directive of `source` went, refused ones included, with the includer and line.
struct Place {
    std::string includer;
    std::size_t line;
    HeaderOrigin origin;
};
std::vector<Place> places(std::string_view source, const IncludeSearch& search = {}) {
    std::vector<Place> found;
    walk_includes(source, search, [&](const ReachedHeader& reached) {
        found.push_back({std::string(reached.includer), reached.line, reached.origin});
    });
    return found;
}

TEST(IncludeRules, AbsoluteNamesAreRefusedWhetherOrNotTheFileExists) {
    TempDirectory directory;
    write_file(directory.path() / "secret.h", "secret");
    const std::string secret = (directory.path() / "secret.h").string();
    for (const std::string& source :
         {"#include \"" + secret + "\"\n", "#include <" + secret + ">\n", std::string("#include \"/etc/passwd\"\n"),
          std::string("#include </no/such/file.h>\n"), "#import \"" + secret + "\"\n", "%:include \"" + secret + "\"\n",
          "#include_next \"" + secret + "\"\n"}) {
        const auto found = reach(source, {{}, {directory.path()}});
        ASSERT_EQ(found.size(), 1u) << source;
        EXPECT_EQ(found[0].origin, HeaderOrigin::refused) << source;
        EXPECT_EQ(found[0].content, "") << source;  // never read
    }
}

TEST(IncludeRules, DotDotOutOfTheRootsIsRefused) {
    TempDirectory directory;
    write_file(directory.path() / "outside.h", "outside");
    write_file(directory.path() / "root" / "sub" / "inner.h", "#include \"../up.h\"\n#include \"../../outside.h\"\n");
    write_file(directory.path() / "root" / "up.h", "int up;");
    write_file(directory.path() / "root" / "escape.h", "#include <../outside.h>\n");
    const IncludeSearch search{{}, {directory.path() / "root"}};
    // From the source: no directory of its own, so any leading '..' leaves the roots.
    EXPECT_EQ(reach("#include \"../outside.h\"\n", search)[0].origin, HeaderOrigin::refused);
    EXPECT_EQ(reach("#include \"sub/../../outside.h\"\n", search)[0].origin, HeaderOrigin::refused);
    EXPECT_EQ(reach("#include <../outside.h>\n", search)[0].origin, HeaderOrigin::refused);
    // From a file under the root: '..' that stays inside is its own business; out of it, refused.
    const auto found = places("#include \"sub/inner.h\"\n#include \"escape.h\"\n", search);
    ASSERT_EQ(found.size(), 5u);
    EXPECT_EQ(found[0].origin, HeaderOrigin::file);
    EXPECT_EQ(found[1].origin, HeaderOrigin::file);  // ../up.h: still under root
    EXPECT_EQ(found[2].origin, HeaderOrigin::refused);
    EXPECT_EQ(found[2].includer, (directory.path() / "root" / "sub" / "inner.h").string());
    EXPECT_EQ(found[2].line, 2u);
    EXPECT_EQ(found[3].origin, HeaderOrigin::file);
    EXPECT_EQ(found[4].origin, HeaderOrigin::refused);  // angled '..' from a file: never allowed
    // Names with '..' that stay inside are fine from anywhere.
    EXPECT_EQ(reach("#include \"sub/../up.h\"\n", search)[0].origin, HeaderOrigin::file);
}

TEST(IncludeRules, DeadDirectivesAreCheckedByNameToo) {
    const auto found = places("int a;\n#if 0\n#include \"/etc/passwd\"\n#include MACRO\n#endif\n");
    ASSERT_EQ(found.size(), 1u);  // a dead computed include is never compiled: left alone
    EXPECT_EQ(found[0].origin, HeaderOrigin::refused);
    EXPECT_EQ(found[0].includer, "");
    EXPECT_EQ(found[0].line, 3u);
}

TEST(IncludeRules, StringHeadersAreCheckedLikeTheSource) {
    IncludeSearch search;
    search.string_headers.push_back({"params.h", "// the parameters\n#include \"/etc/shadow\"\n"});
    const auto found = places("#include \"params.h\"\n", search);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].origin, HeaderOrigin::string_header);
    EXPECT_EQ(found[1].origin, HeaderOrigin::refused);
    EXPECT_EQ(found[1].includer, "params.h");
    EXPECT_EQ(found[1].line, 2u);
}

TEST(IncludeRules, TheRefusalNamesTheDirectiveAndWhatIsAllowed) {
    const HeaderName header{IncludeForm::quoted, "/etc/passwd"};
    const std::string message =
        refusal_message(ReachedHeader{header, HeaderOrigin::refused, {}, {}, {}, 7}, "vector_add.cu");
    EXPECT_EQ(message.rfind("vector_add.cu:7: error: #include \"/etc/passwd\": not found or not allowed", 0), 0u)
        << message;
    EXPECT_NE(message.find("-I"), std::string::npos) << message;
    const HeaderName computed{IncludeForm::computed, "HEADER"};
    const std::string in_header =
        refusal_message(ReachedHeader{computed, HeaderOrigin::refused, {}, {}, "params.h", 2}, "kernel.cu");
    EXPECT_EQ(in_header.rfind("params.h:2: error: #include HEADER: not allowed", 0), 0u) << in_header;
}

}  // namespace
}  // namespace gpukit::detail
