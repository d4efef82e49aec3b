// src/source/name_expression.cpp: reads the name expression at the start of a token sequence.
#include "source/name_expression.hpp"

#include <utility>

namespace gpukit::detail {

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
