// tests/source/preprocessor_test.cpp: which code may be compiled, and what the directives record.
#include "source/preprocessor.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "source/condition.hpp"

namespace gpukit::detail {
namespace {

using Form = IncludeDirective::Form;
using Texts = std::vector<std::string>;

// What every include directive of `text` names, dead ones too.
std::vector<HeaderName> scan_includes(std::string_view text) {
    const Preprocessor preprocessor(text, PreprocessorOptions{});
    std::vector<HeaderName> found;
    for (const IncludeDirective& directive : preprocessor.includes()) found.push_back(directive.header);
    return found;
}

std::vector<std::string> names(std::string_view text) {
    std::vector<std::string> found;
    for (const HeaderName& header : scan_includes(text)) found.push_back(header.name);
    return found;
}

using Names = std::vector<std::string>;

TEST(PreprocessorIncludes, QuotedAndAngledForms) {
    const auto found = scan_includes("#include \"a.h\"\n#include <b/c.h>\n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (HeaderName{Form::quoted, "a.h"}));
    EXPECT_EQ(found[1], (HeaderName{Form::angled, "b/c.h"}));
}

TEST(PreprocessorIncludes, TheDigraphOfTheHashStartsADirective) {
    // "%:" is '#' to every C++ compiler: an include written with it is an include.
    EXPECT_EQ(scan_includes("%:include \"a.h\"\n  %:  include <b.h>\nint x = 5 %: 2;\n"),
              (std::vector<HeaderName>{{Form::quoted, "a.h"}, {Form::angled, "b.h"}}));
    const Preprocessor preprocessor("%:define N 4\nint a[N];\n", PreprocessorOptions{});
    ASSERT_EQ(preprocessor.macros().size(), 1u);
    EXPECT_EQ(preprocessor.macros()[0].name, "N");
}

TEST(PreprocessorIncludes, WhitespaceAnywhereInTheDirective) {
    EXPECT_EQ(names("   #   include   \"a.h\"  \n\t#\tinclude<b.h>\r\n#include\"c.h\""), (Names{"a.h", "b.h", "c.h"}));
}

TEST(PreprocessorIncludes, NoIncludesAtAll) {
    EXPECT_TRUE(scan_includes("__global__ void k(float* x) { x[threadIdx.x] = 1; }").empty());
    EXPECT_TRUE(scan_includes("").empty());
    EXPECT_TRUE(scan_includes("int include = 3; // the word alone is no directive").empty());
}

TEST(PreprocessorIncludes, LineCommentsDoNotCount) {
    EXPECT_EQ(names("// #include \"a.h\"\n#include \"b.h\" // #include \"c.h\"\n"), (Names{"b.h"}));
}

TEST(PreprocessorIncludes, BlockCommentsDoNotCount) {
    EXPECT_EQ(names("/* #include \"a.h\" */\n/*\n#include \"b.h\"\n*/\n#include \"c.h\"\n"), (Names{"c.h"}));
}

TEST(PreprocessorIncludes, BlockCommentBeforeTheHashStillCounts) {
    EXPECT_EQ(names("/* licence */ #include \"a.h\"\n#/* odd */include <b.h>\n"), (Names{"a.h", "b.h"}));
}

TEST(PreprocessorIncludes, CommentMarkersInsideStringsDoNotHideIncludes) {
    const char* source = R"src(const char* url = "http://example.com/*";
const char* pattern = "kernels/*.cu";
const char c = '"'; const char* glob = "/*";
#include "a.h"
const char* end = "*/";
#include "b.h"
)src";
    EXPECT_EQ(names(source), (Names{"a.h", "b.h"}));
}

TEST(PreprocessorIncludes, DirectivesInsideStringsDoNotCount) {
    EXPECT_EQ(names("#define TEXT \"#include <x.h>\"\nconst char* s = \"#include <y.h>\";\n"), Names{});
}

TEST(PreprocessorIncludes, RawStringsAreSkippedWhole) {
    const char* source =
        "const char* text = R\"delim(\n#include \"inside.h\"\n/* not a comment\n)delim\";\n"
        "#include \"after.h\"\n";
    EXPECT_EQ(names(source), (Names{"after.h"}));
}

TEST(PreprocessorIncludes, DigitSeparatorsDoNotOpenCharacterLiterals) {
    EXPECT_EQ(names("int n = 1'000'000; /* x */\n#include \"a.h\"\n"), (Names{"a.h"}));
    // Read as a character literal, the separator would pair with the next quote and turn the
    // string "/*" into a comment that hides b.h.
    EXPECT_EQ(names("int n = 1'000; char q = '\"'; const char* s = \"/*\";\n#include \"b.h\"\n"), (Names{"b.h"}));
}

TEST(PreprocessorIncludes, ALineCommentEndingInABackslashContinues) {
    EXPECT_EQ(names("// comment \\\n#include \"hidden.h\"\n#include \"seen.h\"\n"), (Names{"seen.h"}));
}

TEST(PreprocessorIncludes, LineSplicesInsideTheDirective) {
    EXPECT_EQ(names("#include \\\n  \"a.h\"\n#inc\\\nlude <b.h>\n"), (Names{"a.h", "b.h"}));
}

TEST(PreprocessorIncludes, DeadIncludesAreListedButNotLive) {
    // The old scanner evaluated no conditional; now every directive is still listed, and the ones
    // that are certainly not compiled say so.
    constexpr std::string_view source = "#if 0\n#include \"never.h\"\n#else\n#include \"always.h\"\n#endif\n";
    EXPECT_EQ(names(source), (Names{"never.h", "always.h"}));
    const Preprocessor preprocessor(source, PreprocessorOptions{});
    ASSERT_EQ(preprocessor.includes().size(), 2u);
    EXPECT_FALSE(preprocessor.includes()[0].live);
    EXPECT_TRUE(preprocessor.includes()[1].live);
}

TEST(PreprocessorIncludes, AnAngledNameIsOneTokenSoSlashStarInItOpensNoComment) {
    EXPECT_EQ(names("#include <odd/*.h>\n#include \"b.h\"\n/* */\n#include <c//d.h>\n#include \"e.h\"\n"),
              (Names{"odd/*.h", "b.h", "c//d.h", "e.h"}));
    EXPECT_EQ(names("#include <never/*closed\n#include \"f.h\"\n"), (Names{"<never/*closed", "f.h"}));
}

TEST(PreprocessorIncludes, IncludeNextCounts) { EXPECT_EQ(names("#include_next <a.h>\n"), (Names{"a.h"})); }

TEST(PreprocessorIncludes, HashNotAtLineStartIsNoDirective) {
    EXPECT_EQ(names("int x; #include \"a.h\"\n#define S(x) #x\n"), Names{});
}

TEST(PreprocessorIncludes, ComputedIncludesKeepTheirText) {
    const auto found = scan_includes("#include HEADER_NAME // which header\n#include   MAKE(a, b)  \n");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (HeaderName{Form::computed, "HEADER_NAME"}));
    EXPECT_EQ(found[1], (HeaderName{Form::computed, "MAKE(a, b)"}));
}

TEST(PreprocessorIncludes, UnterminatedNamesDamageOnlyTheirLine) {
    EXPECT_EQ(names("#include \"broken.h\n#include <fine.h>\n"), (Names{"\"broken.h", "fine.h"}));
}

TEST(PreprocessorIncludes, OrderOfAppearanceAndDuplicatesKept) {
    EXPECT_EQ(names("#include <b.h>\n#include <a.h>\n#include <b.h>\n"), (Names{"b.h", "a.h", "b.h"}));
}

TEST(PreprocessorIncludes, IncludesUnderConditionsAreLiveUnlessCertainlyNotCompiled) {
    constexpr std::string_view source = R"(
#if 1
#include "first.h"
#else
#include "else_of_if_one.h"
#endif
#ifdef CONFIGURED
#include "maybe.h"
#elif 0
#include "elif_zero.h"
#endif
#if (0)
#include "parenthesised_zero.h"
#endif
)";
    const Preprocessor preprocessor(source, PreprocessorOptions{});
    Texts live, dead;
    for (const IncludeDirective& directive : preprocessor.includes()) {
        (directive.live ? live : dead).push_back(directive.header.name);
    }
    EXPECT_EQ(live, (Texts{"first.h", "maybe.h"}));
    EXPECT_EQ(dead, (Texts{"else_of_if_one.h", "elif_zero.h", "parenthesised_zero.h"}));
}

