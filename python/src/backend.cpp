// python/src/backend.cpp: the backends, what each can do and what it found here, and the version.
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/backend.hpp"
#include "gpukit/version.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {

void bind_backend(nb::module_& m) {
    m.def("version", &version, "gpukit's version, e.g. '0.1.0'.");

    nb::class_<BackendCapabilities>(m, "BackendCapabilities",
                                    "What a backend can do: code that must differ by device asks these, never a name.")
        .def_ro("simulated", &BackendCapabilities::simulated,
                "Kernels run on this machine's CPU, not on an accelerator (timings are CPU timings).")
        .def_ro("check_mode", &BackendCapabilities::check_mode,
                "Runs kernels under check mode's tools (memcheck, racecheck, ...).")
        .def_ro("loads_binary_images", &BackendCapabilities::loads_binary_images,
                "Loads code compiled elsewhere (PTX, cubin, fatbin).")
        .def_ro("tensor_cores", &BackendCapabilities::tensor_cores, "Its devices may have tensor cores.")
        .def_ro("dlpack_device_type", &BackendCapabilities::dlpack_device_type,
                "Where DLPack places its memory: 1 (kDLCPU, host memory) or 2 (kDLCUDA, CUDA device memory).")
        .def_ro("sandbox", &BackendCapabilities::sandbox,
                "Can run kernels in a sandbox (gpukit.set_sandbox): no network, a private temporary directory, "
                "the files read-only.")
        .def("__repr__", [](const BackendCapabilities& c) {
            return "BackendCapabilities(simulated=" + std::string(c.simulated ? "True" : "False") +
                   ", check_mode=" + (c.check_mode ? "True" : "False") +
                   ", loads_binary_images=" + (c.loads_binary_images ? "True" : "False") +
                   ", tensor_cores=" + (c.tensor_cores ? "True" : "False") +
                   ", dlpack_device_type=" + std::to_string(c.dlpack_device_type) +
                   ", sandbox=" + (c.sandbox ? "True" : "False") + ")";
        });

    nb::class_<ToolchainPart>(m, "ToolchainPart", "A library or compiler a backend needs, as found here.")
        .def_ro("role", &ToolchainPart::role, "What it is for the backend: 'driver', 'NVRTC', 'host compiler'.")
        .def_ro("path", &ToolchainPart::path, "The file in use or found; '' when none was found.")
        .def_ro("version", &ToolchainPart::version)
        .def_ro("problem", &ToolchainPart::problem, "Why it cannot be used; '' when it can.");

    nb::class_<BackendInfo>(m, "BackendInfo", "A backend: its name, what it runs kernels on, what it can do.")
        .def_ro("name", &BackendInfo::name, "What GPUKIT_BACKEND and use_backend() take.")
        .def_ro("description", &BackendInfo::description)
        .def_ro("device_label", &BackendInfo::device_label, "How device lists label its devices ('GPU 0').")
        .def_ro("built", &BackendInfo::built, "Built into this gpukit (when not, unavailable_reason says why).")
        .def_ro("capabilities", &BackendInfo::capabilities)
        .def_prop_ro(
            "unavailable_reason",
            [](const BackendInfo& info) {
                GilRelease unlocked;  // the first ask probes the machine (loads a driver)
                return backend_unavailable_reason(info.name);
            },
            "Why the backend cannot run here, or '' when it can.")
        .def_prop_ro(
            "toolchain",
            [](const BackendInfo& info) {
                GilRelease unlocked;
                return backend_toolchain(info.name);
            },
            "The libraries and compilers it uses: where they were found, their versions, or why they cannot be used.")
        .def("__repr__", [](const BackendInfo& info) { return "<gpukit backend " + info.name + ">"; });

    m.def("backends", &backends, nb::rv_policy::reference,
          "Every backend gpukit knows, the built ones first, in the order automatic selection tries them.");
    m.def("backend_info", &backend_info, nb::rv_policy::reference, nb::arg("name"),
          "The backend of that name; InvalidArgumentError naming the backends there are.");
    m.def(
        "select_backend", [](nb::handle name) { select_backend(to_str(name, "name")); }, nb::arg("name").none(),
        nb::sig("def select_backend(name: str) -> None"),
        "Chooses the process's backend by name, or 'auto'. A later call asking for another raises UsageError.");
    m.def("selected_backend", &selected_backend, nb::rv_policy::reference,
          "The backend in use, choosing it from GPUKIT_BACKEND on first use.");
    m.def(
        "set_sandbox",
        [](nb::handle on) {
            const bool value = to_bool(on, "on");
            GilRelease unlocked;  // waits for the device process to start in (or out of) the sandbox
            set_sandbox(value);
        },
        nb::arg("on").none(), nb::sig("def set_sandbox(on: bool) -> None"),
        "Runs the selected backend's kernels in its sandbox, or no longer; see gpukit.set_sandbox.");
    m.def("sandboxed", &sandboxed, "Whether the selected backend's kernels run in its sandbox.");
    m.def(
        "backend_unavailable_reason",
        [](std::string_view name) {
            GilRelease unlocked;
            return backend_unavailable_reason(name);
        },
        nb::arg("name"), "Why a backend ('auto': any backend) cannot be used here, or '' when it can.");
}

}  // namespace gpukit::python
