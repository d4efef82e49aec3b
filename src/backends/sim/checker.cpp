// src/backends/sim/checker.cpp: check mode's judgement of each memory access of a launch.
#include "backends/sim/checker.hpp"

#include <cstdio>

#include "backends/sim/allocations.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

std::string hex(std::uintptr_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%lx", static_cast<unsigned long>(value));
    return text;
}

std::string access_words(const char* space, std::size_t size, unsigned flags) {
    const bool write = flags & gpukit_sim::access_write;
    const bool atomic = flags & gpukit_sim::access_atomic;
    return concat(atomic ? "Invalid __" : "Invalid __", space, "__ ", atomic ? "atomic" : (write ? "write" : "read"),
                  " of size ", size, size == 1 ? " byte" : " bytes");
}

Dim3 dim(const gpukit_sim::Index3& i) { return Dim3(i.x, i.y, i.z); }

}  // namespace

LaunchChecker::LaunchChecker(const SimModule& module, std::string kernel, CheckTool tools,
                             std::size_t dynamic_shared_bytes)
    : module_(module), kernel_(std::move(kernel)), tools_(tools), dynamic_shared_bytes_(dynamic_shared_bytes) {}

bool LaunchChecker::check(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                          const void* pc) {
    // Local memory: the simulated thread's own stack.
    if (address >= site.stack_begin && address + size <= site.stack_end) return true;
    // The block's built-in variables.
    const auto context = reinterpret_cast<std::uintptr_t>(site.block_context);
    if (address >= context && address + size <= context + sizeof(gpukit_sim::BlockContext)) return true;
    if (!includes(tools_, CheckTool::memcheck)) return true;

    // Shared memory: one of the block's __shared__ variables.
    if (site.shared_begin && address >= site.shared_begin) {
        for (const auto& variable : module_.shared_variables()) {
            const std::uintptr_t begin = site.shared_begin + variable.offset;
            const std::uintptr_t end = begin + (variable.dynamic ? dynamic_shared_bytes_ : variable.size);
            if (address >= begin && address < begin + variable.size) {
                if (address + size <= end) return true;
                record(site, address, size, flags, pc, access_words("shared", size, flags),
                       variable.dynamic
                           ? concat("Address ", hex(address), " is ", address - begin,
                                    " bytes into the dynamic shared memory, past the ", dynamic_shared_bytes_,
                                    " bytes the launch asked for (LaunchConfig::shared_bytes)")
                           : concat("Address ", hex(address), " is ", address + size - end,
                                    " bytes past the end of __shared__ ", variable.name, " (", variable.size, " bytes)"));
                return false;
            }
        }
    }

    // Global memory: a live allocation, naturally aligned.
    if (AllocationTable::instance().containing(address, size)) {
        if (size > 1 && size <= 16 && address % size != 0) {
            record(site, address, size, flags, pc,
                   concat("Misaligned __global__ ", (flags & gpukit_sim::access_write) ? "write" : "read", " of size ",
                          size, " bytes"),
                   concat("Address ", hex(address), " is not aligned to ", size, " bytes"));
            return false;
        }
        return true;
    }
    // The module's own globals (__constant__, __device__).
    if (module_.in_image(address, size)) return true;

    // Just past (or before) a live allocation is the common bug; the heap may since have put a
    // freed allocation there too, so nearness to a live one is judged first.
    std::string detail;
    const auto nearest = AllocationTable::instance().nearest(address);
    const auto distance = [&](const Allocation& a) -> std::uintptr_t {
        const std::uintptr_t end = a.address + a.size;
        return address >= end ? address - end : (address < a.address ? a.address - address : 0);
    };
    constexpr std::uintptr_t near_bytes = 1024;
    if (nearest && distance(*nearest) <= near_bytes) {
        const std::uintptr_t end = nearest->address + nearest->size;
        detail = address >= end ? concat("Address ", hex(address), " is ", address - end,
                                         " bytes after the nearest allocation at ", hex(nearest->address),
                                         " of size ", nearest->size, " bytes")
                 : address < nearest->address
                     ? concat("Address ", hex(address), " is ", nearest->address - address,
                              " bytes before the nearest allocation at ", hex(nearest->address), " of size ",
                              nearest->size, " bytes")
                     : concat("Access at ", hex(address), " of ", size, " bytes runs past the end of the allocation at ",
                              hex(nearest->address), " of size ", nearest->size, " bytes");
    } else if (auto freed = AllocationTable::instance().freed_containing(address)) {
        detail = concat("Address ", hex(address), " is ", address - freed->address, " bytes into an allocation at ",
                        hex(freed->address), " of size ", freed->size, " bytes that was freed");
    } else if (nearest) {
        detail = concat("Address ", hex(address), " is ", distance(*nearest), " bytes from the nearest allocation at ",
                        hex(nearest->address), " of size ", nearest->size, " bytes");
    } else {
        detail = concat("Address ", hex(address), " is not device memory (a host pointer, or a wild one)");
    }
    record(site, address, size, flags, pc, access_words("global", size, flags), std::move(detail));
    return false;
}

void LaunchChecker::record(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                           const void* pc, std::string what, std::string detail) {
    std::lock_guard lock(mutex_);
    auto key = std::make_tuple(pc, what);
    auto it = hazards_.find(key);
    if (it != hazards_.end()) {
        ++it->second.occurrences;
        return;
    }
    Hazard hazard;
    hazard.tool = CheckTool::memcheck;
    hazard.what = std::move(what);
    hazard.kernel = kernel_;
    hazard.block = dim(site.block);
    hazard.thread = dim(site.thread);
    hazard.address = address;
    hazard.size = size;
    hazard.is_write = flags & gpukit_sim::access_write;
    hazard.detail = std::move(detail);
    hazards_.emplace(key, std::move(hazard));
    pcs_.emplace(key, pc);
}

std::vector<Hazard> LaunchChecker::hazards() const {
    std::lock_guard lock(mutex_);
    std::vector<Hazard> all;
    for (const auto& [key, hazard] : hazards_) {
        Hazard resolved = hazard;
        const auto location = module_.source_of(pcs_.at(key));
        resolved.file = location.file;
        resolved.line = location.line;
        all.push_back(std::move(resolved));
    }
    return all;
}

}  // namespace gpukit::detail::sim
