// src/backends/sim/check/hazard_log.hpp: the hazards one launch's tools found, each distinct one
// kept once with how often it happened, its source lines resolved when the launch is over.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/sim_module.hpp"
#include "gpukit/check.hpp"

namespace gpukit::detail::sim::check {

inline Dim3 dim(const gpukit_sim::Index3& i) { return Dim3(i.x, i.y, i.z); }

inline std::string hex(std::uintptr_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%lx", static_cast<unsigned long>(value));
    return text;
}

class HazardLog {
public:
    HazardLog(const SimModule& module, std::string kernel) : module_(module), kernel_(std::move(kernel)) {}

    // A hazard with the launch's kernel and where it happened filled in.
    Hazard hazard(CheckTool tool, gpukit_sim::Index3 block, gpukit_sim::Index3 thread) const {
        Hazard hazard;
        hazard.tool = tool;
        hazard.kernel = kernel_;
        hazard.block = dim(block);
        hazard.thread = dim(thread);
        return hazard;
    }

    // The first occurrence of a hazard made by the memory access before `pc`.
    struct AtAccess {
        Hazard hazard;                   // its file and line come from `pc`
        const void* other_pc = nullptr;  // racecheck: the earlier access's, for other_file and other_line
    };
    // A hazard at an access, told apart from others by the instruction and `key`: `make()` gives
    // the first occurrence (an AtAccess); the later ones are only counted.
    template <class Make>
    void at_access(const void* pc, std::string key, Make&& make) {
        std::lock_guard lock(mutex_);
        auto at = std::make_pair(pc, std::move(key));
        if (auto it = at_access_.find(at); it != at_access_.end()) {
            ++it->second.hazard.occurrences;
            return;
        }
        at_access_.emplace(std::move(at), make());
    }

    // A hazard at a source line (synccheck's: `hazard.file`, `hazard.line`). With `later_pc`, it
    // stands only if that access's line comes after `hazard.line` in the same file (the thread
    // went past the barrier).
    void at_line(Hazard hazard, const void* later_pc = nullptr);

    // The distinct hazards, with source lines resolved.
    std::vector<Hazard> hazards() const;

private:
    const SimModule& module_;
    std::string kernel_;
    mutable std::mutex mutex_;
    std::map<std::pair<const void*, std::string>, AtAccess> at_access_;  // by (pc, key)
    // by (file, line, what, the access that decides whether it stands)
    std::map<std::tuple<std::string, int, std::string, const void*>, Hazard> at_line_;
};

}  // namespace gpukit::detail::sim::check
