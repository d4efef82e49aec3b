// src/source/lexer.hpp: tokens of CUDA C source, for the tolerant source readers.
//
// The readers of source/ (the preprocessor, kernel declarations) and the simulator's sync analysis
// read CUDA C without compiling it, and all start here. Comments vanish and string, character and raw
// string literals become single tokens, so a ')' or a "__global__" inside one never counts.
// Preprocessor lines come out whole, for source/preprocessor.hpp to interpret.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail {

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

// The same, remembering where lines were joined, so that a position in the joined text still has
// its line in the text as written (source/line_map.hpp).
struct SplicedText {
    std::string text;
    std::vector<std::size_t> joins;  // per removed splice, in order: where the next line goes on in `text`
};
SplicedText splice_lines_tracked(std::string_view text);

// Whether splice_lines would change `text`: most texts have no splice and need no copy.
bool has_line_splice(std::string_view text);

struct LexOptions {
    // Punctuators longer than one character, longest first: the first that matches is taken, anything
    // else is a single character. Readers differ in which they need whole.
    std::span<const std::string_view> multi_char_puncts;
    // Take a backslash-newline between tokens, or inside a // comment, as a line splice. For text read as
    // written; text that went through splice_lines has none left to take.
    bool line_splices = false;
};

class SourceLexer;

// What a reader does with preprocessor lines (source/preprocessor.hpp is the reader that interprets
// them).
class DirectiveHandler {
public:
    virtual ~DirectiveHandler() = default;
    // Takes the line just read (lexer.token() is its '#', lexer.directive() the rest); true keeps the '#'.
    virtual bool directive(const SourceLexer& lexer) = 0;
    // False where tokens are dropped (a branch that is not compiled): the lexer may pass over that code.
    virtual bool live() const = 0;
};

// Reads tokens one at a time. A '#' that starts a line (after blanks and comments) takes the whole
// preprocessor line with it, which the caller interprets; a newline inside a block comment does not end
// that line, as in the preprocessor, and `<...>` after an include is one header name (a literal). An
// unterminated literal ends at the end of its line and an unterminated comment at the end of the text,
// so one stray character cannot swallow everything.
class SourceLexer {
public:
    enum class Item { end, token, directive };
    // What the caller wants of code outside directives: its tokens, or only to get past it (dead code,
    // or a reader of directives alone), which lets whole lines go by without being tokenized.
    enum class Code { tokenize, pass_over };

    SourceLexer(std::string_view source, LexOptions options);

    // Reads the next item: `token()` holds a token, or for a directive its '#', with `directive()` the
    // tokens after the '#' up to the end of the line, and `directive_end()` where the newline ending
    // that line stands (the text's size at the end). Passing over code, it may return fewer tokens,
    // but the same directives.
    Item next(Code code = Code::tokenize);
    const Token& token() const { return token_; }
    const std::vector<Token>& directive() const { return directive_; }
    std::size_t directive_end() const { return directive_end_; }

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
    bool pass_over_plain_code();
    Token next_token();
    Token next_header_name();
    void skip_quoted(char quote);
    void skip_raw_string();

    std::string_view src_;
    LexOptions options_;
    bool may_pass_over_ = true;  // no punctuator hides a comment or literal opener after its first character
    std::size_t pos_ = 0;
    std::size_t first_newline_ = 0;  // the first newline skip_blank passed, when it passed one
    bool at_line_start_ = true;
    Token token_;
    std::vector<Token> directive_;
    std::size_t directive_end_ = 0;
};

}  // namespace gpukit::detail
