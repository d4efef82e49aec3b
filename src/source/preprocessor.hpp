// src/source/preprocessor.hpp: the one reader of preprocessor lines, for every reader of CUDA C source.
//
// The compile cache (which headers a source includes), the kernel declarations and the simulator's
// sync analysis all read source text without compiling it, and all need the same answer to "which
// code may be compiled". Here the text is line-spliced and tokenized once; conditionals are decided
// where that is certain (source/condition.hpp) and every branch is kept where it is not, which is the
// safe side for each of them. Macros are recorded, with their replacement tokens, but not expanded:
// the readers interpret source as written. Tolerant: malformed or truncated input never throws, and
// reading stays linear in the text.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "source/condition.hpp"
#include "source/lexer.hpp"
#include "source/line_map.hpp"

namespace gpukit::detail {

enum class IncludeForm {
    quoted,    // #include "name"
    angled,    // #include <name>
    computed,  // #include MACRO: cannot be resolved without expanding it; `name` is the text
};

// What an include directive names.
struct HeaderName {
    using Form = IncludeForm;
    Form form = Form::quoted;
    std::string name;

    friend bool operator==(const HeaderName&, const HeaderName&) = default;
};

// An #include, #include_next or #import line.
struct IncludeDirective {
    using Form = IncludeForm;
    HeaderName header;
    std::size_t position = 0;  // of its '#', in Preprocessor::text()
    bool live = true;          // false under a condition that is certainly false: never compiled
};

// A #define in code that may be compiled.
struct MacroDefinition {
    std::string_view name;
    bool function_like = false;  // `#define F(x)`, the '(' touching the name
    bool variadic = false;       // its parameters end in "..."
    std::vector<std::string_view> parameters;
    std::vector<Token> replacement;
    std::size_t position = 0;  // of the name, in Preprocessor::text()
};

struct PreprocessorOptions {
    // Punctuators the consumer wants whole, as LexOptions::multi_char_puncts.
    std::span<const std::string_view> multi_char_puncts;
    // False when only the directives matter (the include list): no token is kept.
    bool keep_tokens = true;
    // A live #include, #include_next or #import leaves its '#' among the tokens, for a reader that
    // must know where text it cannot see is pasted in.
    bool include_markers = false;
};

// Reads `text` when constructed. Every view it hands out (token texts, macro names) points into
// text(), which lives as long as the Preprocessor: hence it is neither copied nor moved.
class Preprocessor final : private DirectiveHandler {
public:
    Preprocessor(std::string_view text, PreprocessorOptions options);
    Preprocessor(const Preprocessor&) = delete;
    Preprocessor& operator=(const Preprocessor&) = delete;

    // The text after line splicing: `text` itself when it has no splice. Positions count in it.
    std::string_view text() const { return text_; }
    // The tokens of code that may be compiled, in order; no directive's tokens.
    const std::vector<Token>& tokens() const { return tokens_; }
    // Live #define lines in order, and the names of live #undef lines.
    const std::vector<MacroDefinition>& macros() const { return macros_; }
    const std::vector<Token>& undefined_macros() const { return undefined_macros_; }
    // Every #include, #include_next and #import, dead ones too, in order.
    const std::vector<IncludeDirective>& includes() const { return includes_; }
    // Whether a `#line` directive or a GNU line marker (live or not) names a file, or has a macro
    // where a number alone would do: some compilers quote lines of the file a diagnostic's line
    // is attributed to, and that file is then one the text chose.
    bool names_files_in_line_directives() const { return names_files_in_line_directives_; }
    // Where a position of text() was written, with `#line` directives applied.
    SourceLocation location(std::size_t position) const { return lines_.locate(position); }
    SourceLocation location(const Token& token) const { return location(token.position); }

private:
    // One open #if / #ifdef / #ifndef, with its branches so far.
    struct Conditional {
        bool enclosing_live;  // the code around it may be compiled
        bool enclosing_sure;  // ... and surely is
        bool taken_surely;    // an earlier branch is surely compiled: the rest are dead
        bool maybe_taken;     // an earlier branch may be compiled
        bool live;            // the current branch may be compiled
        bool sure;            // the current branch surely is
    };

    Preprocessor(std::string_view written, SplicedText spliced, PreprocessorOptions options);

    bool directive(const SourceLexer& lexer) override;
    bool live() const override { return options_.keep_tokens && region_live(); }

    bool region_live() const { return conditionals_.empty() || conditionals_.back().live; }
    bool region_sure() const { return conditionals_.empty() || conditionals_.back().sure; }

    void conditional(const SourceLexer& lexer);
    Condition condition_of(const SourceLexer& lexer) const;
    static void enter_branch(Conditional& conditional, Condition condition);
    void record_include(const SourceLexer& lexer, bool live);
    void record_macro(const SourceLexer& lexer);
    void renumber_lines(const SourceLexer& lexer, std::size_t number_at);

    PreprocessorOptions options_;
    std::string spliced_;  // the text after line splicing, when it had splices
    std::string_view text_;
    LineMap lines_;
    std::vector<Token> tokens_;
    std::vector<MacroDefinition> macros_;
    std::vector<Token> undefined_macros_;
    std::vector<IncludeDirective> includes_;
    bool names_files_in_line_directives_ = false;
    MacroKnowledge knowledge_;
    std::vector<Conditional> conditionals_;
};

}  // namespace gpukit::detail