TEST(PreprocessorIncludes, PositionsPointAtTheHashAndLocateTheLine) {
    constexpr std::string_view source = "int a;\n  #  include <x.h>\n";
    const Preprocessor preprocessor(source, PreprocessorOptions{});
    ASSERT_EQ(preprocessor.includes().size(), 1u);
    EXPECT_EQ(preprocessor.includes()[0].position, source.find('#'));
    EXPECT_EQ(preprocessor.location(preprocessor.includes()[0].position).line, 2u);
}

TEST(PreprocessorIncludes, MarkersLeaveAHashWhereLiveIncludesStandWhenAsked) {
    constexpr std::string_view source = "a\n#include \"x.h\"\nb\n#import <y.h>\n#if 0\n#include \"z.h\"\n#endif\nc\n";
    const Preprocessor marked(source, PreprocessorOptions{.multi_char_puncts = {}, .include_markers = true});
    Texts texts;
    for (const Token& token : marked.tokens()) texts.emplace_back(token.text);
    EXPECT_EQ(texts, (Texts{"a", "#", "b", "#", "c"}));
    const Preprocessor plain(source, PreprocessorOptions{});
    EXPECT_EQ(plain.tokens().size(), 3u);
    // #import reads a file as #include does: the compile cache and the include rules follow it.
    EXPECT_EQ(names(source), (Names{"x.h", "y.h", "z.h"}));
}

