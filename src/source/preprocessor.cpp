// src/source/preprocessor.cpp: conditionals, macros, includes and #line, read once for every reader.
#include "source/preprocessor.hpp"

#include <utility>

namespace gpukit::detail {
namespace {

// The line number a `#line` or GNU line marker (`# 12 "file"`) gives; 0 when it is no plain decimal.
std::size_t line_number(const Token& token) {
    if (token.kind != TokenKind::number || token.text.size() > 9) return 0;
    std::size_t number = 0;
    for (const char c : token.text) {
        if (!is_digit(c)) return 0;
        number = number * 10 + static_cast<std::size_t>(c - '0');
    }
    return number;
}

}  // namespace

Preprocessor::Preprocessor(std::string_view text, PreprocessorOptions options)
    : Preprocessor(text, has_line_splice(text) ? splice_lines_tracked(text) : SplicedText{}, options) {}

Preprocessor::Preprocessor(std::string_view written, SplicedText spliced, PreprocessorOptions options)
    : options_(options),
      spliced_(std::move(spliced.text)),
      text_(spliced.joins.empty() ? written : std::string_view(spliced_)),
      lines_(text_, std::move(spliced.joins)) {
    // pop_macro brings back a definition that no line of the text spells at that point.
    if (text_.find("pop_macro") != std::string_view::npos || text_.find("_Pragma") != std::string_view::npos) {
        knowledge_.distrust();
    }
    tokens_ = SourceLexer(text_, LexOptions{options_.multi_char_puncts, /*line_splices=*/false}).read_all(*this);
}

bool Preprocessor::directive(const SourceLexer& lexer) {
    const std::vector<Token>& line = lexer.directive();
    if (line.empty()) return false;  // a null directive
    const bool live = region_live();
    if (line[0].kind == TokenKind::number) {  // a GNU line marker
        names_files_in_line_directives_ |= line.size() > 1;
        if (live) renumber_lines(lexer, 0);
        return false;
    }
    if (!is_identifier(line[0])) return false;
    const std::string_view name = line[0].text;
    // Anything after the number (a file name, or a macro that may expand to one), live or not.
    if (name == "line")
        names_files_in_line_directives_ |= line.size() > 2 || (line.size() == 2 && line[1].kind != TokenKind::number);
    if (name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "elifdef" ||
        name == "elifndef" || name == "else" || name == "endif") {
        conditional(lexer);
        return false;
    }
    if (name == "include" || name == "include_next" || name == "import") {
        // #import, a deprecated GCC extension, reads a file as #include does (once only).
        record_include(lexer, live);
        // The header may define or undefine any macro.
        if (live) knowledge_.forget_all();
        return live && options_.include_markers;
    }
    if (!live) return false;
    if (name == "define") {
        record_macro(lexer);
    } else if (name == "undef" && line.size() >= 2 && is_identifier(line[1])) {
        undefined_macros_.push_back(line[1]);
        knowledge_.undefine(line[1].text, region_sure());
    } else if (name == "line") {
        renumber_lines(lexer, 1);
    }
    return false;
}

// --- conditionals --------------------------------------------------------------------------------

void Preprocessor::conditional(const SourceLexer& lexer) {
    const std::string_view name = lexer.directive()[0].text;
    if (name == "if" || name == "ifdef" || name == "ifndef") {
        Conditional opened{region_live(), region_sure(), false, false, false, false};
        enter_branch(opened, opened.enclosing_live ? condition_of(lexer) : Condition::unknown);
        conditionals_.push_back(opened);
        return;
    }
    if (conditionals_.empty()) return;  // stray: the compiler rejects it, the readers go on
    Conditional& current = conditionals_.back();
    if (name == "endif") {
        conditionals_.pop_back();
    } else if (name == "else") {
        enter_branch(current, Condition::certainly_true);
    } else {  // elif, elifdef, elifndef
        const bool matters = current.enclosing_live && !current.taken_surely;
        enter_branch(current, matters ? condition_of(lexer) : Condition::unknown);
    }
}

Condition Preprocessor::condition_of(const SourceLexer& lexer) const {
    const std::vector<Token>& line = lexer.directive();
    std::string_view name = line[0].text;
    if (name == "if" || name == "elif") {
        if (line.size() < 2) return Condition::unknown;
        const std::size_t begin = line[1].position;
        return evaluate_condition(text_.substr(begin, lexer.directive_end() - begin), knowledge_);
    }
    // #ifdef, #ifndef, #elifdef, #elifndef
    if (line.size() < 2 || !is_identifier(line[1])) return Condition::unknown;
    const MacroState state = knowledge_.state(line[1].text);
    if (state == MacroState::unknown) return Condition::unknown;
    const bool negated = name.ends_with("ndef");
    return (state == MacroState::defined) != negated ? Condition::certainly_true : Condition::certainly_false;
}

void Preprocessor::enter_branch(Conditional& conditional, Condition condition) {
    conditional.live =
        conditional.enclosing_live && !conditional.taken_surely && condition != Condition::certainly_false;
    conditional.sure = conditional.enclosing_sure && !conditional.maybe_taken && condition == Condition::certainly_true;
    conditional.taken_surely = conditional.taken_surely || condition == Condition::certainly_true;
    conditional.maybe_taken = conditional.maybe_taken || condition != Condition::certainly_false;
}

// --- includes, macros, lines ---------------------------------------------------------------------

void Preprocessor::record_include(const SourceLexer& lexer, bool live) {
    const std::vector<Token>& line = lexer.directive();
    if (line.size() < 2) return;  // names nothing
    const std::size_t begin = line[1].position;
    const std::size_t hash = lexer.token().position;
    const char opening = text_[begin];
    if (opening == '"' || opening == '<') {
        // A header name is no string literal: a backslash in it is a character of the path.
        const std::size_t close = text_.find_first_of(opening == '"' ? "\"\n" : ">\n", begin + 1);
        if (close != std::string_view::npos && text_[close] != '\n') {
            const IncludeForm form = opening == '"' ? IncludeForm::quoted : IncludeForm::angled;
            includes_.push_back({{form, std::string(text_.substr(begin + 1, close - begin - 1))}, hash, live});
            return;
        }
    }
    // A macro naming the header, or a name never closed: keep the text, so that the cache key at
    // least sees it.
    const Token& last = line.back();
    const std::size_t end = last.position + last.text.size();
    includes_.push_back({{IncludeForm::computed, std::string(text_.substr(begin, end - begin))}, hash, live});
}

void Preprocessor::record_macro(const SourceLexer& lexer) {
    const std::vector<Token>& line = lexer.directive();
    if (line.size() < 2 || !is_identifier(line[1])) return;
    MacroDefinition macro;
    macro.name = line[1].text;
    macro.position = line[1].position;
    std::size_t body = 2;
    // Function-like only when '(' touches the name: `#define F(x)` versus `#define F (x)`.
    if (lexer.char_after(line[1]) == '(' && line.size() > 2) {
        macro.function_like = true;
        for (body = 3; body < line.size() && !is_punct(line[body], ")"); ++body) {
            if (is_identifier(line[body])) macro.parameters.push_back(line[body].text);
            if (is_punct(line[body], "...") || is_punct(line[body], ".")) macro.variadic = true;
        }
        ++body;  // past ')'
    }
    if (body < line.size()) macro.replacement.assign(line.begin() + static_cast<std::ptrdiff_t>(body), line.end());
    knowledge_.define(macro.name, region_sure());
    macros_.push_back(std::move(macro));
}

// `#line 12 "file"` (number_at 1) or `# 12 "file" 1 3` (number_at 0): the next line is line 12.
void Preprocessor::renumber_lines(const SourceLexer& lexer, std::size_t number_at) {
    const std::vector<Token>& line = lexer.directive();
    if (line.size() <= number_at) return;
    const std::size_t number = line_number(line[number_at]);
    if (number == 0) return;  // a macro, or malformed: the compiler would have to expand it
    std::optional<std::string_view> file;
    if (line.size() > number_at + 1) {
        const std::string_view name = line[number_at + 1].text;
        if (line[number_at + 1].kind == TokenKind::literal && name.size() >= 2 && name.front() == '"' &&
            name.back() == '"') {
            file = name.substr(1, name.size() - 2);
        }
    }
    lines_.renumber(lexer.directive_end() + 1, number, file);
}

}  // namespace gpukit::detail
