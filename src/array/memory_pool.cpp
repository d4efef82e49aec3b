// src/array/memory_pool.cpp: the caching allocator behind arrays (gpukit/memory_pool.hpp says what
// it does and why; here is how).
//
// A segment is one allocation of the device's (a DeviceBuffer); its blocks tile it in address
// order, each either in use (held by one PooledMemory) or free. Free blocks sit in one of two sets
// (small: cut from segments for requests up to 1 MiB; large: the rest), ordered by (stream tag,
// size, address), so that the best fit for a stream is one lower_bound. A tag names the stream
// whose queued work may still use a free block, or none (`no_work`): such a block serves any
// stream. Streams get tags of their own rather than being compared by handle, because a
// destroyed stream's handle may come back for a new stream whose work is not ordered after it.
#include "gpukit/memory_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/event.hpp"
#include "gpukit/memory.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace detail {

namespace {

constexpr std::size_t granularity = 512;                     // every block's size is a multiple of it
constexpr std::size_t small_request = std::size_t{1} << 20;  // up to this, from small segments
constexpr std::size_t small_segment = std::size_t{2} << 20;
constexpr std::size_t medium_request = std::size_t{10} << 20;  // up to this, from medium segments
constexpr std::size_t medium_segment = std::size_t{20} << 20;
constexpr std::size_t large_rounding = std::size_t{2} << 20;  // larger requests: a segment of their own

std::size_t round_up(std::size_t bytes, std::size_t unit) { return (bytes + unit - 1) / unit * unit; }

using StreamTag = std::uint64_t;
constexpr StreamTag no_work = 0;
// Work on a stream the pool could not record may use it: it serves again after a device wait.
constexpr StreamTag unknown_work = ~StreamTag{0};

struct Segment;

struct Block {
    Segment* segment = nullptr;
    std::uint64_t address = 0;
    std::size_t size = 0;
    Block* prev = nullptr;  // neighbours in the segment, by address
    Block* next = nullptr;
    StreamTag tag = no_work;     // while free: the stream whose queued work may still use it
    std::uint64_t freed_at = 0;  // while free: the pool's count of frees when it was freed
    bool in_use = false;
};

struct Segment {
    DeviceBuffer buffer;
    bool small;    // its free blocks serve small requests
    Block* first;  // owned: the segment's blocks, linked by next
};

struct FreeOrder {
    bool operator()(const Block* a, const Block* b) const {
        return std::tie(a->tag, a->size, a->address) < std::tie(b->tag, b->size, b->address);
    }
};
using FreeSet = std::set<Block*, FreeOrder>;

struct StreamRecord {
    StreamTag tag;
    StreamRef stream;
};

// GPUKIT_MEMORY_POOL: whether new pools of `device` cache (gpukit/memory_pool.hpp).
bool caching_by_default(const Device& device) {
    const char* setting = std::getenv("GPUKIT_MEMORY_POOL");
    const std::string_view value = setting ? setting : "";
    if (value.empty() || value == "auto") return !device.backend_info().capabilities.check_mode;
    if (value == "on" || value == "1") return true;
    if (value == "off" || value == "0") return false;
    throw InvalidArgumentError(concat("GPUKIT_MEMORY_POOL is '", value,
                                      "'; it takes auto (cache unless the backend checks memory accesses), on or off"));
}

}  // namespace

struct PoolState {
    explicit PoolState(Device device_) : device(device_), caching(caching_by_default(device_)) {}
    ~PoolState() {
        // Only free blocks are left (live memory keeps the pool alive): every segment is whole.
        for (auto& [segment, owned] : segments) delete_blocks(*owned);
    }
    PoolState(const PoolState&) = delete;
    PoolState& operator=(const PoolState&) = delete;

    struct Taken {
        Block* block;
        bool after_earlier_work;  // work of an earlier owner may still be queued on the stream
    };
    Taken take(std::size_t bytes, const StreamRef& stream);
    // `stream`: where queued work may still use the block; null for none.
    void give_back(Block* block, const StreamRef* stream) noexcept;
    void free_all_blocks();

