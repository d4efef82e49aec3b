// src/core/check.cpp: check-mode tools, reports and the hazards found so far.
#include "gpukit/check.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string_view>

#include "backends/backend.hpp"
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

std::string CheckReport::text() const {
    std::string out = "========= GPUKIT CHECK\n";
    std::uint64_t errors = 0;
    for (const auto& hazard : hazards) {
        errors += hazard.occurrences;
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
            continue;
        }
        out += concat("========= ", hazard.what, "\n");
        out += concat("=========     at ", hazard.kernel, " in ", hazard.file.empty() ? "?" : hazard.file, ":",
                      hazard.line, "\n");
        out +=
            concat("=========     by thread ", to_string(hazard.thread), " in block ", to_string(hazard.block), "\n");
        out += concat("=========     ", hazard.detail, "\n");
        if (hazard.occurrences > 1) out += concat("=========     (", hazard.occurrences, " times from this line)\n");
        out += "=========\n";
    }
    out += concat("========= ERROR SUMMARY: ", errors, errors == 1 ? " error" : " errors", " (", hazards.size(),
                  " distinct)\n");
    return out;
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

CheckReport take_check_report() {
    CheckReport report;
    for (detail::Backend* backend : detail::existing_backends()) {
        if (!backend->info().capabilities.check_mode) continue;
        auto hazards = backend->take_check_hazards();
        report.hazards.insert(report.hazards.end(), std::make_move_iterator(hazards.begin()),
                              std::make_move_iterator(hazards.end()));
    }
    return report;
}

}  // namespace gpukit
