// src/backends/sim/check/initcheck.cpp: initcheck: shared or device memory read before anything
// wrote it.
//
// Device memory: each allocation's record of the bytes written (allocations.hpp), which copies,
// memsets and kernels launched without initcheck mark too. The kernel's filter passes accesses to
// an allocation once it is written whole. Shared memory: each byte carries the serial of the block
// run that last wrote it, so a block starts without clearing; the kernel stamps its writes and
// checks its reads itself, and sends here only a read of bytes this block has not written.
#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "backends/sim/allocations.hpp"
#include "backends/sim/check/hazard_log.hpp"
#include "backends/sim/check/tools.hpp"
#include "backends/sim/prelude/gpukit_sim_race.h"
#include "util/text.hpp"

namespace gpukit::detail::sim::check {

namespace {

// Per 4-byte word of a worker's __shared__ variables (from the word holding the first), the block
// run that last wrote it and which of its bytes (gpukit_sim::init_record).
struct SharedWritten final : WorkerState {
    std::vector<std::uint32_t> words;
    std::uint32_t serial = 0;  // the block run now
};

std::string read_words(const char* space, std::size_t size) {
    return concat("Uninitialized __", space, "__ memory read of size ", size, size == 1 ? " byte" : " bytes");
}

class Initcheck final : public Tool {
public:
    explicit Initcheck(const LaunchInfo& launch) : launch_(launch) {}

    void block_starts(BlockSite& block) override {
        auto& written = block.state<SharedWritten>(CheckTool::initcheck);
        written.words.resize((block.shared_begin + launch_.module.thread_local_bytes() + 3) / 4 -
                             block.shared_begin / 4);
        if (++written.serial == gpukit_sim::kInitSerialLimit) {  // wrapped: old stamps could match again
            std::fill(written.words.begin(), written.words.end(), 0u);
            written.serial = 1;
        }
        block.context->written_serial = written.serial;
    }

    void fill_shared_ranges(BlockSite& block, std::span<const SharedArea>,
                            std::span<gpukit_sim::AccessRange> ranges) override {
        auto& written = block.made_state<SharedWritten>(CheckTool::initcheck);
        for (auto& range : ranges)
            range.written_words = written.words.data() + (range.begin / 4 - block.shared_begin / 4);
    }

    Verdict global_access(const AccessSite& site, const GlobalRange& range, const Access& access) override {
        if (!range.allocation) return Verdict::proceed;  // the module's globals start initialised
        const Allocation& allocation = *range.allocation;
        if (access.reads() && !allocation.all_written(access.address, access.size))
            record(site, access, "global", [&] {
                return concat("Address ", hex(access.address), " is ", access.address - allocation.address,
                              " bytes into the allocation at ", hex(allocation.address), " of size ", allocation.size,
                              " bytes, which no copy, memset or kernel wrote before this read");
            });
        if (access.writes()) allocation.mark_written(access.address, access.size);
        return Verdict::proceed;
    }

    Verdict shared_access(const AccessSite& site, const SharedArea& area, const Access& access) override {
        auto& shared = site.block.made_state<SharedWritten>(CheckTool::initcheck);
        std::uint32_t* const words = shared.words.data();
        const std::uintptr_t first_word = site.block.shared_begin / 4;
        const auto each_word = [&](auto&& visit) {  // (record, bytes of the word the access touches)
            for (std::uintptr_t word = access.address & ~std::uintptr_t{3}; word < access.address + access.size;
                 word += 4)
                visit(words[word / 4 - first_word], gpukit_sim::race_word_bytes(word, access.address, access.size));
        };
        bool written = true;
        each_word([&](std::uint32_t record, unsigned bytes) {
            written = written && gpukit_sim::init_written(record, shared.serial, bytes);
        });
        if (access.reads() && !written)
            record(site, access, "shared", [&] {
                return concat("Address ", hex(access.address), " is ", access.address - area.begin,
                              " bytes into __shared__ ", area.variable.name, ", which no thread of block ",
                              to_string(dim(site.block.index)), " wrote before this read");
            });
        if (access.writes())
            each_word([&](std::uint32_t& record, unsigned bytes) {
                record = gpukit_sim::init_record(record, shared.serial, bytes);
            });
        return Verdict::proceed;
    }

private:
    template <class Detail>
    void record(const AccessSite& site, const Access& access, const char* space, Detail&& detail) {
        launch_.log.at_access(access.pc, read_words(space, access.size), [&] {
            Hazard hazard = launch_.log.hazard(CheckTool::initcheck, site.block.index, site.thread);
            hazard.what = read_words(space, access.size);
            hazard.address = access.address;
            hazard.size = access.size;
            hazard.is_write = access.writes();
            hazard.detail = detail();
            return HazardLog::AtAccess{std::move(hazard)};
        });
    }

    const LaunchInfo& launch_;
};

// initcheck cannot see what a kernel launched without it writes: every allocation the kernel is
// handed counts as written (it may have written any of it), so later checked reads stay quiet.
// Pointers come as arguments of their own or inside a parameter struct (the generated elementwise
// kernels take their operands' addresses in one): every aligned 8-byte word that points into an
// allocation counts. A number that happens to look like an address only quiets initcheck.
void mark_arguments_written(std::span<const std::vector<unsigned char>> arguments) {
    for (const auto& value : arguments) {
        for (std::size_t at = 0; at + sizeof(std::uint64_t) <= value.size(); at += sizeof(std::uint64_t)) {
            std::uint64_t address;
            std::memcpy(&address, value.data() + at, sizeof address);
            if (address == 0) continue;
            if (auto allocation = AllocationTable::instance().containing(address, 1))
                allocation->mark_written(allocation->address, allocation->size);
        }
    }
}

}  // namespace

constinit const ToolDefinition initcheck_tool =
    define_tool<Initcheck>(CheckTool::initcheck, "initcheck",
                           {.accesses = Accesses::unproven, .unwritten_allocations = true}, mark_arguments_written);

}  // namespace gpukit::detail::sim::check