    const Device device;
    mutable std::mutex mutex;  // guards everything below but `caching`
    std::atomic<bool> caching;
    std::size_t limit = 0;
    std::size_t used = 0;   // bytes of the blocks in use
    std::size_t total = 0;  // bytes of the segments
    std::uint64_t frees = 0;
    FreeSet free_small, free_large;
    std::vector<StreamRecord> streams;
    StreamTag next_tag = no_work + 1;
    std::unordered_map<const Segment*, std::unique_ptr<Segment>> segments;

private:
    FreeSet& free_set(const Block* block) { return block->segment->small ? free_small : free_large; }
    StreamTag tag_of(const StreamRef& stream);
    Block* best_fit(FreeSet& set, std::size_t size, StreamTag tag) const;
    Block* find_cached(std::size_t size, bool small, StreamTag tag);
    bool retag_idle_streams(std::size_t size, bool small, StreamTag tag);
    void retag_freed_before(std::uint64_t count);
    template <class Predicate>
    void retag_where(FreeSet& set, Predicate waiting);
    Block* use(Block* block, std::size_t size);
    Block* merge_into(Block* block, Block* other);
    Block* insert_free(Block* block);
    Block* grow(std::size_t size, bool small, bool cache, std::exception_ptr& failure);
    std::vector<std::unique_ptr<Segment>> take_free_segments();
    static void delete_blocks(Segment& segment) noexcept;
};

namespace {

// The memory of one block, handed to arrays. Zero bytes hold no block, at address 0.
class PooledMemory final : public ArrayMemory {
public:
    PooledMemory(std::shared_ptr<PoolState> pool, Block* block, std::size_t bytes, StreamRef stream,
                 bool after_earlier_work)
        : ArrayMemory(pool->device),
          pool_(std::move(pool)),
          block_(block),
          view_(device(), block ? block->address : 0, bytes),
          stream_(std::move(stream)),
          after_earlier_work_(after_earlier_work) {}
    ~PooledMemory() override;
    PooledMemory(const PooledMemory&) = delete;
    PooledMemory& operator=(const PooledMemory&) = delete;

    const BufferView* allocation() const noexcept override { return &view_; }

private:
    bool takes_in_order(const StreamRef& stream) noexcept override;

    std::shared_ptr<PoolState> pool_;
    Block* block_;
    BufferView view_;
    StreamRef stream_;  // current when it was allocated: its work is ordered after earlier owners'
    bool after_earlier_work_;
};

PooledMemory::~PooledMemory() {
    if (!block_) return;
    // Used on another stream, or on one not said; or going back to the device: wait as memory
    // did before the pool. Otherwise only work queued on stream_ may still use it.
    const bool wait = used_out_of_order() || !pool_->caching.load();
    if (wait) wait_for_launches();
    const bool pending = !wait && (used_by_launch() || after_earlier_work_);
    pool_->give_back(block_, pending ? &stream_ : nullptr);
}

bool PooledMemory::takes_in_order(const StreamRef& stream) noexcept {
    if (stream == stream_) return true;
    // The block came in stream_'s order, after an earlier owner's work there: work on `stream`
    // must not start before that work ends.
    if (after_earlier_work_) {
        try {
            Event event(device(), EventFlags::no_timing);
            event.record(stream_);
            stream.wait(event);
        } catch (...) {  // stream_ was destroyed, say: wait for everything instead
            wait_for_device_quietly(device());
        }
    }
    return false;
}

}  // namespace

void PoolState::delete_blocks(Segment& segment) noexcept {
    for (Block* block = segment.first; block;) delete std::exchange(block, block->next);
    segment.first = nullptr;
}

StreamTag PoolState::tag_of(const StreamRef& stream) {
    for (const StreamRecord& record : streams)
        if (record.stream == stream) return record.tag;
    if (streams.size() >= 16) {
        // Forget destroyed streams that no free block names.
        std::erase_if(streams, [&](const StreamRecord& record) {
            try {
                static_cast<void>(record.stream.device());
                return false;
            } catch (const UsageError&) {
                const auto named = [&](const Block* block) { return block->tag == record.tag; };
                return std::none_of(free_small.begin(), free_small.end(), named) &&
                       std::none_of(free_large.begin(), free_large.end(), named);
            }
        });
    }
    streams.push_back({next_tag, stream});
    return next_tag++;
}

