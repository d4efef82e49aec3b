// src/backends/sim/check/synccheck.cpp: synccheck: barriers and warp collectives reached by only
// part of the threads they wait for.
//
// It judges no access: the kernel's filter passes them all, after noting each thread's latest one
// (ThreadContext::last_access), which tells a thread that returned before a barrier from one that
// went past it. What it judges, the block runner sees: which barrier each thread waits at, which
// lanes a collective names, and who has returned.
#include <cstdio>
#include <string>

#include "backends/sim/check/hazard_log.hpp"
#include "backends/sim/check/tools.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim::check {

namespace {

using gpukit_sim::Index3;

std::string to_string(Index3 i) { return concat("(", i.x, ",", i.y, ",", i.z, ")"); }

std::string hex_mask(unsigned mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

const char* barrier_name(int kind) {
    switch (kind) {
        case gpukit_sim::barrier_count: return "__syncthreads_count";
        case gpukit_sim::barrier_and: return "__syncthreads_and";
        case gpukit_sim::barrier_or: return "__syncthreads_or";
        default: return "__syncthreads";
    }
}

const char* warp_intrinsic_name(int kind) {
    switch (kind) {
        case gpukit_sim::warp_sync: return "__syncwarp";
        case gpukit_sim::warp_shfl: return "__shfl_sync";
        case gpukit_sim::warp_shfl_up: return "__shfl_up_sync";
        case gpukit_sim::warp_shfl_down: return "__shfl_down_sync";
        case gpukit_sim::warp_shfl_xor: return "__shfl_xor_sync";
        case gpukit_sim::warp_ballot: return "__ballot_sync";
        case gpukit_sim::warp_any: return "__any_sync";
        case gpukit_sim::warp_all: return "__all_sync";
        case gpukit_sim::warp_match_any: return "__match_any_sync";
        case gpukit_sim::warp_match_all: return "__match_all_sync";
        default: return "__reduce_*_sync";
    }
}

constexpr const char* divergent_barrier = "Barrier error detected. Divergent thread(s) in block";

class Synccheck final : public Tool {
public:
    explicit Synccheck(const LaunchInfo& launch) : launch_(launch) {}

    void mask_without_lane(const BlockSite& block, const SyncSite& lane) override {
        record(block, lane.thread, "Invalid arguments to a warp intrinsic", lane.file, lane.line,
               concat("the mask ", hex_mask(lane.mask), " of ", warp_intrinsic_name(lane.kind),
                      " leaves out the calling lane ", lane.lane, "; every lane must name itself"));
    }

    // Every thread a barrier releases must have waited at the same one.
    void barrier_divergence(const BlockSite& block, const SyncSite& thread, const SyncSite& first) override {
        record(block, thread.thread, divergent_barrier, thread.file, thread.line,
               concat("thread ", to_string(thread.thread), " waits at this ", barrier_name(thread.kind),
                      " while thread ", to_string(first.thread), " waits at the one at ", file_name(first.file), ":",
                      first.line, "; the threads of a block must all reach the same barrier"),
               &first);
    }

    // A lane whose mask left itself out was reported at the call already.
    void returned_lane_read(const BlockSite& block, const SyncSite& reader, unsigned source) override {
        if (!(reader.mask & (1u << reader.lane))) return;
        record(block, reader.thread, "Warp collective error: a lane of the mask has returned", reader.file, reader.line,
               concat("lane ", reader.lane, " reads lane ", source, " through ", warp_intrinsic_name(reader.kind),
                      " (mask ", hex_mask(reader.mask), "), but lane ", source,
                      " returned before reaching it; the value is undefined"));
    }

    // A thread that returns while others wait at a barrier it went past (its last access lies
    // after the barrier) skipped that barrier. One that returned before reaching it is fine, as
    // on the GPU, where exited threads count as arrived: the log decides once lines are known.
    void return_during_barrier(const BlockSite& block, Index3 thread, const void* last_access, const SyncSite& first,
                               unsigned waiting) override {
        if (!last_access) return;
        record(block, thread, divergent_barrier, first.file, first.line,
               concat("thread ", to_string(thread), " returned without reaching this ", barrier_name(first.kind),
                      ", which ", waiting, waiting == 1 ? " thread waits at" : " threads wait at",
                      "; a barrier must be reached by every thread of the block that has not returned"),
               &first, last_access);
    }

private:
    // A barrier's file (its __FILE__) by the name the user gave it.
    std::string file_name(const char* file) const { return file ? launch_.module.source_name(file) : ""; }

    // A hazard of `thread` at `file:line`; `other`: the site it conflicts with.
    void record(const BlockSite& block, Index3 thread, const char* what, const char* file, int line, std::string detail,
                const SyncSite* other = nullptr, const void* later_pc = nullptr) {
        Hazard hazard = launch_.log.hazard(CheckTool::synccheck, block.index, thread);
        hazard.what = what;
        hazard.file = file_name(file);
        hazard.line = line;
        hazard.detail = std::move(detail);
        if (other) {
            hazard.other_file = file_name(other->file);
            hazard.other_line = other->line;
        }
        hazard.other_thread = dim(other ? other->thread : Index3{});
        hazard.other_block = hazard.block;
        launch_.log.at_line(std::move(hazard), later_pc);
    }

    const LaunchInfo& launch_;
};

}  // namespace

constinit const ToolDefinition synccheck_tool = define_tool<Synccheck>(CheckTool::synccheck, "synccheck", {});

}  // namespace gpukit::detail::sim::check
