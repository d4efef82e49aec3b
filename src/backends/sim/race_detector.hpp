// src/backends/sim/race_detector.hpp: racecheck's bookkeeping per 4-byte word.
//
// Two accesses to one word race when they come from different threads, at least one writes,
// not both are atomic, and nothing orders them: threads of different blocks are always
// concurrent; threads of one block are ordered by a __syncthreads between them, lanes of one
// warp also by a warp collective. Each word remembers its last writer and two recent readers.
#pragma once

#include <cstdint>
#include <optional>

#include "backends/sim/prelude/gpukit_sim_abi.h"

namespace gpukit::detail::sim {

// Who accesses, and at which point of the block's synchronisation.
struct AccessAgent {
    std::uint64_t block = 0;  // linear block index
    unsigned thread = 0;      // linear thread index in the block
    unsigned warp = 0;
    unsigned block_generation = 0;  // block barriers completed so far
    unsigned warp_generation = 0;   // warp collectives completed so far by this warp
    gpukit_sim::Index3 block_idx{};
    gpukit_sim::Index3 thread_idx{};
};

struct AccessRecord {
    AccessAgent agent;
    const void* pc = nullptr;
    bool atomic = false;
    bool valid = false;
};

struct RaceWord {
    std::uint64_t serial = 0;  // whose records these are (a block's or a launch's); stale otherwise
    AccessRecord writer;
    AccessRecord readers[2];
};

struct Race {
    const char* kind;      // "read-after-write", "write-after-read", "write-after-write"
    AccessRecord earlier;  // the access already recorded
    bool earlier_is_write;
};

// Records `now` in `word` and returns the race it forms with an earlier access, if any.
std::optional<Race> observe(RaceWord& word, std::uint64_t serial, const AccessRecord& now, bool is_write);

}  // namespace gpukit::detail::sim
