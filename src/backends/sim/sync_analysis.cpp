// src/backends/sim/sync_analysis.cpp: finds, from the source text alone, which kernels may reach a barrier.
//
// Three stages. Each text is read by the preprocessor (source/preprocessor.hpp), without comments or
// literal contents; branches that are certainly not compiled are skipped, every #define is recorded
// and each #include leaves a '#' behind. A declaration reader splits each text into namespace- and
// class-scope declarations, each with the names it gives meaning to, the identifiers it mentions and
// whether it holds a call the analysis cannot resolve. A fixpoint then spreads "may synchronise" from
// the synchronising built-ins through mentions (sync_analysis.hpp lists the rules). The reader is
// tolerant, not exact: where it cannot tell, it errs towards more names, more mentions and "may
// synchronise". Bracket partners are matched once up front and every backward look is bounded, so
// malformed or truncated input stays roughly linear.
#include "backends/sim/sync_analysis.hpp"

#include "source/name_expression.hpp"
#include "source/preprocessor.hpp"
#include "source/token_stream.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace gpukit::detail::sim {
namespace {

// Namespace, linkage and class blocks are read recursively; a block nested deeper than this (only
// hostile input has one) is kept as one opaque declaration that counts as synchronising.
constexpr std::size_t kMaxNesting = 128;

// --- word lists ----------------------------------------------------------------------------------

// Identifiers whose mere mention makes code synchronising; is_synchronising_builtin adds the reserved
// `__...sync...` family so that intrinsics missing here still count.
// clang-format off
constexpr std::string_view kSynchronisingWords[] = {
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp", "__shfl_sync",
    "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync",
    "__activemask", "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
    "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync", "__shfl", "__shfl_up",
    "__shfl_down", "__shfl_xor", "__ballot", "__any", "__all", "cooperative_groups", "this_thread_block",
    "tiled_partition", "this_grid", "coalesced_threads", "this_multi_grid", "this_cluster", "labeled_partition",
    "binary_partition", "thread_block", "thread_block_tile", "thread_group", "grid_group", "multi_grid_group",
    "coalesced_group", "cluster_group", "arrive_and_wait", "arrive_and_drop", "asm", "__asm__", "__asm"};
// clang-format on

// C++ keywords and CUDA specifiers: never a declared name, never a user function being called.
// clang-format off
constexpr std::string_view kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept", "const",
    "consteval", "constexpr", "constinit", "const_cast", "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "final", "float", "for", "friend",
    "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "override", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
    "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "restrict", "__restrict",
    "__restrict__", "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
    "__forceinline__", "__noinline__", "__inline__", "__grid_constant__", "__launch_bounds__", "__cluster_dims__",
    "__maxnreg__", "__align__", "__attribute__", "__declspec", "__asm__", "__asm", "__int128", "__extension__",
    "__typeof__", "typeof", "_Pragma", "__pragma", "_Alignof", "__alignof__", "defined", "__has_include"};
// clang-format on

// Keywords that can stand where a type does: `float x` declares x, `(float)(x)` is a cast.
constexpr std::string_view kTypeKeywords[] = {
    "void",       "bool",         "char",     "char8_t", "char16_t", "char32_t", "wchar_t", "short",    "int",
    "long",       "signed",       "unsigned", "float",   "double",   "auto",     "const",   "volatile", "restrict",
    "__restrict", "__restrict__", "__int128", "struct",  "class",    "union",    "enum",    "typename"};

// Keywords whose parenthesised operand is no call: `if (x)`, `sizeof(T)`, `__attribute__((...))`.
// clang-format off
constexpr std::string_view kGroupKeywords[] = {
    "if", "while", "for", "switch", "catch", "sizeof", "alignof", "alignas", "decltype", "typeid", "noexcept",
    "static_assert", "__attribute__", "__declspec", "__launch_bounds__", "__cluster_dims__", "__maxnreg__",
    "__align__", "requires", "_Pragma", "__pragma", "defined", "__typeof__", "typeof", "_Alignof", "__alignof__",
    "asm", "__asm__", "__asm", "volatile", "throw", "static_cast", "const_cast", "reinterpret_cast", "dynamic_cast"};
// clang-format on

// Specifiers whose parenthesised argument belongs to them, not to a declarator.
constexpr std::string_view kAttributeWords[] = {"alignas",           "__attribute__",    "__declspec", "__align__",
                                                "__launch_bounds__", "__cluster_dims__", "__maxnreg__"};

// Words that may follow a function's parameter list; another word means the group was a macro call
// before the real name (`ATTR(2) void f()`).
constexpr std::string_view kPostDeclaratorWords[] = {"const",      "volatile", "noexcept", "throw",   "override",
                                                     "final",      "requires", "try",      "mutable", "__attribute__",
                                                     "__declspec", "asm",      "__asm__",  "__asm"};

constexpr std::string_view kClassKeys[] = {"struct", "class", "union", "enum"};

// Device-callable library functions that never synchronise. Names the texts define take precedence;
// a reserved `__` name that is not a synchronising one is taken as an intrinsic.
constexpr std::string_view kLibraryFunctions[] = {
    "min",     "max",     "umin",      "umax",      "llmin",         "llmax",    "ullmin",     "ullmax", "abs",
    "labs",    "llabs",   "printf",    "assert",    "malloc",        "free",     "memcpy",     "memset", "clock",
    "clock64", "lowest",  "infinity",  "quiet_NaN", "signaling_NaN", "epsilon",  "denorm_min", "move",   "forward",
    "swap",    "declval", "addressof", "launder",   "bit_cast",      "exchange", "clamp"};

// C math functions; the float (`sinf`) and long double (`sinl`) variants count too.
// clang-format off
constexpr std::string_view kMathFunctions[] = {
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp",
    "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "logb", "ilogb", "pow", "sqrt", "rsqrt", "cbrt",
    "rcbrt", "hypot", "rhypot", "norm", "norm3d", "norm4d", "rnorm", "rnorm3d", "rnorm4d", "fabs", "floor", "ceil",
    "round", "lround", "llround", "rint", "lrint", "llrint", "nearbyint", "trunc", "fmod", "remainder", "remquo",
    "modf", "frexp", "ldexp", "scalbn", "scalbln", "fmin", "fmax", "fdim", "fma", "copysign", "nextafter", "erf",
    "erfc", "erfinv", "erfcinv", "erfcx", "lgamma", "tgamma", "normcdf", "normcdfinv", "sincos", "sincospi", "sinpi",
    "cospi", "isnan", "isinf", "isfinite", "signbit", "nan", "j0", "j1", "jn", "y0", "y1", "yn", "cyl_bessel_i0",
    "cyl_bessel_i1", "fdivide"};
