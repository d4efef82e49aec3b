// src/source/condition.cpp: a three-valued evaluator of preprocessor conditions.
//
// Values are the preprocessor's: intmax_t, or uintmax_t when an operand is unsigned. A value may be
// unknown (a `defined` the knowledge cannot answer) and still leave the whole condition decided:
// `0 && defined(X)` is false whatever X is. What the evaluator cannot read at all (a macro name, a
// character literal, a syntax error) makes the whole condition unknown.
#include "source/condition.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "source/lexer.hpp"

namespace gpukit::detail {

MacroState MacroKnowledge::state(std::string_view name) const {
    const auto it = known_.find(name);
    if (it == known_.end()) return MacroState::unknown;
    return it->second ? MacroState::defined : MacroState::undefined;
}

void MacroKnowledge::define(std::string_view name, bool surely_compiled) { set(name, true, surely_compiled); }

void MacroKnowledge::undefine(std::string_view name, bool surely_compiled) { set(name, false, surely_compiled); }

void MacroKnowledge::set(std::string_view name, bool defined, bool surely_compiled) {
    if (trusted_ && surely_compiled) {
        known_[name] = defined;
    } else {
        known_.erase(name);
    }
}

namespace {

// The operators a condition may hold, longest first.
constexpr std::string_view kOperators[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
constexpr LexOptions kConditionLexOptions{kOperators, /*line_splices=*/false};  // the text is spliced

// Deeper nesting than this (only hostile input has it) is unknown, so recursion stays bounded.
constexpr int kMaxDepth = 256;

constexpr std::int64_t kMaxSigned = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinSigned = std::numeric_limits<std::int64_t>::min();

struct Value {
    std::uint64_t bits = 0;
    bool is_unsigned = false;

    std::int64_t as_signed() const { return static_cast<std::int64_t>(bits); }
    bool is_zero() const { return bits == 0; }
};

Value signed_value(std::int64_t value) { return {static_cast<std::uint64_t>(value), false}; }
Value truth_value(bool value) { return {value ? 1u : 0u, false}; }

// nullopt: a value the evaluator cannot know.
using Operand = std::optional<Value>;

// An integer literal: 42, 0x2Au, 052, 0b101, 1'000'000LL; nullopt for anything else (a float).
std::optional<Value> parse_integer(std::string_view text) {
    std::size_t suffix_start = text.size();
    while (suffix_start > 0) {
        const char c = text[suffix_start - 1];
        if (c != 'u' && c != 'U' && c != 'l' && c != 'L' && c != 'z' && c != 'Z') break;
        --suffix_start;
    }
    int unsigneds = 0;
    int longs = 0;
    int sizes = 0;
    for (const char c : text.substr(suffix_start)) {
        unsigneds += c == 'u' || c == 'U';
        longs += c == 'l' || c == 'L';
        sizes += c == 'z' || c == 'Z';
    }
    if (unsigneds > 1 || longs > 2 || sizes > 1 || (longs > 0 && sizes > 0)) return std::nullopt;
    bool is_unsigned = unsigneds > 0;

    std::string_view digits = text.substr(0, suffix_start);
    unsigned base = 10;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    } else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
        base = 2;
        digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
        base = 8;
    }
    if (digits.empty() || digits.front() == '\'' || digits.back() == '\'') return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : digits) {
        if (c == '\'') continue;  // a digit separator
        unsigned digit = 16;
        if (c >= '0' && c <= '9') digit = static_cast<unsigned>(c - '0');
        if (c >= 'a' && c <= 'f') digit = static_cast<unsigned>(c - 'a' + 10);
        if (c >= 'A' && c <= 'F') digit = static_cast<unsigned>(c - 'A' + 10);
        if (digit >= base) return std::nullopt;
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) return std::nullopt;
        value = value * base + digit;
    }
    if (value > static_cast<std::uint64_t>(kMaxSigned) && !is_unsigned) {
        // A decimal that large has no signed type; GCC makes it unsigned with a warning.
        if (base == 10) return std::nullopt;
        is_unsigned = true;
    }
    return Value{value, is_unsigned};
}

