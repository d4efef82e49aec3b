// python/src/bindings.hpp: the pieces of gpukit._core, one binding function per concept.
//
// Each function adds its concept's classes and functions to the extension module; module_entry.cpp
// calls them in dependency order (errors first: every other binding raises through them).
#pragma once

#include <utility>

#include <nanobind/nanobind.h>

namespace gpukit::python {

// Adds a method to a class bound in another file (ndarray's methods live beside their functions).
template <class Function, class... Extra>
void add_method(nanobind::handle cls, const char* name, Function&& function, const Extra&... extra) {
    cls.attr(name) = nanobind::cpp_function(std::forward<Function>(function), nanobind::is_method(),
                                            nanobind::name(name), nanobind::scope(cls), extra...);
}

void bind_errors(nanobind::module_& m);
void bind_device(nanobind::module_& m);
void bind_stream_event(nanobind::module_& m);
void bind_memory(nanobind::module_& m);
void bind_array(nanobind::module_& m);
void bind_memory_pool(nanobind::module_& m);
void bind_ufuncs(nanobind::module_& m);
void bind_array_operators(nanobind::module_& m);
void bind_numpy_protocols(nanobind::module_& m);
void bind_comparisons(nanobind::module_& m);
void bind_numeric(nanobind::module_& m);
void bind_elementwise_functions(nanobind::module_& m);
void bind_indexing(nanobind::module_& m);
void bind_creation(nanobind::module_& m);
void bind_shape_ops(nanobind::module_& m);
void bind_reductions(nanobind::module_& m);
void bind_scans(nanobind::module_& m);
void bind_sorting(nanobind::module_& m);
void bind_histograms(nanobind::module_& m);
void bind_streaming(nanobind::module_& m);
void bind_collectives(nanobind::module_& m);
void bind_multi_device(nanobind::module_& m);
void bind_convolution(nanobind::module_& m);
void bind_module_kernel(nanobind::module_& m);
void bind_jit_launch(nanobind::module_& m);
void bind_elementwise_kernel(nanobind::module_& m);
void bind_reduction_kernel(nanobind::module_& m);
void bind_linalg(nanobind::module_& m);
void bind_polynomial(nanobind::module_& m);
void bind_fft(nanobind::module_& m);
void bind_quantiles(nanobind::module_& m);
void bind_random(nanobind::module_& m);
void bind_check(nanobind::module_& m);
void bind_dlpack(nanobind::module_& m);
void bind_cache(nanobind::module_& m);
void bind_backend(nanobind::module_& m);
// gpukit's warnings (the mean of nothing, ddof >= n) as Python's RuntimeWarnings. Called once when
// the extension loads.
void install_warnings();

}  // namespace gpukit::python
