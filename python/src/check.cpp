// python/src/check.cpp: the simulator's check mode — its tools, hazards, reports, raise-on-hazard.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <string_view>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "errors.hpp"
#include "gpukit/check.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {
nb::tuple dim3_tuple(const Dim3& d) { return nb::make_tuple(d.x, d.y, d.z); }
}  // namespace

void bind_check(nb::module_& m) {
    nb::class_<Hazard>(m, "Hazard",
                       "One distinct hazard check mode found: its first occurrence and how often it happened.")
        .def_prop_ro(
            "tool", [](const Hazard& h) { return std::string(to_string(h.tool)); },
            "'memcheck', 'racecheck', 'synccheck' or 'initcheck'.")
        .def_prop_ro(
            "what", [](const Hazard& h) { return python_spelling(h.what); },
            "What happened, e.g. 'Invalid __global__ write of size 4 bytes'.")
        .def_ro("kernel", &Hazard::kernel)
        .def_prop_ro("block", [](const Hazard& h) { return dim3_tuple(h.block); })
        .def_prop_ro("thread", [](const Hazard& h) { return dim3_tuple(h.thread); })
        .def_ro("file", &Hazard::file)
        .def_ro("line", &Hazard::line)
        .def_ro("address", &Hazard::address)
        .def_ro("size", &Hazard::size)
        .def_ro("is_write", &Hazard::is_write)
        .def_prop_ro("detail", [](const Hazard& h) { return python_spelling(h.detail); })
        .def_ro("occurrences", &Hazard::occurrences)
        .def_ro("other_access", &Hazard::other_access, "racecheck: the earlier access ('Write' or 'Read').")
        .def_ro("other_file", &Hazard::other_file)
        .def_ro("other_line", &Hazard::other_line)
        .def_prop_ro("other_block", [](const Hazard& h) { return dim3_tuple(h.other_block); })
        .def_prop_ro("other_thread", [](const Hazard& h) { return dim3_tuple(h.other_thread); })
        .def("__repr__", [](const Hazard& h) {
            return "<gpukit.Hazard " + std::string(to_string(h.tool)) + ": " + h.what + " in " + h.kernel + " at " +
                   h.file + ":" + std::to_string(h.line) + ", " + std::to_string(h.occurrences) + "x>";
        });

    nb::class_<CheckReport>(m, "CheckReport", "The hazards check-mode launches found.")
        .def_ro("hazards", &CheckReport::hazards)
        .def_prop_ro("clean", &CheckReport::clean, "True when nothing was found.")
        .def(
            "text", [](const CheckReport& r) { return python_spelling(r.text()); },
            "compute-sanitizer's layout: a block of '=========' lines per hazard.")
        .def("__str__", [](const CheckReport& r) { return python_spelling(r.text()); })
        .def("__len__", [](const CheckReport& r) { return r.hazards.size(); })
        .def(
            "__bool__", [](const CheckReport& r) { return !r.clean(); }, "True when hazards were found.")
        .def("__iter__", [](const CheckReport& r) { return nb::iter(nb::cast(r.hazards)); })
        .def("__repr__", [](const CheckReport& r) {
            return "<gpukit.CheckReport " + std::to_string(r.hazards.size()) + " hazard" +
                   (r.hazards.size() == 1 ? "" : "s") + ">";
        });

    m.def(
        "take_check_report",
        [] {
            GilRelease unlocked;
            return take_check_report();
        },
        "Waits for check-mode launches to finish and returns the hazards found since the last call.");
    m.def(
        "set_raise_on_hazard",
        [](nb::handle raise_on_hazard) { set_raise_on_hazard(to_bool(raise_on_hazard, "raise_on_hazard")); },
        nb::arg("raise_on_hazard").none(), nb::sig("def set_raise_on_hazard(raise_on_hazard: bool) -> None"),
        "Whether a check-mode launch that finds a hazard raises HazardError at the next synchronisation.");
    m.def("raise_on_hazard", &raise_on_hazard);
    m.def("set_print_check_report", &set_print_check_report, nb::arg("print"),
          "Whether hazards are printed to stderr at synchronisations and summed up at exit.");
    m.def("print_check_report", &print_check_report);
    m.def(
        "check_tools",
        [] {
            std::vector<std::pair<std::string_view, std::string_view>> tools;
            for (const auto& row : check_tool_table) tools.emplace_back(row.name, row.summary);
            return tools;
        },
        "Every check-mode tool, as (name, summary) pairs in report order.");
    m.def(
        "check_tools_from_environment", [] { return CheckTools::from_environment().to_string(); },
        "The tools GPUKIT_CHECK asks for ('none' when unset).");
    m.def(
        "normalize_check_tools", [](std::string_view text) { return CheckTools::parse(text).to_string(); },
        nb::arg("tools"), "'racecheck,memcheck' -> 'memcheck,racecheck'; raises for an unknown tool.");
}

}  // namespace gpukit::python