Block* PoolState::best_fit(FreeSet& set, std::size_t size, StreamTag tag) const {
    Block key;
    key.tag = tag;
    key.size = size;
    const auto found = set.lower_bound(&key);
    return found != set.end() && (*found)->tag == tag ? *found : nullptr;
}

Block* PoolState::find_cached(std::size_t size, bool small, StreamTag tag) {
    FreeSet& set = small ? free_small : free_large;
    if (Block* block = best_fit(set, size, tag)) return block;
    return best_fit(set, size, no_work);
}

// Streams other than `tag`'s with a free block large enough: those whose work is all done free
// their blocks for any stream. Never waits. True when one did.
bool PoolState::retag_idle_streams(std::size_t size, bool small, StreamTag tag) {
    FreeSet& set = small ? free_small : free_large;
    bool freed = false;
    for (const StreamRecord& record : streams) {
        if (record.tag == tag || !best_fit(set, size, record.tag)) continue;
        bool idle = false;
        try {
            idle = record.stream.query();
        } catch (const Error&) {
            continue;  // destroyed: its blocks wait for the device (an out-of-memory retry)
        }
        if (!idle) continue;
        Block key;  // one at a time, found afresh: a join deletes blocks
        key.tag = record.tag;
        for (auto found = set.lower_bound(&key); found != set.end() && (*found)->tag == record.tag;
             found = set.lower_bound(&key)) {
            Block* block = *found;
            set.erase(found);
            block->tag = no_work;
            insert_free(block);
        }
        freed = true;
    }
    return freed;
}

// After a wait for the whole device: what was freed before it waits for nothing.
void PoolState::retag_freed_before(std::uint64_t count) {
    const auto before = [&](const Block* block) { return block->tag != no_work && block->freed_at <= count; };
    retag_where(free_small, before);
    retag_where(free_large, before);
}

// Makes the free blocks of `set` that `waiting` picks serve any stream, joining them with their
// neighbours. One at a time, found afresh each time: a join deletes a block the last search saw.
template <class Predicate>
void PoolState::retag_where(FreeSet& set, Predicate waiting) {
    for (auto found = std::find_if(set.begin(), set.end(), waiting); found != set.end();
         found = std::find_if(set.begin(), set.end(), waiting)) {
        Block* block = *found;
        set.erase(found);
        block->tag = no_work;
        insert_free(block);
    }
}

// Joins a free neighbour `other` (already out of its set) into `block`; returns the joined block.
Block* PoolState::merge_into(Block* block, Block* other) {
    const bool other_first = other->address < block->address;
    Block* low = other_first ? other : block;
    Block* high = other_first ? block : other;
    low->size += high->size;
    low->next = high->next;
    if (high->next) high->next->prev = low;
    low->tag = low->tag == no_work ? high->tag : low->tag;
    low->freed_at = std::max(low->freed_at, high->freed_at);
    delete high;
    return low;
}

// Puts a free block in its set, joined first with free neighbours whose queued work is its own or
// none; returns the block it became.
Block* PoolState::insert_free(Block* block) {
    const auto joins = [&](const Block* other) {
        return other && !other->in_use && (other->tag == block->tag || other->tag == no_work || block->tag == no_work);
    };
    for (Block* other : {block->prev, block->next}) {
        if (!joins(other)) continue;
        free_set(other).erase(other);
        block = merge_into(block, other);
    }
    free_set(block).insert(block);
    return block;
}

Block* PoolState::use(Block* block, std::size_t size) {
    free_set(block).erase(block);
    const std::size_t rest = block->size - size;
    // A large block splits only when more than a small request's worth is left (PyTorch's rule):
    // large segments are not cut into small pieces.
    if (rest >= (block->segment->small ? granularity : small_request + granularity)) {
        auto* remainder =
            new Block{block->segment, block->address + size, rest, block, block->next, block->tag, block->freed_at};
        if (block->next) block->next->prev = remainder;
        block->next = remainder;
        block->size = size;
        free_set(remainder).insert(remainder);
    }
    block->in_use = true;
    used += block->size;
    return block;
}

