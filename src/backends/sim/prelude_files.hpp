// src/backends/sim/prelude_files.hpp: the prelude headers, embedded in the library at build time
// (from src/backends/sim/prelude/), written next to every kernel the simulator compiles.
#pragma once

#include <string_view>
#include <vector>

namespace gpukit::detail::sim {

struct PreludeFile {
    std::string_view name;  // e.g. "gpukit_sim.h"
    std::string_view text;
};

const std::vector<PreludeFile>& prelude_files();

}  // namespace gpukit::detail::sim
