// tests/cache/include_scanner_test.cpp: which #include directives count, and which do not.
#include "cache/include_scanner.hpp"

#include <gtest/gtest.h>

namespace gpukit::detail {
namespace {

using Form = IncludeDirective::Form;

std::vector<std::string> names(std::string_view text) {
    std::vector<std::string> found;
    for (const IncludeDirective& directive : scan_includes(text)) found.push_back(directive.name);
    return found;
}

using Names = std::vector<std::string>;

TEST(IncludeScanner, QuotedAndAngledForms) {
    const auto found = scan_includes("#include \"a.h\"\n#include <b/c.h>\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (IncludeDirective{Form::quoted, "a.h"}));
    EXPECT_EQ(found[1], (IncludeDirective{Form::angled, "b/c.h"}));
}

TEST(IncludeScanner, WhitespaceAnywhereInTheDirective) {
    EXPECT_EQ(names("   #   include   \"a.h\"  \n\t#\tinclude<b.h>\r\n#include\"c.h\""), (Names{"a.h", "b.h", "c.h"}));
}

TEST(IncludeScanner, NoIncludesAtAll) {
    EXPECT_TRUE(scan_includes("__global__ void k(float* x) { x[threadIdx.x] = 1; }").empty());
    EXPECT_TRUE(scan_includes("").empty());
    EXPECT_TRUE(scan_includes("int include = 3; // the word alone is no directive").empty());
}

TEST(IncludeScanner, LineCommentsDoNotCount) {
    EXPECT_EQ(names("// #include \"a.h\"\n#include \"b.h\" // #include \"c.h\"\n"), (Names{"b.h"}));
}

TEST(IncludeScanner, BlockCommentsDoNotCount) {
    EXPECT_EQ(names("/* #include \"a.h\" */\n/*\n#include \"b.h\"\n*/\n#include \"c.h\"\n"), (Names{"c.h"}));
}

TEST(IncludeScanner, BlockCommentBeforeTheHashStillCounts) {
    EXPECT_EQ(names("/* licence */ #include \"a.h\"\n#/* odd */include <b.h>\n"), (Names{"a.h", "b.h"}));
}

TEST(IncludeScanner, CommentMarkersInsideStringsDoNotHideIncludes) {
    const char* source = R"src(const char* url = "http://example.com/*";
const char* pattern = "kernels/*.cu";
const char c = '"'; const char* glob = "/*";
#include "a.h"
const char* end = "*/";
#include "b.h"
)src";
    EXPECT_EQ(names(source), (Names{"a.h", "b.h"}));
}

TEST(IncludeScanner, DirectivesInsideStringsDoNotCount) {
    EXPECT_EQ(names("#define TEXT \"#include <x.h>\"\nconst char* s = \"#include <y.h>\";\n"), Names{});
}

TEST(IncludeScanner, RawStringsAreSkippedWhole) {
    const char* source = "const char* text = R\"delim(\n#include \"inside.h\"\n/* not a comment\n)delim\";\n"
                         "#include \"after.h\"\n";
    EXPECT_EQ(names(source), (Names{"after.h"}));
}

TEST(IncludeScanner, DigitSeparatorsDoNotOpenCharacterLiterals) {
    EXPECT_EQ(names("int n = 1'000'000; /* x */\n#include \"a.h\"\n"), (Names{"a.h"}));
    // Read as a character literal, the separator would pair with the next quote and turn the
    // string "/*" into a comment that hides b.h.
    EXPECT_EQ(names("int n = 1'000; char q = '\"'; const char* s = \"/*\";\n#include \"b.h\"\n"), (Names{"b.h"}));
}

TEST(IncludeScanner, ALineCommentEndingInABackslashContinues) {
    EXPECT_EQ(names("// comment \\\n#include \"hidden.h\"\n#include \"seen.h\"\n"), (Names{"seen.h"}));
}

TEST(IncludeScanner, LineSplicesInsideTheDirective) {
    EXPECT_EQ(names("#include \\\n  \"a.h\"\n#inc\\\nlude <b.h>\n"), (Names{"a.h", "b.h"}));
}

TEST(IncludeScanner, ConditionalBlocksAreNotEvaluated) {
    EXPECT_EQ(names("#if 0\n#include \"never.h\"\n#else\n#include \"always.h\"\n#endif\n"), (Names{"never.h", "always.h"}));
}

TEST(IncludeScanner, IncludeNextCounts) { EXPECT_EQ(names("#include_next <a.h>\n"), (Names{"a.h"})); }

TEST(IncludeScanner, HashNotAtLineStartIsNoDirective) {
    EXPECT_EQ(names("int x; #include \"a.h\"\n#define S(x) #x\n"), Names{});
}

TEST(IncludeScanner, ComputedIncludesKeepTheirText) {
    const auto found = scan_includes("#include HEADER_NAME // which header\n#include   MAKE(a, b)  \n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (IncludeDirective{Form::computed, "HEADER_NAME"}));
    EXPECT_EQ(found[1], (IncludeDirective{Form::computed, "MAKE(a, b)"}));
}

TEST(IncludeScanner, UnterminatedNamesDamageOnlyTheirLine) {
    EXPECT_EQ(names("#include \"broken.h\n#include <fine.h>\n"), (Names{"\"broken.h", "fine.h"}));
}

TEST(IncludeScanner, OrderOfAppearanceAndDuplicatesKept) {
    EXPECT_EQ(names("#include <b.h>\n#include <a.h>\n#include <b.h>\n"), (Names{"b.h", "a.h", "b.h"}));
}

}  // namespace
}  // namespace gpukit::detail
