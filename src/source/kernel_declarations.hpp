// src/source/kernel_declarations.hpp: the __global__ functions CUDA C source declares, and their parameters.
//
// The driver reports only parameter byte sizes; launch errors quote the declaration the user wrote
// ("parameter 3 ('const int size', 4 bytes)"), so the names and types come from the source itself;
// the simulator registers the kernels it finds here. This is a tolerant reader, not a compiler:
// macros are not expanded, every branch of a conditional it cannot decide is read (so every kernel
// that may be compiled is seen), and on anything it cannot read it returns nothing rather than
// guess. It never throws on malformed or truncated input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail {

struct DeclaredParam {
    std::string type;  // normalised spelling: single spaces, "const float *", "float [16]", "Pair<int, float>"
    std::string name;  // empty for an unnamed parameter

    friend bool operator==(const DeclaredParam&, const DeclaredParam&) = default;
};

// The parameters of the __global__ function `kernel_name` as declared in `source`. `kernel_name` may be a
// plain name ("vector_add"), a qualified name ("ns::k", "::k" for the global namespace only) or a name
// expression with template arguments ("axpy<float>", "&axpy<float>"), which matches the base name "axpy"
// and prefers an explicit specialisation for exactly those arguments when there is one.
// Returns nullopt when no __global__ declaration or definition of that name is found, or when several
// overloads with different parameter lists exist (ambiguous). Default arguments are dropped.
std::optional<std::vector<DeclaredParam>> parse_kernel_params(std::string_view source, std::string_view kernel_name);

// A __global__ function as the source declares it.
struct DeclaredKernel {
    std::string name;            // "reduce"
    std::string qualified_name;  // "ns::reduce"; the same as name at global scope
    bool is_template = false;    // needs template arguments (a name expression) to be named
    bool is_overloaded = false;  // several parameter lists under one name: `&name` is ambiguous
};

// Every __global__ function declared in `source`, in order of first appearance, one entry per
// qualified name.
std::vector<DeclaredKernel> declared_kernels(std::string_view source);

// Every __global__ function name declared in `source`: base names, in order of first appearance, without
// duplicates.
std::vector<std::string> declared_kernel_names(std::string_view source);

// The names of the __constant__ variables `source` declares, unqualified ("coefficients" for
// `namespace ns { __constant__ float coefficients[4]; }`), in order, without duplicates.
std::vector<std::string> declared_constant_names(std::string_view source);

}  // namespace gpukit::detail
