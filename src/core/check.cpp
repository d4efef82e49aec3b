// src/core/check.cpp: check-mode tools, reports and the hazards found so far.
#include "gpukit/check.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string_view>
#include <utility>

#include "backends/backend.hpp"
#include "core/check_report.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

CheckTools CheckTools::parse(std::string_view text) {
    CheckTools tools;
    while (!text.empty()) {
        const auto comma = text.find(',');
        const std::string_view word = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        if (word.empty() || word == "none") continue;
        if (word == "all") {
            tools |= all();
            continue;
        }
        const auto* row = std::find_if(std::begin(check_tool_table), std::end(check_tool_table),
                                       [&](const CheckToolInfo& info) { return info.name == word; });
        if (row == std::end(check_tool_table)) {
            std::vector<std::string> names;
            for (const auto& info : check_tool_table) names.emplace_back(info.name);
            throw InvalidArgumentError(
                concat("Unknown check tool '", word, "': use ", detail::join(names, ", "), " or all"));
        }
        tools |= row->tool;
    }
    return tools;
}

std::string CheckTools::to_string() const {
    std::vector<std::string> names;
    for (const auto& info : check_tool_table)
        if (contains(info.tool)) names.emplace_back(info.name);
    return names.empty() ? "none" : detail::join(names, ",");
}

CheckTools CheckTools::from_environment() {
    const char* value = std::getenv("GPUKIT_CHECK");
    if (!value || !*value) return {};
    try {
        return parse(value);
    } catch (const InvalidArgumentError& e) {
        throw InvalidArgumentError(concat("GPUKIT_CHECK=", value, ": ", e.what()));
    }
}

std::string hazard_text(const Hazard& hazard) {
    std::string out;
    if (hazard.tool == CheckTool::racecheck) {
        out += concat("========= Race reported between ", hazard.other_access, " access at ",
                      hazard.other_file.empty() ? "?" : hazard.other_file, ":", hazard.other_line, " by thread ",
                      to_string(hazard.other_thread), " in block ", to_string(hazard.other_block), "\n");
        out += concat("=========     and ", hazard.is_write ? "Write" : "Read", " access at ",
                      hazard.file.empty() ? "?" : hazard.file, ":", hazard.line, " by thread ",
                      to_string(hazard.thread), " in block ", to_string(hazard.block), "\n");
        out += concat("=========     ", hazard.what, " in ", hazard.kernel, ": ", hazard.detail, " [",
                      hazard.occurrences, hazard.occurrences == 1 ? " hazard]\n" : " hazards]\n");
        out += "=========\n";
        return out;
    }
    out += concat("========= ", hazard.what, "\n");
    out += concat("=========     at ", hazard.kernel, " in ", hazard.file.empty() ? "?" : hazard.file, ":", hazard.line,
                  "\n");
    out += concat("=========     by thread ", to_string(hazard.thread), " in block ", to_string(hazard.block), "\n");
    out += concat("=========     ", hazard.detail, "\n");
    if (hazard.occurrences > 1) out += concat("=========     (", hazard.occurrences, " times from this line)\n");
    out += "=========\n";
    return out;
}

namespace {
std::string summary_line(std::uint64_t errors, std::size_t distinct) {
    return concat("========= ERROR SUMMARY: ", errors, errors == 1 ? " error" : " errors", " (", distinct,
                  " distinct)\n");
}
}  // namespace

std::string CheckReport::text() const {
    std::string out = "========= GPUKIT CHECK\n";
    std::uint64_t errors = 0;
    for (const auto& hazard : hazards) {
        errors += hazard.occurrences;
        out += hazard_text(hazard);
    }
    return out + summary_line(errors, hazards.size());
}

HazardError::HazardError(Hazard hazard)
    : Error(concat(hazard.what, " in ", hazard.kernel, " at ", hazard.file.empty() ? "?" : hazard.file, ":",
                   hazard.line, " by thread ", to_string(hazard.thread), " in block ", to_string(hazard.block), ": ",
                   hazard.detail)),
      hazard_(std::move(hazard)) {}

