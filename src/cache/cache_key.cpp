// src/cache/cache_key.cpp: include resolution and the cache key's encoding.
#include "cache/cache_key.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <unordered_set>

#include "cache/sha256.hpp"

namespace gpukit::detail {

namespace {

namespace fs = std::filesystem;

// Bump when anything below changes the encoding or what enters the key: old entries then simply
// stop matching.
constexpr std::string_view key_format_version = "gpukit-cache-key/2";

enum class Resolution { string_header, file, unreadable_file, not_found, computed };

std::string_view tag(Resolution resolution) {
    switch (resolution) {
        case Resolution::string_header: return "string";
        case Resolution::file: return "file";
        case Resolution::unreadable_file: return "unreadable";
        case Resolution::not_found: return "not found";
        case Resolution::computed: return "computed";
    }
    return "?";
}

struct ReachedHeader {
    const IncludeDirective& directive;
    Resolution resolution;
    std::string_view path;     // files only
    std::string_view content;  // string headers and readable files
};

std::optional<std::string> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return content;
}

bool is_existing_file(const fs::path& path) {
    std::error_code error;  // a path we cannot stat is one the compiler cannot open either
    return fs::is_regular_file(path, error);
}

// Walks the include graph depth first, calling `visit` once per distinct resolution.
class IncludeWalker {
public:
    using Visitor = std::function<void(const ReachedHeader&)>;

    IncludeWalker(const CompileOptions& options, Visitor visit) : options_(options), visit_(std::move(visit)) {}

    void walk(std::string_view text, const fs::path* including_directory) {
        for (const IncludeDirective& directive : scan_includes(text)) resolve(directive, including_directory);
    }

private:
    const Header* string_header(const std::string& name) const {
        for (const Header& header : options_.headers)
            if (header.name == name) return &header;
        return nullptr;
    }

    std::optional<fs::path> find_file(const IncludeDirective& directive, const fs::path* including_directory) const {
        if (directive.form == IncludeDirective::Form::quoted && including_directory) {
            fs::path candidate = (*including_directory / directive.name).lexically_normal();
            if (is_existing_file(candidate)) return candidate;
        }
        for (const fs::path& directory : options_.include_dirs) {
            fs::path candidate = (directory / directive.name).lexically_normal();
            if (is_existing_file(candidate)) return candidate;
        }
        return std::nullopt;
    }

    bool first_visit(std::string identity) { return seen_.insert(std::move(identity)).second; }

    void resolve(const IncludeDirective& directive, const fs::path* including_directory) {
        if (directive.form == IncludeDirective::Form::computed) {
            if (first_visit("computed:" + directive.name)) visit_({directive, Resolution::computed, {}, {}});
            return;
        }
        if (const Header* header = string_header(directive.name)) {
            if (!first_visit("string:" + directive.name)) return;
            visit_({directive, Resolution::string_header, {}, header->source});
            walk(header->source, nullptr);
            return;
        }
        const std::optional<fs::path> file = find_file(directive, including_directory);
        if (!file) {
            const char form = directive.form == IncludeDirective::Form::angled ? '<' : '"';
            if (first_visit(std::string("missing:") + form + directive.name))
                visit_({directive, Resolution::not_found, {}, {}});
            return;
        }
        const std::string path = file->string();
        if (!first_visit("file:" + path)) return;
        const std::optional<std::string> content = read_file(*file);
        if (!content) {
            visit_({directive, Resolution::unreadable_file, path, {}});
            return;
        }
        visit_({directive, Resolution::file, path, *content});
        const fs::path directory = file->parent_path();
        walk(*content, &directory);
    }

    const CompileOptions& options_;
    Visitor visit_;
    std::unordered_set<std::string> seen_;
};

// Feeds fields to SHA-256 each prefixed by its length, so that no two different field sequences
// encode to the same bytes ("ab","c" versus "a","bc").
class KeyEncoder {
public:
    void number(std::uint64_t value) {
        std::uint8_t bytes[8];
        for (int i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>(value >> (8 * i));
        hasher_.update(bytes, sizeof bytes);
    }
    void field(std::string_view text) {
        number(text.size());
        hasher_.update(text);
    }
    void list(const std::vector<std::string>& items) {
        number(items.size());
        for (const std::string& item : items) field(item);
    }
    std::string finish() { return to_hex(hasher_.finish()); }

private:
    Sha256 hasher_;
};

}  // namespace

std::vector<ResolvedInclude> find_includes(const CompileInput& input) {
    std::vector<ResolvedInclude> found;
    IncludeWalker walker(input.options, [&](const ReachedHeader& header) {
        ResolvedInclude include{header.directive.form, header.directive.name, {}, {}};
        switch (header.resolution) {
            case Resolution::string_header: include.resolved = string_header_marker; break;
            case Resolution::file:
            case Resolution::unreadable_file: include.resolved = header.path; break;
            case Resolution::not_found:
            case Resolution::computed: break;
        }
        if (header.resolution == Resolution::string_header || header.resolution == Resolution::file)
            include.content_hash = sha256_hex(header.content);
        found.push_back(std::move(include));
    });
    walker.walk(input.source, nullptr);
    return found;
}

std::string compute_cache_key(std::string_view compiler_identity, const CompileInput& input) {
    const CompileOptions& options = input.options;
    KeyEncoder key;
    key.field(key_format_version);
    key.field(compiler_identity);
    key.field(input.target);
    key.number(input.check.bits());
    key.list(options.to_arguments());
    key.list(options.name_expressions);
    key.field(options.program_name);
    key.field(input.source);
    key.number(options.headers.size());
    for (const Header& header : options.headers) {
        key.field(header.name);
        key.field(header.source);
    }
    // The reached headers, each a tagged record; an "end" tag closes the list, so no count is needed
    // up front and the walk streams straight into the hash. String headers' content is in already.
    IncludeWalker walker(options, [&](const ReachedHeader& header) {
        key.field(tag(header.resolution));
        key.field(header.directive.form == IncludeDirective::Form::angled ? "<>" : "\"\"");
        key.field(header.directive.name);
        if (header.resolution == Resolution::file || header.resolution == Resolution::unreadable_file)
            key.field(header.path);
        if (header.resolution == Resolution::file) key.field(header.content);
    });
    walker.walk(input.source, nullptr);
    key.field("end");
    return key.finish();
}

}  // namespace gpukit::detail
