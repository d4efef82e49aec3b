// src/source/lexer.cpp: tokens of CUDA C source, for the tolerant source readers.
#include "source/lexer.hpp"

namespace gpukit::detail {
namespace {

// Prefixes that turn a following quote into an encoded or raw literal (u8"..", L'x', R"(..)").
constexpr std::string_view kLiteralPrefixes[] = {"u8", "u", "U", "L", "R", "u8R", "uR", "UR", "LR"};

// The characters where code can stop being plain: a comment, a literal, a line splice, the line's end.
constexpr std::string_view kCodeStops = "\n\"'/\\";

struct CharacterSet {
    bool members[256] = {};
    constexpr explicit CharacterSet(std::string_view characters) {
        for (const char c : characters) members[static_cast<unsigned char>(c)] = true;
    }
    bool has(char c) const { return members[static_cast<unsigned char>(c)]; }
};
constexpr CharacterSet kCodeStopSet(kCodeStops);

bool is_include(const Token& token) {
    return is_word(token, "include") || is_word(token, "include_next") || is_word(token, "import");
}

// The length of the line splice starting at `i` (a backslash, blanks, a newline), 0 if none starts there.
std::size_t splice_length(std::string_view text, std::size_t i) {
    if (text[i] != '\\') return 0;
    std::size_t j = i + 1;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j < text.size() && text[j] == '\r') ++j;
    return j < text.size() && text[j] == '\n' ? j + 1 - i : 0;
}

}  // namespace

SplicedText splice_lines_tracked(std::string_view text) {
    SplicedText out;
    out.text.reserve(text.size());
    std::size_t copied = 0;  // text before this is in out.text
    for (std::size_t i = text.find('\\'); i != std::string_view::npos; i = text.find('\\', i + 1)) {
        const std::size_t length = splice_length(text, i);
        if (length == 0) continue;
        out.text.append(text.substr(copied, i - copied));
        out.joins.push_back(out.text.size());
        copied = i + length;
        i = copied - 1;
    }
    out.text.append(text.substr(copied));
    return out;
}

std::string splice_lines(std::string_view text) { return splice_lines_tracked(text).text; }

bool has_line_splice(std::string_view text) {
    for (std::size_t i = text.find('\\'); i != std::string_view::npos; i = text.find('\\', i + 1)) {
        if (splice_length(text, i) > 0) return true;
    }
    return false;
}

// --- SourceLexer ---------------------------------------------------------------------------------

SourceLexer::SourceLexer(std::string_view source, LexOptions options) : src_(source), options_(options) {
    for (const std::string_view punct : options_.multi_char_puncts) {
        if (punct.find_first_of(kCodeStops, 1) != std::string_view::npos) may_pass_over_ = false;
    }
}

SourceLexer::Item SourceLexer::next(Code code) {
    while (true) {
        if (skip_blank()) at_line_start_ = true;
        if (at_end()) return Item::end;
        // '#', or its digraph "%:", which the compilers read as '#' too.
        if (at_line_start_ && (peek() == '#' || (peek() == '%' && peek(1) == ':'))) {
            const std::size_t hash_size = peek() == '#' ? 1 : 2;
            token_ = Token{TokenKind::punct, src_.substr(pos_, hash_size), pos_};
            pos_ += hash_size;
            directive_.clear();
            bool ended_by_newline = false;
            while (!(ended_by_newline = skip_blank()) && !at_end()) {
                const bool names_header = directive_.size() == 1 && peek() == '<' && is_include(directive_[0]);
                directive_.push_back(names_header ? next_header_name() : next_token());
            }
            directive_end_ = ended_by_newline ? first_newline_ : src_.size();
            return Item::directive;  // it ended at a newline, so the next token starts a line
        }
        if (code == Code::pass_over && at_line_start_ && may_pass_over_ && pass_over_plain_code()) continue;
        token_ = next_token();
        at_line_start_ = false;
        return Item::token;
    }
}

std::vector<Token> SourceLexer::read_all(DirectiveHandler& handler) {
    std::vector<Token> tokens;
    while (true) {
        const bool live = handler.live();
        const Item item = next(live ? Code::tokenize : Code::pass_over);
        if (item == Item::end) break;
        if (item == Item::directive ? handler.directive(*this) : live) tokens.push_back(token_);
    }
    return tokens;
}

// At the start of a line of code: moves past the part of it that cannot hold a comment or a literal,
// to the line's end or to a '/' (which always starts a token: a comment, or an operator), and tells
// whether it moved. A quote or a backslash ends that: the line is tokenized from its start, since a
// prefix or a digit separator before a quote changes what the quote opens.
bool SourceLexer::pass_over_plain_code() {
    std::size_t at = pos_;
    while (at < src_.size() && !kCodeStopSet.has(src_[at])) ++at;
    if (at < src_.size() && src_[at] != '\n' && src_[at] != '/') return false;
    pos_ = at;
    if (at < src_.size() && src_[at] == '/') at_line_start_ = false;
    return true;
}