TEST(PreprocessorIncludes, WithoutTokensOnlyTheDirectivesAreRead) {
    const Preprocessor preprocessor("int a;\n#include <x.h>\nint b;\n",
                                    PreprocessorOptions{.multi_char_puncts = {}, .keep_tokens = false});
    EXPECT_TRUE(preprocessor.tokens().empty());
    ASSERT_EQ(preprocessor.includes().size(), 1u);
    EXPECT_EQ(preprocessor.includes()[0].header, (HeaderName{Form::angled, "x.h"}));
}

// --- conditions ----------------------------------------------------------------------------------

Condition evaluate(std::string_view condition) { return evaluate_condition(condition, MacroKnowledge{}); }

constexpr Condition kFalse = Condition::certainly_false;
constexpr Condition kTrue = Condition::certainly_true;
constexpr Condition kUnknown = Condition::unknown;

TEST(PreprocessorCondition, IntegerLiteralsInEveryBaseWithSuffixesAndSeparators) {
    for (const std::string_view zero :
         {"0", "00", "0x0", "0X00", "0b0", "0L", "0u", "0UL", "0ull", "0LLU", "0z", "0'0", "false"}) {
        EXPECT_EQ(evaluate(zero), kFalse) << zero;
    }
    for (const std::string_view one :
         {"1", "2", "010", "0x10", "0b1", "1L", "1'000", "true", "18446744073709551615u", "0xFFFFFFFFFFFFFFFF"}) {
        EXPECT_EQ(evaluate(one), kTrue) << one;
    }
}

TEST(PreprocessorCondition, OperatorsOfConstantsAreDecided) {
    EXPECT_EQ(evaluate("(0)"), kFalse);
    EXPECT_EQ(evaluate("((1))"), kTrue);
    EXPECT_EQ(evaluate("!0"), kTrue);
    EXPECT_EQ(evaluate("!1"), kFalse);
    EXPECT_EQ(evaluate("~0 == -1"), kTrue);
    EXPECT_EQ(evaluate("-(1)"), kTrue);
    EXPECT_EQ(evaluate("+0"), kFalse);
    EXPECT_EQ(evaluate("1 + 1 == 2"), kTrue);
    EXPECT_EQ(evaluate("2 * 3 > 5 && 2 * 3 >= 6 && 5 <= 5 && 4 < 5 && 3 != 4"), kTrue);
    EXPECT_EQ(evaluate("10 / 3 == 3 && 10 % 3 == 1 && 7 - 8 == -1"), kTrue);
    EXPECT_EQ(evaluate("1 << 4 == 16 && 256 >> 4 == 16"), kTrue);
    EXPECT_EQ(evaluate("(5 & 4) == 4 && (5 ^ 5) == 0 && (2 | 1) == 3"), kTrue);
    EXPECT_EQ(evaluate("1 ? 0 : 1"), kFalse);
    EXPECT_EQ(evaluate("0 ? 0 : 1"), kTrue);
    EXPECT_EQ(evaluate("0 || 1"), kTrue);
    EXPECT_EQ(evaluate("1 && 0"), kFalse);
    // Precedence: && binds tighter than ||, comparison tighter than &.
    EXPECT_EQ(evaluate("1 || 1 && 0"), kTrue);
    EXPECT_EQ(evaluate("(1 || 1) && 0"), kFalse);
    EXPECT_EQ(evaluate("2 & 1 == 1"), kFalse);
    // An unsigned operand makes the comparison unsigned, as in the compiler.
    EXPECT_EQ(evaluate("-1 < 0"), kTrue);
    EXPECT_EQ(evaluate("-1 < 0u"), kFalse);
    EXPECT_EQ(evaluate("0x8000000000000000 > 0"), kTrue);  // too large for a signed: unsigned
}