// Reads a condition by precedence climbing. `unreadable_` ends the reading: the condition is unknown.
class ConditionReader {
public:
    ConditionReader(std::vector<Token> tokens, const MacroKnowledge& knowledge)
        : tokens_(std::move(tokens)), knowledge_(knowledge) {}

    Condition evaluate() {
        const Operand value = conditional();
        if (unreadable_ || at_ != tokens_.size()) return Condition::unknown;
        if (!value) return Condition::unknown;
        return value->is_zero() ? Condition::certainly_false : Condition::certainly_true;
    }

private:
    const Token* peek() const { return at_ < tokens_.size() ? &tokens_[at_] : nullptr; }
    bool next_is(std::string_view punct) const { return peek() != nullptr && is_punct(*peek(), punct); }
    bool take(std::string_view punct) {
        if (!next_is(punct)) return false;
        ++at_;
        return true;
    }
    Operand fail() {
        unreadable_ = true;
        return std::nullopt;
    }

    // condition ? a : b, right to left.
    Operand conditional() {
        if (++depth_ > kMaxDepth) return fail();
        Operand value = binary(1);
        if (!unreadable_ && take("?")) {
            const Operand if_true = conditional();
            if (!take(":")) return fail();
            const Operand if_false = conditional();
            if (!value || !if_true || !if_false) {
                value = std::nullopt;
            } else {
                value = value->is_zero() ? *if_false : *if_true;
                value->is_unsigned = if_true->is_unsigned || if_false->is_unsigned;
            }
        }
        --depth_;
        return value;
    }

    static int precedence(const Token& token) {
        if (token.kind != TokenKind::punct) return 0;
        const std::string_view op = token.text;
        if (op == "*" || op == "/" || op == "%") return 10;
        if (op == "+" || op == "-") return 9;
        if (op == "<<" || op == ">>") return 8;
        if (op == "<" || op == ">" || op == "<=" || op == ">=") return 7;
        if (op == "==" || op == "!=") return 6;
        if (op == "&") return 5;
        if (op == "^") return 4;
        if (op == "|") return 3;
        if (op == "&&") return 2;
        if (op == "||") return 1;
        return 0;
    }

    Operand binary(int min_precedence) {
        Operand left = unary();
        while (!unreadable_ && peek() != nullptr) {
            const int level = precedence(*peek());
            if (level == 0 || level < min_precedence) break;
            const std::string_view op = tokens_[at_++].text;
            const Operand right = binary(level + 1);
            if (unreadable_) break;
            left = apply(op, left, right);
        }
        return left;
    }

    Operand unary() {
        if (++depth_ > kMaxDepth) return fail();
        Operand value = unary_unbounded();
        --depth_;
        return value;
    }

    Operand unary_unbounded() {
        const Token* token = peek();
        if (token == nullptr) return fail();
        ++at_;
        if (token->kind == TokenKind::punct) {
            const std::string_view op = token->text;
            if (op == "(") {
                const Operand inner = conditional();
                return take(")") ? inner : fail();
            }
            if (op != "+" && op != "-" && op != "!" && op != "~") return fail();
            const Operand operand = unary();
            if (!operand) return std::nullopt;
            if (op == "!") return truth_value(operand->is_zero());
            if (op == "~") return Value{~operand->bits, operand->is_unsigned};
            if (op == "-" && !operand->is_unsigned) {
                if (operand->as_signed() == kMinSigned) return std::nullopt;
                return signed_value(-operand->as_signed());
            }
            return op == "-" ? Value{0 - operand->bits, true} : *operand;
        }
        if (token->kind == TokenKind::number) {
            const std::optional<Value> value = parse_integer(token->text);
            return value ? Operand(*value) : fail();
        }
        if (token->kind != TokenKind::identifier) return fail();  // a character or string literal
        if (token->text == "defined") return defined();
        // A macro could make true and false mean anything; a name surely undefined is 0.
        const MacroState state = knowledge_.state(token->text);
        if ((token->text == "true" || token->text == "false") && state != MacroState::defined) {
            return truth_value(token->text == "true");
        }
        if (state == MacroState::undefined && !next_is("(")) return signed_value(0);
        return fail();
    }

