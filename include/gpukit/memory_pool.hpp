// gpukit/memory_pool.hpp: the caching allocator behind arrays, one pool per device.
//
//   gpukit::MemoryPool pool = gpukit::default_memory_pool();
//   auto a = gpukit::Array::empty({1 << 20}, gpukit::DType::float32);  // a block of the pool
//   pool.used_bytes();       // 4 MiB: held by live arrays
//   a = {};                  // the block goes back to the pool, not to the device
//   pool.free_all_blocks();  // now it goes back to the device
//
// Asking the device for memory (cuMemAlloc) is slow, and giving it back (cuMemFree) waits for the
// whole device. A pool keeps the memory arrays let go of and hands it out again, as CuPy's
// MemoryPool and PyTorch's caching allocator do:
//
// - Sizes are rounded up to 512 bytes. Requests up to 1 MiB are cut from 2 MiB segments, up to
//   10 MiB from 20 MiB segments; larger ones get a segment of their size rounded up to 2 MiB. A
//   free block larger than the request is split (the rest stays free) and freed neighbours in one
//   segment merge again, so that a segment whose blocks are all free can go back whole.
// - Stream order instead of waiting. Each block remembers the stream that was current when it was
//   allocated. When it is freed, work queued there may still use it; the next allocation on that
//   stream may take it at once, since whatever it queues runs after that work. Another stream
//   takes it only once the stream it remembers has no work left (a query, which never waits).
//   Memory a launch used on another stream, or on one it did not say (and memory handed to another
//   library through DLPack or __cuda_array_interface__), waits for the device before it goes back,
//   as memory did before the pool (gpukit/array_memory.hpp). A block handed out in its stream's
//   order that a launch or a host transfer then uses on another stream makes that stream wait for
//   the block's stream first (an event), so no work ever overlaps the previous owner's: unlike
//   with cudaMallocAsync, CuPy and PyTorch, an array may go to any stream. (Work that does not say
//   its stream, detail::launch_address(array), is taken to run on the current stream.)
// - Out of memory (of the device, or past set_limit): the pool waits for the device, so that every
//   cached block is free for any stream, and tries its cache again; then it gives every cached
//   segment back to the device and asks once more; only then it throws OutOfMemoryError, naming
//   the bytes asked for.
//
// The simulator, and any backend that checks memory accesses against allocations
// (BackendCapabilities::check_mode), sees each array as its own allocation only if the array is
// one: an index run past a pool block lands in its neighbour or in the segment's rounding, where
// memcheck and the simulator's guard pages see nothing wrong, and a reused block would count as
// written for initcheck, hiding a read of memory no one wrote. So there the default pool does not
// cache: every allocation is one of the device's, of exactly the bytes asked for, given back when
// its array goes, and every detection works as without a pool (the pool still counts its bytes).
// We chose to bypass rather than to adapt (telling the backend of each block's bounds and
// resetting initcheck's record on reuse) because the simulator's allocator costs little next to a
// simulated launch, and a second record of allocations could disagree with the first.
//
// GPUKIT_MEMORY_POOL chooses for every new pool: "auto" (the default: caching unless the backend
// checks accesses), "on" (caching everywhere, for measurements; on the simulator an overrun into a
// neighbouring block then goes unseen), "off" (never: every array its own allocation, for
// debugging, as CuPy's cupy.cuda.set_allocator(None)).
// MemoryPool::set_caching does the same for one pool at run time.
#pragma once

#include <cstddef>
#include <memory>

#include "gpukit/array_memory.hpp"
#include "gpukit/device.hpp"

namespace gpukit {

namespace detail {
struct PoolState;
}

// A pool of device memory for one device. A cheap handle: copies share the pool, and the memory it
// hands out keeps it alive. Thread-safe.
class MemoryPool {
public:
    // A new, empty pool of `device`, caching as GPUKIT_MEMORY_POOL and the backend say (the
    // default pools, which arrays use, come from default_memory_pool()). Throws
    // InvalidArgumentError when GPUKIT_MEMORY_POOL is not auto, on or off.
    explicit MemoryPool(Device device = Device::current());

    const Device& device() const noexcept;

    // At least `bytes` of device memory, on the current stream of the pool's device, owned by the
    // shared ArrayMemory (whose allocation() is exactly `bytes` long; zero bytes allocate nothing,
    // at address 0). Throws OutOfMemoryError once neither the device nor the limit leaves room,
    // cached blocks given back first.
    std::shared_ptr<ArrayMemory> allocate(std::size_t bytes) const;

    // Bytes of the blocks live memory holds (rounded as the pool rounds them).
    std::size_t used_bytes() const;
    // Bytes the pool holds on the device: used_bytes() and the cached free blocks.
    std::size_t total_bytes() const;
    // Bytes of the cached free blocks: total_bytes() - used_bytes().
    std::size_t free_bytes() const;
    // Cached free blocks (the free parts of segments split for live blocks count too).
    std::size_t n_free_blocks() const;
    // Gives every segment none of whose blocks is in use back to the device. The free parts of
    // segments that still hold a live block stay cached.
    void free_all_blocks() const;

    // The most bytes the pool may hold on the device (total_bytes()); 0: no limit (the default).
    // A lower limit than the pool holds now takes effect at the next allocation.
    void set_limit(std::size_t bytes) const;
    std::size_t limit() const;

    // Whether freed memory is kept for reuse. Turning caching off gives the cached blocks back;
    // from then on every allocation is one of the device's, of exactly the bytes asked for.
    void set_caching(bool on) const;
    bool caching() const;

private:
    std::shared_ptr<detail::PoolState> state_;
};

// The pool that arrays on `device` allocate from. It lives until the process ends.
MemoryPool default_memory_pool(const Device& device = Device::current());

}  // namespace gpukit
