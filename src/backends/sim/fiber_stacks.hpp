// src/backends/sim/fiber_stacks.hpp: stacks for the simulated threads of one worker thread.
//
// Each stack is a region of simulated_stack_bytes() (64 KiB unless GPUKIT_SIM_STACK_KB asks for
// another power of two) aligned to its own size. Near its top lie the thread's ThreadContext,
// which the kernel finds from its stack pointer, and `record_bytes` for the runtime's own record
// of the thread; the stack grows down from below them, and the region's first page is a guard
// page, so an overflow faults instead of running into the next region. Address space is
// reserved lazily and kept from block to block.
#pragma once

#include <cstddef>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_abi.h"

namespace gpukit::detail::sim {

// The stack size of every simulated thread; the host compiler builds modules for it.
std::size_t simulated_stack_bytes();

class FiberStacks {
public:
    FiberStacks();
    ~FiberStacks();
    FiberStacks(const FiberStacks&) = delete;
    FiberStacks& operator=(const FiberStacks&) = delete;

    // Stack `index`, reserved on first use: its context, the runtime's record space right after
    // it, and the stack's top (just below the context).
    gpukit_sim::ThreadContext* context(std::size_t index);
    void* record(std::size_t index);
    void* top(std::size_t index) { return context(index); }
    static constexpr std::size_t record_bytes = gpukit_sim::kContextReserve - 48;

    // The context whose stack holds `stack_address`, or null if none of these stacks does.
    const gpukit_sim::ThreadContext* context_of(const void* stack_address) const noexcept;
    // True when `address` lies in the guard page of one of these stacks.
    bool is_guard_page(const void* address) const noexcept;

private:
    char* region(std::size_t index);
    std::vector<char*> regions_;
    std::size_t size_;
    std::size_t page_;
};

}  // namespace gpukit::detail::sim