// clang-format on

// Library type names, for telling a cast `(size_t)(x)` from a call through a parenthesised expression.
constexpr std::string_view kLibraryTypes[] = {
    "size_t",   "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t", "int16_t", "int32_t",     "int64_t",     "uint8_t",
    "uint16_t", "uint32_t",  "uint64_t", "dim3",      "half",   "half2",   "nv_bfloat16", "nv_bfloat162"};

// CUDA vector types are these followed by 1 to 4: float4, uchar2.
constexpr std::string_view kVectorTypeBases[] = {"char", "uchar", "short",    "ushort",    "int",   "uint",
                                                 "long", "ulong", "longlong", "ulonglong", "float", "double"};

bool is_synchronising_builtin(std::string_view word) {
    if (contains(kSynchronisingWords, word)) return true;
    if (!word.starts_with("__")) return false;
    return word.find("sync") != std::string_view::npos || word.find("barrier") != std::string_view::npos ||
           word.starts_with("__shfl") || word.starts_with("__ballot") || word.starts_with("__match");
}

bool is_keyword(std::string_view word) { return contains(kKeywords, word); }

// Prefixes of device library families: atomics, make_float4, cuRAND, texture and surface fetches.
constexpr std::string_view kLibraryPrefixes[] = {"atomic",     "make_",  "curand", "tex1D",  "tex2D",      "tex3D",
                                                 "texCubemap", "surf1D", "surf2D", "surf3D", "surfCubemap"};

bool is_library_function(std::string_view word) {
    if (word.starts_with("__")) return true;
    if (std::any_of(std::begin(kLibraryPrefixes), std::end(kLibraryPrefixes),
                    [&](std::string_view prefix) { return word.starts_with(prefix); })) {
        return true;
    }
    if (contains(kLibraryFunctions, word) || contains(kMathFunctions, word)) return true;
    return word.size() > 1 && (word.back() == 'f' || word.back() == 'l') &&
           contains(kMathFunctions, word.substr(0, word.size() - 1));
}

bool is_library_type(std::string_view word) {
    if (contains(kLibraryTypes, word)) return true;
    if (word.size() < 2 || word.back() < '1' || word.back() > '4') return false;
    return contains(kVectorTypeBases, word.substr(0, word.size() - 1));
}

// --- preprocessor lines --------------------------------------------------------------------------

