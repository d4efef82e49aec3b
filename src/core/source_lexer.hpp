// src/core/source_lexer.hpp: tokens of CUDA C source and their bracket partners, for the tolerant source readers.
//
// core/kernel_signature.cpp (kernel parameter lists) and backends/sim/sync_analysis.cpp (which kernels
// may synchronise) read CUDA C without compiling it, and both start here. Comments vanish and string,
// character and raw string literals become single tokens, so a ')' or a "__global__" inside one never
// counts. Preprocessor lines come out whole, for each reader to interpret: the two honour different
// conditionals and record different macros. Brackets are matched once, up front, so that the readers'
// scans jump over groups in constant time and malformed input stays roughly linear.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail {

// No such token or index: an unmatched bracket, a '<' that is a comparison.
inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

enum class TokenKind { identifier, number, literal, punct };

struct Token {
    TokenKind kind = TokenKind::punct;
    std::string_view text;     // a view into the text being lexed
    std::size_t position = 0;  // where `text` starts in that text
};

inline bool is_punct(const Token& token, std::string_view text) {
    return token.kind == TokenKind::punct && token.text == text;
}
inline bool is_word(const Token& token, std::string_view text) {
    return token.kind == TokenKind::identifier && token.text == text;
}
inline bool is_identifier(const Token& token) { return token.kind == TokenKind::identifier; }

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ident_start(char c) {
    const auto u = static_cast<unsigned char>(c);
    // Bytes >= 0x80 are parts of UTF-8 identifiers, which C++ allows.
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u >= 0x80;
}
inline bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

// The readers keep their keyword lists as plain arrays.
template <std::size_t N>
bool contains(const std::string_view (&words)[N], std::string_view word) {
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

// Translation phase 2: a backslash before a newline joins the lines, even inside an identifier
// (`__sync\<newline>threads`). Whitespace between the two is accepted, as GCC does.
std::string splice_lines(std::string_view text);

struct LexOptions {
    // Punctuators longer than one character, longest first: the first that matches is taken, anything
    // else is a single character. Readers differ in which they need whole.
    std::span<const std::string_view> multi_char_puncts;
    // Take a backslash-newline between tokens, or inside a // comment, as a line splice. For text read as
    // written; text that went through splice_lines has none left to take.
    bool line_splices = false;
};

class SourceLexer;

// What a reader does with preprocessor lines: the readers honour different conditionals and record
// different macros.
class DirectiveHandler {
public:
    virtual ~DirectiveHandler() = default;
    // Takes the line just read (lexer.token() is its '#', lexer.directive() the rest); true keeps the '#'.
    virtual bool directive(const SourceLexer& lexer) = 0;
    // False inside a conditional branch whose tokens are dropped.
    virtual bool live() const = 0;
};

// Reads tokens one at a time. A '#' that starts a line (after blanks and comments) takes the whole
// preprocessor line with it, which the caller interprets; a newline inside a block comment does not end
// that line, as in the preprocessor. An unterminated literal ends at the end of its line and an
// unterminated comment at the end of the text, so one stray character cannot swallow everything.
class SourceLexer {
public:
    enum class Item { end, token, directive };

    SourceLexer(std::string_view source, LexOptions options) : src_(source), options_(options) {}

    // Reads the next item: `token()` holds a token, or for a directive its '#', with `directive()` the
    // tokens after the '#' up to the end of the line.
    Item next();
    const Token& token() const { return token_; }
    const std::vector<Token>& directive() const { return directive_; }

    // Reads to the end: the tokens where the handler is live, and the '#' of the lines it keeps.
    std::vector<Token> read_all(DirectiveHandler& handler);

    // The character right after `token` in the source, '\0' at the end: tells `#define F(x)`, a
    // function-like macro, from `#define F (x)`.
    char char_after(const Token& token) const {
        const std::size_t after = token.position + token.text.size();
        return after < src_.size() ? src_[after] : '\0';
    }

private:
    bool at_end() const { return pos_ >= src_.size(); }
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
    bool skip_blank();
    Token next_token();
    void skip_quoted(char quote);
    void skip_raw_string();

    std::string_view src_;
    LexOptions options_;
    std::size_t pos_ = 0;
    bool at_line_start_ = true;
    Token token_;
    std::vector<Token> directive_;
};

// Which bracket the token is, 0 to 2 for ( [ {, or -1; `opening` picks openers or closers.
inline int bracket_kind(const Token& token, bool opening) {
    if (token.kind != TokenKind::punct || token.text.size() != 1) return -1;
    const std::string_view brackets = opening ? "([{" : ")]}";
    const std::size_t kind = brackets.find(token.text[0]);
    return kind == std::string_view::npos ? -1 : static_cast<int>(kind);
}

// Tokens plus the partner of every (), [] and {} and of every template-argument < >, both ways (kNone
// when unmatched). A '<' right after a name may open template arguments; a closing bracket, ';', '&&'
// or '||' before its '>' shows it was a comparison (`int m = a < b ? 1 : 2`), and a '>' inside
// parentheses is one too (`Box<(4 > 2)>`). '>' closes one level at a time, so `Vec<Vec<int>>` needs the
// lexer to keep '>' single.
struct TokenStream {
    std::vector<Token> tokens;
    std::vector<std::size_t> partner;
    std::vector<std::size_t> angle_partner;

    explicit TokenStream(std::vector<Token> tokens_in);

    std::size_t size() const { return tokens.size(); }
    const Token& operator[](std::size_t i) const { return tokens[i]; }

    // The partner of the opener at i when it lies before `end`, else kNone.
    std::size_t closer(std::size_t i, std::size_t end) const {
        return bracket_kind(tokens[i], true) >= 0 && partner[i] < end ? partner[i] : kNone;
    }
    // The '>' closing the template arguments opened at i when it lies before `end`, else kNone.
    std::size_t closing_angle(std::size_t i, std::size_t end) const {
        return is_punct(tokens[i], "<") && angle_partner[i] < end ? angle_partner[i] : kNone;
    }
    // The opener matching the closer at i, when it lies at or after `begin`, else kNone.
    std::size_t opener(std::size_t i, std::size_t begin) const {
        return partner[i] != kNone && partner[i] < i && partner[i] >= begin ? partner[i] : kNone;
    }
    // The '<' opening the template arguments closed at i, when it lies at or after `begin`, else kNone.
    std::size_t opening_angle(std::size_t i, std::size_t begin) const {
        return is_punct(tokens[i], ">") && angle_partner[i] != kNone && angle_partner[i] < i &&
                       angle_partner[i] >= begin
                   ? angle_partner[i]
                   : kNone;
    }

private:
    void match_brackets();
    void match_angles();
};

// --- name expressions ----------------------------------------------------------------------------

// A kernel as a launch or a query names it: "k", "ns::k", "::k", "&ns::k"; template arguments after
// the name are left to the caller.
struct NameExpression {
    bool global_only = false;  // written with a leading "::"
    std::vector<std::string> scope;
    std::string name;
    std::size_t end = 0;  // the token after the name

    // "k" finds k in any namespace, "ns::k" in any namespace ending in ns, "::k" only at global scope.
    bool matches_scope(const std::vector<std::string>& declared) const {
        if (global_only) return declared == scope;
        if (scope.size() > declared.size()) return false;
        return std::equal(scope.rbegin(), scope.rend(), declared.rbegin());
    }
};

// The name expression at the start of `tokens`, after any '&' and '('; nullopt when no name follows.
std::optional<NameExpression> read_name_expression(std::span<const Token> tokens);

}  // namespace gpukit::detail