TEST(PreprocessorCondition, AnyMacroNameIsUnknownSinceItsExpansionCouldRegroupTheOperators) {
    // `#define X 1 || 1` would make `X && 0` true.
    EXPECT_EQ(evaluate("X"), kUnknown);
    EXPECT_EQ(evaluate("X && 0"), kUnknown);
    EXPECT_EQ(evaluate("0 && X"), kUnknown);
    EXPECT_EQ(evaluate("VERSION >= 2"), kUnknown);
    EXPECT_EQ(evaluate("FOO(1)"), kUnknown);
    EXPECT_EQ(evaluate("__has_include(<a.h>)"), kUnknown);
    EXPECT_EQ(evaluate("__CUDA_ARCH__ >= 700"), kUnknown);
}

TEST(PreprocessorCondition, DefinedAnswersOnlyWhatTheTextSurelyDefinedOrUndefined) {
    MacroKnowledge knowledge;
    knowledge.define("X", /*surely_compiled=*/true);
    knowledge.undefine("U", /*surely_compiled=*/true);
    knowledge.define("MAYBE", /*surely_compiled=*/false);
    const auto with = [&](std::string_view condition) { return evaluate_condition(condition, knowledge); };
    EXPECT_EQ(with("defined(X)"), kTrue);
    EXPECT_EQ(with("defined X"), kTrue);
    EXPECT_EQ(with("!defined(X)"), kFalse);
    EXPECT_EQ(with("defined(U)"), kFalse);
    EXPECT_EQ(with("U"), kFalse);  // a name surely undefined is 0
    EXPECT_EQ(with("U == 0"), kTrue);
    EXPECT_EQ(with("defined(MAYBE)"), kUnknown);
    EXPECT_EQ(with("defined(NEVER_SEEN)"), kUnknown);
    // An unknown `defined` still leaves a decided condition where the other side decides.
    EXPECT_EQ(with("defined(NEVER_SEEN) && 0"), kFalse);
    EXPECT_EQ(with("0 && defined(NEVER_SEEN)"), kFalse);
    EXPECT_EQ(with("defined(NEVER_SEEN) || 1"), kTrue);
    EXPECT_EQ(with("defined(NEVER_SEEN) || 0"), kUnknown);
    EXPECT_EQ(with("defined(NEVER_SEEN) ? 1 : 1"), kUnknown);
    // The names known go with a forget (an #include).
    knowledge.forget_all();
    EXPECT_EQ(with("defined(X)"), kUnknown);
    EXPECT_EQ(with("U"), kUnknown);
}

TEST(PreprocessorCondition, TrueAndFalseAreLiteralsUnlessTheTextDefinesThem) {
    MacroKnowledge knowledge;
    knowledge.define("true", /*surely_compiled=*/true);
    EXPECT_EQ(evaluate_condition("true", knowledge), kUnknown);
    EXPECT_EQ(evaluate_condition("false", knowledge), kFalse);
}

TEST(PreprocessorCondition, DistrustedKnowledgeKnowsNothingForGood) {
    MacroKnowledge knowledge;
    knowledge.define("X", true);
    knowledge.distrust();
    knowledge.define("Y", true);
    EXPECT_EQ(evaluate_condition("defined(X)", knowledge), kUnknown);
    EXPECT_EQ(evaluate_condition("defined(Y)", knowledge), kUnknown);
}