// Longest first. '>' stays single so `Vec<Vec<int>>` closes twice; the compound assignments are whole
// so a lone '=' always starts an initialiser.
constexpr std::string_view kMultiCharPuncts[] = {"<<=", "...", "->*", "::", "->", "<<", "<=", "==", "!=", "&&", "||",
                                                 "++",  "--",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*"};

// An #include leaves a '#' behind: inside a declaration it hides what the declaration holds.
constexpr PreprocessorOptions kPreprocessorOptions{.multi_char_puncts = kMultiCharPuncts, .include_markers = true};

bool is_name(const Token& token) { return is_identifier(token) && !is_keyword(token.text); }

using Macro = MacroDefinition;

// --- declarations --------------------------------------------------------------------------------

// Bits, so that one name can carry several kinds (a prototype and its definition).
enum Kind : unsigned {
    kKernel = 1u << 0,
    kFunction = 1u << 1,
    kClass = 1u << 2,
    kAlias = 1u << 3,
    kVariable = 1u << 4,
    kPrototype = 1u << 5,
    kMacro = 1u << 6,
    kMacroUse = 1u << 7,
};

struct TokenRange {
    std::size_t begin, end;
};

// One declaration, with what the fixpoint needs about it.
struct Definition {
    Kind kind = kVariable;
    const TokenStream* stream = nullptr;
    std::vector<TokenRange> ranges;                // its tokens: what it mentions, where its calls are
    std::vector<std::string_view> names;           // the names it gives meaning to
    std::vector<std::string_view> names_if_types;  // a free operator's parameter words, kept if they are types
    std::vector<std::size_t> declarator_tokens;    // its own name tokens: no mentions, no locals
    std::vector<std::string_view> local_names;     // a macro's parameters
    std::vector<std::size_t> member_initializers;  // '(' of `: v(x), w(y)` in a constructor: no calls
    bool scan_calls = true;
    bool incomplete = false;     // cut off by the end of its text or block
    std::size_t parent = kNone;  // the enclosing class, which runs whatever its members do
    // Kernels only.
    std::vector<std::string> scope;
    std::string_view kernel_name;
};

// Per declaration: the names it declares locally (parameters, locals, lambda parameters, a macro's
// parameters), and which of them only ever hold a lambda written in place.
class LocalNames {
public:
    LocalNames(const TokenStream& ts, const Definition& definition) {
        for (const std::string_view name : definition.local_names) names_[name].declared = true;
        const auto own = [&](std::size_t k) {
            return std::find(definition.declarator_tokens.begin(), definition.declarator_tokens.end(), k) !=
                   definition.declarator_tokens.end();
        };
        for (const TokenRange range : definition.ranges) {
            for (std::size_t k = range.begin; k < range.end; ++k) {
                if (!is_name(ts[k]) || own(k)) continue;
                const bool has_next = k + 1 < range.end;
                if (has_next && is_punct(ts[k + 1], "=")) {
                    State& state = names_[ts[k].text];
                    if (k + 2 < range.end && is_punct(ts[k + 2], "[")) {
                        state.lambda_assignments = true;
                    } else {
                        state.other_assignments = true;
                    }
                }
                if (!looks_declared(ts, k, range)) continue;
                State& state = names_[ts[k].text];
                state.declared = true;
                if (is_punct(ts[k + 1], "(") || is_punct(ts[k + 1], "{")) state.other_assignments = true;
            }
        }
    }

    bool declares(std::string_view name) const {
        const auto it = names_.find(name);
        return it != names_.end() && it->second.declared;
    }
    bool holds_only_lambdas(std::string_view name) const {
        const auto it = names_.find(name);
        return it != names_.end() && it->second.lambda_assignments && !it->second.other_assignments;
    }

private:
    struct State {
        bool declared = false;
        bool lambda_assignments = false;
        bool other_assignments = false;
    };

    static bool is_type_like(const Token& token) {
        return is_identifier(token) && (!is_keyword(token.text) || contains(kTypeKeywords, token.text));
    }

    // `float x`, `Op op)`, `Vec<T> v =`, `T* p;`, `auto& r =`, `(*fp)`: a name after a type and before
    // what may follow a declarator. Products (`a * f(x)`) are left out; other false positives only make
    // more calls count as unresolved.
    static bool looks_declared(const TokenStream& ts, std::size_t k, TokenRange range) {
        if (k == range.begin || k + 1 >= range.end) return false;
        const Token& prev = ts[k - 1];
        const Token& next = ts[k + 1];
        const bool before_declarator_end = is_punct(next, "=") || is_punct(next, ";") || is_punct(next, ",") ||
                                           is_punct(next, ")") || is_punct(next, "[") || is_punct(next, "{") ||
                                           is_punct(next, ":");
        if (is_type_like(prev) || is_punct(prev, ">")) return before_declarator_end || is_punct(next, "(");
        if (!(is_punct(prev, "*") || is_punct(prev, "&") || is_punct(prev, "&&")) || k < range.begin + 2) return false;
        const Token& before = ts[k - 2];
        if (is_punct(before, "(") && is_punct(next, ")")) return true;
        return before_declarator_end &&
               (is_type_like(before) || is_punct(before, ">") || is_punct(before, "*") || is_punct(before, "&"));
    }

    std::unordered_map<std::string_view, State> names_;
};

// What the texts define, for resolving calls.
struct Knowledge {
    std::unordered_map<std::string_view, unsigned> kinds;  // Kind bits per name
    std::unordered_set<std::string_view> type_names;       // classes, aliases, template type parameters

    bool is_type(std::string_view word) const {
        return contains(kTypeKeywords, word) || is_library_type(word) || type_names.count(word) > 0;
    }

    // A call of `name` is resolved when the mention of `name` already accounts for what it runs.
    bool resolves(std::string_view name) const {
        if (is_synchronising_builtin(name)) return true;
        if (const auto it = kinds.find(name); it != kinds.end()) {
            // A variable holds a function pointer or functor set at run time; anything else is defined
            // here, or declared only and then itself counted as synchronising.
            return (it->second & kVariable) == 0;
        }
        return is_library_function(name) || is_type(name);
    }
};

enum class Call { none, resolved, unresolved };

// Tokens of a C-style cast's parentheses: `(float)`, `(const T*)`, `(unsigned long long)`.
bool is_cast(const TokenStream& ts, std::size_t begin, std::size_t end, const Knowledge& knowledge) {
    if (begin >= end) return false;
    for (std::size_t k = begin; k < end; ++k) {
        const Token& t = ts[k];
        if (is_identifier(t)) {
            if (!knowledge.is_type(t.text)) return false;
        } else if (t.kind == TokenKind::punct) {
            if (!(t.text == "*" || t.text == "&" || t.text == "&&" || t.text == "::" || t.text == "<" ||
                  t.text == ">" || t.text == ",")) {
                return false;
            }
        } else if (t.kind != TokenKind::number) {
            return false;
        }
    }
    return true;
}

Call classify_named_call(const TokenStream& ts, std::size_t name, std::size_t begin, const Knowledge& knowledge,
                         const LocalNames& locals) {
    const std::string_view word = ts[name].text;
    if (is_keyword(word)) return Call::none;  // `if (`, `sizeof(`, `float(x)`, the symbol group of `operator()`
    const bool member = name > begin && (is_punct(ts[name - 1], ".") || is_punct(ts[name - 1], "->"));
    const bool qualified = name > begin && is_punct(ts[name - 1], "::");
    if (!member && !qualified && locals.declares(word)) {
        return locals.holds_only_lambdas(word) ? Call::resolved : Call::unresolved;
    }
    return knowledge.resolves(word) ? Call::resolved : Call::unresolved;
}

// What the '(' at `open` is: no call, a call whose callee the mentions account for, or a call the
// analysis cannot resolve (see sync_analysis.hpp).
Call classify_call(const TokenStream& ts, std::size_t open, std::size_t begin, const Knowledge& knowledge,
                   const LocalNames& locals) {
    if (open <= begin) return Call::none;
    const std::size_t p = open - 1;
    const Token& prev = ts[p];
    const auto named = [&](std::size_t name) { return classify_named_call(ts, name, begin, knowledge, locals); };
    const auto operator_call = [&] { return knowledge.resolves("operator") ? Call::resolved : Call::unresolved; };
    if (is_identifier(prev)) return named(p);
    if (is_punct(prev, ">")) {
        const std::size_t lt = ts.opening_angle(p, begin);
        if (lt == kNone || lt == begin || !is_identifier(ts[lt - 1])) return Call::none;  // a comparison
        return named(lt - 1);  // `f<T>(x)`; keywords (`static_cast<T>(x)`) are no call
    }
    if (is_punct(prev, ")")) {
        const std::size_t o = ts.opener(p, begin);
        if (o == kNone) return Call::unresolved;
        if (o > begin) {
            const Token& before = ts[o - 1];
            if (is_word(before, "operator")) return operator_call();  // `x.operator()(y)`
            if (is_identifier(before)) {
                if (contains(kGroupKeywords, before.text)) return Call::none;  // `if (c) (x)...`
                if (!is_keyword(before.text)) return Call::unresolved;         // `f(x)(y)`
            } else if (is_punct(before, ">") || is_punct(before, "]") || is_punct(before, ")")) {
                return Call::unresolved;  // the result of a call or subscript, called
            }
        }
        return is_cast(ts, o + 1, p, knowledge) ? Call::resolved : Call::unresolved;  // `(float)(x)` vs `(*fp)(x)`
    }
    if (is_punct(prev, "]")) {
        const std::size_t o = ts.opener(p, begin);
        if (o == kNone) return Call::unresolved;
        if (o == begin) return Call::none;
        const Token& before = ts[o - 1];
        if (is_word(before, "operator")) return operator_call();
        const bool subscript = is_name(before) || is_punct(before, ")") || is_punct(before, "]");
        return subscript ? Call::unresolved : Call::none;  // `a[i](x)` versus a lambda's `[&](int i)`
    }
    if (is_punct(prev, "}")) {
        const std::size_t o = ts.opener(p, begin);
        if (o == kNone || o == begin) return Call::none;
        const Token& before = ts[o - 1];
        if (is_name(before)) return named(o - 1);  // `Functor{}(x)`
        if (is_punct(before, ">")) {
            const std::size_t lt = ts.opening_angle(o - 1, begin);
            if (lt != kNone && lt > begin && is_identifier(ts[lt - 1])) return named(lt - 1);
        }
        return Call::none;  // a lambda called in place (its body is part of this declaration), or a block
    }
    return Call::none;
}

bool has_unresolved_call(const Definition& definition, const Knowledge& knowledge) {
    const TokenStream& ts = *definition.stream;
    const LocalNames locals(ts, definition);
    const auto& initializers = definition.member_initializers;
    for (const TokenRange range : definition.ranges) {
        for (std::size_t k = range.begin; k < range.end; ++k) {
            if (!is_punct(ts[k], "(") || std::find(initializers.begin(), initializers.end(), k) != initializers.end()) {
                continue;
            }
            if (classify_call(ts, k, range.begin, knowledge, locals) == Call::unresolved) return true;
        }
    }
    return false;
}

// The names a variable-like declaration introduces: per comma-separated declarator, the last plain
// identifier before its initialiser, bit-field width or array bounds, plus the names inside a
// parenthesised declarator (`(*fp)`, `(&table)[4]`). Template arguments, attributes and class tags are
// skipped. A name missed here is only ever called through, which counts as unresolved anyway.
void variable_names(const TokenStream& ts, std::size_t begin, std::size_t end, std::vector<std::string_view>& out) {
    std::size_t last = kNone;
    bool in_declarator = true;
    const auto flush = [&] {
        if (last != kNone) out.push_back(ts[last].text);
        last = kNone;
    };
    for (std::size_t k = begin; k < end; ++k) {
        const Token& t = ts[k];
        const std::size_t close = ts.closer(k, end);
        if (is_punct(t, ",")) {
            flush();
            in_declarator = true;
            continue;
        }
        if (!in_declarator) {
            if (close != kNone) k = close;
            continue;
        }
        if (is_punct(t, "<")) {
            if (const std::size_t gt = ts.closing_angle(k, end); gt != kNone) k = gt;
            continue;
        }
        if (is_punct(t, "[") && k + 1 < end && is_punct(ts[k + 1], "[")) {  // [[attribute]]
            if (close != kNone) k = close;
            continue;
        }
        if (is_punct(t, "=") || is_punct(t, ":") || is_punct(t, "{") || is_punct(t, "[") || is_punct(t, ";")) {
            flush();
            in_declarator = false;
            if (close != kNone) k = close;
            continue;
        }
        if (is_punct(t, "(")) {
            if (close == kNone) break;
            const bool attribute = k > begin && is_identifier(ts[k - 1]) && contains(kAttributeWords, ts[k - 1].text);
            const Token& first = ts[k + 1];
            const bool declarator =
                !attribute && (is_punct(first, "*") || is_punct(first, "&") || is_punct(first, "&&") ||
                               std::any_of(ts.tokens.begin() + static_cast<std::ptrdiff_t>(k + 1),
                                           ts.tokens.begin() + static_cast<std::ptrdiff_t>(close),
                                           [](const Token& inner) { return is_punct(inner, "::*"); }));
            if (declarator) {
                for (std::size_t inner = k + 1; inner < close; ++inner) {
                    if (is_name(ts[inner])) out.push_back(ts[inner].text);
                }
            }
            k = close;
            continue;
        }
        if (is_name(t) && !(k > begin && is_identifier(ts[k - 1]) && contains(kClassKeys, ts[k - 1].text))) last = k;
    }
    flush();
}

struct Candidate {
    std::size_t name;  // the name token (`operator` for operators)
    std::size_t open;  // its parameter list
    std::size_t close;
    bool declarator;  // followed by what may follow a declarator, not by more of the declaration
};

// Splits token streams into declarations and records each as a Definition.
class Reader {
public:
    Reader(const std::unordered_map<std::string_view, std::vector<const Macro*>>& macros,
           const std::unordered_set<std::string_view>& global_aliases, std::vector<Definition>& out,
           std::unordered_set<std::string_view>& template_types)
        : macros_(macros), global_aliases_(global_aliases), out_(out), template_types_(template_types) {}

    void read(const TokenStream& ts) {
        std::vector<std::string> scope;
        read_scope(ts, 0, ts.size(), scope, 0, kNone);
    }

private:
    // Declarations between begin and end, at namespace scope (class_depth 0) or in a class body.
    void read_scope(const TokenStream& ts, std::size_t begin, std::size_t end, std::vector<std::string>& scope,
                    std::size_t class_depth, std::size_t parent) {
        std::size_t i = begin;
        while (i < end) {
            const Token& t = ts[i];
            // Stray closers come from conditionals whose branches were all kept.
            if (is_punct(t, ";") || is_punct(t, "}") || is_punct(t, ")") || is_punct(t, "]")) {
                ++i;
                continue;
            }
            if (is_punct(t, "#")) {  // an #include: harmless between declarations, not inside a class
                if (class_depth > 0) record_opaque(ts, i, i + 1, parent);
                ++i;
                continue;
            }
            if (const std::size_t after = read_namespace_block(ts, i, end, scope, class_depth); after != kNone) {
                i = after;
                continue;
            }
            if (is_word(t, "extern") && i + 2 < end && ts[i + 1].kind == TokenKind::literal &&
                is_punct(ts[i + 2], "{")) {  // extern "C" { ... }
                const std::size_t close = ts.closer(i + 2, end);
                read_block(ts, i, i + 3, close == kNone ? end : close, scope, class_depth, parent);
                i = close == kNone ? end : close + 1;
                continue;
            }
            if (class_depth > 0 && i + 1 < end && is_punct(ts[i + 1], ":") &&
                (is_word(t, "public") || is_word(t, "private") || is_word(t, "protected"))) {
                i += 2;
                continue;
            }
            bool cut = false;
            if (const std::size_t length = declaring_macro_use(ts, i, end, cut); length > 0) {
                record_macro_use(ts, i, i + length, cut, parent);
                i += length;
                continue;
            }
            i = std::max(read_declaration(ts, i, end, scope, class_depth, parent), i + 1);
        }
    }

    // `namespace a::b {`, `inline namespace v1 {`, `namespace {`: reads the block and returns the index
    // after it; kNone for anything else (`namespace cg = cooperative_groups;` is an alias declaration).
    std::size_t read_namespace_block(const TokenStream& ts, std::size_t i, std::size_t end,
                                     std::vector<std::string>& scope, std::size_t class_depth) {
        std::size_t j = i;
        if (is_word(ts[j], "inline") && j + 1 < end) ++j;
        if (!is_word(ts[j], "namespace")) return kNone;
        std::vector<std::string> names;
        for (++j; j < end; ++j) {
            if (const std::size_t close = ts.closer(j, end); close != kNone && is_punct(ts[j], "[")) {
                j = close;  // [[deprecated]]
            } else if (is_identifier(ts[j])) {
                if (!is_word(ts[j], "inline")) names.emplace_back(ts[j].text);
            } else if (!is_punct(ts[j], "::")) {
                break;
            }
        }
        if (j >= end || !is_punct(ts[j], "{")) return kNone;
        const std::size_t close = ts.closer(j, end);
        const std::size_t outer = scope.size();
        scope.insert(scope.end(), names.begin(), names.end());
        read_block(ts, i, j + 1, close == kNone ? end : close, scope, class_depth, kNone);
        scope.resize(outer);
        return close == kNone ? end : close + 1;
    }

    // The declarations of a nested block (`head` starts it, [begin, end) is inside its braces).
    void read_block(const TokenStream& ts, std::size_t head, std::size_t begin, std::size_t end,
                    std::vector<std::string>& scope, std::size_t class_depth, std::size_t parent) {
        if (nesting_ >= kMaxNesting) {
            record_opaque(ts, head, end, parent);
            return;
        }
        ++nesting_;
        read_scope(ts, begin, end, scope, class_depth, parent);
        --nesting_;
    }

    // The length of an invocation at i of a macro whose replacement holds whole declarations (it has a
    // '{', '}' or ';'), which then stands as a declaration of its own; 0 otherwise. `cut` tells that its
    // argument list runs to the end.
    std::size_t declaring_macro_use(const TokenStream& ts, std::size_t i, std::size_t end, bool& cut) const {
        if (!is_identifier(ts[i])) return 0;
        const auto it = macros_.find(ts[i].text);
        if (it == macros_.end()) return 0;
        bool declares = false;
        bool function_like = false;
        bool object_like = false;
        for (const Macro* macro : it->second) {
            declares =
                declares || std::any_of(macro->replacement.begin(), macro->replacement.end(), [](const Token& t) {
                    return is_punct(t, "{") || is_punct(t, "}") || is_punct(t, ";");
                });
            (macro->function_like ? function_like : object_like) = true;
        }
        if (!declares) return 0;
        if (function_like && i + 1 < end && is_punct(ts[i + 1], "(")) {
            const std::size_t close = ts.closer(i + 1, end);
            cut = close == kNone;
            return cut ? end - i : close + 1 - i;
        }
        return object_like ? 1 : 0;
    }

    // A macro invocation that defines things: it defines the names passed to it and the names its
    // replacement spells outside braces, and those may synchronise if the macro or its arguments may.
    void record_macro_use(const TokenStream& ts, std::size_t begin, std::size_t end, bool cut, std::size_t parent) {
        Definition definition;
        definition.kind = kMacroUse;
        definition.stream = &ts;
        definition.ranges = {{begin, end}};
        definition.parent = parent;
        definition.incomplete = cut;
        for (std::size_t k = begin + 1; k < end; ++k) {
            if (is_name(ts[k])) definition.names.push_back(ts[k].text);
        }
        for (const Macro* macro : macros_.at(ts[begin].text)) {
            int depth = 0;
            for (const Token& t : macro->replacement) {
                if (is_punct(t, "{")) ++depth;
                if (is_punct(t, "}")) --depth;
                const bool parameter =
                    std::find(macro->parameters.begin(), macro->parameters.end(), t.text) != macro->parameters.end();
                if (depth <= 0 && is_name(t) && !parameter) definition.names.push_back(t.text);
            }
        }
        out_.push_back(std::move(definition));
    }

    // Code the reader cannot see into (members an #include brings into a class body, a block nested too
    // deep): it may synchronise, and so may the class holding it.
    void record_opaque(const TokenStream& ts, std::size_t begin, std::size_t end, std::size_t parent) {
        Definition definition;
        definition.stream = &ts;
        definition.ranges = {{begin, end}};
        definition.incomplete = true;
        definition.scan_calls = false;
        definition.parent = parent;
        out_.push_back(std::move(definition));
    }

    // Type parameters of a template header between begin and end: `typename T`, `class U`.
    void note_template_parameters(const TokenStream& ts, std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k + 1 < end; ++k) {
            if (!(is_word(ts[k], "typename") || is_word(ts[k], "class"))) continue;
            std::size_t name = k + 1;
            if (is_punct(ts[name], "...") && name + 1 < end) ++name;
            if (is_name(ts[name])) template_types_.insert(ts[name].text);
        }
    }

    // The name of the function whose parameter list opens at `open`, or kNone: `f(`, `f<T>(`,
    // `operator+(`, `operator()(`. Keywords never name one.
    static std::size_t function_name_before(const TokenStream& ts, std::size_t open, std::size_t head) {
        if (open <= head) return kNone;
        for (std::size_t d = 1; d <= 4 && open >= head + d; ++d) {
            const Token& t = ts[open - d];
            if (is_word(t, "operator")) return d == 1 ? kNone : open - d;  // right after it: the `()` symbol
            if (is_punct(t, ";") || is_punct(t, "{") || is_punct(t, "}")) break;
        }
        const Token& prev = ts[open - 1];
        if (is_identifier(prev)) return is_keyword(prev.text) ? kNone : open - 1;
        if (const std::size_t lt = ts.opening_angle(open - 1, head); lt != kNone && lt > head && is_name(ts[lt - 1])) {
            return lt - 1;
        }
        return kNone;
    }

    // `A<T>::B::name`: the qualifiers written before the name token, outermost first.
    static std::vector<std::string_view> qualifiers_of(const TokenStream& ts, std::size_t name, std::size_t head) {
        std::vector<std::string_view> qualifiers;
        std::size_t q = name;
        if (q > head && is_punct(ts[q - 1], "~")) --q;  // a destructor
        while (q >= head + 2 && is_punct(ts[q - 1], "::")) {
            std::size_t prev = q - 2;
            if (const std::size_t lt = ts.opening_angle(prev, head); lt != kNone) {
                if (lt == head) break;
                prev = lt - 1;
            }
            if (!is_name(ts[prev])) break;
            qualifiers.push_back(ts[prev].text);
            q = prev;
        }
        std::reverse(qualifiers.begin(), qualifiers.end());
        return qualifiers;
    }

    bool is_global_word(const Token& t) const {
        return is_word(t, "__global__") || (is_identifier(t) && global_aliases_.count(t.text) > 0);
    }

    bool is_macro(std::string_view word) const { return macros_.count(word) > 0; }

    // Reads the declaration starting at `start` and returns the index after it.
    std::size_t read_declaration(const TokenStream& ts, std::size_t start, std::size_t end,
                                 const std::vector<std::string>& scope, std::size_t class_depth, std::size_t parent) {
        std::size_t head = start;
        while (head < end && is_word(ts[head], "template")) {
            const std::size_t gt = head + 1 < end ? ts.closing_angle(head + 1, end) : kNone;
            if (gt == kNone) {
                ++head;  // an explicit instantiation (`template __global__ void k<float>(float*);`)
                break;
            }
            note_template_parameters(ts, head + 2, gt);
            head = gt + 1;
        }
        const bool alias = head < end && (is_word(ts[head], "typedef") || is_word(ts[head], "using") ||
                                          is_word(ts[head], "namespace"));

        std::vector<Candidate> candidates;
        std::vector<std::size_t> member_initializers;
        const auto has_declarator = [&] {
            return std::any_of(candidates.begin(), candidates.end(), [](const Candidate& c) { return c.declarator; });
        };
        std::size_t class_key = kNone;
        std::size_t class_open = kNone;
        std::size_t class_close = kNone;
        std::size_t body_open = kNone;
        bool after_equals = false;
        bool ctor_initializer = false;
        bool function_try = false;
        bool incomplete = false;
        bool stopped = false;  // at its ';', at its body's end, or at an enclosing '}'
        std::size_t decl_end = end;
        for (std::size_t k = head; k < end; ++k) {
            const Token& t = ts[k];
            if (is_punct(t, ";")) {
                decl_end = k + 1;
                stopped = true;
                break;
            }
            if (is_punct(t, "}")) {  // closes an enclosing block: this declaration lacked its ';'
                decl_end = k;
                stopped = true;
                break;
            }
            if (is_identifier(t)) {
                if (class_key == kNone && !after_equals && contains(kClassKeys, t.text)) class_key = k;
                if (is_word(t, "try") && has_declarator()) function_try = true;
                continue;
            }
            if (is_punct(t, "=")) {
                after_equals = true;
                continue;
            }
            if (is_punct(t, ":") && !after_equals && has_declarator()) {
                ctor_initializer = true;
                continue;
            }
            if (is_punct(t, "(") || is_punct(t, "[")) {
                const std::size_t close = ts.closer(k, end);
                if (close == kNone) {
                    incomplete = true;
                    break;
                }
                // `: v(x), w(y)` initialises members (a base class is a type and resolves anyway).
                if (is_punct(t, "(") && ctor_initializer && is_name(ts[k - 1]) &&
                    (is_punct(ts[k - 2], ":") || is_punct(ts[k - 2], ","))) {
                    member_initializers.push_back(k);
                }
                if (is_punct(t, "(") && !after_equals && !ctor_initializer) {
                    if (const std::size_t name = function_name_before(ts, k, head); name != kNone) {
                        const bool more =
                            close + 1 < end &&
                            ((is_identifier(ts[close + 1]) && !contains(kPostDeclaratorWords, ts[close + 1].text)) ||
                             is_punct(ts[close + 1], "::"));
                        candidates.push_back({name, k, close, !more});
                    }
                }
                k = close;
                continue;
            }
            if (is_punct(t, "{")) {
                const std::size_t close = ts.closer(k, end);
                // In `Foo() : a(1), b{2} {` only the last brace opens the body.
                const bool member_init = ctor_initializer && (is_name(ts[k - 1]) || is_punct(ts[k - 1], ">"));
                const bool body = !after_equals && has_declarator() && !member_init;
                const bool class_body = !after_equals && !body && class_key != kNone && class_open == kNone;
                if (body) body_open = k;
                if (class_body) class_open = k;
                if (close == kNone) {
                    incomplete = true;
                    if (class_body) class_close = end;
                    break;
                }
                if (class_body) class_close = close;
                if (body) {
                    decl_end = close + 1;
                    // A function-try-block's handlers: `} catch (...) { ... }`.
                    while (function_try && decl_end + 2 < end && is_word(ts[decl_end], "catch")) {
                        const std::size_t params_close = ts.closer(decl_end + 1, end);
                        if (params_close == kNone || params_close + 1 >= end) break;
                        const std::size_t handler_close = ts.closer(params_close + 1, end);
                        if (handler_close == kNone) break;
                        decl_end = handler_close + 1;
                    }
                    stopped = true;
                    break;
                }
                k = close;
            }
        }
        // Cut off by the end of its text or block, or by an unmatched bracket: what it would have defined is
        // unknown. (Stopping at an enclosing '}' is a missing ';', not a cut.)
        if (!stopped) incomplete = true;
        if (incomplete) decl_end = end;

        Definition definition;
        definition.stream = &ts;
        definition.ranges = {{start, decl_end}};
        definition.incomplete = incomplete;
        definition.parent = parent;
        definition.member_initializers = std::move(member_initializers);

        // Candidates that are known macros are invocations before the real name, unless nothing else is.
        std::vector<Candidate> named;
        std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(named),
                     [&](const Candidate& c) { return !is_macro(ts[c.name].text); });
        if (named.empty()) named = candidates;

        if (body_open != kNone) {
            definition.kind = kFunction;
            std::size_t declarator = named.back().name;
            for (const Candidate& c : named) {
                if (c.declarator && c.open < body_open) declarator = c.name;
            }
            for (const Candidate& c : named) {
                definition.names.push_back(ts[c.name].text);
                definition.declarator_tokens.push_back(c.name);
                const std::vector<std::string_view> qualifiers = qualifiers_of(ts, c.name, head);
                // A member defined outside its class (`Foo::operator()`) belongs to the class too.
                if (!qualifiers.empty()) definition.names.push_back(qualifiers.back());
                if (qualifiers.empty() && class_depth == 0 && is_word(ts[c.name], "operator")) {
                    for (std::size_t k = c.open + 1; k < c.close; ++k) {
                        if (is_name(ts[k])) definition.names_if_types.push_back(ts[k].text);
                    }
                }
            }
            const bool kernel = std::any_of(ts.tokens.begin() + static_cast<std::ptrdiff_t>(start),
                                            ts.tokens.begin() + static_cast<std::ptrdiff_t>(body_open),
                                            [&](const Token& t) { return is_global_word(t); });
            if (kernel) {
                definition.kind = kKernel;
                definition.kernel_name = ts[declarator].text;
                definition.scope = scope;
                for (const std::string_view q : qualifiers_of(ts, declarator, head)) definition.scope.emplace_back(q);
            }
            out_.push_back(std::move(definition));
            return decl_end;
        }

        if (class_open != kNone) {
            definition.kind = kClass;
            const bool is_enum = is_word(ts[class_key], "enum");
            std::size_t tag = kNone;
            std::size_t k = class_key + 1;
            if (is_enum && k < class_open && (is_word(ts[k], "class") || is_word(ts[k], "struct"))) ++k;
            for (; k < class_open; ++k) {
                if (const std::size_t close = ts.closer(k, class_open); close != kNone) {
                    k = close;  // alignas(16), [[attribute]]
                    continue;
                }
                if (is_punct(ts[k], ":") || is_punct(ts[k], "<")) break;
                if (is_name(ts[k])) tag = k;
            }
            if (tag != kNone) {
                definition.names.push_back(ts[tag].text);
                template_types_.insert(ts[tag].text);
            }
            if (class_close < decl_end) variable_names(ts, class_close + 1, decl_end, definition.names);
            const bool read_members = !is_enum;
            if (read_members) {
                // The members are declarations of their own and pass their verdicts up through `parent`.
                definition.ranges = {{start, class_open + 1}, {std::min(class_close, decl_end), decl_end}};
                definition.scan_calls = false;
            }
            const std::size_t index = out_.size();
            out_.push_back(std::move(definition));
            if (read_members) {
                std::vector<std::string> member_scope = scope;
                read_block(ts, class_open, class_open + 1, class_close, member_scope, class_depth + 1, index);
            }
            return decl_end;
        }

        if (alias) {
            definition.kind = kAlias;
            variable_names(ts, head + 1, decl_end, definition.names);
            for (const std::string_view name : definition.names) template_types_.insert(name);
        } else if (!candidates.empty()) {
            // A prototype, or a direct-initialised variable (`Foo x(3);`) that reads the same.
            // `= default` and `= delete` hide no body.
            const bool defaulted = decl_end >= start + 3 && is_punct(ts[decl_end - 3], "=") &&
                                   (is_word(ts[decl_end - 2], "default") || is_word(ts[decl_end - 2], "delete"));
            definition.kind = defaulted ? kFunction : kPrototype;
            for (const Candidate& c : named) {
                definition.names.push_back(ts[c.name].text);
                definition.declarator_tokens.push_back(c.name);
            }
        } else {
            // Forward declarations (`struct S;`) name nothing; tags are skipped by variable_names.
            definition.kind = kVariable;
            variable_names(ts, head, decl_end, definition.names);
        }
        out_.push_back(std::move(definition));
        return decl_end;
    }

    const std::unordered_map<std::string_view, std::vector<const Macro*>>& macros_;
    const std::unordered_set<std::string_view>& global_aliases_;
    std::vector<Definition>& out_;
    std::unordered_set<std::string_view>& template_types_;
    std::size_t nesting_ = 0;  // blocks being read
};

