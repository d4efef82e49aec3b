// src/ops/elementwise/generator.cpp: writes the CUDA C of elementwise kernels.
//
// Two shapes of kernel, one expression language:
// - for a GPU, one kernel per key, its layout in its text (contiguous operands indexed by i,
//   16-byte vectors, only strided operands decoding coordinates): the fastest code per layout,
//   and NVRTC compiles one in tens of milliseconds;
// - for the simulator, one generic kernel per loop, all of an operation's loops in one source,
//   the layout and storage dtypes read from the parameters at run time: g++ takes about half a
//   second per compile, so one compile serves every layout and dtype an operation meets. Each
//   simulated thread walks one contiguous chunk, its coordinates advanced like an odometer.
#include "ops/elementwise/generator.hpp"

#include <algorithm>
#include <regex>

#include "array/c_type.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

std::string_view storage_c_type(DType dtype) { return c_type_of(dtype, CTypeNames::gpukit_prelude); }

std::string_view compute_c_type(DType dtype) {
    return dtype == DType::float16 || dtype == DType::bfloat16 ? "float" : storage_c_type(dtype);
}

namespace {

std::string operand_name(std::size_t nin, std::size_t k) { return k < nin ? concat("in", k) : concat("out", k - nin); }

std::size_t operand_count(const OpKey& key) { return std::size_t{key.nin} + key.nout + (key.masked ? 1 : 0); }

DType storage_of(const OpKey& key, std::size_t k) { return k < key.nin + key.nout ? key.storage[k] : DType::bool_; }

// The byte offsets of strided operands for element `i`: its coordinates, innermost first, dotted
// with each operand's strides.
std::string strided_offsets(const OpKey& key) {
    const std::size_t count = operand_count(key);
    std::string code;
    bool any = false;
    for (std::size_t k = 0; k < count; ++k) {
        if (!decodes_coordinates(key.access[k])) continue;
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
            if (decodes_coordinates(key.access[k]))
                code += concat("          gk_off", k, " += gk_c * (gk_index)p.strides[", k, "][", d, "];\n");
        code += "        }\n";
    }
    return code;
}

// The address of operand k's element i, as a typed pointer.
std::string element_pointer(const OpKey& key, std::size_t k) {
    const std::string_view type = storage_c_type(storage_of(key, k));
    const std::string_view qualifier = k < key.nin || k >= std::size_t{key.nin} + key.nout ? "const " : "";
    std::string base = concat("((", qualifier, type, "*)p.address[", k, "])");
    switch (key.access[k]) {
        case AccessClass::scalar:
        case AccessClass::immediate: return base;
        case AccessClass::strided:
        case AccessClass::rows_broadcast:
        case AccessClass::rows_aligned16:
        case AccessClass::transposed:
            return concat("((", qualifier, type, "*)((", qualifier, "char*)p.address[", k, "] + gk_off", k, "))");
        case AccessClass::contiguous:
        case AccessClass::contiguous_aligned16: return concat("(", base, " + i)");
    }
    return base;
}

// Scalar operands, converted once before the loop.
std::string immediates(const OpKey& key) {
    std::string code;
    for (std::size_t k = 0; k < key.nin; ++k)
        if (key.access[k] == AccessClass::immediate)
            code += concat("    const ", compute_c_type(key.loop[k]), " gk_imm", k, " = gk_convert<",
                           compute_c_type(key.loop[k]), ">(*(const ", storage_c_type(key.loop[k]), "*)p.immediate[", k,
                           "]);\n");
    return code;
}

std::string load_input(const OpKey& key, std::size_t k, const std::string& source) {
    const std::string_view type = compute_c_type(key.loop[k]);
    if (key.access[k] == AccessClass::immediate) return concat("const ", type, " in", k, " = gk_imm", k, ";");
    return concat("const ", type, " in", k, " = gk_convert<", type, ">(", source, ");");
}

// Loads, the expression and stores for element i.
std::string element_body(const OpKey& key, std::string_view expression) {
    std::string code = strided_offsets(key);
    for (std::size_t k = 0; k < key.nin; ++k)
        code += concat("        ", load_input(key, k, concat("*", element_pointer(key, k))), "\n");
    for (std::size_t k = key.nin; k < std::size_t{key.nin} + key.nout; ++k)
        code += concat("        ", compute_c_type(key.loop[k]), " ", operand_name(key.nin, k), ";\n");
    code += concat("        ", expression, ";\n");
    const std::size_t mask = std::size_t{key.nin} + key.nout;
    if (key.masked) code += concat("        if (*", element_pointer(key, mask), ") {\n");
    for (std::size_t k = key.nin; k < mask; ++k)
        code += concat("        *", element_pointer(key, k), " = gk_convert<", storage_c_type(key.storage[k]), ">(",
                       operand_name(key.nin, k), ");\n");
    if (key.masked) code += "        }\n";
    return code;
}

// Every array operand contiguous and 16-byte aligned with one item size: groups of vector_width
// elements move as one 16-byte load or store each, then the remainder element by element.
std::string vector_body(const OpKey& key, std::string_view expression) {
    const std::size_t count = std::size_t{key.nin} + key.nout;
    const unsigned w = key.vector_width;
    std::string code = concat("    const gk_index gk_groups = n / ", w, ";\n    GK_ELEMENTS(g, gk_groups) {\n");
    for (std::size_t k = 0; k < count; ++k) {
        if (key.access[k] == AccessClass::immediate) continue;
        const std::string vector = concat("gk_vector<", storage_c_type(key.storage[k]), ", ", w, ">");
        if (k < key.nin)
            code += concat("        const ", vector, " gk_v", k, " = ((const ", vector, "*)p.address[", k, "])[g];\n");
        else
            code += concat("        ", vector, " gk_v", k, ";\n");
    }
    code += concat("        for (int l = 0; l < ", w, "; ++l) {\n            const gk_index i = g * ", w, " + l;\n");
    for (std::size_t k = 0; k < key.nin; ++k)
        code += concat("            ", load_input(key, k, concat("gk_v", k, ".v[l]")), "\n");
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("            ", compute_c_type(key.loop[k]), " ", operand_name(key.nin, k), ";\n");
    code += concat("            ", expression, ";\n");
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("            gk_v", k, ".v[l] = gk_convert<", storage_c_type(key.storage[k]), ">(",
                       operand_name(key.nin, k), ");\n");
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

// Vectors along rows: every array operand of one item size, the innermost extent a multiple of
// vector_width, and each operand contiguous (indexed by group), a row broadcast (one element per
// group), a row-aligned view (a 16-byte load at its decoded offset) or one element everywhere. One
// coordinate decode per group of 16 bytes instead of one per element.
std::string rows_vector_body(const OpKey& key, std::string_view expression) {
    const std::size_t count = std::size_t{key.nin} + key.nout;
    const unsigned w = key.vector_width;
    std::string code = concat("    GK_ELEMENTS(g, n / ", w, ") {\n        const gk_index i = g * ", w, ";\n");
    code += strided_offsets(key);
    for (std::size_t k = 0; k < count; ++k) {
        const std::string_view type = storage_c_type(key.storage[k]);
        const std::string vector = concat("gk_vector<", type, ", ", w, ">");
        const std::string_view qualifier = k < key.nin ? "const " : "";
        switch (key.access[k]) {
            case AccessClass::contiguous_aligned16:
                code += concat("        ", qualifier, vector, "* const gk_at", k, " = ((", qualifier, vector,
                               "*)p.address[", k, "]) + g;\n");
                break;
            case AccessClass::rows_aligned16:
                code += concat("        ", qualifier, vector, "* const gk_at", k, " = (", qualifier, vector, "*)((",
                               qualifier, "char*)p.address[", k, "] + gk_off", k, ");\n");
                break;
            case AccessClass::rows_broadcast:
            case AccessClass::scalar:
                code += concat("        const ", compute_c_type(key.loop[k]), " gk_one", k, " = gk_convert<",
                               compute_c_type(key.loop[k]), ">(*", element_pointer(key, k), ");\n");
                break;
            default: break;  // immediates: gk_imm, hoisted
        }
        if (k < key.nin &&
            (key.access[k] == AccessClass::contiguous_aligned16 || key.access[k] == AccessClass::rows_aligned16))
            code += concat("        const ", vector, " gk_v", k, " = *gk_at", k, ";\n");
        if (k >= key.nin) code += concat("        ", vector, " gk_v", k, ";\n");
    }
    // `i` of the group's first element decoded the offsets; each element's own shadows it.
    code += concat("        const gk_index gk_group_i = i;\n        for (int l = 0; l < ", w,
                   "; ++l) {\n            const gk_index i = gk_group_i + l;\n");
    for (std::size_t k = 0; k < key.nin; ++k) {
        const std::string_view type = compute_c_type(key.loop[k]);
        switch (key.access[k]) {
            case AccessClass::immediate:
                code += concat("            const ", type, " in", k, " = gk_imm", k, ";\n");
                break;
            case AccessClass::rows_broadcast:
            case AccessClass::scalar:
                code += concat("            const ", type, " in", k, " = gk_one", k, ";\n");
                break;
            default:
                code += concat("            const ", type, " in", k, " = gk_convert<", type, ">(gk_v", k, ".v[l]);\n");
        }
    }
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("            ", compute_c_type(key.loop[k]), " ", operand_name(key.nin, k), ";\n");
    code += concat("            ", expression, ";\n");
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("            gk_v", k, ".v[l] = gk_convert<", storage_c_type(key.storage[k]), ">(",
                       operand_name(key.nin, k), ");\n");
    code += "        }\n";
    for (std::size_t k = key.nin; k < count; ++k) code += concat("        *gk_at", k, " = gk_v", k, ";\n");
    code += "    }\n";
    return code;
}

// Two dimensions with transposed inputs (a.T + b): each block takes 32x32 tiles of the output in
// turn; a transposed input's tile is read down its contiguous dimension (coalesced) into shared
// memory (33 columns: no bank conflicts) and read across from there, so that every global access
// is coalesced. 256 threads: 32 across, 8 down.
std::string tiled_body(const OpKey& key, std::string_view expression) {
    const std::size_t count = std::size_t{key.nin} + key.nout;
    std::string code;
    for (std::size_t k = 0; k < key.nin; ++k)
        if (key.access[k] == AccessClass::transposed)
            code += concat("    __shared__ ", storage_c_type(key.storage[k]), " gk_tile", k, "[32][33];\n");
    code += "    const gk_index gk_rows = (gk_index)p.shape[0], gk_cols = (gk_index)p.shape[1];\n";
    code += "    const gk_index gk_across = (gk_cols + 31) / 32, gk_tiles = gk_across * ((gk_rows + 31) / 32);\n";
    code += "    const int gk_tx = threadIdx.x % 32, gk_ty = threadIdx.x / 32;\n";
    code += "    for (gk_index t = blockIdx.x; t < gk_tiles; t += gridDim.x) {\n";
    code += "        const gk_index gk_r0 = (t / gk_across) * 32, gk_c0 = (t % gk_across) * 32;\n";
    for (std::size_t k = 0; k < key.nin; ++k) {
        if (key.access[k] != AccessClass::transposed) continue;
        code += concat("        for (int y = gk_ty; y < 32; y += 8) {\n");
        code += "            const gk_index r = gk_r0 + gk_tx, c = gk_c0 + y;\n";
        code += concat("            if (r < gk_rows && c < gk_cols) gk_tile", k, "[y][gk_tx] = *(const ",
                       storage_c_type(key.storage[k]), "*)((const char*)p.address[", k, "] + r * (gk_index)p.strides[",
                       k, "][0] + c * (gk_index)p.strides[", k, "][1]);\n");
        code += "        }\n";
    }
    code += "        __syncthreads();\n";
    code += "        for (int y = gk_ty; y < 32; y += 8) {\n";
    code += "            const gk_index r = gk_r0 + y, c = gk_c0 + gk_tx;\n";
    code += "            if (r < gk_rows && c < gk_cols) {\n";
    code += "                const gk_index i = r * gk_cols + c;\n";
    for (std::size_t k = 0; k < count; ++k)
        if (decodes_coordinates(key.access[k]) && key.access[k] != AccessClass::transposed)
            code += concat("                const gk_index gk_off", k, " = r * (gk_index)p.strides[", k,
                           "][0] + c * (gk_index)p.strides[", k, "][1];\n");
    for (std::size_t k = 0; k < key.nin; ++k) {
        const std::string_view type = compute_c_type(key.loop[k]);
        if (key.access[k] == AccessClass::transposed)
            code += concat("                const ", type, " in", k, " = gk_convert<", type, ">(gk_tile", k,
                           "[gk_tx][y]);\n");
        else
            code += concat("                ", load_input(key, k, concat("*", element_pointer(key, k))), "\n");
    }
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("                ", compute_c_type(key.loop[k]), " ", operand_name(key.nin, k), ";\n");
    code += concat("                ", expression, ";\n");
    for (std::size_t k = key.nin; k < count; ++k)
        code += concat("                *", element_pointer(key, k), " = gk_convert<", storage_c_type(key.storage[k]),
                       ">(", operand_name(key.nin, k), ");\n");
    code += "            }\n        }\n        __syncthreads();\n    }\n";
    return code;
}

// GK_SIMULATED, and DType's numbers for the simulator prelude's gk_load and gk_store.
std::string simulator_defines() { return "#define GK_SIMULATED\n" + dtype_number_defines(); }

// One element of the simulator's converting path, from its operands' addresses gk_at0.. : the
// mask, loads of any storage dtype, the expression, stores. `continue`s past a masked-out element.
std::string converting_element(std::size_t nin, std::size_t nout, const GenericLoop& loop, std::string_view indent,
                               bool from_tile = false) {
    const std::size_t count = nin + nout;
    const auto storage = [&](std::size_t k) { return storage_c_type(loop.dtypes[k]); };
    const auto compute = [&](std::size_t k) { return compute_c_type(loop.dtypes[k]); };
    std::string code = concat(indent, "if (p.masked && !*(const bool*)gk_at", count, ") continue;\n");
    for (std::size_t k = 0; k < nin; ++k)
        code += concat(indent, "const ", compute(k), " in", k, " = ",
                       from_tile ? concat("gk_tiled", k, " ? ((const ", compute(k), "*)gk_tile)[gk_t] : ") : "",
                       "gk_same", k, " ? gk_convert<", compute(k), ">(*(const ", storage(k), "*)gk_at", k,
                       ") : gk_load<", compute(k), ">(p.storage[", k, "], gk_at", k, ");\n");
    for (std::size_t k = nin; k < count; ++k) code += concat(indent, compute(k), " ", operand_name(nin, k), ";\n");
    code += concat(indent, loop.expression, ";\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat(indent, "if (gk_same", k, ") *(", storage(k), "*)gk_at", k, " = gk_convert<", storage(k), ">(",
                       operand_name(nin, k), ");\n", indent, "else gk_store(p.storage[", k, "], (void*)gk_at", k, ", ",
                       operand_name(nin, k), ");\n");
    return code;
}

// One generic kernel (simulator). Its fast path (p.flat): every operand a contiguous array of its
// loop dtype, no mask, a loop the compiler may vectorize. Else rows of the innermost dimension, each
// a tight loop with per-operand byte strides (0 for a scalar, which points at its local copy), the
// coordinates advanced like an odometer between rows; operands of another dtype than the loop's
// convert through gk_load and gk_store.
std::string generic_kernel(std::size_t nin, std::size_t nout, const GenericLoop& loop, std::size_t index) {
    const std::size_t count = nin + nout;
    const auto storage = [&](std::size_t k) { return storage_c_type(loop.dtypes[k]); };
    const auto compute = [&](std::size_t k) { return compute_c_type(loop.dtypes[k]); };
    std::string code = concat("extern \"C\" __global__ void ", generic_kernel_name(index), "(const gk_params p) {\n");
    code += "    const gk_index n = (gk_index)p.size;\n";
    code += "    const gk_index gk_begin = gk_chunk_begin(n), gk_end = gk_chunk_end(n);\n";
    code += "    if (gk_begin >= gk_end) return;\n";
    code += "    if (p.flat) {\n";
    for (std::size_t k = 0; k < count; ++k)
        code += concat("        ", k < nin ? "const " : "", storage(k), "* __restrict__ const gk_p", k, " = (",
                       k < nin ? "const " : "", storage(k), "*)p.address[", k, "];\n");
    code += "#pragma GCC ivdep\n        for (gk_index i = gk_begin; i < gk_end; ++i) {\n";
    for (std::size_t k = 0; k < nin; ++k)
        code +=
            concat("            const ", compute(k), " in", k, " = gk_convert<", compute(k), ">(gk_p", k, "[i]);\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat("            ", compute(k), " ", operand_name(nin, k), ";\n");
    code += concat("            ", loop.expression, ";\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat("            gk_p", k, "[i] = gk_convert<", storage(k), ">(", operand_name(nin, k), ");\n");
    code += "        }\n        return;\n    }\n";

    // Scalars: a local copy each, which the operand's pointer points at with stride 0.
    for (std::size_t k = 0; k < nin; ++k)
        code += concat("    const ", storage(k), " gk_imm", k, " = *(const ", storage(k), "*)p.immediate[", k, "];\n");
    for (std::size_t k = 0; k <= count; ++k) {
        const std::string address =
            k < nin ? concat("p.is_immediate[", k, "] ? (const char*)&gk_imm", k, " : (const char*)p.address[", k, "]")
                    : concat("(const char*)p.address[", k, "]");
        code += concat("    const char* const gk_base", k, " = ", address, ";\n");
        code += concat("    const bool gk_same", k, " = ",
                       k < count ? concat("p.storage[", k, "] == ", static_cast<int>(loop.dtypes[k])) : "true", ";\n");
        code += concat("    const gk_index gk_inner", k, " = p.ndim ? (gk_index)p.strides[", k, "][p.ndim - 1] : 0;\n");
        code += concat("    gk_index gk_off", k, " = 0;\n");
    }
    {
        std::string typed = "!p.masked";
        for (std::size_t k = 0; k < count; ++k) typed += concat(" && gk_same", k);
        code += concat("    const bool gk_typed = ", typed, ";\n");
    }
    // Two dimensions with a transposed input (p.tiled: its number + 1): each thread takes whole rows
    // and walks them in 16 x 32 tiles; the transposed input's tile is first read down its
    // contiguous direction into a local buffer (as a GPU stages it in shared memory). Read in
    // place, a.T's elements are 16 KB apart along a row: all in one L1 set, a miss each.
    code += "    if (p.tiled) {\n";
    code += "        unsigned long long gk_tile[16 * 32 * 2];  // 16 x 32 elements of up to 16 bytes\n";
    for (std::size_t k = 0; k < nin; ++k)
        code += concat("        const bool gk_tiled", k, " = p.tiled == ", k + 1, ";\n");
    code += "        const gk_index gk_rows = (gk_index)p.shape[0], gk_cols = (gk_index)p.shape[1];\n";
    code += "        const gk_index gk_per = (gk_rows + gk_thread_count() - 1) / gk_thread_count();\n";
    code += "        gk_index gk_r_begin = gk_thread_rank() * gk_per, gk_r_end = gk_r_begin + gk_per;\n";
    code +=
        "        if (gk_r_begin > gk_rows) gk_r_begin = gk_rows;\n        if (gk_r_end > gk_rows) gk_r_end = "
        "gk_rows;\n";
    code += "        for (gk_index gk_rb = gk_r_begin; gk_rb < gk_r_end; gk_rb += 16) {\n";
    code += "            const gk_index gk_rt = gk_rb + 16 < gk_r_end ? gk_rb + 16 : gk_r_end;\n";
    code += "            for (gk_index gk_cb = 0; gk_cb < gk_cols; gk_cb += 32) {\n";
    code += "                const gk_index gk_ct = gk_cb + 32 < gk_cols ? gk_cb + 32 : gk_cols;\n";
    for (std::size_t k = 0; k < nin; ++k) {
        code += concat("                if (p.tiled == ", k + 1, ") {\n");
        code += concat("                    ", compute(k), "* const gk_staged = (", compute(k), "*)gk_tile;\n");
        code += "                    for (gk_index c = gk_cb; c < gk_ct; ++c)\n";
        code += "                        for (gk_index r = gk_rb; r < gk_rt; ++r) {\n";
        code += concat("                            const char* const gk_at = gk_base", k,
                       " + r * (gk_index)p.strides[", k, "][0] + c * (gk_index)p.strides[", k, "][1];\n");
        code += concat("                            gk_staged[(c - gk_cb) * 16 + (r - gk_rb)] = gk_same", k,
                       " ? gk_convert<", compute(k), ">(*(const ", storage(k), "*)gk_at) : gk_load<", compute(k),
                       ">(p.storage[", k, "], gk_at);\n");
        code += "                        }\n                }\n";
    }
    code += "                for (gk_index r = gk_rb; r < gk_rt; ++r) {\n";
    for (std::size_t k = 0; k <= count; ++k)
        code += concat("                    const char* const gk_row", k, " = gk_base", k,
                       " + r * (gk_index)p.strides[", k, "][0] + gk_cb * gk_inner", k, ";\n");
    code += "                    const gk_index gk_width = gk_ct - gk_cb, gk_t0 = r - gk_rb;\n";
    code += "                    if (gk_typed) {\n";
    code += "                        for (gk_index j = 0; j < gk_width; ++j) {\n";
    code += "                            const gk_index i = r * gk_cols + gk_cb + j;\n";
    for (std::size_t k = 0; k < nin; ++k)
        code += concat("                            const ", compute(k), " in", k, " = gk_tiled", k, " ? ((const ",
                       compute(k), "*)gk_tile)[j * 16 + gk_t0] : gk_convert<", compute(k), ">(*(const ", storage(k),
                       "*)(gk_row", k, " + j * gk_inner", k, "));\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat("                            ", compute(k), " ", operand_name(nin, k), ";\n");
    code += concat("                            ", loop.expression, ";\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat("                            *(", storage(k), "*)(gk_row", k, " + j * gk_inner", k,
                       ") = gk_convert<", storage(k), ">(", operand_name(nin, k), ");\n");
    code += "                        }\n                        continue;\n                    }\n";
    code += "                    for (gk_index j = 0; j < gk_width; ++j) {\n";
    code += "                        const gk_index gk_t = j * 16 + gk_t0, i = r * gk_cols + gk_cb + j;\n";
    for (std::size_t k = 0; k <= count; ++k)
        code +=
            concat("                        const char* const gk_at", k, " = gk_row", k, " + j * gk_inner", k, ";\n");
    code += converting_element(nin, nout, loop, "                        ", true);
    code += "                    }\n                }\n            }\n        }\n        return;\n    }\n";
    code += "    gk_index gk_coord[GK_MAX_DIMS];\n";
    code += "    {\n        gk_index gk_rest = gk_begin;\n";
    code += "        for (int d = p.ndim - 1; d >= 0; --d) {\n";
    code += "            gk_coord[d] = gk_rest % (gk_index)p.shape[d];\n            gk_rest /= (gk_index)p.shape[d];\n";
    for (std::size_t k = 0; k <= count; ++k)
        code += concat("            gk_off", k, " += gk_coord[d] * (gk_index)p.strides[", k, "][d];\n");
    code += "        }\n    }\n";
    code += "    for (gk_index i = gk_begin; i < gk_end;) {\n";
    code += "        gk_index gk_row = p.ndim ? (gk_index)p.shape[p.ndim - 1] - gk_coord[p.ndim - 1] : 1;\n";
    code += "        if (gk_row > gk_end - i) gk_row = gk_end - i;\n";
    // Every operand of its loop dtype and no mask (broadcasts, transposes): typed loads, no branches.
    // The row's first element is i; each element's own shadows it inside the row's loop.
    code += "        const gk_index gk_row_i = i;\n";
    code += "        if (gk_typed) {\n            for (gk_index j = 0; j < gk_row; ++j) {\n";
    code += "                const gk_index i = gk_row_i + j;\n";
    for (std::size_t k = 0; k < nin; ++k)
        code += concat("                const ", compute(k), " in", k, " = gk_convert<", compute(k), ">(*(const ",
                       storage(k), "*)(gk_base", k, " + gk_off", k, " + j * gk_inner", k, "));\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat("                ", compute(k), " ", operand_name(nin, k), ";\n");
    code += concat("                ", loop.expression, ";\n");
    for (std::size_t k = nin; k < count; ++k)
        code += concat("                *(", storage(k), "*)(gk_base", k, " + gk_off", k, " + j * gk_inner", k,
                       ") = gk_convert<", storage(k), ">(", operand_name(nin, k), ");\n");
    code += "            }\n        } else\n";
    code += "        for (gk_index j = 0; j < gk_row; ++j) {\n            const gk_index i = gk_row_i + j;\n";
    for (std::size_t k = 0; k <= count; ++k)
        code += concat("            const char* const gk_at", k, " = gk_base", k, " + gk_off", k, " + j * gk_inner", k,
                       ";\n");
    code += converting_element(nin, nout, loop, "            ");
    code += "        }\n";
    code += "        i += gk_row;\n";
    code += "        if (p.ndim == 0) break;\n";
    // The row's end: the innermost coordinate wraps to 0, then the odometer carries.
    for (std::size_t k = 0; k <= count; ++k) code += concat("        gk_off", k, " += gk_row * gk_inner", k, ";\n");
    code += "        gk_coord[p.ndim - 1] += gk_row;\n";
    code += "        for (int d = p.ndim - 1; d > 0 && gk_coord[d] == (gk_index)p.shape[d]; --d) {\n";
    code += "            gk_coord[d] = 0;\n            ++gk_coord[d - 1];\n";
    for (std::size_t k = 0; k <= count; ++k)
        code += concat("            gk_off", k, " += (gk_index)p.strides[", k, "][d - 1] - (gk_index)p.strides[", k,
                       "][d] * (gk_index)p.shape[d];\n");
    code += "        }\n    }\n}\n\n";
    return code;
}

}  // namespace

std::string generic_kernel_name(std::size_t index) { return concat("gk_loop", index); }

std::string generate_elementwise(const OpKey& key, std::string_view expression) {
    std::string code = "// Generated by gpukit (src/ops/elementwise/generator.cpp).\n";
    if (key.index32) code += "#define GK_INDEX32\n";
    if (key.simulated) code += simulator_defines();
    code += concat("#include \"", elementwise_header_name, "\"\n\n");
    code += concat("extern \"C\" __global__ void ", elementwise_kernel_name, "(const gk_params p) {\n");
    code += "    const gk_index n = (gk_index)p.size;\n";
    code += immediates(key);
    const bool rows = std::any_of(key.access.begin(), key.access.begin() + operand_count(key), [](AccessClass a) {
        return a == AccessClass::rows_aligned16 || a == AccessClass::rows_broadcast || a == AccessClass::scalar;
    });
    if (key.tiled) {
        code += tiled_body(key, expression);
    } else if (key.vector_width > 1 && rows) {
        code += rows_vector_body(key, expression);
    } else if (key.vector_width > 1) {
        code += vector_body(key, expression);
    } else {
        code += "    GK_ELEMENTS(i, n) {\n";
        code += element_body(key, expression);
        code += "    }\n";
    }
    code += "}\n";
    return code;
}

std::string generate_generic_elementwise(std::size_t nin, std::size_t nout, std::span<const GenericLoop> loops) {
    std::string code = "// Generated by gpukit (src/ops/elementwise/generator.cpp): one generic kernel per loop.\n";
    code += simulator_defines();
    code += concat("#include \"", elementwise_header_name, "\"\n\n");
    for (std::size_t index = 0; index < loops.size(); ++index) code += generic_kernel(nin, nout, loops[index], index);
    return code;
}

// ---- ElementwiseKernel (generate_user_elementwise): kept apart from the engine's shapes above,
// which run fixed expressions over in0.. and out0..; here the operation is the user's and reads its
// parameters by name.

namespace {

std::string user_prologue(const UserKernelText& text, bool simulated, bool index32) {
    std::string code =
        concat("// Generated by gpukit (src/ops/elementwise/generator.cpp): ElementwiseKernel ", text.name, ".\n");
    if (index32) code += "#define GK_INDEX32\n";
    if (simulated) code += simulator_defines();
    code += concat("#include \"", elementwise_header_name, "\"\n#include \"", elementwise_kernel_header_name, "\"\n");
    for (const auto& [letter, dtype] : text.placeholders)
        code += concat("typedef ", compute_c_type(dtype), " ", letter, ";\n");
    // The user's code on lines of its own (a // comment at its end must not swallow ours).
    code += concat(text.preamble, "\n");
    return code;
}

// A raw parameter's type, named so that the signature has no template arguments in it.
std::string raw_type_name(const UserParam& param) { return concat("gk_raw_", param.name); }

std::string user_signature(const UserKernelText& text, std::span<const UserParam> params) {
    std::string code;
    for (const UserParam& param : params)
        if (param.kind == UserParamKind::raw)
            code += concat("typedef gk_raw<", storage_c_type(param.dtype), ", ", compute_c_type(param.dtype), "> ",
                           raw_type_name(param), ";\n");
    code += concat("extern \"C\" __global__ void ", text.name, "(");
    for (const UserParam& param : params) {
        switch (param.kind) {
            case UserParamKind::array: code += concat("const gk_ew_array gk_array_", param.name, ", "); break;
            case UserParamKind::raw:
                code += concat(param.writable ? "" : "const ", raw_type_name(param), " ", param.name, ", ");
                break;
            case UserParamKind::scalar:
                code += concat("const ", storage_c_type(param.dtype), " gk_scalar_", param.name, ", ");
                break;
        }
    }
    code += "const gk_ew_loop gk_loop) {\n    const gk_index gk_n = (gk_index)gk_loop.size;\n";
    for (const UserParam& param : params)
        if (param.kind == UserParamKind::scalar)
            code += concat("    const ", compute_c_type(param.dtype), " ", param.name, " = gk_convert<",
                           compute_c_type(param.dtype), ">(gk_scalar_", param.name, ");\n");
    if (!text.loop_prep.empty()) code += concat(text.loop_prep, "\n    ;\n");
    return code;
}

// Binds an array parameter's element at `address` (a const char* or char* expression) to its name.
std::string bind_element(const UserParam& param, const std::string& address, std::string_view indent) {
    const std::string_view storage = storage_c_type(param.dtype);
    const std::string_view compute = compute_c_type(param.dtype);
    if (!param.writable)
        return concat(indent, "const ", compute, " ", param.name, " = gk_convert<", compute, ">(*(const ", storage,
                      "*)(", address, "));\n");
    return concat(indent, "typename gk_element<", storage, ", ", compute, ">::reference ", param.name, " = gk_element<",
                  storage, ", ", compute, ">::at((", storage, "*)(", address, "));\n");
}

std::string user_operation(const UserKernelText& text, std::string_view indent) {
    return concat(indent, "const gk_user_index _ind = {gk_n, i};\n", text.operation, "\n", indent, ";\n");
}

// The GPU's shape: element i per thread in grid-stride order (GK_ELEMENTS), contiguous arrays at
// i, strided ones through their coordinates decoded from i.
std::string user_gpu_body(const UserKernelText& text, std::span<const UserParam> params,
                          const UserKernelLayout& layout) {
    std::string code = "    GK_ELEMENTS(i, gk_n) {\n";
    bool strided = false;
    for (const UserParam& param : params) {
        if (param.kind != UserParamKind::array || !decodes_coordinates(param.access)) continue;
        code += concat("        gk_index gk_off_", param.name, " = 0;\n");
        strided = true;
    }
    if (strided) {
        code += "        gk_index gk_rest = i;\n";
        for (std::size_t d = layout.ndim; d-- > 0;) {
            if (d > 0)
                code += concat("        { const gk_index gk_c = gk_rest % (gk_index)gk_loop.shape[", d,
                               "]; gk_rest /= (gk_index)gk_loop.shape[", d, "];\n");
            else
                code += "        { const gk_index gk_c = gk_rest;\n";
            for (const UserParam& param : params)
                if (param.kind == UserParamKind::array && decodes_coordinates(param.access))
                    code += concat("          gk_off_", param.name, " += gk_c * (gk_index)gk_array_", param.name,
                                   ".strides[", d, "];\n");
            code += "        }\n";
        }
    }
    for (const UserParam& param : params) {
        if (param.kind != UserParamKind::array) continue;
        const std::string base = concat("(", param.writable ? "" : "const ", "char*)gk_array_", param.name, ".address");
        std::string address;
        if (param.access == AccessClass::contiguous || param.access == AccessClass::contiguous_aligned16)
            address = concat(base, " + i * (gk_index)sizeof(", storage_c_type(param.dtype), ")");
        else if (decodes_coordinates(param.access))
            address = concat(base, " + gk_off_", param.name);
        else
            address = base;
        code += bind_element(param, address, "        ");
    }
    code += user_operation(text, "        ");
    code += "    }\n";
    return code;
}

// Whether the operation surely assigns output `name` before anything reads it, in every element:
// it has no branch (no if, loop, switch or continue), and every mention of the name begins a
// statement `name = ...`. The vector shape then need not load the output's group first: a load of
// memory the operation overwrites costs bandwidth (when the compiler keeps it) and reads memory
// nothing wrote yet. In any doubt, false (the group is loaded; correct whatever the operation).
bool assigned_before_read(const UserKernelText& text, std::string_view name) {
    static const std::regex branch(R"(\b(if|else|for|while|do|switch|case|continue)\b)");
    const std::string op(text.operation);
    if (std::regex_search(op, branch)) return false;
    const std::regex mention(concat("\\b", name, "\\b"));
    for (const std::string_view outside : {text.preamble, text.loop_prep})
        if (std::regex_search(outside.begin(), outside.end(), mention)) return false;
    const std::regex assignment(concat("(^|[;{}\n])\\s*", name, "\\s*=(?!=)"));
    const auto mentions = std::distance(std::sregex_iterator(op.begin(), op.end(), mention), std::sregex_iterator());
    const auto assignments =
        std::distance(std::sregex_iterator(op.begin(), op.end(), assignment), std::sregex_iterator());
    return mentions > 0 && mentions == assignments;
}

// The GPU's shape where every array is contiguous and aligned: each thread loads one 16-byte group
// (fewer bytes for narrower items) of every array, binds each element of the group to its name in
// turn (an output as a reference into its group), then stores the outputs' groups: memory moves in
// 16-byte transactions. Outputs are loaded too (an element the operation leaves alone keeps its
// value), unless surely assigned first. The last n % width elements go one by one.
std::string user_vector_body(const UserKernelText& text, std::span<const UserParam> params, unsigned width) {
    std::string code =
        concat("    const gk_index gk_groups = gk_n / ", width, ";\n    GK_ELEMENTS(gk_g, gk_groups) {\n");
    const auto vector_type = [width](const UserParam& param) {
        return concat("gk_vector<", storage_c_type(param.dtype), ", ", width, ">");
    };
    for (const UserParam& param : params) {
        if (param.kind != UserParamKind::array) continue;
        code += concat("        ", vector_type(param), " gk_v_", param.name);
        if (param.writable && assigned_before_read(text, param.name))
            code += ";\n";
        else
            code += concat(" = ((const ", vector_type(param), "*)gk_array_", param.name, ".address)[gk_g];\n");
    }
    code += concat("#pragma unroll\n        for (int gk_l = 0; gk_l < ", width,
                   "; ++gk_l) {\n            const gk_index i = gk_g * ", width, " + gk_l;\n");
    for (const UserParam& param : params)
        if (param.kind == UserParamKind::array)
            code += bind_element(param, concat("&gk_v_", param.name, ".v[gk_l]"), "            ");
    code += user_operation(text, "            ");
    code += "        }\n";
    for (const UserParam& param : params)
        if (param.kind == UserParamKind::array && param.writable)
            code += concat("        ((", vector_type(param), "*)gk_array_", param.name, ".address)[gk_g] = gk_v_",
                           param.name, ";\n");
    code += "    }\n";
    code += concat("    GK_ELEMENTS(gk_t, gk_n - gk_groups * ", width, ") {\n        const gk_index i = gk_groups * ",
                   width, " + gk_t;\n");
    for (const UserParam& param : params)
        if (param.kind == UserParamKind::array)
            code += bind_element(param,
                                 concat("(", param.writable ? "" : "const ", "char*)gk_array_", param.name,
                                        ".address + i * (gk_index)sizeof(", storage_c_type(param.dtype), ")"),
                                 "        ");
    code += user_operation(text, "        ");
    code += "    }\n";
    return code;
}

// The simulator's shape: each simulated thread walks its contiguous chunk of the loop row by row,
// every array's byte offset advanced like an odometer (the layout comes from the arguments).
std::string user_generic_body(const UserKernelText& text, std::span<const UserParam> params) {
    std::vector<const UserParam*> arrays;
    for (const UserParam& param : params)
        if (param.kind == UserParamKind::array) arrays.push_back(&param);
    std::string code = "    const gk_index gk_begin = gk_chunk_begin(gk_n), gk_end = gk_chunk_end(gk_n);\n";
    code += "    const int gk_ndim = gk_loop.ndim;\n";
    for (const UserParam* param : arrays)
        code += concat("    gk_index gk_off_", param->name, " = 0;\n    const gk_index gk_inner_", param->name,
                       " = gk_ndim ? (gk_index)gk_array_", param->name, ".strides[gk_ndim - 1] : 0;\n");
    code += "    gk_index gk_coord[GK_MAX_DIMS];\n    {\n        gk_index gk_rest = gk_begin;\n";
    code += "        for (int d = gk_ndim - 1; d >= 0; --d) {\n";
    code += "            gk_coord[d] = gk_rest % (gk_index)gk_loop.shape[d];\n";
    code += "            gk_rest /= (gk_index)gk_loop.shape[d];\n";
    for (const UserParam* param : arrays)
        code += concat("            gk_off_", param->name, " += gk_coord[d] * (gk_index)gk_array_", param->name,
                       ".strides[d];\n");
    code += "        }\n    }\n";
    code += "    for (gk_index i = gk_begin; i < gk_end;) {\n";
    code += "        const gk_index gk_row_begin = i;\n";
    code += "        gk_index gk_row = gk_ndim ? (gk_index)gk_loop.shape[gk_ndim - 1] - gk_coord[gk_ndim - 1] : 1;\n";
    code += "        if (gk_row > gk_end - i) gk_row = gk_end - i;\n";
    code += "        for (gk_index gk_j = 0; gk_j < gk_row; ++gk_j, ++i) {\n";
    for (const UserParam* param : arrays)
        code += bind_element(*param,
                             concat("(", param->writable ? "" : "const ", "char*)gk_array_", param->name,
                                    ".address + gk_off_", param->name, " + gk_j * gk_inner_", param->name),
                             "            ");
    code += user_operation(text, "            ");
    code += "        }\n";
    // `continue` in the operation moves on as the loop does; `break` ends the row.
    code += "        i = gk_row_begin + gk_row;\n";
    code += "        if (gk_ndim == 0) break;\n";
    for (const UserParam* param : arrays)
        code += concat("        gk_off_", param->name, " += gk_row * gk_inner_", param->name, ";\n");
    code += "        gk_coord[gk_ndim - 1] += gk_row;\n";
    code += "        for (int d = gk_ndim - 1; d > 0 && gk_coord[d] == (gk_index)gk_loop.shape[d]; --d) {\n";
    code += "            gk_coord[d] = 0;\n            ++gk_coord[d - 1];\n";
    for (const UserParam* param : arrays)
        code +=
            concat("            gk_off_", param->name, " += (gk_index)gk_array_", param->name,
                   ".strides[d - 1] - (gk_index)gk_array_", param->name, ".strides[d] * (gk_index)gk_loop.shape[d];\n");
    code += "        }\n    }\n";
    return code;
}

}  // namespace

std::string generate_user_elementwise(const UserKernelText& text, std::span<const UserParam> params,
                                      const UserKernelLayout& layout) {
    // The generic shape is the simulator's (GK_SIMULATED: chunks); the GPU's shape runs on the
    // simulator too when tests ask for it, its loop then chunked by GK_ELEMENTS.
    std::string code = user_prologue(text, layout.generic || layout.simulated, layout.index32 && !layout.generic);
    code += user_signature(text, params);
    if (layout.generic)
        code += user_generic_body(text, params);
    else if (layout.vector_width > 1)
        code += user_vector_body(text, params, layout.vector_width);
    else
        code += user_gpu_body(text, params, layout);
    if (!text.after_loop.empty()) code += concat(text.after_loop, "\n    ;\n");
    code += "}\n";
    return code;
}

std::uint8_t user_vector_width(std::string_view operation, std::span<const UserParam> params) {
    static const std::regex ends_early(R"(\b(return|break|goto)\b)");
    std::size_t widest = 0;
    for (const UserParam& param : params) {
        if (param.kind != UserParamKind::array) continue;
        if (param.access != AccessClass::contiguous_aligned16) return 1;
        widest = std::max(widest, itemsize(param.dtype));
    }
    if (widest == 0 || widest >= 16) return 1;
    if (std::regex_search(operation.begin(), operation.end(), ends_early)) return 1;
    return static_cast<std::uint8_t>(16 / widest);
}

std::string dtype_number_defines() {
    std::string code;
    for (const DTypeInfo& info : dtype_table)
        code += concat("#define GK_DTYPE_", info.name == "bool" ? "bool_" : std::string(info.name), " ",
                       static_cast<int>(info.dtype), "\n");
    return code;
}

std::string elementwise_header_defines(bool simulated) { return simulated ? simulator_defines() : std::string(); }

}  // namespace gpukit::detail
