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

// One check-mode tool (the rows of gpukit/check_tools.def, in order).
enum class CheckTool : std::uint8_t {
#define GPUKIT_CHECK_TOOL(name, summary) name,
#include "gpukit/check_tools.def"
#undef GPUKIT_CHECK_TOOL
};

struct CheckToolInfo {
    CheckTool tool;
    std::string_view name;     // "memcheck": what GPUKIT_CHECK, `gpukit check --tools` and reports say
    std::string_view summary;  // what it finds, one line
};

// Every tool, in CheckTool's order.
inline constexpr CheckToolInfo check_tool_table[] = {
#define GPUKIT_CHECK_TOOL(name, summary) {CheckTool::name, #name, summary},
#include "gpukit/check_tools.def"
#undef GPUKIT_CHECK_TOOL
};

constexpr std::string_view to_string(CheckTool tool) { return check_tool_table[static_cast<std::size_t>(tool)].name; }

// A set of check tools: what a module is compiled for, what a launch asks for, part of the
// compile cache's key. Empty is fast mode.
class CheckTools {
public:
    constexpr CheckTools() = default;
    // Implicit: a tool is a set of one, so `.check = CheckTool::memcheck` reads as it should.
    constexpr CheckTools(CheckTool tool) : bits_(bit(tool)) {}  // NOLINT(google-explicit-constructor)

    static constexpr CheckTools all() {
        CheckTools tools;
        for (const auto& row : check_tool_table) tools.bits_ |= bit(row.tool);
        return tools;
    }
    // "memcheck,racecheck", "all", "none" or "" (none). Throws InvalidArgumentError naming the
    // tools there are.
    static CheckTools parse(std::string_view text);
    // The tools GPUKIT_CHECK asks for (none when unset); InvalidArgumentError naming the variable.
    static CheckTools from_environment();

    constexpr bool empty() const noexcept { return bits_ == 0; }
    constexpr bool contains(CheckTool tool) const noexcept { return (bits_ & bit(tool)) != 0; }
    constexpr bool contains(CheckTools tools) const noexcept { return (bits_ & tools.bits_) == tools.bits_; }
    // One bit per tool, in CheckTool's order: a compact key for maps, the cache and the simulator's ABI.
    constexpr std::uint32_t bits() const noexcept { return bits_; }
    static constexpr CheckTools from_bits(std::uint32_t bits) noexcept {
        CheckTools tools;
        tools.bits_ = bits & all().bits_;
        return tools;
    }
    // "memcheck,initcheck"; "none" when empty.
    std::string to_string() const;

    constexpr CheckTools operator|(CheckTools other) const noexcept {
        CheckTools tools;
        tools.bits_ = bits_ | other.bits_;
        return tools;
    }
    constexpr CheckTools& operator|=(CheckTools other) noexcept { return *this = *this | other; }
    friend constexpr bool operator==(CheckTools, CheckTools) = default;

private:
    static constexpr std::uint32_t bit(CheckTool tool) { return std::uint32_t{1} << static_cast<unsigned>(tool); }
    std::uint32_t bits_ = 0;
};

constexpr CheckTools operator|(CheckTool a, CheckTool b) { return CheckTools(a) | CheckTools(b); }

// One distinct hazard: the first occurrence's details and how often it happened.
struct Hazard {
    CheckTool tool = CheckTool::memcheck;  // the tool that found it
    std::string what;                      // "Invalid __global__ write of size 4 bytes"
    std::string kernel;
    Dim3 block;
    Dim3 thread;
    std::string file;  // source of the access, "kernel.cu"
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

// One hazard's block of "========= " lines, as CheckReport::text() and the report on stderr show it.
std::string hazard_text(const Hazard& hazard);

// The hazards check-mode launches found since the last call, after waiting for them to finish.
CheckReport take_check_report();

// Whether hazards are printed to stderr as compute-sanitizer prints them: each one once, at the
// first synchronisation (of a device, stream or event, or a copy to the host) after its launch
// finished or when take_check_report() takes it, and an ERROR SUMMARY when the process exits
// (launches still running then are not waited for). On by default when GPUKIT_CHECK names a tool,
// so a program checks without a change; off otherwise. The hazards printed still go to
// take_check_report(). Printing never changes the exit status; see set_raise_on_hazard for that.
void set_print_check_report(bool print);
bool print_check_report();

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