// --- the fixpoint --------------------------------------------------------------------------------

class Analysis {
public:
    explicit Analysis(const std::vector<std::string_view>& texts) {
        std::vector<const TokenStream*> text_streams;
        for (const std::string_view text : texts) {
            const Preprocessor& preprocessed = preprocessed_.emplace_back(text, kPreprocessorOptions);
            macros_.insert(macros_.end(), preprocessed.macros().begin(), preprocessed.macros().end());
            text_streams.push_back(&streams_.emplace_back(preprocessed.tokens()));
        }
        for (const Macro& macro : macros_) macros_by_name_[macro.name].push_back(&macro);
        find_global_aliases();
        for (const Macro& macro : macros_) {
            Definition definition;
            definition.kind = kMacro;
            definition.stream = &streams_.emplace_back(macro.replacement);
            definition.ranges = {{0, definition.stream->size()}};
            definition.names = {macro.name};
            // A parameter called in the replacement is whatever the invocation passes: unresolved.
            definition.local_names = macro.parameters;
            definitions_.push_back(std::move(definition));
        }
        Reader reader(macros_by_name_, global_aliases_, definitions_, knowledge_.type_names);
        for (const TokenStream* stream : text_streams) reader.read(*stream);
        solve();
    }

    struct KernelResult {
        const std::vector<std::string>* scope;
        std::string_view name;
        bool may_synchronise;
    };

