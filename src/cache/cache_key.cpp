// src/cache/cache_key.cpp: the cache key's encoding, and the includes it covers.
#include "cache/cache_key.hpp"

#include <cstdint>

#include "gpukit/error.hpp"
#include "util/sha256.hpp"

namespace gpukit::detail {

namespace {

// Bump when anything below changes the encoding or what enters the key: old entries then simply
// stop matching.
// 3: includes under a certainly-false condition (`#if 0`) no longer enter the key.
// 4: #import is followed as #include is; options enter in their checked NVRTC spellings.
constexpr std::string_view key_format_version = "gpukit-cache-key/4";

std::string_view tag(HeaderOrigin origin) {
    switch (origin) {
        case HeaderOrigin::string_header: return "string";
        case HeaderOrigin::file: return "file";
        case HeaderOrigin::unreadable_file: return "unreadable";
        case HeaderOrigin::not_found: return "not found";
        case HeaderOrigin::computed: return "computed";
        case HeaderOrigin::refused: return "refused";
    }
    return "?";
}

// Where the compiler looks for the input's headers. Built only for sources that may include
// something, so that the common kernel's key allocates nothing for it.
IncludeSearch include_search(const CompileOptions& options) {
    IncludeSearch search;
    search.string_headers.reserve(options.headers.size());
    for (const Header& header : options.headers) search.string_headers.push_back({header.name, header.source});
    search.directories = options.include_dirs;
    return search;
}

// The include rules (source/include_resolver.hpp) hold before anything is compiled or looked up:
// a refused header ends the compile with an error that names it and quotes nothing else.
void refuse_if_refused(const ReachedHeader& reached, const CompileInput& input) {
    if (reached.origin != HeaderOrigin::refused) return;
    throw CompileError(input.options.program_name, input.target, refusal_message(reached, input.options.program_name),
                       input.options.to_arguments(), std::string(input.source));
}

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
    if (!may_include(input.source)) return found;
    walk_includes(input.source, include_search(input.options), [&](const ReachedHeader& reached) {
        refuse_if_refused(reached, input);
        ResolvedInclude include{reached.header.form, reached.header.name, {}, {}};
        switch (reached.origin) {
            case HeaderOrigin::string_header: include.resolved = string_header_marker; break;
            case HeaderOrigin::file:
            case HeaderOrigin::unreadable_file: include.resolved = reached.path; break;
            case HeaderOrigin::not_found:
            case HeaderOrigin::computed:
            case HeaderOrigin::refused: break;
        }
        if (reached.origin == HeaderOrigin::string_header || reached.origin == HeaderOrigin::file) {
            include.content_hash = sha256_hex(reached.content);
        }
        found.push_back(std::move(include));
    });
    return found;
}

std::string compute_cache_key(std::string_view compiler_identity, const CompileInput& input) {
    const CompileOptions& options = input.options;
    KeyEncoder key;
    key.field(key_format_version);
    key.field(compiler_identity);
    key.field(input.target);
    key.number(input.check.bits());
    // Every checked option, with what has no NVRTC spelling (-O3 is the simulator's alone).
    const std::vector<CompileOption> parsed = options.parsed();
    key.number(parsed.size());
    for (const CompileOption& option : parsed) {
        key.number(static_cast<std::uint64_t>(option.kind));
        key.field(option.name);
        key.field(option.value);
        key.field(option.nvrtc);
    }
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
    if (may_include(input.source)) {
        walk_includes(input.source, include_search(options), [&](const ReachedHeader& reached) {
            refuse_if_refused(reached, input);
            key.field(tag(reached.origin));
            key.field(reached.header.form == IncludeForm::angled ? "<>" : "\"\"");
            key.field(reached.header.name);
            if (reached.origin == HeaderOrigin::file || reached.origin == HeaderOrigin::unreadable_file) {
                key.field(reached.path);
            }
            if (reached.origin == HeaderOrigin::file) key.field(reached.content);
        });
    }
    key.field("end");
    return key.finish();
}

}  // namespace gpukit::detail