TEST(PreprocessorCondition, MalformedOverflowingAndDividingByZeroAreUnknown) {
    const auto expect_unknown = [](std::initializer_list<std::string_view> conditions) {
        for (const std::string_view condition : conditions) EXPECT_EQ(evaluate(condition), kUnknown) << condition;
    };
    expect_unknown({"", "1 +", "(1", "1)", "1 2", "()", "defined", "defined(", "defined(1)", "1 ? 2", "1 = 1", "# 1"});
    expect_unknown({"1 / 0", "1 % 0", "9223372036854775807 + 1", "-9223372036854775807 - 2"});
    expect_unknown({"1 << 64", "1 << -1", "-1 >> 1", "-1 << 1"});
    expect_unknown({"18446744073709551616", "9223372036854775808", "1.5", "1e3", "08", "0x", "1uu", "1lll"});
    expect_unknown({"'a'", "\"s\""});
    // An operand that is never evaluated may divide by zero, as in the compiler.
    EXPECT_EQ(evaluate("0 && 1 / 0"), kFalse);
    EXPECT_EQ(evaluate("1 || 1 / 0"), kTrue);
}

TEST(PreprocessorCondition, DeepNestingIsUnknownRatherThanAStackOverflow) {
    EXPECT_EQ(evaluate(std::string(100000, '(') + "1" + std::string(100000, ')')), kUnknown);
    EXPECT_EQ(evaluate(std::string(100000, '!') + "0"), kUnknown);
    EXPECT_EQ(evaluate(std::string(100, '(') + "1" + std::string(100, ')')), kTrue);
}

// --- conditionals --------------------------------------------------------------------------------

Texts tokens_of(std::string_view source) {
    const Preprocessor preprocessor(source, PreprocessorOptions{});
    Texts texts;
    for (const Token& token : preprocessor.tokens()) texts.emplace_back(token.text);
    return texts;
}

TEST(PreprocessorConditionals, CertainlyFalseBranchesAreDroppedWhateverTheSpellingOfZero) {
    // The old readers disagreed: one took `(0)`, `0x0` and `0L`, the other only a lone decimal.
    EXPECT_EQ(tokens_of("#if (0)\na\n#endif\n#if 0x0\nb\n#endif\n#if 0L\nc\n#endif\n#if false\nd\n#endif\ne"),
              Texts{"e"});
}

TEST(PreprocessorConditionals, ACertainlyTrueBranchMakesLaterElifAndElseDead) {
    // One old reader kept the #else of `#if 1`.
    EXPECT_EQ(tokens_of("#if 1\na\n#elif X\nb\n#else\nc\n#endif"), Texts{"a"});
    EXPECT_EQ(tokens_of("#if 0\na\n#elif 0\nb\n#elif 1\nc\n#else\nd\n#endif"), Texts{"c"});
    // After an unknown branch, a true one still ends the chain.
    EXPECT_EQ(tokens_of("#if X\na\n#elif 1\nb\n#else\nc\n#endif"), (Texts{"a", "b"}));
}

TEST(PreprocessorConditionals, UnknownConditionsKeepEveryBranch) {
    EXPECT_EQ(tokens_of("#if X\na\n#elif Y > 2\nb\n#elifdef Z\nc\n#else\nd\n#endif"), (Texts{"a", "b", "c", "d"}));
    EXPECT_EQ(tokens_of("#ifdef NEVER_DEFINED_HERE\na\n#else\nb\n#endif"), (Texts{"a", "b"}));
    EXPECT_EQ(tokens_of("#ifndef NEVER_DEFINED_HERE\na\n#endif"), Texts{"a"});
}

TEST(PreprocessorConditionals, DefinedAfterADefineIsCertain) {
    EXPECT_EQ(tokens_of("#define X\n#if defined(X)\na\n#else\nb\n#endif"), Texts{"a"});
    EXPECT_EQ(tokens_of("#define X 0\n#if !defined X\na\n#elif 1\nb\n#endif"), Texts{"b"});
    EXPECT_EQ(tokens_of("#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif"), Texts{"a"});
}

TEST(PreprocessorConditionals, IfdefAfterAnUndefIsCertainlyFalse) {
    EXPECT_EQ(tokens_of("#undef X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif\n#if X\nc\n#endif"), Texts{"b"});
    EXPECT_EQ(tokens_of("#define X\n#undef X\n#if defined(X)\na\n#else\nb\n#endif"), Texts{"b"});
}

