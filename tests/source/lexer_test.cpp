// tests/source/lexer_test.cpp: the tokenizer, bracket matching and name expressions of the source readers.
#include "source/lexer.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "source/name_expression.hpp"
#include "source/token_stream.hpp"

namespace {

using gpukit::detail::DirectiveHandler;
using gpukit::detail::has_line_splice;
using gpukit::detail::kNone;
using gpukit::detail::LexOptions;
using gpukit::detail::read_name_expression;
using gpukit::detail::SourceLexer;
using gpukit::detail::splice_lines;
using gpukit::detail::splice_lines_tracked;
using gpukit::detail::Token;
using gpukit::detail::TokenKind;
using gpukit::detail::TokenStream;
using Texts = std::vector<std::string>;

constexpr std::string_view kPuncts[] = {"<<=", "...", "::", "->", "<<", "&&", "||"};
constexpr LexOptions kSpliced{kPuncts, false};
constexpr LexOptions kAsWritten{kPuncts, true};

// Every token outside preprocessor lines.
std::vector<Token> lex(std::string_view source, LexOptions options = kSpliced) {
    SourceLexer lexer(source, options);
    std::vector<Token> tokens;
    for (SourceLexer::Item item; (item = lexer.next()) != SourceLexer::Item::end;) {
        if (item == SourceLexer::Item::token) tokens.push_back(lexer.token());
    }
    return tokens;
}

Texts texts(const std::vector<Token>& tokens) {
    Texts out;
    for (const Token& token : tokens) out.emplace_back(token.text);
    return out;
}

Texts lex_texts(std::string_view source, LexOptions options = kSpliced) { return texts(lex(source, options)); }

TEST(SourceLexer, GivesEachTokenItsKindTextAndPosition) {
    constexpr std::string_view source = "int x = 42 + y;";
    const std::vector<Token> tokens = lex(source);
    ASSERT_EQ(tokens.size(), 7u);
    const TokenKind kinds[] = {TokenKind::identifier, TokenKind::identifier, TokenKind::punct, TokenKind::number,
                               TokenKind::punct,      TokenKind::identifier, TokenKind::punct};
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        EXPECT_EQ(tokens[i].kind, kinds[i]) << i;
        // The position locates the text in the source.
        EXPECT_EQ(source.substr(tokens[i].position, tokens[i].text.size()), tokens[i].text) << i;
        EXPECT_EQ(tokens[i].text.data(), source.data() + tokens[i].position) << i;
    }
    EXPECT_EQ(tokens[3].position, 8u);
}

TEST(SourceLexer, PositionsCountCommentsAndCarriageReturns) {
    constexpr std::string_view source = "/* c */ a\r\n// d\r\n  b";
    const std::vector<Token> tokens = lex(source);
    ASSERT_EQ(texts(tokens), (Texts{"a", "b"}));
    EXPECT_EQ(tokens[0].position, 8u);
    EXPECT_EQ(tokens[1].position, 19u);
}

TEST(SourceLexer, CommentsVanish) {
    EXPECT_EQ(lex_texts("a // line ) comment\nb /* block\n ( */ c"), (Texts{"a", "b", "c"}));
    EXPECT_EQ(lex_texts("a/**/b/*/ still a comment */c"), (Texts{"a", "b", "c"}));
    EXPECT_EQ(lex_texts("a /* never closed\n b c"), (Texts{"a"}));
    EXPECT_EQ(lex_texts("a // to the end"), (Texts{"a"}));
    EXPECT_EQ(lex_texts("a / b"), (Texts{"a", "/", "b"}));
}

TEST(SourceLexer, StringsAndCharactersAreSingleLiterals) {
    const std::vector<Token> tokens = lex(R"(f("a \" ) // b", ')', '\'') g)");
    EXPECT_EQ(texts(tokens), (Texts{"f", "(", R"("a \" ) // b")", ",", "')'", ",", R"('\'')", ")", "g"}));
    EXPECT_EQ(tokens[2].kind, TokenKind::literal);
    EXPECT_EQ(tokens[4].kind, TokenKind::literal);
}

TEST(SourceLexer, AnUnterminatedLiteralEndsAtItsLine) {
    // One stray apostrophe must not swallow the rest of the file.
    EXPECT_EQ(lex_texts("a 'b c\nd e"), (Texts{"a", "'b c", "d", "e"}));
    EXPECT_EQ(lex_texts("\"abc"), (Texts{"\"abc"}));
    EXPECT_EQ(lex_texts("\"ends in a backslash\\"), (Texts{"\"ends in a backslash\\"}));
}

