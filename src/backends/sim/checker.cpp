// src/backends/sim/checker.cpp: check mode's judgement of each memory access of a launch.
#include "backends/sim/checker.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>

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

std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> launches{0};
    return ++launches;
}

// Tells the core a spin-wait loop is running (kinder to the hyperthread that holds the lock).
inline void spin_pause() {
#if defined(__x86_64__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// The index, x fastest, of the `linear`-th element of a grid or block of extent `extent`.
gpukit_sim::Index3 index_of(std::uint64_t linear, gpukit_sim::Index3 extent) {
    return {static_cast<unsigned>(linear % extent.x), static_cast<unsigned>(linear / extent.x % extent.y),
            static_cast<unsigned>(linear / (std::uint64_t{extent.x} * extent.y))};
}

}  // namespace

GlobalShadow::GlobalShadow(std::uintptr_t begin, std::uintptr_t end) : first_word_(begin / 4) {
    const std::size_t words = std::max<std::uintptr_t>((end + 3) / 4 - first_word_, 1);
    bytes_ = words * (sizeof(ShadowWord) + 1);
    mapping_ = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping_ == MAP_FAILED) throw std::bad_alloc();
    madvise(mapping_, bytes_, MADV_HUGEPAGE);  // fewer faults; a hint the kernel may ignore
    words_ = static_cast<ShadowWord*>(mapping_);
    locks_ = reinterpret_cast<std::atomic<std::uint8_t>*>(words_ + words);
}

GlobalShadow::~GlobalShadow() { munmap(mapping_, bytes_); }

LaunchChecker::LaunchChecker(const SimModule& module, std::string kernel, CheckTools tools, gpukit_sim::Index3 grid,
                             gpukit_sim::Index3 block, std::size_t dynamic_shared_bytes)
    : module_(module),
      kernel_(std::move(kernel)),
      tools_(tools),
      memcheck_(tools.contains(CheckTool::memcheck)),
      racecheck_(tools.contains(CheckTool::racecheck)),
      initcheck_(tools.contains(CheckTool::initcheck)),
      grid_(grid),
      block_dim_(block),
      dynamic_shared_bytes_(dynamic_shared_bytes),
      shared_extent_(module.thread_local_bytes()),
      allocations_(AllocationTable::instance().snapshot()),
      serial_(next_serial()) {
    for (const auto& allocation : allocations_.allocations)
        ranges_.push_back({allocation.address, allocation.address + allocation.size, &allocation, nullptr});
    for (const auto& [begin, end] : module.segments()) ranges_.push_back({begin, end, nullptr, nullptr});
    std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
    if (racecheck_)
        for (auto& range : ranges_) range.shadow = std::make_unique<GlobalShadow>(range.begin, range.end);
    static_assert(sizeof(std::atomic<bool>) == sizeof(bool) && std::atomic<bool>::is_always_lock_free);
    for (const auto& range : ranges_) {
        const bool* written = initcheck_ && range.allocation && range.allocation->written
                                  ? reinterpret_cast<const bool*>(&range.allocation->written->whole)
                                  : nullptr;
        filter_ranges_.push_back({range.begin, range.end, written});
    }
    filter_.judge_nothing = !memcheck_ && !racecheck_ && !initcheck_;
    filter_.call_always = racecheck_;
    filter_.range_count = static_cast<unsigned>(filter_ranges_.size());
    filter_.ranges = filter_ranges_.data();
}

const LaunchChecker::Range* LaunchChecker::range_of(std::uintptr_t address, std::size_t size) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                               [](std::uintptr_t a, const Range& range) { return a < range.begin; });
    if (it == ranges_.begin()) return nullptr;
    --it;
    return address + size <= it->end ? &*it : nullptr;
}

bool LaunchChecker::check(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                          const void* pc) {
    if (flags & gpukit_sim::access_fence) {
        clock_.fence(site.agent.block);
        return true;
    }
    // Local memory: the simulated thread's own stack.
    if (address >= site.stack_begin && address + size <= site.stack_end) return true;
    // The block's built-in variables.
    const auto context = reinterpret_cast<std::uintptr_t>(site.block_context);
    if (address >= context && address + size <= context + sizeof(gpukit_sim::BlockContext)) return true;

    if (address - site.shared_begin < shared_extent_) {
        if (const auto verdict = check_shared(site, address, size, flags, pc); verdict >= 0) return verdict;
    }
    // Global memory: a live allocation (naturally aligned), or the module's own globals.
    if (const Range* range = range_of(address, size)) {
        if (range->allocation) {
            if (memcheck_ && size > 1 && size <= 16 && address % size != 0) [[unlikely]] {
                record(site, address, size, flags, pc,
                       concat("Misaligned __global__ ", (flags & gpukit_sim::access_write) ? "write" : "read",
                              " of size ", size, " bytes"),
                       concat("Address ", hex(address), " is not aligned to ", size, " bytes"));
                return false;
            }
            if (initcheck_) check_global_initialised(site, *range->allocation, address, size, flags, pc);
        }
        if (racecheck_) check_races(site, range, address, size, flags, pc);
        return true;
    }
    return report_outside(site, address, size, flags, pc);
}