// A new segment for `size`, or null where the limit or the device refuses it (`failure` then
// holds the device's OutOfMemoryError, or nothing for the limit).
Block* PoolState::grow(std::size_t size, bool small, bool cache, std::exception_ptr& failure) {
    std::size_t segment_size = size;
    if (cache)
        segment_size = small ? small_segment : size <= medium_request ? medium_segment : round_up(size, large_rounding);
    if (limit && total + segment_size > limit) segment_size = size;  // no more than asked, under a limit
    if (limit && total + segment_size > limit) {
        failure = nullptr;
        return nullptr;
    }
    std::unique_ptr<Segment> segment;
    try {
        segment.reset(new Segment{DeviceBuffer(device, segment_size), small, nullptr});
    } catch (const OutOfMemoryError&) {
        failure = std::current_exception();
        return nullptr;
    }
    auto* block = new Block{segment.get(), segment->buffer.address(), segment_size};
    segment->first = block;
    Segment* raw = segment.get();
    segments.emplace(raw, std::move(segment));
    total += segment_size;
    free_set(block).insert(block);
    return use(block, size);
}

std::vector<std::unique_ptr<Segment>> PoolState::take_free_segments() {
    std::vector<std::unique_ptr<Segment>> released;
    for (FreeSet* set : {&free_small, &free_large}) {
        for (auto it = set->begin(); it != set->end();) {
            Block* block = *it;
            if (block->prev || block->next) {
                ++it;
                continue;
            }
            it = set->erase(it);
            const auto owned = segments.find(block->segment);
            total -= block->size;
            delete_blocks(*owned->second);
            released.push_back(std::move(owned->second));
            segments.erase(owned);
        }
    }
    return released;
}

void PoolState::free_all_blocks() {
    std::vector<std::unique_ptr<Segment>> released;
    {
        const std::lock_guard lock(mutex);
        released = take_free_segments();
    }
    // The device buffers go here, outside the lock: giving memory back may wait for the device.
}

PoolState::Taken PoolState::take(std::size_t bytes, const StreamRef& stream) {
    std::unique_lock lock(mutex);
    const bool cache = caching.load();
    const std::size_t size = cache ? round_up(bytes, granularity) : bytes;
    const bool small = size <= small_request;
    const StreamTag tag = cache ? tag_of(stream) : no_work;
    const auto found = [&](Block* block) {
        const bool after_earlier_work = block->tag != no_work;
        return Taken{use(block, size), after_earlier_work};
    };
    if (cache) {
        if (Block* block = find_cached(size, small, tag)) return found(block);
        if (retag_idle_streams(size, small, tag))
            if (Block* block = find_cached(size, small, tag)) return found(block);
    }
    std::exception_ptr failure;
    if (Block* block = grow(size, small, cache, failure)) return {block, false};

    // Out of memory. Once the device's work is done, every cached block serves any stream.
    const auto waits_for_work = [](const FreeSet& set) {
        return std::any_of(set.begin(), set.end(), [](const Block* block) { return block->tag != no_work; });
    };
    if (cache && (waits_for_work(free_small) || waits_for_work(free_large))) {
        const std::uint64_t count = frees;
        lock.unlock();
        wait_for_device_quietly(device);
        lock.lock();
        retag_freed_before(count);
        if (Block* block = find_cached(size, small, tag)) return found(block);
    }
    // Then the cached segments go back to the device, and the pool asks once more.
    std::size_t released_bytes = 0;
    {
        auto released = take_free_segments();
        for (const auto& segment : released) released_bytes += segment->buffer.size_bytes();
        lock.unlock();  // giving memory back may wait for the device
        released.clear();
        lock.lock();
    }
    if (Block* block = grow(size, small, cache, failure)) return {block, false};

    const std::string action =
        concat("Failed to allocate ", format_bytes(bytes), " on ", device.describe(), " through its memory pool",
               released_bytes ? concat(" (after giving back the ", format_bytes(released_bytes), " it had cached)")
                              : std::string());
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const OutOfMemoryError& refused) {
            throw OutOfMemoryError(action, refused.name(), refused.code(), refused.description(), bytes,
                                   refused.free_bytes(), refused.total_bytes());
        }
    }
    throw OutOfMemoryError(
        action, "CUDA_ERROR_OUT_OF_MEMORY", 2,
        concat("the pool's limit of ", format_bytes(limit), " would be passed (it holds ", format_bytes(total), ", ",
               format_bytes(used), " of them in use); raise it with set_limit, or let arrays go"),
        bytes, limit - std::min(limit, total), limit);
}

