// src/cache/include_scanner.cpp: a small lexer that knows just enough C++ to find includes.
//
// It must never take real code for a comment (that would hide an include and let a stale cache
// entry be used), so it tracks string, character and raw string literals; it may take a comment
// for code in odd corners (prefixed character literals), which only adds includes.
#include "cache/include_scanner.hpp"

#include <array>

namespace gpukit::detail {

namespace {

bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_horizontal_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Translation phase 2: a backslash at the end of a line joins it with the next one.
std::string splice_lines(std::string_view text) {
    std::string spliced;
    spliced.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\') {
            if (i + 1 < text.size() && text[i + 1] == '\n') {
                ++i;
                continue;
            }
            if (i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
                i += 2;
                continue;
            }
        }
        spliced.push_back(text[i]);
    }
    return spliced;
}

// The characters that can end a run of uninteresting ones, per lexer state: the scanner jumps
// from one to the next, which keeps the per-lookup cost of scanning a kernel small.
using CharacterSet = std::array<bool, 256>;

constexpr CharacterSet character_set(std::string_view characters) {
    CharacterSet set{};
    for (char c : characters) set[static_cast<unsigned char>(c)] = true;
    return set;
}

constexpr CharacterSet code_stops = character_set("\n/\"'");  // '#' only matters at a line start
constexpr CharacterSet line_comment_stops = character_set("\n");
constexpr CharacterSet block_comment_stops = character_set("\n*");
constexpr CharacterSet string_stops = character_set("\n\\\"");
constexpr CharacterSet char_stops = character_set("\n\\'");

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    std::vector<IncludeDirective> run() {
        while (pos_ < text_.size()) step();
        return std::move(found_);
    }