// Shared memory: one of the block's __shared__ variables. 1: fine, 0: reported, -1: not shared.
int LaunchChecker::check_shared(const AccessSite& site, std::uintptr_t address, std::size_t size, unsigned flags,
                                const void* pc) {
    for (const auto& variable : module_.shared_variables()) {
        const std::uintptr_t begin = site.shared_begin + variable.offset;
        const std::uintptr_t end = begin + (variable.dynamic ? dynamic_shared_bytes_ : variable.size);
        if (address < begin || address >= begin + variable.size) continue;
        if (address + size <= end) {
            if (site.shared_written) check_shared_initialised(site, variable, begin, address, size, flags, pc);
            if (site.shared_shadow) check_races(site, nullptr, address, size, flags, pc);
            return 1;
        }
        if (!memcheck_) return 1;
        record(site, address, size, flags, pc, access_words("shared", size, flags),
               variable.dynamic ? concat("Address ", hex(address), " is ", address - begin,
                                         " bytes into the dynamic shared memory, past the ", dynamic_shared_bytes_,
                                         " bytes the launch asked for (LaunchConfig::shared_bytes)")
                                : concat("Address ", hex(address), " is ", address + size - end,
                                         " bytes past the end of __shared__ ", variable.name, " (", variable.size,
                                         " bytes)"));
        return 0;
    }
    return -1;
}

// Neither local, shared nor global memory: memcheck names what the address is nearest to.
bool LaunchChecker::report_outside(const AccessSite& site, std::uintptr_t address, std::size_t size,
                                   unsigned flags, const void* pc) {
    if (!memcheck_) return true;
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

void LaunchChecker::check_global_initialised(const AccessSite& site, const Allocation& allocation,
                                             std::uintptr_t address, std::size_t size, unsigned flags,
                                             const void* pc) {
    const bool reads = !(flags & gpukit_sim::access_write) || (flags & gpukit_sim::access_atomic);
    if (reads && !allocation.all_written(address, size))
        record(site, address, size, flags, pc,
               concat("Uninitialized __global__ memory read of size ", size, size == 1 ? " byte" : " bytes"),
               concat("Address ", hex(address), " is ", address - allocation.address, " bytes into the allocation at ",
                      hex(allocation.address), " of size ", allocation.size,
                      " bytes, which no copy, memset or kernel wrote before this read"),
               CheckTool::initcheck);
    if (flags & gpukit_sim::access_write) allocation.mark_written(address, size);
}

// racecheck: each 4-byte word the access touches, in the block's shared shadow (range null) or
// the global range's.
void LaunchChecker::check_races(const AccessSite& site, const Range* range, std::uintptr_t address, std::size_t size,
                                unsigned flags, const void* pc) {
    const bool write = flags & gpukit_sim::access_write;
    const ShadowAccess now = shadow_access(site.agent, (flags & gpukit_sim::access_atomic) != 0,
                                           static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - module_.base()),
                                           site.time);
    for (std::uintptr_t word = address & ~std::uintptr_t{3}; word < address + size; word += 4) {
        std::optional<Race> race;
        if (!range) {
            race = observe(site.shared_shadow[word / 4 - site.shared_begin / 4], now, site.agent, write, clock_);
        } else {
            std::atomic<std::uint8_t>& lock = range->shadow->lock(word);
            while (lock.exchange(1, std::memory_order_acquire)) spin_pause();
            race = observe(range->shadow->word(word), now, site.agent, write, clock_);
            lock.store(0, std::memory_order_release);
        }
        if (race) [[unlikely]]
            report_race(site, *race, word, write, range ? "__global__" : "__shared__", pc);
    }
}

void LaunchChecker::report_race(const AccessSite& site, const Race& race, std::uintptr_t word_address, bool is_write,
                                const char* space, const void* pc) {
    const auto key = std::make_tuple(pc, concat("race ", race.kind, " ", space));
    std::lock_guard lock(mutex_);
    if (auto it = hazards_.find(key); it != hazards_.end()) {
        ++it->second.occurrences;
        return;
    }
    const UnpackedAgent earlier = unpack(race.earlier);
    Hazard hazard;
    hazard.tool = CheckTool::racecheck;
    hazard.what = concat("Race (", race.kind, ") on ", space, " memory");
    hazard.kernel = kernel_;
    hazard.block = dim(site.block);
    hazard.thread = dim(site.thread);
    hazard.address = word_address;
    hazard.size = 4;
    hazard.is_write = is_write;
    const bool other_block = earlier.block != site.agent.block % (std::uint64_t{1} << 24);
    hazard.detail = concat("both touch the 4 bytes at ", hex(word_address),
                           other_block ? " from different blocks, which nothing orders"
                                       : " with no __syncthreads (or warp synchronisation) between them");
    hazard.other_access = race.earlier_is_write ? "Write" : "Read";
    hazard.other_block = other_block ? dim(index_of(earlier.block, grid_)) : hazard.block;
    hazard.other_thread = dim(index_of(earlier.thread, block_dim_));
    hazards_.emplace(key, std::move(hazard));
    pcs_.emplace(key, pc);
    other_pcs_.emplace(key, reinterpret_cast<const void*>(module_.base() + race.earlier.pc));
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