    std::vector<KernelResult> kernels() const {
        std::vector<KernelResult> kernels;
        for (std::size_t d = 0; d < definitions_.size(); ++d) {
            const Definition& definition = definitions_[d];
            if (definition.kind == kKernel) {
                kernels.push_back({&definition.scope, definition.kernel_name, synchronising_[d] != 0});
            }
        }
        return kernels;
    }

    std::vector<std::string_view> synchronising_names() const {
        std::vector<std::string_view> names;
        for (const auto& [name, id] : ids_) {
            if (name_synchronises_[id]) names.push_back(name);
        }
        return names;
    }

private:
    // Object-like macros that expand to __global__, directly or through each other.
    void find_global_aliases() {
        bool changed = true;
        while (changed) {
            changed = false;
            for (const Macro& macro : macros_) {
                if (macro.function_like || global_aliases_.count(macro.name) > 0) continue;
                const bool names_global =
                    std::any_of(macro.replacement.begin(), macro.replacement.end(), [&](const Token& t) {
                        return is_word(t, "__global__") || (is_identifier(t) && global_aliases_.count(t.text) > 0);
                    });
                if (names_global) {
                    global_aliases_.insert(macro.name);
                    changed = true;
                }
            }
        }
    }

    // An #include inside a declaration (`{` then `#include "body.inc"`) hides what it holds. A macro's
    // '#' is stringizing, not an include.
    static bool includes_text(const Definition& definition) {
        if (definition.kind == kMacro) return false;
        const TokenStream& ts = *definition.stream;
        return std::any_of(definition.ranges.begin(), definition.ranges.end(), [&](TokenRange range) {
            for (std::size_t k = range.begin; k < range.end; ++k) {
                if (is_punct(ts[k], "#")) return true;
            }
            return false;
        });
    }