TEST(SourceLexer, EncodingPrefixesBelongToTheLiteral) {
    const std::vector<Token> tokens = lex(R"src(u8"a" L'b' U"c" u'd' LR"(e)" u8R"x(f)x" R x)src");
    EXPECT_EQ(texts(tokens),
              (Texts{R"(u8"a")", "L'b'", R"(U"c")", "u'd'", R"src(LR"(e)")src", R"src(u8R"x(f)x")src", "R", "x"}));
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(tokens[i].kind, TokenKind::literal) << i;
    EXPECT_EQ(tokens[6].kind, TokenKind::identifier);
    // Other words before a quote stay words.
    EXPECT_EQ(lex_texts(R"(x"s")"), (Texts{"x", R"("s")"}));
}

TEST(SourceLexer, RawStringsHoldQuotesBackslashesAndNewlines) {
    EXPECT_EQ(lex_texts("a R\"(x \" \\ ) y\n z)\" b"), (Texts{"a", "R\"(x \" \\ ) y\n z)\"", "b"}));
    EXPECT_EQ(lex_texts("R\"end(a )\" b)end\" c"), (Texts{"R\"end(a )\" b)end\"", "c"}));
    // Never closed: the rest of the text.
    EXPECT_EQ(lex_texts("R\"(a\nb"), (Texts{"R\"(a\nb"}));
}

TEST(SourceLexer, AnInvalidRawStringIsReadAsAnOrdinaryOne) {
    // A space in the delimiter, or one longer than 16 characters, makes no raw string: the literal ends
    // at the next quote.
    EXPECT_EQ(lex_texts("R\"a b(x\" y"), (Texts{"R\"a b(x\"", "y"}));
    const std::string a16(16, 'a');
    const std::string a17(17, 'a');
    EXPECT_EQ(lex_texts("R\"" + a16 + "(x\" y)" + a16 + "\" c"), (Texts{"R\"" + a16 + "(x\" y)" + a16 + "\"", "c"}));
    EXPECT_EQ(lex_texts("R\"" + a17 + "(x\" y)" + a17 + "\" c"), (Texts{"R\"" + a17 + "(x\"", "y", ")", a17, "\" c"}));
}

TEST(SourceLexer, NumbersArePreprocessingNumbers) {
    const std::vector<Token> tokens = lex("1.5e-3f 0x1p+4 1'000'000 .5 1-2 a.b");
    EXPECT_EQ(texts(tokens), (Texts{"1.5e-3f", "0x1p+4", "1'000'000", ".5", "1", "-", "2", "a", ".", "b"}));
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(tokens[i].kind, TokenKind::number) << i;
}

TEST(SourceLexer, PunctuatorsComeFromTheOptionsLongestFirst) {
    EXPECT_EQ(lex_texts("a<<=b<<c...d::e->f&&g"),
              (Texts{"a", "<<=", "b", "<<", "c", "...", "d", "::", "e", "->", "f", "&&", "g"}));
    // '>' stays single so that `Vec<Vec<int>>` closes twice; anything not listed is one character.
    EXPECT_EQ(lex_texts("x>>y+=z"), (Texts{"x", ">", ">", "y", "+", "=", "z"}));
    constexpr std::string_view few[] = {"::"};
    EXPECT_EQ(lex_texts("a<<=b", LexOptions{few, false}), (Texts{"a", "<", "<", "=", "b"}));
}

TEST(SourceLexer, IdentifiersMayHoldUtf8) {
    EXPECT_EQ(lex_texts("caf\xc3\xa9 x_1 _y"), (Texts{"caf\xc3\xa9", "x_1", "_y"}));
}

TEST(SourceLexer, LineSplicesAreBlankWhenAsked) {
    EXPECT_EQ(lex_texts("a\\\nb", kAsWritten), (Texts{"a", "b"}));
    EXPECT_EQ(lex_texts("a\\\r\nb", kAsWritten), (Texts{"a", "b"}));
    EXPECT_EQ(lex_texts("a\\\nb", kSpliced), (Texts{"a", "\\", "b"}));
}

TEST(SourceLexer, ALineSpliceContinuesALineComment) {
    EXPECT_EQ(lex_texts("a // c \\\n still c\nb", kAsWritten), (Texts{"a", "b"}));
    EXPECT_EQ(lex_texts("a // c \\\n not c\nb", kSpliced), (Texts{"a", "not", "c", "b"}));
}

