// python/src/module_kernel.cpp: compiling modules, their kernels, and launches (module globals are arrays: array.cpp).
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "kernel_args.hpp"
#include "python_refs.hpp"
#include "python_stream.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

// What `check=` of a launch asks for: None or '' (nothing beyond the module's tools), or tool names.
CheckTools launch_check_tools(nb::handle check) {
    if (check.is_none()) return {};
    return CheckTools::parse(to_str(check, "check"));
}

}  // namespace

void bind_module_kernel(nb::module_& m) {
    nb::class_<DevicePtr>(m, "DevicePointer",
                          "A raw device address for a pointer parameter: memory gpukit did not allocate, or a view "
                          "whose layout the kernel is told separately (its strides as further arguments).\n\n"
                          "Kernel launches refuse plain ints, None and non-contiguous views for pointer parameters; "
                          "``DevicePointer(address)`` says the int is an address, unchecked. It holds nothing alive: "
                          "the memory must outlive the launch. ``gpukit.nullptr`` is ``DevicePointer(0)``.")
        .def(
            "__init__", [](DevicePtr* self, nb::handle address) { new (self) DevicePtr{to_size(address, "address")}; },
            nb::arg("address").none(), nb::sig("def __init__(self, address: int) -> None"))
        .def_prop_ro(
            "address", [](const DevicePtr& p) { return p.address; }, "The address, as an int.")
        .def("__int__", [](const DevicePtr& p) { return p.address; })
        .def("__index__", [](const DevicePtr& p) { return p.address; })
        .def("__eq__",
             [](const DevicePtr& p, nb::handle other) -> nb::object {
                 if (!nb::isinstance<DevicePtr>(other)) return nb::borrow(Py_NotImplemented);
                 return nb::bool_(p.address == nb::inst_ptr<DevicePtr>(other)->address);
             })
        .def("__hash__", [](const DevicePtr& p) { return nb::hash(nb::int_(p.address)); })
        .def("__repr__", [](const DevicePtr& p) {
            char text[48];
            std::snprintf(text, sizeof text, "gpukit.DevicePointer(0x%llx)",
                          static_cast<unsigned long long>(p.address));
            return std::string(text);
        });

    nb::class_<CompileOptions>(m, "CompileOptions", "How a module is compiled.")
        .def(nb::init<>())
        .def_rw("defines", &CompileOptions::defines)
        .def_rw("include_dirs", &CompileOptions::include_dirs)
        .def_rw("std", &CompileOptions::std)
        .def_rw("fast_math", &CompileOptions::fast_math)
        .def_rw("line_info", &CompileOptions::line_info)
        .def_rw("name_expressions", &CompileOptions::name_expressions)
        .def_rw("extra_options", &CompileOptions::extra_options)
        .def_rw("program_name", &CompileOptions::program_name)
        .def_rw("target", &CompileOptions::target)
        .def_prop_rw(
            "check", [](const CompileOptions& o) { return o.check.to_string(); },
            [](CompileOptions& o, std::string_view tools) { o.check = CheckTools::parse(tools); },
            "Check-mode tools for the simulator: 'memcheck,racecheck', 'all', or 'none'.")
        .def(
            "header",
            [](CompileOptions& o, std::string name, std::string source) {
                o.header(std::move(name), std::move(source));
            },
            nb::arg("name"), nb::arg("source"), "Adds a header that `#include \"name\"` finds.")
        .def("to_arguments", &CompileOptions::to_arguments);

    nb::class_<KernelParam>(m, "KernelParam",
                            "One kernel parameter: its place in the argument buffer, size and declaration.")
        .def_ro("offset", &KernelParam::offset)
        .def_ro("size", &KernelParam::size)
        .def_ro("type", &KernelParam::type)
        .def_ro("name", &KernelParam::name)
        .def("describe", &KernelParam::describe, nb::arg("index"))
        .def("__repr__", [](const KernelParam& p) {
            return "<gpukit.KernelParam '" + p.type + (p.name.empty() ? "" : " " + p.name) + "', " +
                   std::to_string(p.size) + " bytes at offset " + std::to_string(p.offset) + ">";
        });

    nb::class_<KernelAttributes>(m, "KernelAttributes")
        .def_ro("num_registers", &KernelAttributes::num_registers)
        .def_ro("static_shared_bytes", &KernelAttributes::static_shared_bytes)
        .def_ro("local_bytes_per_thread", &KernelAttributes::local_bytes_per_thread)
        .def_ro("constant_bytes", &KernelAttributes::constant_bytes)
        .def_ro("max_threads_per_block", &KernelAttributes::max_threads_per_block)
        .def_ro("max_dynamic_shared_bytes", &KernelAttributes::max_dynamic_shared_bytes)
        .def_ro("ptx_version", &KernelAttributes::ptx_version)
        .def_ro("binary_version", &KernelAttributes::binary_version);

    nb::class_<Module>(m, "Module", "Compiled, loaded code.")
        .def_static(
            "compile",
            [](nb::handle source_object, const CompileOptions& options, nb::handle device_object) {
                const std::string source = to_str(source_object, "code");
                const Device device = to_device(device_object, "device");
                GilRelease unlocked;
                return Module::compile(source, options, device);
            },
            nb::arg("source").none(), nb::arg("options"), nb::arg("device").none(),
            nb::sig("def compile(source: str, options: CompileOptions, device: Device | None) -> Module"))
        .def_prop_ro("device", &Module::device)
        .def_prop_ro("compile_log", &Module::compile_log)
        .def(
            "kernel", [](const Module& module, nb::handle name) { return module.kernel(to_str(name, "name")); },
            nb::arg("name").none(), nb::sig("def kernel(self, name: str) -> Kernel"))
        .def("kernel_names", &Module::kernel_names);

    nb::class_<Kernel>(m, "Kernel", "A kernel of a loaded module; keeps its module loaded.")
        .def_prop_ro("name", &Kernel::name)
        .def_prop_ro("lowered_name", &Kernel::lowered_name)
        .def_prop_ro("device", &Kernel::device)
        .def_prop_ro("params", &Kernel::params)
        .def_prop_ro("attributes", &Kernel::attributes)
        .def(
            "set_max_dynamic_shared_bytes",
            [](const Kernel& k, nb::handle bytes) {
                k.set_max_dynamic_shared_bytes(to_size(bytes, "max_dynamic_shared_size_bytes"));
            },
            nb::arg("bytes").none(), nb::sig("def set_max_dynamic_shared_bytes(self, bytes: int) -> None"))
        .def(
            "suggest_block_size",
            [](const Kernel& k, nb::handle dynamic_shared_bytes, nb::handle block_size_limit) {
                const std::size_t shared = to_size(dynamic_shared_bytes, "shared_mem");
                const auto limit = static_cast<std::uint32_t>(
                    to_size(block_size_limit, "block_size_limit", std::numeric_limits<std::uint32_t>::max()));
                const auto s = k.suggest_block_size(shared, limit);
                return std::make_pair(s.min_grid_size, s.block_size);
            },
            nb::arg("dynamic_shared_bytes").none() = 0, nb::arg("block_size_limit").none() = 0,
            nb::sig("def suggest_block_size(self, dynamic_shared_bytes: int = 0, block_size_limit: int = 0) -> "
                    "tuple[int, int]"))
        .def(
            "max_active_blocks_per_multiprocessor",
            [](const Kernel& k, nb::handle block_threads, nb::handle dynamic_shared_bytes) {
                const auto threads = static_cast<std::uint32_t>(
                    to_size(block_threads, "block_threads", std::numeric_limits<std::uint32_t>::max()));
                return k.max_active_blocks_per_multiprocessor(threads, to_size(dynamic_shared_bytes, "shared_mem"));
            },
            nb::arg("block_threads").none(), nb::arg("dynamic_shared_bytes").none() = 0,
            nb::sig("def max_active_blocks_per_multiprocessor(self, block_threads: int, dynamic_shared_bytes: int = 0) "
                    "-> int"))
        .def_prop_ro("native_handle",
                     [](const Kernel& k) { return reinterpret_cast<std::uintptr_t>(k.native_handle()); })
        .def(
            "launch",
            [](const Kernel& kernel, nb::handle grid, nb::handle block, nb::handle args, nb::handle shared_mem,
               nb::handle stream, nb::handle check) {
                const LaunchConfig config{to_dim3(grid, "grid"), to_dim3(block, "block"),
                                          to_size(shared_mem, "shared_mem"), stream_argument(stream, kernel.device()),
                                          launch_check_tools(check)};
                const PackedArguments packed = pack_arguments(kernel, args, config.stream);
                GilRelease unlocked;
                if (packed.needs_device_sync()) kernel.device().synchronize();
                kernel.launch(config, packed.args());
            },
            nb::arg("grid").none(), nb::arg("block").none(), nb::arg("args").none(), nb::arg("shared_mem").none() = 0,
            nb::arg("stream") = nb::none(), nb::arg("check") = nb::none(),
            nb::sig("def launch(self, grid: object, block: object, args: object, shared_mem: int = 0, "
                    "stream: Stream | None = None, check: str | None = None) -> None"),
            "Checks and enqueues one launch on `stream` (a gpukit.Stream; None: the current stream) (see "
            "gpukit.RawKernel.__call__).");
}

}  // namespace gpukit::python
