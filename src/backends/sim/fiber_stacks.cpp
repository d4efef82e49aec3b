// src/backends/sim/fiber_stacks.cpp: stacks for the simulated threads of one worker thread.
#include "backends/sim/fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "gpukit/error.hpp"

static_assert(sizeof(gpukit_sim::ThreadContext) <= 48);
#include "util/text.hpp"

namespace gpukit::detail::sim {

std::size_t simulated_stack_bytes() {
    static const std::size_t bytes = [] {
        std::size_t size = gpukit_sim::kStackBytes;
        if (const char* kb = std::getenv("GPUKIT_SIM_STACK_KB"); kb && *kb) {
            const long value = std::strtol(kb, nullptr, 10);
            if (value < 64 || (value & (value - 1)) != 0)
                throw InvalidArgumentError(
                    concat("GPUKIT_SIM_STACK_KB=", kb,
                           ": the simulator's stack size must be a power of two of at least 64 KiB"));
            size = static_cast<std::size_t>(value) * 1024;
        }
        return size;
    }();
    return bytes;
}

FiberStacks::FiberStacks() : size_(simulated_stack_bytes()), page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {}

FiberStacks::~FiberStacks() {
    for (char* region : regions_) munmap(region, size_);
}

char* FiberStacks::region(std::size_t index) {
    while (regions_.size() <= index) {
        // Reserve twice the size and keep the aligned half.
        void* memory =
            mmap(nullptr, 2 * size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED)
            throw OutOfMemoryError(concat("Failed to reserve a stack for simulated thread ", regions_.size()), "ENOMEM",
                                   2, "mmap failed", 2 * size_, 0, 0);
        const auto start = reinterpret_cast<std::uintptr_t>(memory);
        const auto aligned = (start + size_ - 1) & ~(size_ - 1);
        if (aligned > start) munmap(memory, aligned - start);
        if (aligned + size_ < start + 2 * size_)
            munmap(reinterpret_cast<void*>(aligned + size_), start + 2 * size_ - (aligned + size_));
        char* base = reinterpret_cast<char*>(aligned);
        mprotect(base, page_, PROT_NONE);
        regions_.push_back(base);
    }
    return regions_[index];
}

gpukit_sim::ThreadContext* FiberStacks::context(std::size_t index) {
    return reinterpret_cast<gpukit_sim::ThreadContext*>(
        gpukit_sim::context_address(reinterpret_cast<std::uintptr_t>(region(index))));
}

// Right after the 32-byte context, in the same cache line.
void* FiberStacks::record(std::size_t index) { return reinterpret_cast<char*>(context(index)) + 48; }

const gpukit_sim::ThreadContext* FiberStacks::context_of(const void* stack_address) const noexcept {
    const auto base = reinterpret_cast<std::uintptr_t>(stack_address) & ~(size_ - 1);
    for (char* region : regions_)
        if (reinterpret_cast<std::uintptr_t>(region) == base)
            return reinterpret_cast<const gpukit_sim::ThreadContext*>(gpukit_sim::context_address(base));
    return nullptr;
}

bool FiberStacks::is_guard_page(const void* address) const noexcept {
    const char* at = static_cast<const char*>(address);
    for (char* region : regions_)
        if (at >= region && at < region + page_) return true;
    return false;
}

}  // namespace gpukit::detail::sim
