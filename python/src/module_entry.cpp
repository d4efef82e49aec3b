// python/src/module_entry.cpp: gpukit._core, the extension the gpukit package is built on.
#include "bindings.hpp"
#include "python_refs.hpp"

NB_MODULE(_core, m) {
    m.doc() =
        "gpukit's C++ core: devices, memory, arrays, streams, events, modules, kernels, check mode, the "
        "compile cache and the backends. Use it through the gpukit package.";
    using namespace gpukit::python;
    install_device_wait();
    register_python_exit();
    install_warnings();
    bind_errors(m);
    bind_backend(m);
    bind_device(m);
    bind_stream_event(m);
    bind_memory(m);
    bind_array(m);
    bind_memory_pool(m);
    bind_ufuncs(m);
    bind_array_operators(m);
    bind_numpy_protocols(m);
    bind_elementwise_functions(m);
    bind_comparisons(m);
    bind_numeric(m);
    bind_indexing(m);
    bind_creation(m);
    bind_shape_ops(m);
    bind_reductions(m);
    bind_scans(m);
    bind_sorting(m);
    bind_histograms(m);
    bind_convolution(m);
    bind_module_kernel(m);
    bind_jit_launch(m);
    bind_elementwise_kernel(m);
    bind_reduction_kernel(m);
    bind_linalg(m);
    bind_polynomial(m);
    bind_fft(m);
    bind_quantiles(m);
    bind_random(m);
    bind_check(m);
    bind_dlpack(m);
    bind_cache(m);
    bind_streaming(m);
    bind_collectives(m);
    bind_multi_device(m);
}