// Skips whitespace, comments and (with line_splices) line splices; true when it passed a newline, which
// ends a preprocessor line.
bool SourceLexer::skip_blank() {
    bool crossed_newline = false;
    while (!at_end()) {
        const char c = peek();
        if (c == '\n') {
            if (!crossed_newline) first_newline_ = pos_;
            crossed_newline = true;
            ++pos_;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++pos_;
        } else if (options_.line_splices && c == '\\' && peek(1) == '\n') {
            pos_ += 2;
        } else if (options_.line_splices && c == '\\' && peek(1) == '\r' && peek(2) == '\n') {
            pos_ += 3;
        } else if (c == '/' && peek(1) == '/') {
            // Stop before the newline so the caller sees it; a line splice continues the comment.
            if (!options_.line_splices) {
                const std::size_t newline = src_.find('\n', pos_ + 2);
                pos_ = newline == std::string_view::npos ? src_.size() : newline;
                continue;
            }
            pos_ += 2;
            while (!at_end() && peek() != '\n') {
                pos_ += (options_.line_splices && peek() == '\\' && peek(1) == '\n') ? 2 : 1;
            }
        } else if (c == '/' && peek(1) == '*') {
            const std::size_t close = src_.find("*/", pos_ + 2);
            pos_ = close == std::string_view::npos ? src_.size() : close + 2;
        } else {
            break;
        }
    }
    return crossed_newline;
}

// pos_ is at the '<' after an include: `<sys/*.h>` is one header name, not a comment, as in the
// preprocessor. It ends at '>' or, unterminated, at the end of its line.
Token SourceLexer::next_header_name() {
    const std::size_t start = pos_;
    const std::size_t end = src_.find_first_of(">\n", pos_ + 1);
    pos_ = end == std::string_view::npos ? src_.size() : (src_[end] == '>' ? end + 1 : end);
    return Token{TokenKind::literal, src_.substr(start, pos_ - start), start};
}

// Precondition: not at the end and not at a blank. Always advances.
Token SourceLexer::next_token() {
    const std::size_t start = pos_;
    const auto make = [&](TokenKind kind) { return Token{kind, src_.substr(start, pos_ - start), start}; };
    const char c = peek();
    if (is_ident_start(c)) {
        while (!at_end() && is_ident_char(peek())) ++pos_;
        const std::string_view word = src_.substr(start, pos_ - start);
        const char quote = peek();
        if ((quote == '"' || quote == '\'') && contains(kLiteralPrefixes, word)) {
            if (word.back() == 'R' && quote == '"') {
                skip_raw_string();
            } else {
                skip_quoted(quote);
            }
            return make(TokenKind::literal);
        }
        return make(TokenKind::identifier);
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
        // A preprocessing number: 1.5e-3f, 0x1p+4, 1'000'000.
        ++pos_;
        while (!at_end()) {
            const char d = peek();
            const char before = src_[pos_ - 1];
            const bool exponent_sign =
                (d == '+' || d == '-') && (before == 'e' || before == 'E' || before == 'p' || before == 'P');
            if (is_ident_char(d) || d == '.' || exponent_sign) {
                ++pos_;
            } else if (d == '\'' && is_ident_char(peek(1))) {
                pos_ += 2;
            } else {
                break;
            }
        }
        return make(TokenKind::number);
    }
    if (c == '"' || c == '\'') {
        skip_quoted(c);
        return make(TokenKind::literal);
    }
    for (const std::string_view punct : options_.multi_char_puncts) {
        if (src_.substr(pos_, punct.size()) == punct) {
            pos_ += punct.size();
            return make(TokenKind::punct);
        }
    }
    ++pos_;
    return make(TokenKind::punct);
}

// pos_ is at the opening quote. An unterminated literal ends at the end of its line, as compilers
// recover.
void SourceLexer::skip_quoted(char quote) {
    ++pos_;
    while (!at_end()) {
        const char c = peek();
        if (c == '\\') {
            pos_ += 2;
        } else if (c == quote) {
            ++pos_;
            return;
        } else if (c == '\n') {
            return;
        } else {
            ++pos_;
        }
    }
    pos_ = std::min(pos_, src_.size());  // a backslash at the very end stepped past it
}

// pos_ is at the quote of R"delim( ... )delim"; the body may hold quotes, backslashes and newlines.
void SourceLexer::skip_raw_string() {
    const std::size_t delimiter_start = pos_ + 1;
    std::size_t open = delimiter_start;
    while (open < src_.size() && open - delimiter_start <= 16) {
        const char c = src_[open];
        if (c == '(' || c == ')' || c == '\\' || c == '"' || c == ' ' || c == '\t' || c == '\n') break;
        ++open;
    }
    if (open >= src_.size() || src_[open] != '(' || open - delimiter_start > 16) {
        skip_quoted('"');  // not a valid raw string: read it as an ordinary one
        return;
    }
    std::string closing = ")";
    closing += src_.substr(delimiter_start, open - delimiter_start);
    closing += '"';
    const std::size_t close = src_.find(closing, open + 1);
    pos_ = close == std::string_view::npos ? src_.size() : close + closing.size();
}

}  // namespace gpukit::detail
