// src/source/kernel_declarations.cpp: finds __global__ declarations in CUDA C source and reads their parameter lists.
//
// Two stages: the preprocessor (source/preprocessor.hpp) gives the tokens of code that may be
// compiled and the macros; then a declarator reader starts at each __global__ and finds the function
// name and its parenthesised parameter list. Bracket pairs are matched once up front and every
// forward scan is bounded, so malformed or hostile input stays roughly linear.
#include "source/kernel_declarations.hpp"

#include "source/name_expression.hpp"
#include "source/preprocessor.hpp"
#include "source/token_stream.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>

namespace gpukit::detail {
namespace {

// Real declarations are far shorter than these; the bounds only stop pathological input from
// turning a scan per token into quadratic time.
constexpr std::size_t kMaxDeclaratorScan = 1024;  // tokens from __global__ to the function name
constexpr std::size_t kMaxTrailerScan = 256;      // tokens from ')' to '{' or ';'
constexpr std::size_t kMaxNamespaceHead = 64;     // tokens in `namespace a::b::c {`

// --- word lists ----------------------------------------------------------------------------------

// Words that can never be the declared name of a function or parameter.
// clang-format off
constexpr std::string_view kReservedWords[] = {
    "void", "bool", "char", "char8_t", "char16_t", "char32_t", "wchar_t", "short", "int", "long", "signed",
    "unsigned", "float", "double", "auto", "const", "volatile", "restrict", "__restrict", "__restrict__", "struct",
    "class", "union", "enum", "typename", "template", "decltype", "sizeof", "alignof", "alignas", "operator",
    "static", "extern", "inline", "register", "mutable", "constexpr", "consteval", "constinit", "thread_local",
    "noexcept", "throw", "requires", "return", "new", "delete", "this", "true", "false", "nullptr", "namespace",
    "using", "typedef", "if", "for", "while", "switch", "do", "else", "case", "__global__", "__device__", "__host__",
    "__shared__", "__constant__", "__managed__", "__forceinline__", "__noinline__", "__inline__", "__grid_constant__",
    "__launch_bounds__", "__attribute__", "__declspec", "__cluster_dims__", "__maxnreg__", "__align__", "__int128"};
// clang-format on

// Builtin type words and qualifiers: "float (&)[4]" keeps a space before '(' after these, while a macro
// or template name is glued to its call ("DECL(float)").
constexpr std::string_view kTypeWords[] = {"void",       "bool",         "char",    "char8_t", "char16_t", "char32_t",
                                           "wchar_t",    "short",        "int",     "long",    "signed",   "unsigned",
                                           "float",      "double",       "auto",    "const",   "volatile", "restrict",
                                           "__restrict", "__restrict__", "__int128"};

// Top-level qualifiers do not change which function a declaration names, so a prototype
// `k(const float* __restrict__ a)` and a definition `k(const float* a)` are the same kernel.
constexpr std::string_view kQualifierWords[] = {"const", "volatile", "restrict", "__restrict", "__restrict__"};

// Words that qualify a type but are not one: in `const x` the x is the type, not a parameter name.
constexpr std::string_view kNonTypeWords[] = {"const",        "volatile", "restrict",         "__restrict",
                                              "__restrict__", "register", "__grid_constant__"};

// In `struct Foo` the Foo is a type, not a parameter name.
constexpr std::string_view kElaboratedWords[] = {"struct", "class", "union", "enum", "typename"};

// Specifiers with a parenthesised argument that may stand between __global__ and the name.
constexpr std::string_view kAttributeWords[] = {"__launch_bounds__", "__attribute__", "__declspec", "alignas",
                                                "__cluster_dims__",  "__maxnreg__",   "__align__"};

// Words that may follow a function's parameter list; anything else means the parenthesised group was a
// macro call before the real name (`LAUNCH_BOUNDS(256) k(...)`).
constexpr std::string_view kPostDeclaratorWords[] = {"noexcept", "throw",   "requires", "try",           "override",
                                                     "final",    "const",   "volatile", "__attribute__", "__declspec",
                                                     "asm",      "__asm__", "__asm"};

// --- preprocessor lines --------------------------------------------------------------------------

// Longest first, so "..." is not read as three dots. '>' stays single so `Vec<Vec<int>>` closes twice.
constexpr std::string_view kMultiCharPuncts[] = {"...", "::", "->", "<<", "<=", "==", "!=", "&&", "||"};

constexpr PreprocessorOptions kPreprocessorOptions{.multi_char_puncts = kMultiCharPuncts};

// Object-like macros whose body holds __global__, directly or through an alias defined before
// (`#define KERNEL extern "C" __global__`): the only macros followed, because without them such
// kernels would be invisible. Function-like ones (`#define K(T) __global__ ...`) need expansion.
std::unordered_set<std::string_view> global_aliases(const std::vector<MacroDefinition>& macros) {
    std::unordered_set<std::string_view> aliases;
    for (const MacroDefinition& macro : macros) {
        if (macro.function_like) continue;
        const bool names_global = std::any_of(macro.replacement.begin(), macro.replacement.end(), [&](const Token& t) {
            return is_word(t, "__global__") || (t.kind == TokenKind::identifier && aliases.count(t.text) > 0);
        });
        if (names_global) aliases.insert(macro.name);
    }
    return aliases;
}

// --- bracket structure ---------------------------------------------------------------------------

// The last token of the unit starting at i: a whole bracket group or template argument list, or
// the token itself. Commas inside a unit do not separate parameters.
std::size_t unit_end(const TokenStream& ts, std::size_t i, std::size_t end) {
    if (const std::size_t close = ts.closer(i, end); close != kNone) return close;
    if (const std::size_t close = ts.closing_angle(i, end); close != kNone) return close;
    return i;
}

// --- rendering -----------------------------------------------------------------------------------

// Spells tokens with single spaces, except where C++ style glues them: "const float *",
// "Pair<int, float>", "ns::Type", "float [16]", "float (&)[4]", "void (*)(int)".
std::string render(const std::vector<Token>& tokens) {
    std::string out;
    std::vector<int> angle_depths{0};  // per bracket level: a '>' inside parentheses is a comparison
    const Token* prev = nullptr;
    bool glue_after_prev = false;  // prev was '<' of a template or a unary sign
    for (const Token& token : tokens) {
        const bool opens_angle = is_punct(token, "<") && prev != nullptr && prev->kind == TokenKind::identifier;
        const bool closes_angle = is_punct(token, ">") && angle_depths.back() > 0;
        if (prev != nullptr) {
            const std::string_view p = prev->text;
            const std::string_view t = token.text;
            const bool prev_is_name = prev->kind == TokenKind::identifier;
            // Glued: after a template's '<' or a unary sign, around template angles, after an
            // opening bracket or a member access, before a closing bracket or a separator.
            const bool glued =
                glue_after_prev || opens_angle || closes_angle ||
                (prev->kind == TokenKind::punct && (p == "(" || p == "[" || p == "::" || p == "." || p == "->")) ||
                (token.kind == TokenKind::punct &&
                 (t == ")" || t == "]" || t == "," || t == ";" || t == "." || t == "->"));
            bool space = true;
            if (glued) {
                space = false;
            } else if (is_punct(token, "::")) {
                space = !(prev_is_name || p == ">");
            } else if (is_punct(token, "(")) {
                space = !((prev_is_name && !contains(kTypeWords, p)) || is_punct(*prev, ")") || is_punct(*prev, "]"));
            } else if (is_punct(token, "[")) {
                space = !(is_punct(*prev, "]") || is_punct(*prev, ")"));
            }
            if (space) out += ' ';
        }
        out += token.text;
        const bool sign = token.kind == TokenKind::punct &&
                          (token.text == "-" || token.text == "+" || token.text == "!" || token.text == "~");
        const bool after_operand = prev != nullptr && (prev->kind != TokenKind::punct || is_punct(*prev, ")") ||
                                                       is_punct(*prev, "]") || is_punct(*prev, ">"));
        glue_after_prev = opens_angle || (sign && !after_operand);
        if (opens_angle) ++angle_depths.back();
        if (closes_angle) --angle_depths.back();
        if (is_punct(token, "(") || is_punct(token, "[")) angle_depths.push_back(0);
        if ((is_punct(token, ")") || is_punct(token, "]")) && angle_depths.size() > 1) angle_depths.pop_back();
        prev = &token;
    }
    return out;
}

// --- declarations --------------------------------------------------------------------------------

struct ReadParam {
    DeclaredParam param;
    std::string key;  // the type without qualifiers, for telling overloads from redeclarations
};

ReadParam read_parameter(const TokenStream& ts, std::size_t begin, std::size_t end) {
    struct Unit {
        std::size_t first, last;
        bool is_single() const { return first == last; }
    };
    std::vector<Unit> units;
    for (std::size_t i = begin; i < end; ++i) {
        const Token& token = ts[i];
        if (is_punct(token, "=")) break;  // a default argument is no part of the type
        // Attributes say nothing about the type a caller passes.
        if (is_punct(token, "[") && i + 1 < end && is_punct(ts[i + 1], "[") && ts.closer(i, end) != kNone) {
            i = ts.closer(i, end);
            continue;
        }
        if ((is_word(token, "__attribute__") || is_word(token, "__declspec")) && i + 1 < end &&
            ts.closer(i + 1, end) != kNone) {
            i = ts.closer(i + 1, end);
            continue;
        }
        const std::size_t last = unit_end(ts, i, end);
        units.push_back({i, last});
        i = last;
    }

    const auto is_group = [&](const Unit& unit, std::string_view open) {
        return !unit.is_single() && is_punct(ts[unit.first], open);
    };
    const auto is_name = [&](std::size_t i) {
        return ts[i].kind == TokenKind::identifier && !contains(kReservedWords, ts[i].text);
    };

    std::size_t name = kNone;
    // A parenthesised declarator: `float (&a)[16]`, `void (*callback)(int)`.
    for (std::size_t u = 1; u < units.size() && name == kNone; ++u) {
        if (!is_group(units[u], "(")) continue;
        const std::size_t inner_first = units[u].first + 1;
        const std::size_t inner_last = units[u].last - 1;
        const Token& lead = ts[inner_first];
        if (inner_first < inner_last && (is_punct(lead, "*") || is_punct(lead, "&") || is_punct(lead, "&&")) &&
            is_name(inner_last)) {
            name = inner_last;
        }
    }
    // Otherwise the name is the last word before any array bounds, provided a type precedes it: in
    // `const float *`, `unsigned long long`, `ns::Type`, `struct S` or `const T` there is no name.
    if (name == kNone) {
        std::size_t count = units.size();
        while (count > 0 && is_group(units[count - 1], "[")) --count;
        if (count >= 2) {
            const Unit& last = units[count - 1];
            const Unit& before = units[count - 2];
            const bool after_scope_or_tag =
                before.is_single() &&
                (is_punct(ts[before.first], "::") ||
                 (ts[before.first].kind == TokenKind::identifier && contains(kElaboratedWords, ts[before.first].text)));
            const bool has_type = std::any_of(
                units.begin(), units.begin() + static_cast<std::ptrdiff_t>(count - 1), [&](const Unit& unit) {
                    const Token& first = ts[unit.first];
                    return first.kind == TokenKind::identifier && !contains(kNonTypeWords, first.text);
                });
            if (last.is_single() && is_name(last.first) && !after_scope_or_tag && has_type) name = last.first;
        }
    }

    std::vector<Token> type_tokens;
    std::vector<Token> key_tokens;
    for (const Unit& unit : units) {
        for (std::size_t i = unit.first; i <= unit.last; ++i) {
            if (i == name) continue;
            type_tokens.push_back(ts[i]);
            if (!(ts[i].kind == TokenKind::identifier && contains(kQualifierWords, ts[i].text))) {
                key_tokens.push_back(ts[i]);
            }
        }
    }
    ReadParam read;
    read.param.type = render(type_tokens);
    if (name != kNone) read.param.name = std::string(ts[name].text);
    read.key = render(key_tokens);
    return read;
}

// The parameters between the parentheses at `open` and `close`.
std::vector<ReadParam> read_parameters(const TokenStream& ts, std::size_t open, std::size_t close) {
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    std::size_t begin = open + 1;
    for (std::size_t i = open + 1; i < close; ++i) {
        if (is_punct(ts[i], ",")) {
            ranges.emplace_back(begin, i);
            begin = i + 1;
        } else {
            i = unit_end(ts, i, close);
        }
    }
    ranges.emplace_back(begin, close);
    // `()` and `(void)` both declare no parameters.
    if (ranges.size() == 1) {
        const auto [first, end] = ranges.front();
        if (first == end || (end == first + 1 && is_word(ts[first], "void"))) return {};
    }
    std::vector<ReadParam> params;
    params.reserve(ranges.size());
    for (const auto& [first, end] : ranges) params.push_back(read_parameter(ts, first, end));
    return params;
}

struct KernelDeclaration {
    std::vector<std::string> scope;  // enclosing namespaces, then any qualifiers written on the name
    std::string name;
    std::string template_arguments;  // of an explicit specialisation or instantiation; empty otherwise
    std::vector<DeclaredParam> params;
    std::vector<std::string> signature;  // parameter types without qualifiers
    bool is_definition = false;
    bool is_template = false;  // declared under `template <...>` (or an explicit instantiation)
};

// Reads the declaration that the __global__ (or alias) token at `start` belongs to. The name is the
// first non-keyword word followed by its parameter list, after skipping specifiers such as
// `__launch_bounds__(256, 2)`; the return type may stand before or after __global__.
std::optional<KernelDeclaration> read_kernel_declaration(const TokenStream& ts, std::size_t start,
                                                         const std::vector<std::string>& enclosing_scope,
                                                         const std::unordered_set<std::string_view>& aliases) {
    struct Declarator {
        std::size_t name, template_open, template_close, params_open, params_close;
    };
    std::optional<Declarator> declarator;
    std::size_t i = start + 1;
    for (std::size_t steps = 0; i < ts.size() && steps < kMaxDeclaratorScan; ++steps) {
        const Token& token = ts[i];
        if (is_punct(token, ";") || is_punct(token, "{") || is_punct(token, "}") || is_punct(token, "=")) break;
        // Another __global__ starts a declaration of its own (and keeps repeated ones linear).
        if (is_word(token, "__global__") || (token.kind == TokenKind::identifier && aliases.count(token.text) > 0)) {
            break;
        }
        if (is_punct(token, "(") || is_punct(token, "[")) {  // e.g. [[nodiscard]]
            const std::size_t close = ts.closer(i, ts.size());
            if (close == kNone) break;
            i = close + 1;
            continue;
        }
        if (token.kind != TokenKind::identifier) {
            ++i;
            continue;
        }
        std::size_t next = i + 1;
        if (contains(kAttributeWords, token.text) && next < ts.size() && is_punct(ts[next], "(")) {
            const std::size_t close = ts.closer(next, ts.size());
            if (close == kNone) break;
            i = close + 1;
            continue;
        }
        std::size_t template_open = kNone;
        std::size_t template_close = kNone;
        if (next < ts.size() && is_punct(ts[next], "<")) {
            if (const std::size_t close = ts.closing_angle(next, ts.size()); close != kNone) {
                template_open = next;
                template_close = close;
                next = close + 1;
            }
        }
        if (next < ts.size() && is_punct(ts[next], "(") && !contains(kReservedWords, token.text)) {
            const std::size_t close = ts.closer(next, ts.size());
            if (close == kNone) break;  // truncated parameter list
            declarator = Declarator{i, template_open, template_close, next, close};
            // A macro call before the real name (`LAUNCH_BOUNDS(256) k(...)`) is followed by more
            // declarator; keep the candidate in case nothing better follows.
            const std::size_t after = close + 1;
            const bool more_declarator =
                after < ts.size() &&
                ((ts[after].kind == TokenKind::identifier && !contains(kPostDeclaratorWords, ts[after].text)) ||
                 is_punct(ts[after], "::"));
            if (!more_declarator) break;
            i = after;
            continue;
        }
        i = next;
    }
    if (!declarator) return std::nullopt;

    KernelDeclaration declaration;
    declaration.name = std::string(ts[declarator->name].text);
    // `template <...>` stands before the specifiers, back to the previous statement boundary.
    for (std::size_t k = start; k-- > 0;) {
        if (is_punct(ts[k], ";") || is_punct(ts[k], "{") || is_punct(ts[k], "}")) break;
        if (is_word(ts[k], "template")) {
            declaration.is_template = true;
            break;
        }
    }
    declaration.scope = enclosing_scope;
    // Qualifiers written on the name (`void ns::k(...)` defined outside its namespace).
    std::vector<std::string> qualifiers;
    for (std::size_t k = declarator->name;
         k >= start + 3 && is_punct(ts[k - 1], "::") && ts[k - 2].kind == TokenKind::identifier; k -= 2) {
        qualifiers.emplace_back(ts[k - 2].text);
    }
    declaration.scope.insert(declaration.scope.end(), qualifiers.rbegin(), qualifiers.rend());
    if (declarator->template_open != kNone) {
        declaration.template_arguments =
            render(std::vector<Token>(ts.tokens.begin() + static_cast<std::ptrdiff_t>(declarator->template_open + 1),
                                      ts.tokens.begin() + static_cast<std::ptrdiff_t>(declarator->template_close)));
    }
    for (ReadParam& read : read_parameters(ts, declarator->params_open, declarator->params_close)) {
        declaration.signature.push_back(std::move(read.key));
        declaration.params.push_back(std::move(read.param));
    }
    // A body follows a definition, whose parameter names are the ones the kernel uses.
    for (std::size_t j = declarator->params_close + 1, steps = 0; j < ts.size() && steps < kMaxTrailerScan;
         ++j, ++steps) {
        if (is_punct(ts[j], "{")) {
            declaration.is_definition = true;
            break;
        }
        if (is_punct(ts[j], ";") || is_punct(ts[j], "}") || is_punct(ts[j], "=")) break;
        if (const std::size_t close = ts.closer(j, ts.size()); close != kNone) j = close;
    }
    return declaration;
}

std::vector<KernelDeclaration> find_kernel_declarations(std::string_view source) {
    const Preprocessor preprocessor(source, kPreprocessorOptions);
    const TokenStream ts(preprocessor.tokens());
    const std::unordered_set<std::string_view> aliases = global_aliases(preprocessor.macros());

    std::vector<KernelDeclaration> found;
    std::vector<std::string> scope;            // namespaces open at the current token
    std::vector<std::size_t> names_per_brace;  // how many scope entries each open '{' added
    std::size_t namespace_brace = kNone;       // the '{' that opens the namespace just read
    std::vector<std::string_view> namespace_names;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const Token& token = ts[i];
        if (is_word(token, "namespace")) {
            // `namespace a::b {`, `inline namespace v1 {`, `namespace {`; not `namespace x = y;`.
            std::vector<std::string_view> names;
            std::size_t j = i + 1;
            for (; j < ts.size() && j - i < kMaxNamespaceHead; ++j) {
                if (ts[j].kind == TokenKind::identifier) {
                    if (ts[j].text != "inline") names.push_back(ts[j].text);
                } else if (!is_punct(ts[j], "::")) {
                    break;
                }
            }
            if (j < ts.size() && is_punct(ts[j], "{")) {
                namespace_brace = j;
                namespace_names = std::move(names);
            }
        } else if (is_punct(token, "{")) {
            if (i == namespace_brace) {
                names_per_brace.push_back(namespace_names.size());
                scope.insert(scope.end(), namespace_names.begin(), namespace_names.end());
            } else {
                names_per_brace.push_back(0);  // extern "C" blocks, bodies, classes
            }
        } else if (is_punct(token, "}")) {
            if (names_per_brace.empty()) continue;  // unbalanced: ignore
            scope.resize(scope.size() - names_per_brace.back());
            names_per_brace.pop_back();
        } else if (is_word(token, "__global__") ||
                   (token.kind == TokenKind::identifier && aliases.count(token.text) > 0)) {
            std::optional<KernelDeclaration> declaration = read_kernel_declaration(ts, i, scope, aliases);
            if (declaration) found.push_back(std::move(*declaration));
        }
    }
    return found;
}

// --- queries -------------------------------------------------------------------------------------

struct KernelQuery : NameExpression {
    std::optional<std::string> template_arguments;
};

// Reads "k", "ns::k", "::k", "axpy<float, 4>" or "&ns::axpy<float>".
std::optional<KernelQuery> parse_query(std::string_view text) {
    const Preprocessor preprocessor(text, kPreprocessorOptions);
    const TokenStream ts(preprocessor.tokens());
    std::optional<NameExpression> name = read_name_expression(ts.tokens);
    if (!name) return std::nullopt;
    KernelQuery query{std::move(*name), std::nullopt};
    const std::size_t i = query.end;
    if (i < ts.size() && is_punct(ts[i], "<")) {
        const std::size_t close = ts.closing_angle(i, ts.size());
        const std::size_t end = close == kNone ? ts.size() : close;
        query.template_arguments = render(std::vector<Token>(ts.tokens.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                                             ts.tokens.begin() + static_cast<std::ptrdiff_t>(end)));
    }
    return query;
}

// Keeps the explicit specialisation for the queried template arguments if there is one, else the
// primary template (whose parameter types are spelled with the template parameters).
void narrow_by_template_arguments(std::vector<KernelDeclaration>& declarations,
                                  const std::optional<std::string>& arguments) {
    const auto keep_if_any = [&](auto predicate) {
        std::vector<KernelDeclaration> kept;
        std::copy_if(declarations.begin(), declarations.end(), std::back_inserter(kept), predicate);
        if (!kept.empty()) declarations = std::move(kept);
    };
    if (arguments) {
        const auto exact = [&](const KernelDeclaration& d) { return d.template_arguments == *arguments; };
        if (std::any_of(declarations.begin(), declarations.end(), exact)) {
            keep_if_any(exact);
            return;
        }
    }
    keep_if_any([](const KernelDeclaration& d) { return d.template_arguments.empty(); });
}

}  // namespace