void PoolState::give_back(Block* block, const StreamRef* stream) noexcept {
    std::unique_ptr<Segment> released;  // goes after the lock: giving memory back may wait for the device
    const std::lock_guard lock(mutex);
    used -= block->size;
    block->in_use = false;
    block->freed_at = ++frees;
    block->tag = no_work;
    if (stream) {
        try {
            block->tag = tag_of(*stream);
        } catch (...) {  // no memory for the stream's record
            block->tag = unknown_work;
        }
    }
    // A set's insertion may throw only for want of memory, which ends the process here; so does
    // every allocator's bookkeeping.
    block = insert_free(block);
    if (caching.load() || block->prev || block->next) return;
    free_set(block).erase(block);
    const auto owned = segments.find(block->segment);
    total -= block->size;
    delete_blocks(*owned->second);
    released = std::move(owned->second);
    segments.erase(owned);
}

}  // namespace detail

MemoryPool::MemoryPool(Device device) : state_(std::make_shared<detail::PoolState>(device)) {}

const Device& MemoryPool::device() const noexcept { return state_->device; }

std::shared_ptr<ArrayMemory> MemoryPool::allocate(std::size_t bytes) const {
    StreamRef stream = current_stream(state_->device);
    if (bytes == 0) return std::make_shared<detail::PooledMemory>(state_, nullptr, 0, std::move(stream), false);
    const detail::PoolState::Taken taken = state_->take(bytes, stream);
    try {
        return std::make_shared<detail::PooledMemory>(state_, taken.block, bytes, std::move(stream),
                                                      taken.after_earlier_work);
    } catch (...) {
        state_->give_back(taken.block, nullptr);
        throw;
    }
}

std::size_t MemoryPool::used_bytes() const {
    const std::lock_guard lock(state_->mutex);
    return state_->used;
}

std::size_t MemoryPool::total_bytes() const {
    const std::lock_guard lock(state_->mutex);
    return state_->total;
}

std::size_t MemoryPool::free_bytes() const {
    const std::lock_guard lock(state_->mutex);
    return state_->total - state_->used;
}

std::size_t MemoryPool::n_free_blocks() const {
    const std::lock_guard lock(state_->mutex);
    return state_->free_small.size() + state_->free_large.size();
}

void MemoryPool::free_all_blocks() const { state_->free_all_blocks(); }

void MemoryPool::set_limit(std::size_t bytes) const {
    const std::lock_guard lock(state_->mutex);
    state_->limit = bytes;
}

std::size_t MemoryPool::limit() const {
    const std::lock_guard lock(state_->mutex);
    return state_->limit;
}

void MemoryPool::set_caching(bool on) const {
    state_->caching.store(on);
    if (!on) free_all_blocks();
}

bool MemoryPool::caching() const { return state_->caching.load(); }

MemoryPool default_memory_pool(const Device& device) {
    static auto* mutex = new std::mutex;  // never destroyed: arrays may go after static destructors
    static auto* pools = new std::vector<std::pair<Device, MemoryPool>>;
    const std::lock_guard lock(*mutex);
    for (const auto& [pool_device, pool] : *pools)
        if (pool_device == device) return pool;
    MemoryPool pool(device);
    pools->emplace_back(device, pool);
    return pool;
}

}  // namespace gpukit
