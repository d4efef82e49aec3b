// src/core/kernel_param.cpp: what a parameter's declared type takes, and the check of array arguments.
//
// The declaration is read from the source (src/source/kernel_declarations) and rendered one token
// to a word: "const unsigned int * __restrict__", "float [16]", "T *". Only what is certain is
// refused: an element type gpukit cannot name (a typedef, a template parameter, a struct) takes
// any array, as `void *` and the byte views `char *` and `unsigned char *` do.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "array/c_type.hpp"
#include "core/module_state.hpp"
#include "gpukit/array.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {

// The words of a rendered declaration.
std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ') ++i;
        if (i > start) words.push_back(text.substr(start, i - start));
    }
    return words;
}

bool is_qualifier(std::string_view word) {
    constexpr std::array<std::string_view, 8> qualifiers = {"const",    "volatile", "__restrict__", "__restrict",
                                                            "restrict", "struct",   "class",        "enum"};
    return std::find(qualifiers.begin(), qualifiers.end(), word) != qualifiers.end();
}

// How a declaration is built: its base type without qualifiers ("unsigned int", "std::uint32_t"
// becomes "uint32_t"), the pointers and array bounds after it, and whether it has anything else
// (a reference, a function pointer's parentheses).
struct Declarator {
    std::string base;
    int pointers = 0;
    int bounds = 0;
    bool unusual = false;
};

Declarator read_declarator(std::string_view type) {
    Declarator d;
    for (std::string_view word : words_of(type)) {
        if (word == "*") {
            ++d.pointers;
        } else if (word.front() == '[') {
            ++d.bounds;
        } else if (word == "&" || word == "&&" || word == "(" || word == ")") {
            d.unusual = true;
        } else if (d.pointers == 0 && d.bounds == 0 && !is_qualifier(word)) {
            if (word.rfind("std::", 0) == 0) word.remove_prefix(5);
            if (word.rfind("::", 0) == 0) word.remove_prefix(2);
            if (!d.base.empty()) d.base += ' ';
            d.base += word;
        }
    }
    return d;
}

// The kinds of the scalar types a kernel parameter may be declared with.
struct NamedType {
    std::string_view name;
    ParamKind kind;
    std::optional<DType> dtype;  // what an array of them holds; nullopt: any (byte views)
};

// clang-format off
constexpr NamedType named_types[] = {
    {"bool", ParamKind::boolean, DType::bool_},
    {"char", ParamKind::signed_integer, std::nullopt},
    {"unsigned char", ParamKind::unsigned_integer, std::nullopt},
    {"uint8_t", ParamKind::unsigned_integer, std::nullopt},
    {"byte", ParamKind::other, std::nullopt},
    {"signed char", ParamKind::signed_integer, DType::int8},
    {"int8_t", ParamKind::signed_integer, DType::int8},
    {"short", ParamKind::signed_integer, DType::int16}, {"short int", ParamKind::signed_integer, DType::int16},
    {"signed short", ParamKind::signed_integer, DType::int16},
    {"signed short int", ParamKind::signed_integer, DType::int16},
    {"int16_t", ParamKind::signed_integer, DType::int16},
    {"unsigned short", ParamKind::unsigned_integer, DType::uint16},
    {"unsigned short int", ParamKind::unsigned_integer, DType::uint16},
    {"uint16_t", ParamKind::unsigned_integer, DType::uint16},
    {"int", ParamKind::signed_integer, DType::int32}, {"signed", ParamKind::signed_integer, DType::int32},
    {"signed int", ParamKind::signed_integer, DType::int32}, {"int32_t", ParamKind::signed_integer, DType::int32},
    {"unsigned", ParamKind::unsigned_integer, DType::uint32},
    {"unsigned int", ParamKind::unsigned_integer, DType::uint32},
    {"uint32_t", ParamKind::unsigned_integer, DType::uint32},
    // long is 64 bits on the LP64 hosts the simulator runs on and in CUDA on them.
    {"long", ParamKind::signed_integer, DType::int64}, {"long int", ParamKind::signed_integer, DType::int64},
    {"signed long", ParamKind::signed_integer, DType::int64},
    {"long long", ParamKind::signed_integer, DType::int64},
    {"long long int", ParamKind::signed_integer, DType::int64},
    {"signed long long", ParamKind::signed_integer, DType::int64},
    {"int64_t", ParamKind::signed_integer, DType::int64}, {"intptr_t", ParamKind::signed_integer, DType::int64},
    {"ptrdiff_t", ParamKind::signed_integer, DType::int64}, {"ssize_t", ParamKind::signed_integer, DType::int64},
    {"unsigned long", ParamKind::unsigned_integer, DType::uint64},
    {"unsigned long int", ParamKind::unsigned_integer, DType::uint64},
    {"unsigned long long", ParamKind::unsigned_integer, DType::uint64},
    {"unsigned long long int", ParamKind::unsigned_integer, DType::uint64},
    {"uint64_t", ParamKind::unsigned_integer, DType::uint64},
    {"uintptr_t", ParamKind::unsigned_integer, DType::uint64},
    {"size_t", ParamKind::unsigned_integer, DType::uint64},
    {"float", ParamKind::floating, DType::float32}, {"double", ParamKind::floating, DType::float64},
    {"__half", ParamKind::floating, DType::float16}, {"half", ParamKind::floating, DType::float16},
    {"__nv_bfloat16", ParamKind::floating, DType::bfloat16},
    {"nv_bfloat16", ParamKind::floating, DType::bfloat16},
};
// clang-format on

