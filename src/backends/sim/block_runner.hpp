// src/backends/sim/block_runner.hpp: runs the threads of one block on the calling OS thread.
//
// A kernel that never synchronises runs as a plain loop over its threads. Otherwise each thread is
// a fiber, and a thread that waits (block barrier, warp collective) hands the OS thread straight to
// the next thread that can run: one switch per thread per barrier. Threads that have returned
// count as arrived. When no thread can run and some have not finished, the block is deadlocked:
// the launch fails with a report of who waits where, instead of hanging.
#pragma once

#include <string>

#include "backends/sim/prelude/gpukit_sim_abi.h"
#include "backends/sim/sim_module.hpp"

namespace gpukit::detail::sim {

namespace check {
class LaunchChecker;
}

struct BlockLaunch {
    const SimModule* module;
    const SimKernel* kernel;
    void* const* args;
    gpukit_sim::Index3 grid;
    gpukit_sim::Index3 block;
    std::size_t dynamic_shared_bytes;
    check::LaunchChecker* checker = nullptr;  // check mode: every thread is a fiber, every access judged
    unsigned tag = 0;                         // names the launch in crash reports (the device process's slot)
};

// Runs block `block_idx` of the launch on this OS thread. Throws LaunchError on a deadlock,
// KernelFaultError when a thread ends the launch (a failed assert, __trap(), abort(), exit()).
void run_block(const BlockLaunch& launch, gpukit_sim::Index3 block_idx);

// The services kernels call (barriers, warp collectives), handed to every module at load time.
const gpukit_sim::RuntimeHooks& runtime_hooks();

// What this OS thread is running, for the crash report: null when it runs no kernel.
struct RunningBlock {
    const char* kernel;
    gpukit_sim::Index3 block_idx;
    unsigned tag;  // BlockLaunch::tag
    const SimModule* module;
};
const RunningBlock* running_block() noexcept;
// True when `address` is in the guard page below one of this OS thread's fiber stacks.
bool is_fiber_stack_guard(const void* address) noexcept;
// The simulated thread whose stack holds `stack_address` (on this OS thread), or null.
const gpukit_sim::ThreadContext* thread_context_of(const void* stack_address) noexcept;

}  // namespace gpukit::detail::sim
