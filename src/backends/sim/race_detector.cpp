// src/backends/sim/race_detector.cpp: racecheck's bookkeeping per 4-byte word.
#include "backends/sim/race_detector.hpp"

namespace gpukit::detail::sim {

namespace {

bool concurrent(const AccessAgent& a, const AccessAgent& b) {
    if (a.block != b.block) return true;  // blocks are never ordered with each other
    if (a.thread == b.thread) return false;
    if (a.block_generation != b.block_generation) return false;
    if (a.warp == b.warp && a.warp_generation != b.warp_generation) return false;
    return true;
}

bool conflict(const AccessRecord& earlier, const AccessRecord& now) {
    return earlier.valid && !(earlier.atomic && now.atomic) && concurrent(earlier.agent, now.agent);
}

}  // namespace

std::optional<Race> observe(RaceWord& word, std::uint64_t serial, const AccessRecord& now, bool is_write) {
    if (word.serial != serial) word = RaceWord{serial, {}, {}};
    std::optional<Race> race;
    if (conflict(word.writer, now)) race = Race{is_write ? "write-after-write" : "read-after-write", word.writer, true};
    if (!race && is_write) {
        for (const auto& reader : word.readers)
            if (conflict(reader, now)) {
                race = Race{"write-after-read", reader, false};
                break;
            }
    }
    if (is_write) {
        word.writer = now;
    } else if (!word.readers[0].valid || word.readers[0].agent.thread == now.agent.thread) {
        word.readers[0] = now;
    } else {
        word.readers[1] = now;  // a second, different reader: enough to find a later writer's race
    }
    return race;
}

}  // namespace gpukit::detail::sim
