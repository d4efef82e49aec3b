// src/core/check_store.hpp: where check-mode launches leave the hazards they found.
#pragma once

#include <vector>

#include "gpukit/check.hpp"

namespace gpukit::detail {

// Adds the hazards of one finished launch to what take_check_report() returns.
void record_check_hazards(std::vector<Hazard> hazards);

}  // namespace gpukit::detail