TEST(PreprocessorConditionals, ADefineUnderAnUnknownConditionLeavesTheNameUnknown) {
    EXPECT_EQ(tokens_of("#ifdef Y\n#define X\n#endif\n#ifdef X\na\n#else\nb\n#endif"), (Texts{"a", "b"}));
    EXPECT_EQ(tokens_of("#define X\n#ifdef Y\n#undef X\n#endif\n#ifdef X\na\n#else\nb\n#endif"), (Texts{"a", "b"}));
}

TEST(PreprocessorConditionals, DirectivesInDeadBranchesDoNothing) {
    EXPECT_EQ(tokens_of("#define X\n#if 0\n#undef X\n#endif\n#ifdef X\na\n#else\nb\n#endif"), Texts{"a"});
    // A define that never happens teaches nothing either: X stays unknown.
    EXPECT_EQ(tokens_of("#if 0\n#define X\n#endif\n#ifdef X\na\n#else\nb\n#endif"), (Texts{"a", "b"}));
}

TEST(PreprocessorConditionals, AnIncludeForgetsWhatWasKnownAboutMacros) {
    EXPECT_EQ(tokens_of("#define X\n#include \"config.h\"\n#ifdef X\na\n#else\nb\n#endif"), (Texts{"a", "b"}));
    // An include that is never compiled changes nothing.
    EXPECT_EQ(tokens_of("#define X\n#if 0\n#include \"config.h\"\n#endif\n#ifdef X\na\n#else\nb\n#endif"), Texts{"a"});
}

TEST(PreprocessorConditionals, PopMacroAndPragmaOperatorsMakeEveryDefinedUnknown) {
    EXPECT_EQ(tokens_of("#pragma push_macro(\"X\")\n#undef X\n#pragma pop_macro(\"X\")\n#ifdef X\na\n#else\nb\n#endif"),
              (Texts{"a", "b"}));
    EXPECT_EQ(tokens_of("#define X\nP _Pragma(\"once\")\n#ifdef X\na\n#endif"),
              (Texts{"P", "_Pragma", "(", "\"once\"", ")", "a"}));
    EXPECT_EQ(tokens_of("#undef X\n_Pragma(\"x\")\n#ifdef X\na\n#endif"), (Texts{"_Pragma", "(", "\"x\"", ")", "a"}));
}

TEST(PreprocessorConditionals, NestedConditionalsFollowTheirEnclosingBranch) {
    EXPECT_EQ(tokens_of("#if 0\n#if 1\na\n#else\nb\n#endif\nc\n#endif\nd"), Texts{"d"});
    EXPECT_EQ(tokens_of("#ifdef X\n#if 0\na\n#else\nb\n#endif\n#endif"), Texts{"b"});
    EXPECT_EQ(tokens_of("#if 1\n#ifdef X\na\n#endif\n#else\n#if 1\nb\n#endif\n#endif"), Texts{"a"});
    // Knowledge gained in a branch that is surely compiled inside an unknown one stays uncertain.
    EXPECT_EQ(tokens_of("#ifdef Y\n#if 1\n#define X\n#endif\n#endif\n#ifdef X\na\n#else\nb\n#endif"),
              (Texts{"a", "b"}));
}

TEST(PreprocessorConditionals, StrayAndUnterminatedConditionalsAreTolerated) {
    EXPECT_EQ(tokens_of("#endif\n#else\n#elif 0\na"), Texts{"a"});
    EXPECT_EQ(tokens_of("#if 0\na"), Texts{});
    EXPECT_EQ(tokens_of("#if X\na"), Texts{"a"});
    EXPECT_EQ(tokens_of("#if 1\na\n#else\nb\n#else\nc\n#endif\nd"), (Texts{"a", "d"}));
}

TEST(PreprocessorConditionals, CommentsMayStandBetweenTheHashTheNameAndTheCondition) {
    EXPECT_EQ(tokens_of("# /* c */ if /* ( */ 0 // 1\na\n#/**/endif\nb"), Texts{"b"});
    EXPECT_EQ(tokens_of("#if 1 /* spans\n lines */ && 0\na\n#endif\nb"), Texts{"b"});
}

