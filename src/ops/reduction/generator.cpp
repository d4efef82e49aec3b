// src/ops/reduction/generator.cpp: the CUDA C of reduction kernels (generator.hpp).
#include "ops/reduction/generator.hpp"

#include <algorithm>

#include "ops/elementwise/generator.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

std::string reduction_kernel_name(ReductionClass shape, std::size_t index) {
    switch (shape) {
        case ReductionClass::full: return concat("gk_reduce_full_", index);
        case ReductionClass::rows: return concat("gk_reduce_rows_", index);
        case ReductionClass::columns: return concat("gk_reduce_columns_", index);
        case ReductionClass::strided: break;
    }
    return concat("gk_reduce_each_", index);
}

std::span<const std::string> builtin_input_names() {
    static const std::array<std::string, max_reduction_inputs> names = {"in0", "in1", "in2", "in3",
                                                                        "in4", "in5", "in6", "in7"};
    return names;
}

std::int64_t accumulator_bytes(const ReductionExpressions& expressions, DType accumulator) {
    const auto value = static_cast<std::int64_t>(itemsize(accumulator));
    if (expressions.accumulator.empty()) return value;
    if (expressions.accumulator.starts_with("gk_range")) return 2 * value;
    return std::max<std::int64_t>(value, 8) + 8;  // a value, then a long long (aligned to the larger)
}

int column_results_per_thread(int widest, std::int64_t accumulator_bytes) {
    int width = widest;
    while (width > 1 && width * accumulator_bytes > 32) width /= 2;
    return width;
}

int column_blocks_per_processor(int results_per_thread, std::int64_t accumulator_bytes) {
    return results_per_thread * accumulator_bytes <= 8 ? 6 : 4;
}

namespace {

// The operation struct of one loop: its types and its four expressions. Inputs are declared as
// values of their compute type under their names; the output as `out_t` under its name.
std::string operation_struct(const ReductionExpressions& expressions, const ReductionNames& names,
                             const ReductionDTypes& dtypes, std::size_t index) {
    const std::size_t inputs = dtypes.input_count;
    std::string code = concat("struct gk_op", index, " {\n");
    code += concat("    static const int inputs = ", inputs, ";\n");
    code += concat("    static const int width = ", reduction_params_width(inputs), ";\n");
    for (std::size_t k = 0; k < inputs; ++k) {
        code += concat("    typedef ", storage_c_type(dtypes.inputs[k]), " in_storage", k, ";\n");
        code += concat("    typedef ", compute_c_type(dtypes.inputs[k]), " in_t", k, ";\n");
    }
    code += concat("    typedef ", compute_c_type(dtypes.accumulator), " acc_value_t;\n");
    code +=
        concat("    typedef ", expressions.accumulator.empty() ? "acc_value_t" : expressions.accumulator, " acc_t;\n");
    code += concat("    typedef ", storage_c_type(dtypes.output), " out_storage;\n");
    code += concat("    typedef ", compute_c_type(dtypes.output), " out_t;\n");
    code += concat("    __device__ static acc_t identity() { ", expressions.identity, "; }\n");
    // A map's body: each input declared under its name from its storage (`load(k)`), then the map.
    const auto body = [&](const auto& load) {
        std::string declared;
        for (std::size_t k = 0; k < inputs; ++k)
            declared +=
                concat("        const in_t", k, " ", names.inputs[k], " = gk_convert<in_t", k, ">(", load(k), ");\n");
        return concat(declared, "        acc_t a;\n        ", expressions.map,
                      ";\n        (void)gk_j;\n        return a;\n    }\n");
    };
    code += "    template <class Offset>\n";
    code +=
        "    __device__ static acc_t map_at(const char* const* gk_base, const Offset& gk_offset, gk_index gk_j) {\n";
    code += body(
        [](std::size_t k) { return concat("*(const in_storage", k, "*)(gk_base[", k, "] + gk_offset(", k, "))"); });
    if (inputs == 1) {
        // Full reductions of one contiguous input load 16 bytes at a time and map each element.
        code += "    __device__ static acc_t map_value(in_storage0 gk_x, gk_index gk_j) {\n";
        code += body([](std::size_t) { return std::string("gk_x"); });
    }
    code += concat("    __device__ static acc_t reduce(acc_t a, acc_t b) { ", expressions.reduce, "; return a; }\n");
    code +=
        concat("    __device__ static out_t post(acc_t a, long long gk_n, double gk_argument) {\n        out_t ",
               names.output, ";\n        ", expressions.post, ";\n        (void)gk_n;\n        (void)gk_argument;\n",
               "        return ", names.output, ";\n    }\n};\n");
    return code;
}

std::string kernel(const ReductionExpressions& expressions, const ReductionKernelSpec& spec, std::size_t index) {
    const std::string op = concat("gk_op", index);
    // Rows and columns read with several loads in flight a thread: registers capped so that six
    // blocks (columns: as many as the host's grid counts on) fit a multiprocessor (more warps in
    // flight kept an H200's memory busier).
    std::string bounds;
    if (spec.shape == ReductionClass::rows) bounds = "__launch_bounds__(256, 6) ";
    if (spec.shape == ReductionClass::columns)
        bounds = concat(
            "__launch_bounds__(256, ",
            column_blocks_per_processor(spec.vector_width, accumulator_bytes(expressions, spec.dtypes.accumulator)),
            ") ");
    std::string code = concat("extern \"C\" __global__ void ", bounds, reduction_kernel_name(spec.shape, index),
                              "(const gk_reduce_params<", op, "::width> p) {\n");
    switch (spec.shape) {
        case ReductionClass::full:
            code += concat("    __shared__ ", op, "::acc_t gk_shared[32];\n    __shared__ bool gk_last;\n");
            code += concat("    gk_reduce_full<", op, ", ", spec.vector_width, ">(p, gk_shared, &gk_last);\n");
            break;
        case ReductionClass::rows:
            code += concat("    __shared__ ", op, "::acc_t gk_shared[32];\n    __shared__ bool gk_last;\n");
            code += concat("    gk_reduce_rows<", op, ", ", spec.vector_width, ">(p, gk_shared, &gk_last);\n");
            break;
        case ReductionClass::columns:
            code += concat("    __shared__ ", op, "::acc_t gk_shared[GK_COLUMN_WARPS * 32 * ", spec.vector_width,
                           "];\n    __shared__ bool gk_last;\n");
            code += concat("    gk_reduce_columns<", op, ", ", spec.vector_width, ">(p, gk_shared, &gk_last);\n");
            break;
        case ReductionClass::strided:
            code += "    __shared__ bool gk_last;\n";
            code += concat("    gk_reduce_each<", op, ">(p, &gk_last);\n");
            break;
    }
    code += "}\n";
    return code;
}

}  // namespace

std::string generate_reduction(const ReductionExpressions& expressions, const ReductionNames& names,
                               std::span<const ReductionKernelSpec> specs, bool simulated, bool gpu_shapes) {
    std::string code = "// Generated by gpukit (src/ops/reduction/generator.cpp).\n";
    code += elementwise_header_defines(simulated);
    if (simulated && gpu_shapes) code += "#define GK_GPU_SHAPES\n";
    code += concat("#include \"", reduction_header_name, "\"\n\n");
    code += names.prelude;
    for (std::size_t index = 0; index < specs.size(); ++index) {
        code += operation_struct(expressions, names, specs[index].dtypes, index);
        code += kernel(expressions, specs[index], index);
    }
    return code;
}

}  // namespace gpukit::detail
