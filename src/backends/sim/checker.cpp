// src/backends/sim/checker.cpp: check mode's judgement of each memory access of a launch.
#include "backends/sim/checker.hpp"

#include <cstdio>

#include "backends/sim/allocations.hpp"
#include "util/text.hpp"

#include <string>

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
    : module_(module),
      kernel_(std::move(kernel)),
      tools_(tools),
      dynamic_shared_bytes_(dynamic_shared_bytes),
      global_shadow_(includes(tools, CheckTool::racecheck) ? std::make_unique<Shard[]>(shards) : nullptr) {}

bool LaunchChecker::check(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                          const void* pc) {
    // Local memory: the simulated thread's own stack.
    if (address >= site.stack_begin && address + size <= site.stack_end) return true;
    // The block's built-in variables.
    const auto context = reinterpret_cast<std::uintptr_t>(site.block_context);
    if (address >= context && address + size <= context + sizeof(gpukit_sim::BlockContext)) return true;
    const bool memcheck = includes(tools_, CheckTool::memcheck);

    // Shared memory: one of the block's __shared__ variables.
    if (site.shared_begin && address >= site.shared_begin) {
        for (const auto& variable : module_.shared_variables()) {
            const std::uintptr_t begin = site.shared_begin + variable.offset;
            const std::uintptr_t end = begin + (variable.dynamic ? dynamic_shared_bytes_ : variable.size);
            if (address >= begin && address < begin + variable.size) {
                if (address + size <= end) {
                    if (site.shared_written) check_shared_initialised(site, variable, begin, address, size, flags, pc);
                    if (site.shared_shadow)
                        check_races(site, site.shared_shadow + (address - site.shared_begin) / 4, site.shared_serial,
                                    "__shared__", address, size, flags, pc);
                    return true;
                }
                if (!memcheck) return true;
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
    if (const auto allocation = AllocationTable::instance().containing(address, size)) {
        if (global_shadow_) check_global_races(site, address, size, flags, pc);
        if (includes(tools_, CheckTool::initcheck)) {
            const bool reads = !(flags & gpukit_sim::access_write) || (flags & gpukit_sim::access_atomic);
            if (reads && !allocation->all_written(address, size))
                record(site, address, size, flags, pc, concat("Uninitialized __global__ memory read of size ", size,
                                                              size == 1 ? " byte" : " bytes"),
                       concat("Address ", hex(address), " is ", address - allocation->address,
                              " bytes into the allocation at ", hex(allocation->address), " of size ", allocation->size,
                              " bytes, which no copy, memset or kernel wrote before this read"),
                       CheckTool::initcheck);
            if (flags & gpukit_sim::access_write) allocation->mark_written(address, size);
        }
        if (memcheck && size > 1 && size <= 16 && address % size != 0) {
            record(site, address, size, flags, pc,
                   concat("Misaligned __global__ ", (flags & gpukit_sim::access_write) ? "write" : "read", " of size ",
                          size, " bytes"),
                   concat("Address ", hex(address), " is not aligned to ", size, " bytes"));
            return false;
        }
        return true;
    }
    // The module's own globals (__constant__, __device__).
    if (module_.in_image(address, size)) {
        if (global_shadow_) check_global_races(site, address, size, flags, pc);
        return true;
    }
    if (!memcheck) return true;

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

void LaunchChecker::check_races(const AccessSite& site, RaceWord* shadow, std::uint64_t serial, const char* space,
                                std::uintptr_t address, std::size_t size, unsigned flags, const void* pc) {
    const bool write = flags & gpukit_sim::access_write;
    const AccessRecord now{site.agent, pc, (flags & gpukit_sim::access_atomic) != 0, true};
    for (std::uintptr_t word = address / 4; word <= (address + size - 1) / 4; ++word, ++shadow) {
        const auto race = observe(*shadow, serial, now, write);
        if (!race) continue;
        const auto key = std::make_tuple(pc, std::string("race ") + race->kind + " " + space);
        std::lock_guard lock(mutex_);
        auto it = hazards_.find(key);
        if (it != hazards_.end()) {
            ++it->second.occurrences;
            continue;
        }
        Hazard hazard;
        hazard.tool = CheckTool::racecheck;
        hazard.what = concat("Race (", race->kind, ") on ", space, " memory");
        hazard.kernel = kernel_;
        hazard.block = dim(site.block);
        hazard.thread = dim(site.thread);
        hazard.address = word * 4;
        hazard.size = 4;
        hazard.is_write = write;
        hazard.detail = concat("both touch the 4 bytes at ", hex(word * 4),
                               race->earlier.agent.block != site.agent.block
                                   ? " from different blocks, which nothing orders"
                                   : " with no __syncthreads (or warp synchronisation) between them");
        hazard.other_access = race->earlier_is_write ? "Write" : "Read";
        hazard.other_block = dim(race->earlier.agent.block_idx);
        hazard.other_thread = dim(race->earlier.agent.thread_idx);
        hazards_.emplace(key, std::move(hazard));
        pcs_.emplace(key, pc);
        other_pcs_.emplace(key, race->earlier.pc);
    }
}

void LaunchChecker::check_global_races(const AccessSite& site, std::uintptr_t address, std::size_t size,
                                       unsigned flags, const void* pc) {
    for (std::uintptr_t word = address / 4; word <= (address + size - 1) / 4; ++word) {
        Shard& shard = global_shadow_[(word * 0x9E3779B97F4A7C15ull >> 58) % shards];
        RaceWord copy;
        {
            std::lock_guard lock(shard.mutex);
            RaceWord& slot = shard.words[word];
            // Observe under the shard's lock, then report outside it.
            const bool write = flags & gpukit_sim::access_write;
            const AccessRecord now{site.agent, pc, (flags & gpukit_sim::access_atomic) != 0, true};
            copy = slot;
            if (!observe(slot, 1, now, write)) continue;
        }
        // Re-run on the copy (before the update) to report exactly the race just found.
        check_races(site, &copy, 1, "__global__", word * 4, 4, flags, pc);
    }
}

// initcheck on shared memory: each byte carries the serial of the block run that last wrote it.
void LaunchChecker::check_shared_initialised(const AccessSite& site, const SharedVariable& variable,
                                             std::uintptr_t variable_begin, std::uintptr_t address, std::size_t size,
                                             unsigned flags, const void* pc) {
    std::uint32_t* written = site.shared_written + (address - site.shared_begin);
    const bool reads = !(flags & gpukit_sim::access_write) || (flags & gpukit_sim::access_atomic);
    if (reads) {
        for (std::size_t i = 0; i < size; ++i) {
            if (written[i] == site.shared_written_serial) continue;
            record(site, address, size, flags, pc,
                   concat("Uninitialized __shared__ memory read of size ", size, size == 1 ? " byte" : " bytes"),
                   concat("Address ", hex(address), " is ", address - variable_begin, " bytes into __shared__ ",
                          variable.name, ", which no thread of block ", to_string(dim(site.block)),
                          " wrote before this read"),
                   CheckTool::initcheck);
            break;
        }
    }
    if (flags & gpukit_sim::access_write)
        for (std::size_t i = 0; i < size; ++i) written[i] = site.shared_written_serial;
}

void LaunchChecker::record(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                           const void* pc, std::string what, std::string detail, CheckTool tool) {
    std::lock_guard lock(mutex_);
    auto key = std::make_tuple(pc, what);
    auto it = hazards_.find(key);
    if (it != hazards_.end()) {
        ++it->second.occurrences;
        return;
    }
    Hazard hazard;
    hazard.tool = tool;
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

void LaunchChecker::record_sync(gpukit_sim::Index3 block, gpukit_sim::Index3 thread, std::string what,
                                const char* file, int line, std::string detail, const char* other_file,
                                int other_line, gpukit_sim::Index3 other_thread, const void* later_pc) {
    std::lock_guard lock(mutex_);
    auto key = std::make_tuple(std::string(file ? file : ""), line, what, later_pc);
    auto it = sync_hazards_.find(key);
    if (it != sync_hazards_.end()) {
        ++it->second.occurrences;
        return;
    }
    Hazard hazard;
    hazard.tool = CheckTool::synccheck;
    hazard.what = std::move(what);
    hazard.kernel = kernel_;
    hazard.block = dim(block);
    hazard.thread = dim(thread);
    hazard.file = std::get<0>(key);
    hazard.line = line;
    hazard.detail = std::move(detail);
    hazard.other_file = other_file ? other_file : "";
    hazard.other_line = other_line;
    hazard.other_thread = dim(other_thread);
    hazard.other_block = hazard.block;
    sync_hazards_.emplace(std::move(key), std::move(hazard));
}

std::vector<Hazard> LaunchChecker::hazards() const {
    std::lock_guard lock(mutex_);
    std::vector<Hazard> all;
    // synccheck's: those that wait for a line are judged now, then merged by site.
    std::map<std::tuple<std::string, int, std::string>, Hazard> sync;
    for (const auto& [key, hazard] : sync_hazards_) {
        Hazard resolved = hazard;
        if (const void* later_pc = std::get<3>(key)) {
            const auto later = module_.source_of(later_pc);
            if (later.file != hazard.file || later.line <= hazard.line) continue;  // it returned before the barrier
            resolved.detail += concat(" (its last access, at ", later.file, ":", later.line, ", comes after it)");
        }
        auto [it, inserted] = sync.try_emplace(std::make_tuple(resolved.file, resolved.line, resolved.what), resolved);
        if (!inserted) it->second.occurrences += resolved.occurrences;
    }
    for (auto& entry : sync) all.push_back(std::move(entry.second));
    for (const auto& [key, hazard] : hazards_) {
        Hazard resolved = hazard;
        const auto location = module_.source_of(pcs_.at(key));
        resolved.file = location.file;
        resolved.line = location.line;
        if (auto other = other_pcs_.find(key); other != other_pcs_.end()) {
            const auto earlier = module_.source_of(other->second);
            resolved.other_file = earlier.file;
            resolved.other_line = earlier.line;
        }
        all.push_back(std::move(resolved));
    }
    return all;
}

}  // namespace gpukit::detail::sim