    std::size_t intern(std::string_view name) {
        const auto [it, inserted] = ids_.emplace(name, mentioned_by_.size());
        if (inserted) {
            mentioned_by_.emplace_back();
            defined_by_.emplace_back();
            name_synchronises_.push_back(0);
        }
        return it->second;
    }

    void mark_definition(std::size_t d) {
        if (synchronising_[d]) return;
        synchronising_[d] = 1;
        definition_queue_.push_back(d);
    }
    void mark_name(std::size_t id) {
        if (name_synchronises_[id]) return;
        name_synchronises_[id] = 1;
        name_queue_.push_back(id);
    }
    void propagate() {
        while (!definition_queue_.empty() || !name_queue_.empty()) {
            if (!definition_queue_.empty()) {
                const std::size_t d = definition_queue_.back();
                definition_queue_.pop_back();
                for (const std::size_t id : name_ids_[d]) mark_name(id);
                if (definitions_[d].parent != kNone) mark_definition(definitions_[d].parent);
            } else {
                const std::size_t id = name_queue_.back();
                name_queue_.pop_back();
                for (const std::size_t d : mentioned_by_[id]) mark_definition(d);
            }
        }
    }

    void solve() {
        for (const Definition& definition : definitions_) {
            for (const std::string_view name : definition.names) knowledge_.kinds[name] |= definition.kind;
        }
        for (Definition& definition : definitions_) {
            for (const std::string_view word : definition.names_if_types) {
                const auto it = knowledge_.kinds.find(word);
                if (it != knowledge_.kinds.end() && (it->second & (kClass | kAlias)) != 0)
                    definition.names.push_back(word);
            }
        }
        for (const auto& [name, kinds] : knowledge_.kinds) {
            if (kinds & kClass) knowledge_.type_names.insert(name);
        }

        const std::size_t count = definitions_.size();
        synchronising_.assign(count, 0);
        name_ids_.resize(count);
        std::vector<char> unresolved(count, 0);
        for (std::size_t d = 0; d < count; ++d) {
            const Definition& definition = definitions_[d];
            for (const std::string_view name : definition.names) {
                const std::size_t id = intern(name);
                name_ids_[d].push_back(id);
                defined_by_[id].push_back(d);
            }
            // A declarator is no use of its name: so `a::k` and `b::k` are judged apart, and one
            // synchronising operator does not make every other operator synchronise.
            const auto& own = definition.declarator_tokens;
            std::vector<std::size_t> mentions;
            const TokenStream& ts = *definition.stream;
            for (const TokenRange range : definition.ranges) {
                for (std::size_t k = range.begin; k < range.end; ++k) {
                    if (!is_identifier(ts[k]) || std::find(own.begin(), own.end(), k) != own.end()) continue;
                    // Keywords mean nothing to the fixpoint, except `asm` and `operator` (all operators share it).
                    if (is_keyword(ts[k].text) && !is_synchronising_builtin(ts[k].text) && ts[k].text != "operator") {
                        continue;
                    }
                    mentions.push_back(intern(ts[k].text));
                }
            }
            std::sort(mentions.begin(), mentions.end());
            mentions.erase(std::unique(mentions.begin(), mentions.end()), mentions.end());
            for (const std::size_t id : mentions) mentioned_by_[id].push_back(d);
            if (definition.scan_calls) unresolved[d] = has_unresolved_call(definition, knowledge_) ? 1 : 0;
        }

        // Seeds: the built-ins; declarations cut off; names declared but defined nowhere (unknown body).
        for (const auto& [name, id] : ids_) {
            if (is_synchronising_builtin(name)) mark_name(id);
        }
        for (std::size_t d = 0; d < count; ++d) {
            if (definitions_[d].incomplete || includes_text(definitions_[d])) mark_definition(d);
        }
        for (const auto& [name, kinds] : knowledge_.kinds) {
            if (kinds != kPrototype || is_library_function(name) || knowledge_.is_type(name)) continue;
            for (const std::size_t d : defined_by_[ids_.at(name)]) mark_definition(d);
        }
        propagate();

        // A call through a pointer or functor can reach anything callable that may synchronise; kernels
        // are not callable (a launch from device code runs a grid of its own).
        bool callable_synchronises = false;
        for (std::size_t d = 0; d < count; ++d) {
            callable_synchronises = callable_synchronises || (synchronising_[d] && definitions_[d].kind != kKernel);
        }
        if (callable_synchronises) {
            for (std::size_t d = 0; d < count; ++d) {
                if (unresolved[d]) mark_definition(d);
            }
            propagate();
        }
    }

