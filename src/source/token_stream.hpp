// src/source/token_stream.hpp: tokens with the partner of every bracket, for scans that jump over groups.
//
// Brackets are matched once, up front, so that the readers' scans jump over groups in constant time
// and malformed input stays roughly linear.
#pragma once

#include <cstddef>
#include <vector>

#include "source/lexer.hpp"

namespace gpukit::detail {

// No such token or index: an unmatched bracket, a '<' that is a comparison.
inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

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

}  // namespace gpukit::detail