TEST(SourceLexer, SpliceLinesJoinsLinesEvenInsideWords) {
    EXPECT_EQ(splice_lines("__sync\\\nthreads();"), "__syncthreads();");
    EXPECT_EQ(splice_lines("a\\ \t\r\nb"), "ab");  // whitespace before the newline, as GCC accepts
    EXPECT_EQ(splice_lines("a\\\\\n\nb"), "a\\\nb");
    EXPECT_EQ(splice_lines("a\\b\\"), "a\\b\\");
    EXPECT_EQ(lex_texts(splice_lines("__sync\\\nthreads")), (Texts{"__syncthreads"}));
}

TEST(SourceLexer, SpliceLinesTrackedSaysWhereEachJoinedLineGoesOn) {
    const auto spliced = splice_lines_tracked("ab\\\ncd\\ \r\nef\\\n");
    EXPECT_EQ(spliced.text, "abcdef");
    EXPECT_EQ(spliced.joins, (std::vector<std::size_t>{2, 4, 6}));
    EXPECT_TRUE(splice_lines_tracked("no splice \\ here\n").joins.empty());
}

TEST(SourceLexer, HasLineSpliceOnlyForABackslashBeforeANewline) {
    EXPECT_TRUE(has_line_splice("a\\\nb"));
    EXPECT_TRUE(has_line_splice("a\\ \t\r\nb"));
    EXPECT_FALSE(has_line_splice("a\\b\n\\"));
    EXPECT_FALSE(has_line_splice(""));
}

TEST(SourceLexer, DirectiveEndIsTheNewlineEndingTheLine) {
    constexpr std::string_view source = "#define X /* a\n b */ 1 // c\nint y;\n#endif";
    SourceLexer lexer(source, kSpliced);
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(lexer.directive_end(), source.find("\nint"));  // not the newline inside the comment
    ASSERT_EQ(lexer.next(), SourceLexer::Item::token);
    lexer.next();
    lexer.next();
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(lexer.directive_end(), source.size());  // the text ends the last line
}

TEST(SourceLexer, APreprocessorLineComesOutWhole) {
    constexpr std::string_view source = "  # define X 1 /* spans\n lines */ 2\nint y; a # b\n#\nz";
    SourceLexer lexer(source, kSpliced);
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(lexer.token().text, "#");
    EXPECT_EQ(lexer.token().position, 2u);
    EXPECT_EQ(texts(lexer.directive()), (Texts{"define", "X", "1", "2"}));
    Texts rest;
    for (SourceLexer::Item item; (item = lexer.next()) != SourceLexer::Item::end;) {
        rest.push_back(item == SourceLexer::Item::directive ? "<directive>" : std::string(lexer.token().text));
    }
    // A '#' inside a line is an ordinary token; an empty directive is still one.
    EXPECT_EQ(rest, (Texts{"int", "y", ";", "a", "#", "b", "<directive>", "z"}));
}

TEST(SourceLexer, ALineSpliceContinuesADirective) {
    SourceLexer lexer("#define X \\\n 1\nint", kAsWritten);
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(texts(lexer.directive()), (Texts{"define", "X", "1"}));
    ASSERT_EQ(lexer.next(), SourceLexer::Item::token);
    EXPECT_EQ(lexer.token().text, "int");
}

TEST(SourceLexer, AnAngledHeaderNameIsOneLiteral) {
    SourceLexer lexer("#include <sys/*.h> x\n#define A <b/*c>\n", kSpliced);
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(texts(lexer.directive()), (Texts{"include", "<sys/*.h>", "x"}));
    EXPECT_EQ(lexer.directive()[1].kind, TokenKind::literal);
    // Only after an include: elsewhere '<' is a punctuator and "/*" opens a comment.
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(texts(lexer.directive()), (Texts{"define", "A", "<", "b"}));
}

TEST(SourceLexer, ADirectiveMayFollowACommentAtALineStart) {
    SourceLexer lexer("/* c */ #if 0\n", kSpliced);
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(texts(lexer.directive()), (Texts{"if", "0"}));
    EXPECT_EQ(lexer.next(), SourceLexer::Item::end);
}

