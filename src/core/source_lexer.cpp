// src/core/source_lexer.cpp: tokens of CUDA C source and their bracket partners, for the tolerant source readers.
#include "core/source_lexer.hpp"

#include <utility>

namespace gpukit::detail {
namespace {

// Prefixes that turn a following quote into an encoded or raw literal (u8"..", L'x', R"(..)").
constexpr std::string_view kLiteralPrefixes[] = {"u8", "u", "U", "L", "R", "u8R", "uR", "UR", "LR"};

}  // namespace

std::string splice_lines(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\') {
            std::size_t j = i + 1;
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
            if (j < text.size() && text[j] == '\r') ++j;
            if (j < text.size() && text[j] == '\n') {
                i = j;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

// --- SourceLexer ---------------------------------------------------------------------------------

SourceLexer::Item SourceLexer::next() {
    if (skip_blank()) at_line_start_ = true;
    if (at_end()) return Item::end;
    if (at_line_start_ && peek() == '#') {
        token_ = Token{TokenKind::punct, src_.substr(pos_, 1), pos_};
        ++pos_;
        directive_.clear();
        while (!skip_blank() && !at_end()) directive_.push_back(next_token());
        return Item::directive;  // it ended at a newline, so the next token starts a line
    }
    token_ = next_token();
    at_line_start_ = false;
    return Item::token;
}

std::vector<Token> SourceLexer::read_all(DirectiveHandler& handler) {
    std::vector<Token> tokens;
    for (Item item; (item = next()) != Item::end;) {
        if (item == Item::directive ? handler.directive(*this) : handler.live()) tokens.push_back(token_);
    }
    return tokens;
}

// Skips whitespace, comments and (with line_splices) line splices; true when it passed a newline, which
// ends a preprocessor line.
bool SourceLexer::skip_blank() {
    bool crossed_newline = false;
    while (!at_end()) {
        const char c = peek();
        if (c == '\n') {
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
            if (is_ident_char(d) || d == '.') {
                ++pos_;
            } else if ((d == '+' || d == '-') && (before == 'e' || before == 'E' || before == 'p' || before == 'P')) {
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

// --- TokenStream ---------------------------------------------------------------------------------

TokenStream::TokenStream(std::vector<Token> tokens_in)
    : tokens(std::move(tokens_in)), partner(tokens.size(), kNone), angle_partner(tokens.size(), kNone) {
    match_brackets();
    match_angles();
}

void TokenStream::match_brackets() {
    std::vector<std::size_t> open;
    std::size_t open_count[3] = {0, 0, 0};
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (const int kind = bracket_kind(tokens[i], true); kind >= 0) {
            open.push_back(i);
            ++open_count[kind];
            continue;
        }
        const int kind = bracket_kind(tokens[i], false);
        if (kind < 0 || open_count[kind] == 0) continue;  // not a closer, or a stray one
        // Openers of other kinds above the partner were never closed: they stay unmatched.
        while (true) {
            const std::size_t j = open.back();
            open.pop_back();
            const int open_kind = bracket_kind(tokens[j], true);
            --open_count[open_kind];
            if (open_kind == kind) {
                partner[i] = j;
                partner[j] = i;
                break;
            }
        }
    }
}

// Each bracket level keeps its open template candidates; a '>' closes the innermost one.
void TokenStream::match_angles() {
    std::vector<std::vector<std::size_t>> levels(1);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& token = tokens[i];
        if (partner[i] != kNone) {
            if (partner[i] > i) {
                levels.emplace_back();
            } else if (levels.size() > 1) {
                levels.pop_back();
            }
        } else if (is_punct(token, "<") && i > 0 && is_identifier(tokens[i - 1])) {
            levels.back().push_back(i);
        } else if (is_punct(token, ">")) {
            if (!levels.back().empty()) {
                angle_partner[levels.back().back()] = i;
                angle_partner[i] = levels.back().back();
                levels.back().pop_back();
            }
        } else if (bracket_kind(token, true) >= 0 || bracket_kind(token, false) >= 0 || is_punct(token, ";") ||
                   is_punct(token, "&&") || is_punct(token, "||")) {
            levels.back().clear();  // unmatched brackets end the candidates too
        }
    }
}

// --- name expressions ----------------------------------------------------------------------------

std::optional<NameExpression> read_name_expression(std::span<const Token> tokens) {
    NameExpression expression;
    std::size_t i = 0;
    while (i < tokens.size() && (is_punct(tokens[i], "&") || is_punct(tokens[i], "("))) ++i;
    if (i < tokens.size() && is_punct(tokens[i], "::")) {
        expression.global_only = true;
        ++i;
    }
    if (i >= tokens.size() || !is_identifier(tokens[i])) return std::nullopt;
    std::vector<std::string> names{std::string(tokens[i].text)};
    ++i;
    while (i + 1 < tokens.size() && is_punct(tokens[i], "::") && is_identifier(tokens[i + 1])) {
        names.emplace_back(tokens[i + 1].text);
        i += 2;
    }
    expression.name = std::move(names.back());
    names.pop_back();
    expression.scope = std::move(names);
    expression.end = i;
    return expression;
}

}  // namespace gpukit::detail
