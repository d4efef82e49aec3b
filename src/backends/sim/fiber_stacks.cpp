// src/backends/sim/fiber_stacks.cpp: stacks for the fibers of one worker thread.
#include "backends/sim/fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>

#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {
std::size_t configured_stack_bytes() {
    if (const char* kb = std::getenv("GPUKIT_SIM_STACK_KB"); kb && *kb) {
        const long value = std::strtol(kb, nullptr, 10);
        if (value >= 16) return static_cast<std::size_t>(value) * 1024;
    }
    return 64 * 1024;
}
}  // namespace

FiberStacks::FiberStacks()
    : usable_(configured_stack_bytes()), guard_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    usable_ = (usable_ + guard_ - 1) / guard_ * guard_;
}

FiberStacks::~FiberStacks() {
    for (const auto& stack : stacks_) munmap(stack.base, stack.size);
}

void* FiberStacks::top(std::size_t index) {
    while (stacks_.size() <= index) {
        const std::size_t size = usable_ + guard_;
        void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED)
            throw OutOfMemoryError(concat("Failed to reserve a stack for simulated thread ", stacks_.size()),
                                   "ENOMEM", 2, "mmap failed", size, 0, 0);
        mprotect(memory, guard_, PROT_NONE);
        stacks_.push_back({static_cast<char*>(memory), size});
    }
    return stacks_[index].base + stacks_[index].size;
}

bool FiberStacks::is_guard_page(const void* address) const noexcept {
    const char* at = static_cast<const char*>(address);
    for (const auto& stack : stacks_)
        if (at >= stack.base && at < stack.base + guard_) return true;
    return false;
}

}  // namespace gpukit::detail::sim
