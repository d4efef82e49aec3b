// src/core/check_report.hpp: check mode's report on stderr (see print_check_report in
// gpukit/check.hpp), printed by the core's synchronisation points.
#pragma once

namespace gpukit::detail {

// Reads the setting (GPUKIT_CHECK) once and, when printing is on, arranges the summary at exit.
// Called where a module is compiled, so a process that checks prints its summary.
void start_check_report();

// Prints the hazards of check-mode launches that have finished and were not printed yet; waits
// for nothing. Never throws. Nearly free when printing is off.
void print_finished_hazards() noexcept;

// Prints the finished launches' hazards when it goes out of scope, also when the synchronisation
// it guards throws (a launch error, HazardError): `const ReportAfterSync report; sync();`.
struct ReportAfterSync {
    ReportAfterSync() = default;
    ReportAfterSync(const ReportAfterSync&) = delete;
    ReportAfterSync& operator=(const ReportAfterSync&) = delete;
    ~ReportAfterSync() { print_finished_hazards(); }
};

}  // namespace gpukit::detail
