// src/ops/kernel_params.cpp: CuPy's parameter lists (kernel_params.hpp).
#include "ops/kernel_params.hpp"

#include <algorithm>
#include <cctype>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

bool is_identifier(std::string_view text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// NumPy's names for its types besides the canonical ones (numpy.dtype('float') is float64), as
// CuPy reads parameter types through numpy.dtype.
std::optional<DType> param_dtype(std::string_view name) {
    if (auto dtype = dtype_named(name)) return dtype;
    static constexpr std::pair<std::string_view, DType> aliases[] = {
        {"bool_", DType::bool_},        {"byte", DType::int8},         {"ubyte", DType::uint8},
        {"short", DType::int16},        {"ushort", DType::uint16},     {"intc", DType::int32},
        {"uintc", DType::uint32},       {"int", DType::int64},         {"uint", DType::uint64},
        {"long", DType::int64},         {"ulong", DType::uint64},      {"longlong", DType::int64},
        {"ulonglong", DType::uint64},   {"intp", DType::int64},        {"uintp", DType::uint64},
        {"half", DType::float16},       {"single", DType::float32},    {"float", DType::float64},
        {"double", DType::float64},     {"csingle", DType::complex64}, {"complex", DType::complex128},
        {"cdouble", DType::complex128},
    };
    for (const auto& [alias, dtype] : aliases)
        if (alias == name) return dtype;
    return std::nullopt;
}

// One parameter list: "float32 x, T y, raw T z".
std::vector<ElementwiseParam> parse_params(std::string_view list, bool outputs, std::string_view kernel_class,
                                          std::span<const ReservedName> reserved) {
    std::vector<ElementwiseParam> params;
    if (trim(list).empty()) return params;
    const std::string_view which = outputs ? "out_params" : "in_params";
    while (true) {
        const std::size_t comma = list.find(',');
        const std::string_view text = trim(list.substr(0, comma));
        std::vector<std::string_view> words;
        for (std::size_t at = 0; at < text.size();) {
            const std::size_t begin = text.find_first_not_of(" \t\r\n", at);
            if (begin == std::string_view::npos) break;
            const std::size_t end = std::min(text.find_first_of(" \t\r\n", begin), text.size());
            words.push_back(text.substr(begin, end - begin));
            at = end;
        }
        if (words.size() < 2)
            throw InvalidArgumentError(
                concat(kernel_class, ": cannot read the parameter '", text, "' of ", which,
                       ": each parameter is a type and a name ('float32 x', 'T y', 'raw T z'), separated by commas"));
        ElementwiseParam param;
        param.output = outputs;
        param.is_const = !outputs;
        param.name = std::string(words.back());
        const std::string_view type = words[words.size() - 2];
        for (std::size_t k = 0; k + 2 < words.size(); ++k) {
            if (words[k] == "raw")
                param.raw = true;
            else if (words[k] == "_non_const")
                param.is_const = false;
            else
                throw InvalidArgumentError(concat(kernel_class, ": unknown keyword '", words[k],
                                                  "' in the parameter '", text,
                                                  "' (only raw and _non_const come before a type)"));
        }
        if (type.size() == 1) {
            if (!std::isalpha(static_cast<unsigned char>(type[0])))
                throw InvalidArgumentError(
                    concat(kernel_class, ": the type of parameter '", text,
                           "' is neither a dtype nor a type placeholder (one letter, such as T)"));
            param.placeholder = type[0];
        } else {
            param.dtype = param_dtype(type);
            if (!param.dtype)
                throw InvalidArgumentError(
                    concat(kernel_class, ": the type '", type, "' of parameter '", text,
                           "' is neither a dtype (bool, int8 ... int64, uint8 ... uint64, float16, "
                           "bfloat16, float32, float64, complex64, complex128) nor a type "
                           "placeholder (one letter, such as T)"));
        }
        if (!is_identifier(param.name))
            throw InvalidArgumentError(
                concat(kernel_class, ": the parameter name '", param.name, "' is not a C identifier"));
        for (const ReservedName& name : reserved)
            if (param.name == name.name)
                throw InvalidArgumentError(
                    concat(kernel_class, ": a parameter cannot be named '", param.name, "': ", name.why));
        if (param.name.starts_with("gk_"))
            throw InvalidArgumentError(concat(kernel_class, ": the parameter name '", param.name,
                                              "' begins with gk_, which gpukit keeps for the code it generates"));
        params.push_back(std::move(param));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return params;
}

std::string describe_param(const ElementwiseParam& param) {
    return concat(param.raw ? "raw " : "",
                  param.dtype ? std::string(to_string(*param.dtype)) : std::string(1, param.placeholder), " ",
                  param.name);
}

}  // namespace gpukit::detail