const NamedType* find_named(std::string_view base) {
    for (const NamedType& named : named_types)
        if (named.name == base) return &named;
    return nullptr;
}

bool is_integer(DType dtype) {
    return kind(dtype) == DTypeKind::signed_integer || kind(dtype) == DTypeKind::unsigned_integer;
}

}  // namespace

ParamKind KernelParam::kind() const {
    if (type.empty()) return ParamKind::unknown;
    const Declarator d = read_declarator(type);
    if (d.unusual) return ParamKind::other;
    if (d.pointers > 0 || d.bounds > 0) return ParamKind::pointer;  // an array parameter is a pointer
    const NamedType* named = find_named(d.base);
    return named ? named->kind : ParamKind::other;
}

std::optional<DType> KernelParam::pointee() const {
    if (type.empty()) return std::nullopt;
    const Declarator d = read_declarator(type);
    // `float *`, `float [16]`, `int [4][4]` point to their base; `float **` and `float * [4]` to pointers.
    const bool to_base = !d.unusual && ((d.pointers == 1 && d.bounds == 0) || (d.pointers == 0 && d.bounds > 0));
    if (!to_base) return std::nullopt;
    const NamedType* named = find_named(d.base);
    return named ? named->dtype : std::nullopt;
}

bool KernelParam::takes_array_of(DType dtype) const {
    const ParamKind param_kind = kind();
    if (param_kind == ParamKind::unknown || param_kind == ParamKind::other) return true;
    if (param_kind != ParamKind::pointer) return false;
    const std::optional<DType> element = pointee();
    if (!element || *element == dtype) return true;
    if (is_integer(*element) && is_integer(dtype) && itemsize(*element) == itemsize(dtype)) return true;
    return *element == DType::bfloat16 && dtype == DType::uint16;
}

void Kernel::check_array_argument(std::size_t index, std::size_t count, const Array& array) const {
    check_array_argument(index, count, array.dtype(), array.shape(), array.strides());
}

void Kernel::check_array_argument(std::size_t index, std::size_t count, DType dtype,
                                  std::span<const std::int64_t> shape, std::span<const std::int64_t> strides) const {
    const auto refuse = [&](const std::string& reason) {
        throw KernelArgumentError(detail::concat("Cannot launch ", name(), ": argument ", index, " ", reason),
                                  static_cast<int>(index));
    };
    const auto& params = state_->params;
    const KernelParam* param =
        state_->params_known && count == params.size() && index < params.size() ? &params[index] : nullptr;
    const bool taken = !param || (state_->array_dtypes[index] >> static_cast<unsigned>(dtype) & 1U) != 0;
    if (!taken) {
        if (state_->param_kinds[index] != ParamKind::pointer)
            refuse(detail::concat("is an array (a device address) but ", param->describe(index), " is not a pointer"));
        const DType element = *param->pointee();
        refuse(detail::concat("is a ", to_string(dtype), " array but ", param->describe(index), " points to ",
                              to_string(element), " elements; pass a ", to_string(element),
                              " array (convert with astype), or declare the parameter as ",
                              detail::c_type_of(dtype, detail::CTypeNames::cuda_headers),
                              " * (void *, char * and unsigned char * take any array)"));
    }
    if (!is_c_contiguous(shape, strides, static_cast<std::int64_t>(itemsize(dtype))))
        refuse(detail::concat("is a view that is not C-contiguous (shape ", format_shape(shape), ", strides ",
                              format_shape(strides),
                              " bytes), which the kernel would read as if its elements were contiguous; pass a "
                              "contiguous copy (copy()), or its address as DevicePtr{array.address()} with the "
                              "strides as further arguments"));
}

}  // namespace gpukit
