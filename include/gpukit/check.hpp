// gpukit/check.hpp: the simulator's check mode, gpukit's answer to compute-sanitizer.
//
// A module compiled for checking (CompileOptions::check, or GPUKIT_CHECK=memcheck,... for every
// simulator module) reports each memory access its kernels make to the runtime before it
// happens. memcheck: an access outside every allocation, shared array and global is reported
// with the kernel, block, thread, source line and the nearest allocation, and the offending
// simulated thread stops there, so the process goes on. racecheck: two threads touch one word,
// one writes, nothing orders them (shared and global memory). synccheck: barriers and warp
// intrinsics reached by part of the threads they wait for. initcheck: shared or device memory
// read before anything wrote it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/error.hpp"
#include "gpukit/geometry.hpp"

namespace gpukit {

enum class CheckTool : unsigned { none = 0, memcheck = 1, racecheck = 2, synccheck = 4, initcheck = 8, all = 15 };

constexpr CheckTool operator|(CheckTool a, CheckTool b) {
    return static_cast<CheckTool>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr bool includes(CheckTool set, CheckTool tool) {
    return (static_cast<unsigned>(set) & static_cast<unsigned>(tool)) != 0;
}
// "memcheck,racecheck", "all", "" (none). Throws InvalidArgumentError naming the tools known.
CheckTool parse_check_tools(std::string_view text);
std::string to_string(CheckTool tools);
// The tools GPUKIT_CHECK asks for (none when unset).
CheckTool check_tools_from_environment();

// One distinct hazard: the first occurrence's details and how often it happened.
struct Hazard {
    CheckTool tool = CheckTool::memcheck;
    std::string what;    // "Invalid __global__ write of size 4 bytes"
    std::string kernel;
    Dim3 block;
    Dim3 thread;
    std::string file;    // source of the access, "kernel.cu"
    int line = 0;
    std::uint64_t address = 0;
    std::size_t size = 0;
    bool is_write = false;
    std::string detail;  // "Address 0x... is 0 bytes after the nearest allocation at 0x... of size 4000 bytes"
    std::uint64_t occurrences = 1;

    // racecheck: the earlier of the two conflicting accesses (the fields above are the later).
    std::string other_access;  // "Write"
    std::string other_file;
    int other_line = 0;
    Dim3 other_block;
    Dim3 other_thread;
};

struct CheckReport {
    std::vector<Hazard> hazards;

    bool clean() const noexcept { return hazards.empty(); }
    // compute-sanitizer's layout: a block of "========= " lines per hazard and a summary.
    std::string text() const;
};

// The hazards check-mode launches found since the last call, after waiting for them to finish.
CheckReport take_check_report();

// Whether a check-mode launch that found a hazard fails with HazardError (at the next
// synchronisation, like any launch error) instead of only recording it. Off by default;
// GPUKIT_CHECK_RAISE=1 turns it on for the process.
void set_raise_on_hazard(bool raise);
bool raise_on_hazard();

// A check-mode launch's first hazard, when raise_on_hazard() is on. The hazards stay in the
// report for take_check_report().
class HazardError : public Error {
public:
    explicit HazardError(Hazard hazard);
    const Hazard& hazard() const noexcept { return hazard_; }

private:
    Hazard hazard_;
};

}  // namespace gpukit
