// src/source/token_stream.cpp: matches brackets and template angles once, both ways.
#include "source/token_stream.hpp"

#include <utility>

namespace gpukit::detail {

TokenStream::TokenStream(std::vector<Token> tokens_in)
    : tokens(std::move(tokens_in)), partner(tokens.size(), kNone), angle_partner(tokens.size(), kNone) {
    match_brackets();
    match_angles();
}

void TokenStream::match_brackets() {
    struct Opener {
        std::size_t index;
        int kind;
    };
    std::vector<Opener> open;
    std::size_t open_count[3] = {0, 0, 0};
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (const int kind = bracket_kind(tokens[i], true); kind >= 0) {
            open.push_back({i, kind});
            ++open_count[kind];
            continue;
        }
        const int kind = bracket_kind(tokens[i], false);
        if (kind < 0 || open_count[kind] == 0) continue;  // not a closer, or a stray one
        // Openers of other kinds above the partner were never closed: they stay unmatched.
        while (true) {
            const Opener opener = open.back();
            open.pop_back();
            --open_count[opener.kind];
            if (opener.kind == kind) {
                partner[i] = opener.index;
                partner[opener.index] = i;
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

}  // namespace gpukit::detail