std::optional<std::vector<DeclaredParam>> parse_kernel_params(std::string_view source, std::string_view kernel_name) {
    const std::optional<KernelQuery> query = parse_query(kernel_name);
    if (!query) return std::nullopt;
    std::vector<KernelDeclaration> matches;
    for (KernelDeclaration& declaration : find_kernel_declarations(source)) {
        if (declaration.name == query->name && query->matches_scope(declaration.scope)) {
            matches.push_back(std::move(declaration));
        }
    }
    const std::vector<KernelDeclaration> same_name = matches;
    narrow_by_template_arguments(matches, query->template_arguments);
    if (matches.empty()) return std::nullopt;
    // Prototypes and the definition of one kernel agree up to qualifiers; anything else is an overload,
    // and without the argument types we cannot tell which one is launched.
    const auto same_signature = [&](const KernelDeclaration& d) { return d.signature == matches.front().signature; };
    if (!std::all_of(matches.begin(), matches.end(), same_signature)) return std::nullopt;

    const auto definition =
        std::find_if(matches.begin(), matches.end(), [](const KernelDeclaration& d) { return d.is_definition; });
    std::vector<DeclaredParam> params = (definition != matches.end() ? *definition : matches.front()).params;
    // A prototype may name a parameter the definition leaves unnamed, or the other way round; an
    // explicit instantiation (`template __global__ void k<float>(float*);`) takes the template's names.
    const auto fill_names_from = [&](const std::vector<KernelDeclaration>& others) {
        for (std::size_t p = 0; p < params.size(); ++p) {
            for (const KernelDeclaration& other : others) {
                if (!params[p].name.empty()) break;
                if (other.params.size() == params.size()) params[p].name = other.params[p].name;
            }
        }
    };
    fill_names_from(matches);
    fill_names_from(same_name);
    return params;
}

