// src/source/name_expression.hpp: how a launch or a query names a kernel ("k", "ns::k", "::k", "&ns::k").
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "source/lexer.hpp"

namespace gpukit::detail {

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