    // After `defined`: `(NAME)` or `NAME`.
    Operand defined() {
        const bool parenthesised = take("(");
        const Token* name = peek();
        if (name == nullptr || !is_identifier(*name)) return fail();
        ++at_;
        if (parenthesised && !take(")")) return fail();
        switch (knowledge_.state(name->text)) {
            case MacroState::defined: return truth_value(true);
            case MacroState::undefined: return truth_value(false);
            case MacroState::unknown: return std::nullopt;
        }
        return std::nullopt;
    }

    static Operand apply(std::string_view op, Operand left, Operand right) {
        // The logical operators are decided by either side alone.
        if (op == "&&") {
            if ((left && left->is_zero()) || (right && right->is_zero())) return truth_value(false);
            if (left && right) return truth_value(true);
            return std::nullopt;
        }
        if (op == "||") {
            if ((left && !left->is_zero()) || (right && !right->is_zero())) return truth_value(true);
            if (left && right) return truth_value(false);
            return std::nullopt;
        }
        if (!left || !right) return std::nullopt;
        return arithmetic(op, *left, *right);
    }

    // Signed overflow, division by zero and shifts the compilers disagree on are unknown.
    static Operand arithmetic(std::string_view op, Value a, Value b) {
        const bool is_unsigned = a.is_unsigned || b.is_unsigned;
        const std::uint64_t x = a.bits;
        const std::uint64_t y = b.bits;
        const std::int64_t sx = a.as_signed();
        const std::int64_t sy = b.as_signed();
        const auto result = [&](std::uint64_t bits) { return Value{bits, is_unsigned}; };
        std::int64_t out = 0;
        if (op == "+") {
            if (is_unsigned) return result(x + y);
            return __builtin_add_overflow(sx, sy, &out) ? Operand() : signed_value(out);
        }
        if (op == "-") {
            if (is_unsigned) return result(x - y);
            return __builtin_sub_overflow(sx, sy, &out) ? Operand() : signed_value(out);
        }
        if (op == "*") {
            if (is_unsigned) return result(x * y);
            return __builtin_mul_overflow(sx, sy, &out) ? Operand() : signed_value(out);
        }
        if (op == "/" || op == "%") {
            if (y == 0) return std::nullopt;
            if (is_unsigned) return result(op == "/" ? x / y : x % y);
            if (sx == kMinSigned && sy == -1) return std::nullopt;
            return signed_value(op == "/" ? sx / sy : sx % sy);
        }
        if (op == "<<" || op == ">>") {
            // The left operand's type decides; a negative or too wide count, or a negative signed
            // operand, is left unknown.
            if ((!b.is_unsigned && sy < 0) || y >= 64) return std::nullopt;
            if (a.is_unsigned) return Value{op == "<<" ? x << y : x >> y, true};
            if (sx < 0) return std::nullopt;
            if (op == ">>") return signed_value(sx >> y);
            if (y > 0 && x > (static_cast<std::uint64_t>(kMaxSigned) >> y)) return std::nullopt;
            return signed_value(static_cast<std::int64_t>(x << y));
        }
        if (op == "<") return truth_value(is_unsigned ? x < y : sx < sy);
        if (op == ">") return truth_value(is_unsigned ? x > y : sx > sy);
        if (op == "<=") return truth_value(is_unsigned ? x <= y : sx <= sy);
        if (op == ">=") return truth_value(is_unsigned ? x >= y : sx >= sy);
        if (op == "==") return truth_value(x == y);
        if (op == "!=") return truth_value(x != y);
        if (op == "&") return result(x & y);
        if (op == "^") return result(x ^ y);
        if (op == "|") return result(x | y);
        return std::nullopt;
    }

    std::vector<Token> tokens_;
    const MacroKnowledge& knowledge_;
    std::size_t at_ = 0;
    int depth_ = 0;
    bool unreadable_ = false;
};

}  // namespace

Condition evaluate_condition(std::string_view condition, const MacroKnowledge& knowledge) {
    SourceLexer lexer(condition, kConditionLexOptions);
    std::vector<Token> tokens;
    for (SourceLexer::Item item; (item = lexer.next()) != SourceLexer::Item::end;) {
        if (item != SourceLexer::Item::token) return Condition::unknown;  // a '#' that starts a line
        tokens.push_back(lexer.token());
    }
    return ConditionReader(std::move(tokens), knowledge).evaluate();
}

}  // namespace gpukit::detail
