// python/src/toolchain.cpp: gpukit's version and what the backends found on this machine.
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include "bindings.hpp"
#include "gpukit/toolchain.hpp"
#include "gpukit/version.hpp"

namespace nb = nanobind;

namespace gpukit::python {

void bind_toolchain(nb::module_& m) {
    m.def("version", &version, "gpukit's version, e.g. '0.1.0'.");

    nb::class_<ToolchainPart>(m, "ToolchainPart", "A library or compiler a backend needs.")
        .def_ro("path", &ToolchainPart::path, "The file in use or found; '' when none was found.")
        .def_ro("version", &ToolchainPart::version)
        .def_ro("problem", &ToolchainPart::problem, "Why it cannot be used; '' when it can.");

    nb::class_<CudaToolchain>(m, "CudaToolchain", "What the CUDA backend found: the driver and NVRTC.")
        .def_ro("built_in", &CudaToolchain::built_in, "Whether this gpukit was built with the CUDA backend.")
        .def_ro("headers_version", &CudaToolchain::headers_version, "The CUDA headers it was built against.")
        .def_ro("driver", &CudaToolchain::driver)
        .def_ro("nvrtc", &CudaToolchain::nvrtc);

    m.def(
        "cuda_toolchain",
        [] {
            nb::gil_scoped_release unlocked;  // loading the driver and NVRTC takes a while
            return cuda_toolchain();
        },
        "Where the CUDA driver and NVRTC were found, their versions, or why they cannot be used.");
    m.def(
        "simulator_compiler",
        [] {
            nb::gil_scoped_release unlocked;
            return simulator_compiler();
        },
        "The host C++ compiler the simulator uses and its version.");
}

}  // namespace gpukit::python
