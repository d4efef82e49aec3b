// src/backends/sim/check/memcheck.cpp: memcheck: accesses outside every allocation, __shared__
// array and global, and misaligned ones. The thread stops before such an access, so the process
// goes on.
//
// The kernel's filter passes an aligned access inside a known range by itself (the stack, a live
// allocation, a variable of the module, this worker's __shared__ variables): what reaches
// memcheck is the rest, and what other tools send to the runtime. Each __constant__, __device__
// and __shared__ variable is bounded on its own, as an allocation is: an index run out of one
// lands in its red zone (red_zones.hpp), and the hazard names it.
#include <string>

#include "backends/sim/allocations.hpp"
#include "backends/sim/check/hazard_log.hpp"
#include "backends/sim/check/tools.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim::check {

namespace {

std::string access_words(const char* space, const Access& access) {
    return concat("Invalid __", space, "__ ", access.atomic() ? "atomic" : (access.writes() ? "write" : "read"),
                  " of size ", access.size, access.size == 1 ? " byte" : " bytes");
}

class Memcheck final : public Tool {
public:
    explicit Memcheck(const LaunchInfo& launch) : launch_(launch) {}

    // A live allocation is accessed naturally aligned, as on the GPU.
    Verdict global_access(const AccessSite& site, const GlobalRange& range, const Access& access) override {
        const std::size_t size = access.size;
        if (!range.allocation || size <= 1 || size > 16 || access.address % size == 0) [[likely]]
            return Verdict::proceed;
        record(site, access,
               concat("Misaligned __global__ ", access.writes() ? "write" : "read", " of size ", size, " bytes"),
               [&] { return concat("Address ", hex(access.address), " is not aligned to ", size, " bytes"); });
        return Verdict::stop;
    }

    Verdict shared_overrun(const AccessSite& site, const SharedArea& area, const Access& access) override {
        record(site, access, access_words("shared", access), [&] {
            const std::uintptr_t address = access.address;
            if (area.variable.dynamic && address >= area.begin)
                return concat("Address ", hex(address), " is ", address - area.begin,
                              " bytes into the dynamic shared memory, past the ", launch_.dynamic_shared_bytes,
                              " bytes the launch asked for (LaunchConfig::shared_bytes)");
            const std::string named = concat("__shared__ ", area.variable.name, " (", area.variable.size, " bytes)");
            if (address < area.begin)
                return concat("Address ", hex(address), " is ", area.begin - address, " bytes before ", named,
                              ": offset -", area.begin - address, " of it");
            if (address < area.end)
                return concat("Address ", hex(address), " is ", address + access.size - area.end,
                              " bytes past the end of ", named);
            return concat("Address ", hex(address), " is ", address - area.end, " bytes after the end of ", named,
                          ": offset ", address - area.begin, " of it");
        });
        return Verdict::stop;
    }

    // Past the end of a __constant__ or __device__ variable (or before its start), into the
    // module's image around it.
    Verdict variable_overrun(const AccessSite& site, const ModuleVariable& variable, const Access& access) override {
        const bool constant = variable.space == ModuleVariable::Space::constant;
        record(site, access, access_words(constant ? "constant" : "global", access), [&] {
            const std::uintptr_t address = access.address;
            const std::string named =
                concat(constant ? "__constant__ " : "__device__ variable ", variable.name, " (at ", hex(variable.begin),
                       ", ", variable.end - variable.begin, " bytes)");
            if (address < variable.begin)
                return concat("Address ", hex(address), " is ", variable.begin - address, " bytes before ", named,
                              ": offset -", variable.begin - address, " of it");
            if (address < variable.end)
                return concat("Access at ", hex(address), " of ", access.size, " bytes, at offset ",
                              address - variable.begin, " of ", named, ", runs ", address + access.size - variable.end,
                              " bytes past its end");
            return concat("Address ", hex(address), " is ", address - variable.end, " bytes after the end of ", named,
                          ": offset ", address - variable.begin, " of it");
        });
        return Verdict::stop;
    }

    // Neither local, shared nor global memory: name what the address is nearest to.
    Verdict stray_access(const AccessSite& site, const Access& access) override {
        record(site, access, access_words("global", access), [&] { return stray_detail(access); });
        return Verdict::stop;
    }

private:
    template <class Detail>
    void record(const AccessSite& site, const Access& access, std::string what, Detail&& detail) {
        launch_.log.at_access(access.pc, what, [&] {
            Hazard hazard = launch_.log.hazard(CheckTool::memcheck, site.block.index, site.thread);
            hazard.what = what;
            hazard.address = access.address;
            hazard.size = access.size;
            hazard.is_write = access.writes();
            hazard.detail = detail();
            return HazardLog::AtAccess{std::move(hazard)};
        });
    }

    // Just past (or before) a live allocation is the common bug; the heap may since have put a
    // freed allocation there too, so nearness to a live one is judged first.
    static std::string stray_detail(const Access& access) {
        const std::uintptr_t address = access.address;
        const auto nearest = AllocationTable::instance().nearest(address);
        const auto distance = [&](const Allocation& a) -> std::uintptr_t {
            const std::uintptr_t end = a.address + a.size;
            return address >= end ? address - end : (address < a.address ? a.address - address : 0);
        };
        constexpr std::uintptr_t near_bytes = 1024;
        if (nearest && distance(*nearest) <= near_bytes) {
            const std::uintptr_t end = nearest->address + nearest->size;
            if (address >= end)
                return concat("Address ", hex(address), " is ", address - end,
                              " bytes after the nearest allocation at ", hex(nearest->address), " of size ",
                              nearest->size, " bytes");
            if (address < nearest->address)
                return concat("Address ", hex(address), " is ", nearest->address - address,
                              " bytes before the nearest allocation at ", hex(nearest->address), " of size ",
                              nearest->size, " bytes");
            return concat("Access at ", hex(address), " of ", access.size,
                          " bytes runs past the end of the allocation at ", hex(nearest->address), " of size ",
                          nearest->size, " bytes");
        }
        if (auto freed = AllocationTable::instance().freed_containing(address))
            return concat("Address ", hex(address), " is ", address - freed->address, " bytes into an allocation at ",
                          hex(freed->address), " of size ", freed->size, " bytes that was freed");
        if (nearest)
            return concat("Address ", hex(address), " is ", distance(*nearest),
                          " bytes from the nearest allocation at ", hex(nearest->address), " of size ", nearest->size,
                          " bytes");
        return concat("Address ", hex(address), " is not device memory (a host pointer, or a wild one)");
    }

    const LaunchInfo& launch_;
};

}  // namespace

constinit const ToolDefinition memcheck_tool =
    define_tool<Memcheck>(CheckTool::memcheck, "memcheck", {.accesses = Accesses::unproven});

}  // namespace gpukit::detail::sim::check
