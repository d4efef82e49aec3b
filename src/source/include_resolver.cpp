// src/source/include_resolver.cpp: a depth-first walk of the include graph, each header once.
#include "source/include_resolver.hpp"
#include "util/files.hpp"

#include <algorithm>
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

// Whether `path` is `root` or inside it; both absolute and lexically normal.
bool is_within(const fs::path& path, const fs::path& root) {
    auto [root_end, path_at] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    // "/a/b/" normalises with an empty last part: a root that ends in a separator still contains.
    return root_end == root.end() || (std::next(root_end) == root.end() && root_end->empty());
}

fs::path absolute_normal(const fs::path& path) {
    std::error_code error;  // no current directory: the path as it is, which then matches no root
    fs::path absolute = fs::absolute(path, error);
    return (error ? path : absolute).lexically_normal();
}

// Where a directive is, for the walk's checks and for a refusal's message.
struct Place {
    const fs::path* directory;  // the including file's directory; null for the source and string headers
    std::string_view includer;  // as ReachedHeader::includer
    std::size_t line;
    bool trusted;  // a file found under a root, not text handed in with the source
};

class IncludeWalker {
public:
    IncludeWalker(const IncludeSearch& search, const std::function<void(const ReachedHeader&)>& visit)
        : search_(search), visit_(visit) {}

    void walk(std::string_view text, const fs::path* including_directory, std::string_view includer, bool trusted) {
        if (!may_include(text)) return;
        const Preprocessor preprocessor(text, PreprocessorOptions{.multi_char_puncts = {}, .keep_tokens = false});
        for (const IncludeDirective& directive : preprocessor.includes()) {
            const Place place{including_directory, includer, preprocessor.location(directive.position).line, trusted};
            if (directive.live) {
                resolve(directive.header, place);
            } else if (directive.header.form != IncludeForm::computed && refused_by_name(directive.header, place)) {
                refuse(directive.header, place);
            }
        }
    }

private:
    const StringHeader* string_header(std::string_view name) const {
        for (const StringHeader& header : search_.string_headers) {
            if (header.name == name) return &header;
        }
        return nullptr;
    }

    const std::vector<fs::path>& roots() {
        if (!roots_) {
            roots_.emplace();
            for (const fs::path& directory : search_.directories) roots_->push_back(absolute_normal(directory));
        }
        return *roots_;
    }

    // Absolute, or leading out of where it is looked up, and not a quoted name that stays under a
    // root from the including file's directory; or computed in text not from under a root.
    bool refused_by_name(const HeaderName& header, const Place& place) {
        if (header.form == IncludeForm::computed) return !place.trusted;
        const fs::path name = fs::path(header.name).lexically_normal();
        if (name.is_absolute()) return true;
        if (name.empty() || *name.begin() != "..") return false;
        if (header.form != IncludeForm::quoted || !place.directory) return true;
        const fs::path target = absolute_normal(*place.directory / name);
        return std::none_of(roots().begin(), roots().end(),
                            [&](const fs::path& root) { return is_within(target, root); });
    }

    void refuse(const HeaderName& header, const Place& place) {
        visit_({header, HeaderOrigin::refused, {}, {}, place.includer, place.line});
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

    void resolve(const HeaderName& header, const Place& place) {
        if (refused_by_name(header, place)) {
            refuse(header, place);
            return;
        }
        if (header.form == IncludeForm::computed) {
            if (first_visit("computed:" + header.name))
                visit_({header, HeaderOrigin::computed, {}, {}, place.includer, place.line});
            return;
        }
        if (const StringHeader* string = string_header(header.name)) {
            if (!first_visit("string:" + header.name)) return;
            visit_({header, HeaderOrigin::string_header, {}, string->text, place.includer, place.line});
            walk(string->text, nullptr, string->name, /*trusted=*/false);
            return;
        }
        const std::optional<fs::path> file = find_file(header, place.directory);
        if (!file) {
            // Some compilers (NVRTC) look for a quoted name of the source in the current directory,
            // which is no root: a file there would be read.
            std::error_code error;
            if (header.form == IncludeForm::quoted && !place.directory && fs::exists(fs::path(header.name), error)) {
                refuse(header, place);
                return;
            }
            const char form = header.form == IncludeForm::angled ? '<' : '"';
            if (first_visit(std::string("missing:") + form + header.name)) {
                visit_({header, HeaderOrigin::not_found, {}, {}, place.includer, place.line});
            }
            return;
        }
        const std::string path = file->string();
        if (!first_visit("file:" + path)) return;
        const std::optional<std::string> content = read_file(*file);
        if (!content) {
            visit_({header, HeaderOrigin::unreadable_file, path, {}, place.includer, place.line});
            return;
        }
        visit_({header, HeaderOrigin::file, path, *content, place.includer, place.line});
        const fs::path directory = file->parent_path();
        walk(*content, &directory, path, /*trusted=*/true);
    }

    const IncludeSearch& search_;
    const std::function<void(const ReachedHeader&)>& visit_;
    std::unordered_set<std::string> seen_;
    std::optional<std::vector<fs::path>> roots_;  // the directories, absolute: made on first need
};

}  // namespace

void walk_includes(std::string_view source, const IncludeSearch& search,
                   const std::function<void(const ReachedHeader&)>& visit) {
    IncludeWalker(search, visit).walk(source, nullptr, {}, /*trusted=*/false);
}

std::string refusal_message(const ReachedHeader& reached, std::string_view program_name) {
    const std::string_view where = reached.includer.empty() ? program_name : reached.includer;
    std::string message = std::string(where) + ":" + std::to_string(reached.line) + ": error: #include ";
    if (reached.header.form == IncludeForm::computed) {
        return message + reached.header.name +
               ": not allowed: gpukit cannot check which file a computed include (#include MACRO) names in the "
               "source or a string header; write the header's name";
    }
    const bool angled = reached.header.form == IncludeForm::angled;
    return message + (angled ? "<" : "\"") + reached.header.name + (angled ? ">" : "\"") +
           ": not found or not allowed: headers come only from string headers (CompileOptions::header), the "
           "include directories (-I) and, for a file found there, its own directory inside them, and gpukit's "
           "and the compiler's own headers; absolute paths, '..' leading out of those directories and files of the "
           "current directory are refused (add a header's directory with -I)";
}

}  // namespace gpukit::detail