std::vector<DeclaredKernel> declared_kernels(std::string_view source) {
    std::vector<DeclaredKernel> kernels;
    std::vector<std::vector<std::string>> signatures;  // of the first declaration of each kernel
    for (const KernelDeclaration& declaration : find_kernel_declarations(source)) {
        std::string qualified;
        for (const auto& part : declaration.scope) qualified += part + "::";
        qualified += declaration.name;
        auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const DeclaredKernel& k) { return k.qualified_name == qualified; });
        if (it == kernels.end()) {
            kernels.push_back({declaration.name, qualified, declaration.is_template, false});
            signatures.push_back(declaration.signature);
            continue;
        }
        auto& signature = signatures[static_cast<std::size_t>(it - kernels.begin())];
        it->is_template = it->is_template || declaration.is_template;
        it->is_overloaded = it->is_overloaded || declaration.signature != signature;
    }
    return kernels;
}

std::vector<std::string> declared_kernel_names(std::string_view source) {
    std::vector<std::string> names;
    for (const KernelDeclaration& declaration : find_kernel_declarations(source)) {
        if (std::find(names.begin(), names.end(), declaration.name) == names.end()) {
            names.push_back(declaration.name);
        }
    }
    return names;
}

std::vector<std::string> declared_constant_names(std::string_view source) {
    const Preprocessor preprocessor(source, kPreprocessorOptions);
    const TokenStream ts(preprocessor.tokens());
    std::vector<std::string> names;
    auto take = [&names](std::string_view name) {
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
    };
    for (std::size_t i = 0; i < ts.size(); ++i) {
        if (!is_word(ts[i], "__constant__")) continue;
        // Each declarator's name: the last plain word before its '[', '=', '{', ',' or ';'.
        std::string_view name;
        bool named = false;  // this declarator's name is taken; skip to the next ',' or ';'
        for (std::size_t j = i + 1; j < ts.size() && j - i < kMaxDeclaratorScan; ++j) {
            const Token& token = ts[j];
            if (is_punct(token, ";")) {
                if (!named) take(name);
                i = j;
                break;
            }
            if (is_punct(token, ",")) {
                if (!named) take(name);
                name = {};
                named = false;
            } else if (is_punct(token, "[") || is_punct(token, "=") || is_punct(token, "{")) {
                if (!named) take(name);
                named = true;
            } else if (token.kind == TokenKind::identifier && !named && !contains(kReservedWords, token.text)) {
                name = token.text;
            }
            // A bracket group or template arguments is one unit: an initialiser's commas are not declarators.
            if (const std::size_t close = ts.closer(j, ts.size()); close != kNone) {
                j = close;
            } else if (const std::size_t angle = ts.closing_angle(j, ts.size()); angle != kNone && !named) {
                j = angle;
            }
        }
    }
    return names;
}

}  // namespace gpukit::detail
