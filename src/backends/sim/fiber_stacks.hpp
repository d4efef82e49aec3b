// src/backends/sim/fiber_stacks.hpp: stacks for the simulated threads of one worker thread.
//
// Each stack is a region of simulated_stack_bytes() (64 KiB unless GPUKIT_SIM_STACK_KB asks for
// another power of two) aligned to its own size: its first page holds the thread's
// ThreadContext, found by the kernel from its stack pointer; a guard page follows, so an overflow
// faults instead of overwriting it; the stack grows down from the region's end. Address space is
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

    // Stack `index`, reserved on first use.
    gpukit_sim::ThreadContext* context(std::size_t index);
    void* top(std::size_t index);
    std::size_t usable_bytes() const noexcept { return size_ - 2 * page_; }

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
