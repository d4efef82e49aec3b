// src/backends/sim/check/hazard_log.cpp: the hazards one launch's tools found, each distinct one
// kept once with how often it happened, its source lines resolved when the launch is over.
#include "backends/sim/check/hazard_log.hpp"

#include "util/text.hpp"

namespace gpukit::detail::sim::check {

void HazardLog::at_line(Hazard hazard, const void* later_pc) {
    std::lock_guard lock(mutex_);
    auto key = std::make_tuple(hazard.file, hazard.line, hazard.what, later_pc);
    if (auto it = at_line_.find(key); it != at_line_.end()) {
        ++it->second.occurrences;
        return;
    }
    at_line_.emplace(std::move(key), std::move(hazard));
}

std::vector<Hazard> HazardLog::hazards() const {
    std::lock_guard lock(mutex_);
    // At a line: those that wait for a later access's line are judged now, then merged by site.
    std::map<std::tuple<std::string, int, std::string>, Hazard> by_line;
    for (const auto& [key, hazard] : at_line_) {
        Hazard resolved = hazard;
        if (const void* later_pc = std::get<3>(key)) {
            const auto later = module_.source_of(later_pc);
            if (later.file != hazard.file || later.line <= hazard.line) continue;  // it returned before the barrier
            resolved.detail += concat(" (its last access, at ", later.file, ":", later.line, ", comes after it)");
        }
        auto [it, inserted] =
            by_line.try_emplace(std::make_tuple(resolved.file, resolved.line, resolved.what), resolved);
        if (!inserted) it->second.occurrences += resolved.occurrences;
    }
    std::vector<Hazard> all;
    all.reserve(by_line.size() + at_access_.size());
    for (auto& entry : by_line) all.push_back(std::move(entry.second));
    for (const auto& [key, entry] : at_access_) {
        Hazard resolved = entry.hazard;
        const auto location = module_.source_of(key.first);
        resolved.file = location.file;
        resolved.line = location.line;
        if (entry.other_pc) {
            const auto earlier = module_.source_of(entry.other_pc);
            resolved.other_file = earlier.file;
            resolved.other_line = earlier.line;
        }
        all.push_back(std::move(resolved));
    }
    return all;
}

}  // namespace gpukit::detail::sim::check