    std::deque<Preprocessor> preprocessed_;  // deques: tokens and definitions hold views and pointers into these
    std::deque<TokenStream> streams_;
    std::deque<Macro> macros_;
    std::unordered_map<std::string_view, std::vector<const Macro*>> macros_by_name_;
    std::unordered_set<std::string_view> global_aliases_;
    std::vector<Definition> definitions_;
    Knowledge knowledge_;

    std::unordered_map<std::string_view, std::size_t> ids_;
    std::vector<std::vector<std::size_t>> mentioned_by_;  // per name: definitions that mention it
    std::vector<std::vector<std::size_t>> defined_by_;    // per name: definitions that give it meaning
    std::vector<char> name_synchronises_;
    std::vector<std::vector<std::size_t>> name_ids_;  // per definition: the names it gives meaning to
    std::vector<char> synchronising_;                 // per definition
    std::vector<std::size_t> definition_queue_;
    std::vector<std::size_t> name_queue_;
};

// --- queries -------------------------------------------------------------------------------------

struct KernelQuery : NameExpression {
    std::vector<std::string> template_words;  // identifiers in the template arguments
};

// Reads "k", "ns::k", "::k", "reduce<float, 256>" or "&ns::axpy<float>".
std::optional<KernelQuery> parse_query(std::string_view text) {
    const Preprocessor preprocessed(text, kPreprocessorOptions);
    const std::vector<Token>& tokens = preprocessed.tokens();
    std::optional<NameExpression> name = read_name_expression(tokens);
    if (!name) return std::nullopt;
    KernelQuery query{std::move(*name), {}};
    for (std::size_t i = query.end; i < tokens.size(); ++i) {
        if (is_identifier(tokens[i])) query.template_words.emplace_back(tokens[i].text);
    }
    return query;
}

}  // namespace

bool SyncAnalysis::may_synchronise(std::string_view kernel) const {
    const std::optional<KernelQuery> query = parse_query(kernel);
    if (!query) return true;
    bool found = false;
    for (const KernelVerdict& verdict : kernels_) {
        if (verdict.name != query->name || !query->matches_scope(verdict.scope)) continue;
        found = true;
        if (verdict.may_synchronise) return true;
    }
    if (!found) return true;
    // `apply<BlockSync>`: the template arguments run inside the kernel without the kernel naming them.
    return std::any_of(query->template_words.begin(), query->template_words.end(),
                       [&](const std::string& word) { return synchronising_names_.count(word) > 0; });
}

SyncAnalysis analyse_synchronisation(const std::vector<std::string_view>& texts) {
    const Analysis analysis(texts);
    SyncAnalysis result;
    for (const Analysis::KernelResult& kernel : analysis.kernels()) {
        result.kernels_.push_back({*kernel.scope, std::string(kernel.name), kernel.may_synchronise});
    }
    for (const std::string_view name : analysis.synchronising_names()) result.synchronising_names_.emplace(name);
    return result;
}

}  // namespace gpukit::detail::sim
