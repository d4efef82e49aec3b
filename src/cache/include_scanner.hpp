// src/cache/include_scanner.hpp: finds the #include directives of a CUDA C/C++ text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail {

struct IncludeDirective {
    enum class Form {
        quoted,    // #include "name"
        angled,    // #include <name>
        computed,  // #include MACRO: cannot be resolved without preprocessing; `name` is the text
    };
    Form form = Form::quoted;
    std::string name;

    friend bool operator==(const IncludeDirective&, const IncludeDirective&) = default;
};

// Every include directive of `text`, in order of appearance. Directives inside // and /* */
// comments and string literals do not count. Conditional blocks (#if 0 ...) are NOT evaluated:
// every directive counts, so the result is a superset of what the compiler really includes, which
// is the safe side for a cache key. #include_next counts as #include.
std::vector<IncludeDirective> scan_includes(std::string_view text);

}  // namespace gpukit::detail