TEST(PreprocessorConditionals, ALineSpliceMayContinueOrEvenCutADirective) {
    EXPECT_EQ(tokens_of("#i\\\nf 0\na\n#endif\n#if \\\n 1\nb\n#else\nc\n#endif"), Texts{"b"});
    EXPECT_EQ(tokens_of("#if 1 && \\\n  0\na\n#endif\nb"), Texts{"b"});
}

TEST(PreprocessorConditionals, UnterminatedLiteralsEndAtTheirLineAndCommentsAtTheText) {
    EXPECT_EQ(tokens_of("char c = 'x;\n#if 0\nhidden\n#endif\nshown"), (Texts{"char", "c", "=", "'x;", "shown"}));
    EXPECT_EQ(tokens_of("#if 1\na /* never closed\n#else\nb\n#endif"), Texts{"a"});
    EXPECT_EQ(tokens_of("#if 0 /* never closed\na\n#endif\nb"), Texts{});
}

// --- macros --------------------------------------------------------------------------------------

Texts texts_of(const std::vector<Token>& tokens) {
    Texts texts;
    for (const Token& token : tokens) texts.emplace_back(token.text);
    return texts;
}

TEST(PreprocessorMacros, RecordsEachLiveDefineWithParametersReplacementAndPosition) {
    constexpr std::string_view source =
        "#define N 16\n#define F(a, b) ((a) + (b))\n#define G (x)\n#define V(fmt, ...) printf(fmt, __VA_ARGS__)\n"
        "#define EMPTY\n#if 0\n#define DEAD 1\n#endif\n#undef N\n";
    const Preprocessor preprocessor(source, PreprocessorOptions{});
    const std::vector<MacroDefinition>& macros = preprocessor.macros();
    ASSERT_EQ(macros.size(), 5u);
    EXPECT_EQ(macros[0].name, "N");
    EXPECT_FALSE(macros[0].function_like);
    EXPECT_EQ(texts_of(macros[0].replacement), Texts{"16"});
    EXPECT_EQ(macros[0].position, source.find('N'));
    EXPECT_EQ(macros[1].name, "F");
    EXPECT_TRUE(macros[1].function_like);
    EXPECT_EQ(macros[1].parameters, (std::vector<std::string_view>{"a", "b"}));
    EXPECT_EQ(texts_of(macros[1].replacement), (Texts{"(", "(", "a", ")", "+", "(", "b", ")", ")"}));
    EXPECT_FALSE(macros[2].function_like);  // a space before '(' makes it object-like
    EXPECT_EQ(texts_of(macros[2].replacement), (Texts{"(", "x", ")"}));
    EXPECT_TRUE(macros[3].variadic);
    EXPECT_EQ(macros[3].parameters, std::vector<std::string_view>{"fmt"});
    EXPECT_EQ(macros[4].name, "EMPTY");
    EXPECT_TRUE(macros[4].replacement.empty());
    ASSERT_EQ(preprocessor.undefined_macros().size(), 1u);
    EXPECT_EQ(preprocessor.undefined_macros()[0].text, "N");
    EXPECT_EQ(preprocessor.location(macros[1].position).line, 2u);
}

TEST(PreprocessorMacros, MalformedDefinesRecordWhatTheyCan) {
    const Preprocessor preprocessor("#define\n#define 1 x\n#define F(a, b\n#define G(\n", PreprocessorOptions{});
    ASSERT_EQ(preprocessor.macros().size(), 2u);
    EXPECT_EQ(preprocessor.macros()[0].parameters, (std::vector<std::string_view>{"a", "b"}));
    EXPECT_TRUE(preprocessor.macros()[0].replacement.empty());
    EXPECT_TRUE(preprocessor.macros()[1].function_like);
}

// --- lines ---------------------------------------------------------------------------------------

std::vector<std::size_t> lines_of(const Preprocessor& preprocessor) {
    std::vector<std::size_t> lines;
    for (const Token& token : preprocessor.tokens()) lines.push_back(preprocessor.location(token).line);
    return lines;
}

