// src/backends/sim/allocations.hpp: the simulator's device allocations, for check mode.
//
// Every DeviceBuffer on the simulator is registered here, so that check mode can tell an access
// inside an allocation from one just past it ("4 bytes after the nearest allocation") or into
// memory that was freed. For initcheck each allocation also has one bit per byte: written yet?
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace gpukit::detail::sim {

// initcheck's record of one allocation. Most memory is written whole (a copy of the buffer, a
// kernel launched without initcheck), which only sets `whole`; the bits, one per byte, are made
// the first time part of it is written.
struct WrittenBytes {
    std::atomic<bool> whole{false};
    std::atomic<std::uint64_t*> bits{nullptr};
    ~WrittenBytes() { delete[] bits.load(); }
};

struct Allocation {
    std::uint64_t address = 0;
    std::size_t size = 0;             // as asked for, not rounded
    WrittenBytes* written = nullptr;  // owned by the table while the allocation lives

    // Whether every byte of [begin, begin + bytes) has been written; safe from any thread.
    bool all_written(std::uint64_t begin, std::size_t bytes) const;
    void mark_written(std::uint64_t begin, std::size_t bytes) const;
};

class AllocationTable {
public:
    static AllocationTable& instance();

    void add(std::uint64_t address, std::size_t size);
    // Forgets the allocation but remembers it among the recently freed ones.
    void remove(std::uint64_t address);

    // Copies, memsets and kernels launched without initcheck write memory initcheck cannot see:
    // the bytes of [address, address + size) that lie in a live allocation count as written.
    void mark_written(std::uint64_t address, std::size_t size);

    // Every live allocation, by address, each holding its initcheck record alive: what a launch
    // checks its accesses against without taking the table's lock each time.
    struct Snapshot {
        std::vector<Allocation> allocations;
        std::vector<std::shared_ptr<WrittenBytes>> keep_alive;
    };
    Snapshot snapshot() const;

    // The live allocation holding all of [address, address + size).
    std::optional<Allocation> containing(std::uint64_t address, std::size_t size) const;
    // The live allocation nearest to `address` (for the report), if any.
    std::optional<Allocation> nearest(std::uint64_t address) const;
    // A recently freed allocation holding `address`, if any.
    std::optional<Allocation> freed_containing(std::uint64_t address) const;

    struct State;

private:
    AllocationTable();
    State* state_;
};

}  // namespace gpukit::detail::sim
