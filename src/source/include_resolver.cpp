// src/source/include_resolver.cpp: a depth-first walk of the include graph, each header once.
#include "source/include_resolver.hpp"
#include "util/files.hpp"

#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <system_error>
#include <unordered_set>

namespace gpukit::detail {
namespace {

namespace fs = std::filesystem;

bool is_existing_file(const fs::path& path) {
    std::error_code error;  // a path we cannot stat is one the compiler cannot open either
    return fs::is_regular_file(path, error);
}

class IncludeWalker {
public:
    IncludeWalker(const IncludeSearch& search, const std::function<void(const ReachedHeader&)>& visit)
        : search_(search), visit_(visit) {}

    void walk(std::string_view text, const fs::path* including_directory) {
        if (!may_include(text)) return;
        const Preprocessor preprocessor(text, PreprocessorOptions{.multi_char_puncts = {}, .keep_tokens = false});
        for (const IncludeDirective& directive : preprocessor.includes()) {
            if (directive.live) resolve(directive.header, including_directory);
        }
    }

private:
    const StringHeader* string_header(std::string_view name) const {
        for (const StringHeader& header : search_.string_headers) {
            if (header.name == name) return &header;
        }
        return nullptr;
    }

    std::optional<fs::path> find_file(const HeaderName& header, const fs::path* including_directory) const {
        if (header.form == IncludeForm::quoted && including_directory) {
            fs::path candidate = (*including_directory / header.name).lexically_normal();
            if (is_existing_file(candidate)) return candidate;
        }
        for (const fs::path& directory : search_.directories) {
            fs::path candidate = (directory / header.name).lexically_normal();
            if (is_existing_file(candidate)) return candidate;
        }
        return std::nullopt;
    }

    bool first_visit(std::string identity) { return seen_.insert(std::move(identity)).second; }

    void resolve(const HeaderName& header, const fs::path* including_directory) {
        if (header.form == IncludeForm::computed) {
            if (first_visit("computed:" + header.name)) visit_({header, HeaderOrigin::computed, {}, {}});
            return;
        }
        if (const StringHeader* string = string_header(header.name)) {
            if (!first_visit("string:" + header.name)) return;
            visit_({header, HeaderOrigin::string_header, {}, string->text});
            walk(string->text, nullptr);
            return;
        }
        const std::optional<fs::path> file = find_file(header, including_directory);
        if (!file) {
            const char form = header.form == IncludeForm::angled ? '<' : '"';
            if (first_visit(std::string("missing:") + form + header.name)) {
                visit_({header, HeaderOrigin::not_found, {}, {}});
            }
            return;
        }
        const std::string path = file->string();
        if (!first_visit("file:" + path)) return;
        const std::optional<std::string> content = read_file(*file);
        if (!content) {
            visit_({header, HeaderOrigin::unreadable_file, path, {}});
            return;
        }
        visit_({header, HeaderOrigin::file, path, *content});
        const fs::path directory = file->parent_path();
        walk(*content, &directory);
    }

    const IncludeSearch& search_;
    const std::function<void(const ReachedHeader&)>& visit_;
    std::unordered_set<std::string> seen_;
};

}  // namespace

void walk_includes(std::string_view source, const IncludeSearch& search,
                   const std::function<void(const ReachedHeader&)>& visit) {
    IncludeWalker(search, visit).walk(source, nullptr);
}

}  // namespace gpukit::detail