namespace {
std::atomic<bool>& raise_setting() {
    static std::atomic<bool> raise = [] {
        const char* value = std::getenv("GPUKIT_CHECK_RAISE");
        return value && *value && std::string_view(value) != "0";
    }();
    return raise;
}
}  // namespace

void set_raise_on_hazard(bool raise) { raise_setting() = raise; }
bool raise_on_hazard() { return raise_setting(); }

namespace {

// The report on stderr. Hazards taken from the backends at a synchronisation are printed and kept
// here until take_check_report() hands them out with the rest, so none is printed twice or lost.
struct StderrReport {
    std::atomic<bool> print{false};
    std::mutex mutex;          // guards the fields below and orders the printing
    std::vector<Hazard> kept;  // printed, not yet taken by take_check_report()
    std::uint64_t errors = 0;  // occurrences printed in all
    std::size_t distinct = 0;  // hazards printed in all
    bool summary_done = false;

    void print_locked(const std::vector<Hazard>& hazards) {
        std::string text;
        for (const auto& hazard : hazards) {
            text += hazard_text(hazard);
            errors += hazard.occurrences;
            ++distinct;
        }
        if (text.empty()) return;
        std::fputs(text.c_str(), stderr);
        std::fflush(stderr);
    }
};

void print_summary_at_exit();

StderrReport& stderr_report() {
    static StderrReport* report = [] {
        auto* made = new StderrReport;  // never destroyed: the exit handler and late threads use it
        bool print = false;
        try {
            print = !CheckTools::from_environment().empty();
        } catch (const InvalidArgumentError&) {
            // Compiling a module reports the malformed GPUKIT_CHECK; no tool, nothing to print.
        }
        made->print = print;
        detail::existing_backends();  // the registry outlives the exit handler registered after it
        std::atexit(print_summary_at_exit);
        return made;
    }();
    return *report;
}

std::vector<Hazard> take_from_backends(bool wait) {
    std::vector<Hazard> hazards;
    for (detail::Backend* backend : detail::existing_backends()) {
        if (!backend->info().capabilities.check_mode) continue;
        auto taken = wait ? backend->take_check_hazards() : backend->take_finished_check_hazards();
        hazards.insert(hazards.end(), std::make_move_iterator(taken.begin()), std::make_move_iterator(taken.end()));
    }
    return hazards;
}

void print_summary_at_exit() {
    StderrReport& report = stderr_report();
    if (!report.print) return;
    detail::print_finished_hazards();
    std::lock_guard lock(report.mutex);
    if (report.summary_done) return;
    report.summary_done = true;
    const std::string line = summary_line(report.errors, report.distinct);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
}

}  // namespace

void set_print_check_report(bool print) { stderr_report().print = print; }
bool print_check_report() { return stderr_report().print; }

namespace detail {

void start_check_report() { stderr_report(); }

void print_finished_hazards() noexcept {
    StderrReport& report = stderr_report();
    if (!report.print.load(std::memory_order_relaxed)) return;
    try {
        std::lock_guard lock(report.mutex);
        auto hazards = take_from_backends(false);
        report.print_locked(hazards);
        report.kept.insert(report.kept.end(), std::make_move_iterator(hazards.begin()),
                           std::make_move_iterator(hazards.end()));
    } catch (...) {  // NOLINT(bugprone-empty-catch): a report must not turn a synchronisation into a failure
    }
}

}  // namespace detail

CheckReport take_check_report() {
    StderrReport& report = stderr_report();
    auto hazards = take_from_backends(true);
    std::lock_guard lock(report.mutex);
    if (report.print) report.print_locked(hazards);
    CheckReport taken;
    taken.hazards = std::exchange(report.kept, {});
    taken.hazards.insert(taken.hazards.end(), std::make_move_iterator(hazards.begin()),
                         std::make_move_iterator(hazards.end()));
    return taken;
}

}  // namespace gpukit