private:
    enum class State { code, line_comment, block_comment, string_literal, char_literal };

    char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

    void skip_to(const CharacterSet& stops) {
        while (pos_ < text_.size() && !stops[static_cast<unsigned char>(text_[pos_])]) ++pos_;
    }

    void skip_uninteresting() {
        switch (state_) {
            case State::code:
                if (!at_line_start_) skip_to(code_stops);
                return;
            case State::line_comment: skip_to(line_comment_stops); return;
            case State::block_comment: skip_to(block_comment_stops); return;
            case State::string_literal: skip_to(string_stops); return;
            case State::char_literal: skip_to(char_stops); return;
        }
    }

    void step() {
        skip_uninteresting();
        if (pos_ >= text_.size()) return;
        const char c = text_[pos_];
        if (c == '\n') {
            // Literals cannot span lines (raw strings are skipped whole), so a newline also ends them:
            // an unterminated quote damages one line, never the rest of the file.
            if (state_ != State::block_comment) state_ = State::code;
            at_line_start_ = true;
            ++pos_;
            return;
        }
        switch (state_) {
            case State::line_comment: ++pos_; return;
            case State::block_comment:
                if (c == '*' && at(pos_ + 1) == '/') {
                    state_ = State::code;
                    pos_ += 2;
                } else {
                    ++pos_;
                }
                return;
            case State::string_literal:
            case State::char_literal: {
                const char closing = state_ == State::string_literal ? '"' : '\'';
                if (c == '\\') {
                    pos_ += 2;
                    return;
                }
                if (c == closing) state_ = State::code;
                ++pos_;
                return;
            }
            case State::code: step_code(c); return;
        }
    }

    void step_code(char c) {
        if (is_horizontal_space(c)) {
            ++pos_;
            return;
        }
        if (c == '/' && at(pos_ + 1) == '/') {
            state_ = State::line_comment;
            pos_ += 2;
            return;
        }
        if (c == '/' && at(pos_ + 1) == '*') {
            state_ = State::block_comment;
            pos_ += 2;
            return;
        }
        const bool was_line_start = at_line_start_;
        at_line_start_ = false;
        if (c == '#' && was_line_start) {
            ++pos_;
            directive();
            return;
        }
        if (c == '"') {
            if (pos_ > 0 && text_[pos_ - 1] == 'R') {
                raw_string();
                return;
            }
            state_ = State::string_literal;
        } else if (c == '\'') {
            // After a digit or a letter it is a digit separator (1'000) or a prefix (L'x');
            // treating the prefixed form as a separator at worst misreads the rest of one line.
            if (pos_ == 0 || !is_identifier_char(text_[pos_ - 1])) state_ = State::char_literal;
        }
        ++pos_;
    }

    // At the opening quote of R"delimiter( ... )delimiter".
    void raw_string() {
        const std::size_t open = text_.find('(', pos_ + 1);
        const std::size_t line_end = text_.find('\n', pos_ + 1);
        if (open == std::string_view::npos || (line_end != std::string_view::npos && line_end < open)) {
            state_ = State::string_literal;  // not a well-formed raw string: read it as a plain one
            ++pos_;
            return;
        }
        std::string terminator = ")";
        terminator.append(text_.substr(pos_ + 1, open - pos_ - 1));
        terminator.push_back('"');
        const std::size_t close = text_.find(terminator, open + 1);
        pos_ = close == std::string_view::npos ? text_.size() : close + terminator.size();
    }

    void skip_horizontal_space_and_block_comments() {
        for (;;) {
            while (pos_ < text_.size() && is_horizontal_space(text_[pos_])) ++pos_;
            if (at(pos_) == '/' && at(pos_ + 1) == '*') {
                const std::size_t end = text_.find("*/", pos_ + 2);
                if (end == std::string_view::npos) {
                    pos_ = text_.size();
                    return;
                }
                pos_ = end + 2;
                continue;
            }
            return;
        }
    }

    // Just after the '#' that starts a line. Leaves pos_ after the header name for include
    // directives and after the directive's name otherwise; the rest of the line is scanned as code.
    void directive() {
        skip_horizontal_space_and_block_comments();
        const std::size_t name_start = pos_;
        while (pos_ < text_.size() && is_identifier_char(text_[pos_])) ++pos_;
        const std::string_view name = text_.substr(name_start, pos_ - name_start);
        if (name != "include" && name != "include_next") return;

        skip_horizontal_space_and_block_comments();
        const char opening = at(pos_);
        if (opening == '"' || opening == '<') {
            const char closing = opening == '"' ? '"' : '>';
            const std::size_t end = text_.find_first_of(closing == '"' ? "\"\n" : ">\n", pos_ + 1);
            if (end != std::string_view::npos && text_[end] == closing) {
                found_.push_back({opening == '"' ? IncludeDirective::Form::quoted : IncludeDirective::Form::angled,
                                  std::string(text_.substr(pos_ + 1, end - pos_ - 1))});
                pos_ = end + 1;
                return;
            }
        }
        // A macro naming the header: keep its text so that the key at least sees the macro's name.
        std::size_t end = pos_;
        while (end < text_.size() && text_[end] != '\n' && !(text_[end] == '/' && (at(end + 1) == '/' || at(end + 1) == '*')))
            ++end;
        std::size_t trimmed_end = end;
        while (trimmed_end > pos_ && is_horizontal_space(text_[trimmed_end - 1])) --trimmed_end;
        if (trimmed_end > pos_)
            found_.push_back({IncludeDirective::Form::computed, std::string(text_.substr(pos_, trimmed_end - pos_))});
        pos_ = end;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    State state_ = State::code;
    bool at_line_start_ = true;
    std::vector<IncludeDirective> found_;
};

bool has_line_splice(std::string_view text) {
    for (std::size_t at = text.find('\\'); at != std::string_view::npos; at = text.find('\\', at + 1)) {
        const char next = at + 1 < text.size() ? text[at + 1] : '\0';
        if (next == '\n' || next == '\r') return true;
    }
    return false;
}

}  // namespace

std::vector<IncludeDirective> scan_includes(std::string_view text) {
    // Fast path for the common kernel without any include: one substring search.
    if (text.find("include") == std::string_view::npos) return {};
    if (has_line_splice(text)) {
        const std::string spliced = splice_lines(text);
        return Scanner(spliced).run();
    }
    return Scanner(text).run();
}

}  // namespace gpukit::detail
