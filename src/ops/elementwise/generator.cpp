// src/ops/elementwise/generator.cpp: writes the CUDA C of an elementwise kernel.
#include "ops/elementwise/generator.hpp"

#include "array/c_type.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

std::string_view storage_c_type(DType dtype) { return c_type_of(dtype, CTypeNames::gpukit_prelude); }

std::string_view compute_c_type(DType dtype) {
    return dtype == DType::float16 || dtype == DType::bfloat16 ? "float" : storage_c_type(dtype);
}

namespace {

std::string operand_name(const OpKey& key, std::size_t k) {
    return k < key.nin ? concat("in", k) : concat("out", k - key.nin);
}

// The byte offsets of strided operands for element `i`: its coordinates, innermost first, dotted
// with each operand's strides.
std::string strided_offsets(const OpKey& key) {
    const std::size_t count = key.nin + key.nout;
    std::string code;
    bool any = false;
    for (std::size_t k = 0; k < count; ++k) {
        if (key.access[k] != AccessClass::strided) continue;
        code += concat("        gk_index gk_off", k, " = 0;\n");
        any = true;
    }
    if (!any) return code;
    code += "        gk_index gk_rest = i;\n";
    for (std::size_t d = key.ndim; d-- > 0;) {
        if (d > 0) {
            code += concat("        { const gk_index gk_c = gk_rest % (gk_index)p.shape[", d,
                           "]; gk_rest /= (gk_index)p.shape[", d, "];\n");
        } else {
            code += "        { const gk_index gk_c = gk_rest;\n";
        }
        for (std::size_t k = 0; k < count; ++k)
            if (key.access[k] == AccessClass::strided)
                code += concat("          gk_off", k, " += gk_c * (gk_index)p.strides[", k, "][", d, "];\n");
        code += "        }\n";
    }
    return code;
}

// The address of operand k's element i, as a typed pointer.
std::string element_pointer(const OpKey& key, std::size_t k) {
    const std::string_view type = storage_c_type(key.storage[k]);
    const std::string_view qualifier = k < key.nin ? "const " : "";
    std::string base = concat("((", qualifier, type, "*)p.address[", k, "])");
    switch (key.access[k]) {
        case AccessClass::scalar: return base;
        case AccessClass::strided:
            return concat("((", qualifier, type, "*)((", qualifier, "char*)p.address[", k, "] + gk_off", k, "))");
        case AccessClass::contiguous:
        case AccessClass::contiguous_aligned16: return concat("(", base, " + i)");
    }
    return base;
}

// Loads, the expression and stores for element i.
std::string element_body(const OpKey& key, std::string_view expression) {
    std::string code = strided_offsets(key);
    for (std::size_t k = 0; k < key.nin; ++k)
        code += concat("        const ", compute_c_type(key.loop[k]), " in", k, " = gk_convert<",
                       compute_c_type(key.loop[k]), ">(*", element_pointer(key, k), ");\n");
    for (std::size_t k = key.nin; k < key.nin + key.nout; ++k)
        code += concat("        ", compute_c_type(key.loop[k]), " ", operand_name(key, k), ";\n");
    code += concat("        ", expression, ";\n");
    for (std::size_t k = key.nin; k < key.nin + key.nout; ++k)
        code += concat("        *", element_pointer(key, k), " = gk_convert<", storage_c_type(key.storage[k]), ">(",
                       operand_name(key, k), ");\n");
    return code;
}

// Every operand contiguous and 16-byte aligned with one item size: groups of vector_width
// elements move as one 16-byte load or store each, then the remainder element by element.
std::string vector_body(const OpKey& key, std::string_view expression) {
    const std::size_t count = key.nin + key.nout;
    const unsigned w = key.vector_width;
    std::string code = concat("    const gk_index gk_groups = n / ", w, ";\n    GK_ELEMENTS(g, gk_groups) {\n");
    for (std::size_t k = 0; k < count; ++k) {
        const std::string vector = concat("gk_vector<", storage_c_type(key.storage[k]), ", ", w, ">");
        if (k < key.nin)
            code += concat("        const ", vector, " gk_v", k, " = ((const ", vector, "*)p.address[", k, "])[g];\n");
        else
            code += concat("        ", vector, " gk_v", k, ";\n");
    }
    code += concat("        for (int l = 0; l < ", w, "; ++l) {\n");
    for (std::size_t k = 0; k < key.nin; ++k)
        code += concat("            const ", compute_c_type(key.loop[k]), " in", k, " = gk_convert<",
                       compute_c_type(key.loop[k]), ">(gk_v", k, ".v[l]);\n");
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("            ", compute_c_type(key.loop[k]), " ", operand_name(key, k), ";\n");
    code += concat("            ", expression, ";\n");
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("            gk_v", k, ".v[l] = gk_convert<", storage_c_type(key.storage[k]), ">(",
                       operand_name(key, k), ");\n");
    code += "        }\n";
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("        ((", "gk_vector<", storage_c_type(key.storage[k]), ", ", w, ">*)p.address[", k,
                       "])[g] = gk_v", k, ";\n");
    code += "    }\n";
    code += concat("    GK_ELEMENTS(gk_t, n - gk_groups * ", w, ") {\n        const gk_index i = gk_groups * ", w,
                   " + gk_t;\n");
    code += element_body(key, expression);
    code += "    }\n";
    return code;
}

}  // namespace

std::string generate_elementwise(const OpKey& key, std::string_view expression) {
    std::string code = "// Generated by gpukit (src/ops/elementwise/generator.cpp).\n";
    if (key.index32) code += "#define GK_INDEX32\n";
    if (key.simulated) code += "#define GK_SIMULATED\n";
    code += concat("#include \"", elementwise_header_name, "\"\n\n");
    code += concat("extern \"C\" __global__ void ", elementwise_kernel_name, "(const gk_params p) {\n");
    code += "    const gk_index n = (gk_index)p.size;\n";
    if (key.vector_width > 1) {
        code += vector_body(key, expression);
    } else {
        code += "    GK_ELEMENTS(i, n) {\n";
        code += element_body(key, expression);
        code += "    }\n";
    }
    code += "}\n";
    return code;
}

}  // namespace gpukit::detail