TEST(PreprocessorLines, LineDirectivesThatNameFilesAreNoticed) {
    auto names_files = [](std::string_view text) {
        return Preprocessor(text, PreprocessorOptions{.multi_char_puncts = {}, .keep_tokens = false})
            .names_files_in_line_directives();
    };
    EXPECT_FALSE(names_files("int a;\n#line 10\nint b;\n"));
    EXPECT_FALSE(names_files("int line = 3;\n"));
    EXPECT_TRUE(names_files("#line 10 \"/etc/passwd\"\nint b;\n"));
    EXPECT_TRUE(names_files("# 10 \"/etc/passwd\"\nint b;\n"));  // a GNU line marker
    EXPECT_TRUE(names_files("#line WHERE\n"));                   // a macro may expand to a file name
    EXPECT_TRUE(names_files("#if 0\n#line 1 \"x\"\n#endif\n"));  // dead ones too
}

TEST(PreprocessorLines, EachTokenKnowsItsLine) {
    const Preprocessor preprocessor("a\nb /* x\n y */ c\n\n// d\ne\r\nf", PreprocessorOptions{});
    EXPECT_EQ(lines_of(preprocessor), (std::vector<std::size_t>{1, 2, 3, 6, 7}));
}

TEST(PreprocessorLines, LinesJoinedBySplicesStillCountAsWritten) {
    const Preprocessor preprocessor("a \\\n b\nc\\\nd e\n#define X \\\n 1\nf", PreprocessorOptions{});
    EXPECT_EQ(preprocessor.text(), "a  b\ncd e\n#define X  1\nf");
    EXPECT_EQ(texts_of(preprocessor.tokens()), (Texts{"a", "b", "cd", "e", "f"}));
    EXPECT_EQ(lines_of(preprocessor), (std::vector<std::size_t>{1, 2, 3, 4, 7}));
}

TEST(PreprocessorLines, ALineDirectiveRenumbersTheLinesAfterIt) {
    const Preprocessor preprocessor("a\n#line 100 \"kernel.cu\"\nb\nc\n#line 7\nd\n#line 20 \"other.cu\"\ne",
                                    PreprocessorOptions{});
    std::vector<SourceLocation> found;
    for (const Token& token : preprocessor.tokens()) found.push_back(preprocessor.location(token));
    EXPECT_EQ(found, (std::vector<SourceLocation>{
                         {1, ""}, {100, "kernel.cu"}, {101, "kernel.cu"}, {7, "kernel.cu"}, {20, "other.cu"}}));
}

TEST(PreprocessorLines, GnuLineMarkersRenumberAndDeadOrMalformedOnesDoNot) {
    const Preprocessor marked("# 42 \"x.h\" 1 3\nz", PreprocessorOptions{});
    EXPECT_EQ(marked.location(marked.tokens().at(0)), (SourceLocation{42, "x.h"}));
    const Preprocessor ignored("#if 0\n#line 50\n#endif\n#line N\n#line 0\nz", PreprocessorOptions{});
    EXPECT_EQ(ignored.location(ignored.tokens().at(0)).line, 6u);
}

TEST(PreprocessorLines, ASplicedLineDirectiveNumbersTheLineAfterItsLastPart) {
    const Preprocessor preprocessor("#line \\\n 10 \\\n \"f.cu\"\na", PreprocessorOptions{});
    EXPECT_EQ(preprocessor.location(preprocessor.tokens().at(0)), (SourceLocation{10, "f.cu"}));
}

// --- hostile input -------------------------------------------------------------------------------

TEST(Preprocessor, PathologicalInputsFinishPromptly) {
    const auto repeat = [](std::string_view piece, int count) {
        std::string out;
        for (int i = 0; i < count; ++i) out += piece;
        return out;
    };
    std::string defines_then_includes;
    for (int i = 0; i < 50000; ++i) defines_then_includes += "#define NAME_" + std::to_string(i) + "\n";
    defines_then_includes += repeat("#include <a.h>\n#define X\n", 50000);
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& source :
         {repeat("#if X\n", 100000), repeat("#endif\n", 100000), repeat("#if 0\n", 50000) + repeat("#else\n", 50000),
          repeat("#define A B\n", 50000) + repeat("#ifdef A\n", 50000), repeat("#line 5 \"f\"\n", 50000),
          repeat("#include <a.h>\n", 50000), "#if " + repeat("(", 200000), "#if " + repeat("1 + ", 100000) + "1",
          repeat("\\\n", 100000), repeat("#", 100000), repeat("#define F(", 50000), defines_then_includes}) {
        const Preprocessor preprocessor(source, PreprocessorOptions{});
        (void)preprocessor.location(source.size() / 2);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

}  // namespace
}  // namespace gpukit::detail