TEST(SourceLexer, CharAfterTellsFunctionLikeMacros) {
    SourceLexer lexer("#define F(x) x\n#define G (x)\n#define H", kSpliced);
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(lexer.char_after(lexer.directive()[1]), '(');
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(lexer.char_after(lexer.directive()[1]), ' ');
    ASSERT_EQ(lexer.next(), SourceLexer::Item::directive);
    EXPECT_EQ(lexer.char_after(lexer.directive()[1]), '\0');
}

// Drops tokens between `#off` and `#on` and keeps the '#' of `#keep`.
class ToggleHandler final : public DirectiveHandler {
public:
    bool directive(const SourceLexer& lexer) override {
        const std::vector<Token>& line = lexer.directive();
        if (line.empty()) return false;
        if (line[0].text == "off") live_ = false;
        if (line[0].text == "on") live_ = true;
        return line[0].text == "keep";
    }
    bool live() const override { return live_; }

private:
    bool live_ = true;
};

TEST(SourceLexer, ReadAllLetsTheHandlerChooseTokens) {
    ToggleHandler handler;
    const std::vector<Token> tokens = SourceLexer("a\n#off\nb c\n#on\nd\n#keep this\ne", kSpliced).read_all(handler);
    EXPECT_EQ(texts(tokens), (Texts{"a", "d", "#", "e"}));
}

// What passing over code must not change: every directive, where it is and what it holds.
Texts directives_of(std::string_view source, SourceLexer::Code code, LexOptions options = kSpliced) {
    SourceLexer lexer(source, options);
    Texts out;
    for (SourceLexer::Item item; (item = lexer.next(code)) != SourceLexer::Item::end;) {
        if (item != SourceLexer::Item::directive) continue;
        std::string line = std::to_string(lexer.token().position) + ":";
        for (const Token& token : lexer.directive()) line += " " + std::string(token.text);
        out.push_back(line + " @" + std::to_string(lexer.directive_end()));
    }
    return out;
}

TEST(SourceLexer, PassingOverCodeFindsTheSameDirectives) {
    constexpr std::string_view source = R"src(int a = b / c; /* spans
#define HIDDEN_BY_COMMENT */ int d;
#define SEEN 1
x = 1'000'000; const char* s = "/*"; char q = '"';
#include "seen.h"
auto r = R"raw(
#define HIDDEN_IN_RAW_STRING
)raw"; y = u8R"(x)";
int e; // comment "with quotes
#if SEEN
)src";
    const Texts tokenized = directives_of(source, SourceLexer::Code::tokenize);
    EXPECT_EQ(tokenized.size(), 3u);
    EXPECT_EQ(directives_of(source, SourceLexer::Code::pass_over), tokenized);
    // A punctuator holding '/' after its first character turns passing over off, where it would matter.
    constexpr std::string_view odd[] = {"*/"};
    EXPECT_EQ(
        directives_of("a */* c\n#define X */ b\n#define Y\n", SourceLexer::Code::pass_over, LexOptions{odd, false}),
        directives_of("a */* c\n#define X */ b\n#define Y\n", SourceLexer::Code::tokenize, LexOptions{odd, false}));
}

TEST(SourceLexer, PassingOverCodeAgreesOnRandomSoup) {
    const std::vector<std::string_view> pieces = {
        "#",    "define", "x", "1'0", "'", "\"", "/",       "*",     "/*",     "*/", "//", "\n", "\\\n", "R\"d(",
        ")d\"", "u8",     "L", " ",   "(", ")",  "include", "<a.h>", "0x1p+4", "e",  "+",  ".",  "\\"};
    std::mt19937 random(4242);
    std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
    std::uniform_int_distribution<int> length(0, 80);
    for (int trial = 0; trial < 3000; ++trial) {
        std::string source;
        for (int n = length(random); n > 0; --n) source += pieces[pick(random)];
        for (const LexOptions options : {kSpliced, kAsWritten}) {
            ASSERT_EQ(directives_of(source, SourceLexer::Code::pass_over, options),
                      directives_of(source, SourceLexer::Code::tokenize, options))
                << source;
        }
    }
}

TEST(SourceLexer, EmptyAndBlankTextsHaveNoTokens) {
    EXPECT_TRUE(lex("").empty());
    EXPECT_TRUE(lex(" \t\f\v\r\n// c\n/* d */").empty());
}

// --- TokenStream ---------------------------------------------------------------------------------

TokenStream stream(std::string_view source) { return TokenStream(lex(source)); }

