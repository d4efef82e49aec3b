// src/backends/sim/fiber_stacks.hpp: stacks for the fibers of one worker thread.
//
// Each simulated thread of a synchronising block runs on its own stack: 64 KiB (GPUKIT_SIM_STACK_KB)
// of address space reserved lazily, with a guard page below it so an overflow faults instead of
// corrupting a neighbour. Stacks are kept and reused from block to block.
#pragma once

#include <cstddef>
#include <vector>

namespace gpukit::detail::sim {

class FiberStacks {
public:
    FiberStacks();
    ~FiberStacks();
    FiberStacks(const FiberStacks&) = delete;
    FiberStacks& operator=(const FiberStacks&) = delete;

    // The top (highest address) of stack `index`, creating stacks up to it on first use.
    void* top(std::size_t index);
    std::size_t usable_bytes() const noexcept { return usable_; }
    // True when `address` lies in the guard page of one of these stacks.
    bool is_guard_page(const void* address) const noexcept;

private:
    struct Mapping {
        char* base;  // the guard page; the stack lies above it
        std::size_t size;
    };
    std::vector<Mapping> stacks_;
    std::size_t usable_;
    std::size_t guard_;
};

}  // namespace gpukit::detail::sim
