// src/source/condition.hpp: decides `#if` and `#elif` conditions where it can be sure.
//
// Every reader of source/ must keep what the compiler may compile: the compile cache's key must see
// every header that may be included, the simulator's sync analysis every barrier that may be
// compiled, the kernel declarations every kernel that may be declared. So a condition is decided only
// when no compiler settings could change it (integer constants, and `defined` of a name this text
// surely defined or undefined); anything that needs macro expansion is unknown, and an unknown
// condition keeps every branch.
#pragma once

#include <string_view>
#include <unordered_map>

namespace gpukit::detail {

enum class Condition { certainly_false, certainly_true, unknown };

enum class MacroState { defined, undefined, unknown };

// Which macro names the text surely defined or undefined at the point being read. Nothing is known
// at the start: -D options, predefined macros and an including file may define any name.
class MacroKnowledge {
public:
    MacroState state(std::string_view name) const;

    // A #define or #undef; `surely_compiled` when no unknown condition encloses it (otherwise the name
    // may or may not be defined afterwards).
    void define(std::string_view name, bool surely_compiled);
    void undefine(std::string_view name, bool surely_compiled);

    // An #include: the header may define or undefine any name. A fresh table rather than clear(),
    // which would sweep every bucket of a once large table at each of many includes.
    void forget_all() { known_ = {}; }

    // For good: `#pragma pop_macro` and `_Pragma` can restore definitions the text does not spell.
    void distrust() {
        known_ = {};
        trusted_ = false;
    }

private:
    void set(std::string_view name, bool defined, bool surely_compiled);

    std::unordered_map<std::string_view, bool> known_;  // name → defined; views into the text read
    bool trusted_ = true;
};

// The value of the condition of an `#if` or `#elif` (the text after the directive's name, to the end
// of its line): integer literals (suffixes, hex, octal, binary, digit separators), true and false,
// parentheses, the unary, binary and ?: operators on them, and `defined X` / `defined(X)` as
// `knowledge` tells. Any other name makes the condition unknown: its expansion could even regroup
// the operators around it (`#define X 1 || 1` makes `X && 0` true). Malformed conditions, overflow
// and division by zero are unknown too.
Condition evaluate_condition(std::string_view condition, const MacroKnowledge& knowledge);

}  // namespace gpukit::detail
