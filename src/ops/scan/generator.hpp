// src/ops/scan/generator.hpp: writes the CUDA C of scan kernels. Each kernel is an operation
// struct (the scan's expressions over its dtypes) handed to one of the kernel shapes of
// kernels/gpukit_scan.cuh, which hold the loops, once for both backends.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gpukit/dtype.hpp"
#include "ops/scan/plan.hpp"

namespace gpukit::detail {

inline constexpr std::string_view scan_header_name = "gpukit_scan.cuh";

// The text of kernels/gpukit_scan.cuh, embedded at build time.
std::string_view scan_header();

// A scan's expressions (a row of src/ops/scans.def): identity returns the acc_t of no elements,
// map sets a (acc_t) from in0 (in_t), reduce sets a from a and b (a's elements first).
struct ScanExpressions {
    std::string_view identity, map, reduce;
};

// The dtypes of one loop: the input's, the accumulator's and the result's.
struct ScanDTypes {
    DType input, accumulator, output;
    friend bool operator==(const ScanDTypes&, const ScanDTypes&) = default;
};

// NumPy's dtypes for a scan of `input` (dtype= where given): those of its sum.
ScanDTypes scan_dtypes(DType input, std::optional<DType> dtype);

// One kernel to write: a loop, the shape that runs it and, for GPU tiles and lines, the input's
// elements per 16-byte load (1: element by element) and whether the result takes vector stores;
// for GPU tiles whether they stream (evict-first vector loads and stores: more data than L2 holds).
struct ScanKernelSpec {
    ScanDTypes dtypes;
    ScanClass shape;
    int vector_width = 1;
    bool vector_output = false;
    bool streaming = false;
};

// The kernel's name for `shape`, numbered `index` in its module.
std::string scan_kernel_name(ScanClass shape, std::size_t index);

// A module with one kernel per spec, for the simulator when `simulated` (in the GPU's kernel
// shapes all the same when `gpu_shapes`: tests do).
std::string generate_scan(const ScanExpressions& expressions, std::span<const ScanKernelSpec> specs, bool simulated,
                          bool gpu_shapes);

}  // namespace gpukit::detail