// Every matched pair, "open-close" for brackets and "open<close" for template angles, each checked to
// be found from both ends.
Texts pairs(const TokenStream& ts) {
    Texts out;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        if (const std::size_t close = ts.closer(i, ts.size()); close != kNone) {
            EXPECT_EQ(ts.opener(close, 0), i);
            out.push_back(std::to_string(i) + "-" + std::to_string(close));
        }
        if (const std::size_t close = ts.closing_angle(i, ts.size()); close != kNone) {
            EXPECT_EQ(ts.opening_angle(close, 0), i);
            out.push_back(std::to_string(i) + "<" + std::to_string(close));
        }
    }
    return out;
}

TEST(TokenStream, MatchesBracketsBothWays) {
    EXPECT_EQ(pairs(stream("f(a[1], {b})")), (Texts{"1-10", "3-5", "7-9"}));
    // The '[' between was never closed; the stray closers match nothing.
    EXPECT_EQ(pairs(stream("( [ ) ] }")), (Texts{"0-2"}));
}

TEST(TokenStream, MatchesTemplateAngles) { EXPECT_EQ(pairs(stream("Vec<Vec<int>> v;")), (Texts{"1<6", "3<5"})); }

TEST(TokenStream, TellsComparisonsFromTemplateArguments) {
    EXPECT_TRUE(pairs(stream("int m = a < b ? 1 : 2; x > y")).empty());  // ';' came before the '>'
    EXPECT_EQ(pairs(stream("if (i < n && a > b) {}")), (Texts{"1-9", "10-11"}));
    // A '>' inside parentheses is a comparison: `Box<(4 > 2)>` closes at the last '>'.
    EXPECT_EQ(pairs(stream("Box<(4 > 2)> b")), (Texts{"1<7", "2-6"}));
    // A '<' after anything but a name opens nothing.
    EXPECT_TRUE(pairs(stream("1 < 2 > 0")).empty());
}

TEST(TokenStream, PartnersCountOnlyWithinTheBounds) {
    const TokenStream ts = stream("f(Vec<int> a)");
    // f ( Vec < int > a )
    EXPECT_EQ(ts.closer(1, 7), kNone);
    EXPECT_EQ(ts.opener(7, 2), kNone);
    EXPECT_EQ(ts.closing_angle(3, 5), kNone);
    EXPECT_EQ(ts.opening_angle(5, 4), kNone);
    // Only openers have closers, and only '<' a closing angle.
    EXPECT_EQ(ts.closer(0, ts.size()), kNone);
    EXPECT_EQ(ts.opener(1, 0), kNone);
    EXPECT_EQ(ts.closing_angle(5, ts.size()), kNone);
    EXPECT_EQ(ts.opening_angle(3, 0), kNone);
}

// --- name expressions ----------------------------------------------------------------------------

TEST(NameExpression, ReadsQualifiedNamesAfterAddressAndParentheses) {
    const std::vector<Token> tokens = lex("&(ns::inner::k<float>");
    const auto expression = read_name_expression(tokens);
    ASSERT_TRUE(expression.has_value());
    EXPECT_FALSE(expression->global_only);
    EXPECT_EQ(expression->scope, (Texts{"ns", "inner"}));
    EXPECT_EQ(expression->name, "k");
    EXPECT_EQ(tokens[expression->end].text, "<");

    const auto global = read_name_expression(lex("::k"));
    ASSERT_TRUE(global.has_value());
    EXPECT_TRUE(global->global_only);
    EXPECT_TRUE(global->scope.empty());
    EXPECT_EQ(global->name, "k");
    EXPECT_EQ(global->end, 2u);

    EXPECT_FALSE(read_name_expression(lex("")).has_value());
    EXPECT_FALSE(read_name_expression(lex("<int>")).has_value());
    EXPECT_FALSE(read_name_expression(lex("&::")).has_value());
}

TEST(NameExpression, MatchesScopesFromTheInnermost) {
    const auto plain = read_name_expression(lex("k"));
    const auto qualified = read_name_expression(lex("b::k"));
    const auto global = read_name_expression(lex("::k"));
    ASSERT_TRUE(plain && qualified && global);
    EXPECT_TRUE(plain->matches_scope({}));
    EXPECT_TRUE(plain->matches_scope({"a", "b"}));
    EXPECT_TRUE(qualified->matches_scope({"a", "b"}));
    EXPECT_FALSE(qualified->matches_scope({"b", "a"}));
    EXPECT_FALSE(qualified->matches_scope({}));
    EXPECT_TRUE(global->matches_scope({}));
    EXPECT_FALSE(global->matches_scope({"a"}));
}

}  // namespace
