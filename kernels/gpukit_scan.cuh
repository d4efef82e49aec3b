// kernels/gpukit_scan.cuh: what every generated scan kernel includes (src/ops/scan/generator.cpp
// writes the kernels; embedded in the library like gpukit_reduction.cuh, so NVRTC and the simulator
// compile the same text).
//
// A scan (cumsum, cumprod, ...) is an operation struct (generated per loop) with the parts of a
// reduction, applied at every element instead of once:
//   acc_t identity();                 the value of no elements
//   acc_t map(in_storage x);          an element
//   acc_t reduce(acc_t a, acc_t b);   two partial results, a's elements before b's
//   out_t post(acc_t a);              the stored result
// The input is a set of lines (the scanned axis; the other axes are the lines' coordinates), each
// scanned independently, in one launch, by one of three kernel shapes (ScanClass in
// src/ops/scan/plan.hpp):
//   tiles    each line cut into tiles; a block per tile scans it, publishes its total, and looks
//            back over the tiles before it for their prefix (the decoupled look-back of Merrill and
//            Garland): one pass over the memory. In the GPU's shape block b scans tile b (blocks
//            start in index order) and a tile that keeps a look-back waiting is combined by the
//            waiting warp itself, so every launch finishes whatever order blocks run in; the
//            simulator's own shape takes tiles in the order of a ticket (an atomic count), so that
//            every tile a block waits for belongs to a block that has started (its blocks run to
//            completion on a worker once started).
//   lines    short lines, each scanned by one warp (on the simulator: by one thread);
//   columns  neighbouring lines neighbours in memory (an axis other than the last): a thread per
//            line walking down it, coalesced across lines; few lines split their axis over blocks
//            (blockIdx order by ticket), each thread looking back over its line's earlier segments.
// Status words are tagged with the launch's epoch (the launcher counts launches per scratch
// buffer), so nothing needs resetting between launches except the ticket count, which the block
// taking the last ticket resets.
#pragma once

#include "gpukit_reduction.cuh"

// The launcher's description (src/ops/scan/scan.cpp fills the same struct).
struct gk_scan_params {
    unsigned long long input, output;
    unsigned long long counter, statuses, aggregates, prefixes;  // scratch: ticket count, look-back state
    long long outer_shape[GK_MAX_DIMS], outer_input[GK_MAX_DIMS], outer_output[GK_MAX_DIMS];
    long long lines;                    // independent scans
    long long length;                   // elements in each
    long long input_step, output_step;  // byte strides along a line
    long long tile;                     // tiles and split columns: elements of a line per tile
    long long tiles_per_line;           // tiles: tiles in a line; columns: segments (splits) of a line
    long long tiles;                    // tiles (or split column blocks) in all
    int outer_ndim;
    unsigned epoch;  // this launch's tag in the status words (1 to 2^30 - 1)
};

#define GK_SCAN_THREADS 256  // a GPU tile's block
// A GPU tile's registers: at most 80, for 3 blocks a multiprocessor, each thread holding 48
// elements of up to 4 bytes (192 bytes in flight per thread). Measured on an H200 (cumsum of 2^26
// float32): 3 blocks x 48 elements 2854-2861 GB/s, 4 blocks x 32 (64 registers) 2738-2798,
// 3 blocks x 32 2634.
#define GK_SCAN_MIN_BLOCKS 3
// Rounds of W-element loads per thread of a GPU tile: 48 elements of up to 4 bytes loaded 16 bytes
// at a time, 16 for 8-byte accumulators (their registers), fewer for wide elements loaded one or
// two at a time. src/ops/scan/scan.cpp sizes tiles by the same rule.
#define GK_SCAN_ROUNDS(W, ACC_BYTES) ((W) >= 4 ? ((ACC_BYTES) <= 4 ? 48 : 16) / (W) : 4)
#define GK_SCAN_GROUP 64  // the simulator's columns: lines walked together by one thread

// ---- look-back state: per tile (or split column segment) one slot, written up to twice a launch:
// first the tile's own total (aggregate), then its inclusive prefix, each tagged with a status word
// (the launch's epoch and which of the two it is). Accumulators of up to 4 bytes share one 64-bit
// word with their status, stored and loaded as one access: a reader that sees the status sees the
// value, no fence between them. Wider ones sit in two value arrays beside 32-bit status words, the
// writer fencing between value and status, the reader between status and value.
#define GK_STATUS_AGGREGATE 1u
#define GK_STATUS_PREFIX 2u
// This launch's status word for `state` (GK_STATUS_AGGREGATE or GK_STATUS_PREFIX).
__device__ inline unsigned gk_status_word(const gk_scan_params& p, unsigned state) { return (p.epoch << 2) | state; }

template <class T, bool Packed = (sizeof(T) <= 4)>
struct gk_look_back_slots;

template <class T>
struct gk_look_back_slots<T, true> {
    unsigned long long* words;  // status << 32 | the value's bits
    __device__ explicit gk_look_back_slots(const gk_scan_params& p) : words((unsigned long long*)p.statuses) {}

    __device__ void publish(long long j, T value, unsigned state) const {
        gk_words<T> bits;
        bits.w[0] = 0u;
        bits.value = value;
        const unsigned long long word = (unsigned long long)state << 32 | bits.w[0];
#ifdef GK_SIMULATED
        atomicExch(words + j, word);
#else
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(words + j), "l"(word) : "memory");
#endif
    }
    // Slot j's status, and into `value` the value that came with it.
    __device__ unsigned read(long long j, T* value) const {
#ifdef GK_SIMULATED
        const unsigned long long word = atomicAdd(words + j, 0ull);
#else
        unsigned long long word;
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(word) : "l"(words + j) : "memory");
#endif
        gk_words<T> bits;
        bits.w[0] = (unsigned)word;
        *value = bits.value;
        return (unsigned)(word >> 32);
    }
    // The slots from `first` on.
    __device__ gk_look_back_slots from(long long first) const {
        gk_look_back_slots shifted = *this;
        shifted.words += first;
        return shifted;
    }
    // The value of slot j once `read` has returned a published status: already at hand.
    __device__ T settle(long long, unsigned, T value) const { return value; }
};

template <class T>
struct gk_look_back_slots<T, false> {
    unsigned long long* words;  // the status in the high half, where packed slots keep theirs (a
                                // launch never reads an earlier one's value bits as a status)
    T *aggregates, *prefixes;
    __device__ explicit gk_look_back_slots(const gk_scan_params& p)
        : words((unsigned long long*)p.statuses), aggregates((T*)p.aggregates), prefixes((T*)p.prefixes) {}
    __device__ unsigned* status(long long j) const { return (unsigned*)(words + j) + 1; }  // little-endian
    __device__ gk_look_back_slots from(long long first) const {
        gk_look_back_slots shifted = *this;
        shifted.words += first;
        shifted.aggregates += first;
        shifted.prefixes += first;
        return shifted;
    }

    __device__ void publish(long long j, T value, unsigned state) const {
        ((state & GK_STATUS_PREFIX) ? prefixes : aggregates)[j] = value;
        __threadfence();
        atomicExch(status(j), state);
    }
    // Slot j's status (an acquire: on the simulator an atomic, which racecheck takes as one).
    __device__ unsigned read(long long j, T*) const {
#ifdef GK_SIMULATED
        return atomicAdd(status(j), 0u);
#else
        unsigned word;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(word) : "l"(status(j)) : "memory");
        return word;
#endif
    }
    // The value `state` (published) names. On the simulator, one more atomic first: check mode
    // advances its clock when an atomic is reported, just before it is performed, so the atomic
    // that saw the status may carry a time from before the publisher's fence; this one's time is
    // after it, and racecheck then takes the value as published (gk_arrive_last does the same).
    __device__ T settle(long long j, unsigned state, T) const {
#ifdef GK_SIMULATED
        (void)atomicAdd(status(j), 0u);
#endif
        return gk_load_fresh(((state & GK_STATUS_PREFIX) ? prefixes : aggregates) + j);
    }
};

// Waits until slot `j` has published its aggregate or its prefix; returns it, `is_prefix` saying which.
template <class Op>
__device__ inline typename Op::acc_t gk_wait_for_tile(const gk_scan_params& p, long long j, bool* is_prefix) {
    const gk_look_back_slots<typename Op::acc_t> slots(p);
    const unsigned aggregate = gk_status_word(p, GK_STATUS_AGGREGATE), prefix = gk_status_word(p, GK_STATUS_PREFIX);
    typename Op::acc_t value = Op::identity();
    unsigned state;
    do {
        state = slots.read(j, &value);
    } while (state != aggregate && state != prefix);
    *is_prefix = state == prefix;
    return slots.settle(j, state, value);
}

// The combined value of the slots [first, j) of a line, walking back from j - 1 (one thread).
template <class Op>
__device__ inline typename Op::acc_t gk_look_back_serial(const gk_scan_params& p, long long first, long long j,
                                                         long long stride) {
    typename Op::acc_t exclusive = Op::identity();
    for (long long q = j - stride; q >= first; q -= stride) {
        bool is_prefix;
        exclusive = Op::reduce(gk_wait_for_tile<Op>(p, q, &is_prefix), exclusive);
        if (is_prefix) break;
    }
    return exclusive;
}

// A ticket for this block, in the order blocks start (thread 0 takes it; every thread returns it).
// The block taking the last one resets the count for the next launch.
__device__ inline long long gk_take_ticket(const gk_scan_params& p, long long* shared_ticket) {
    if (threadIdx.x == 0) {
        const unsigned ticket = atomicAdd((unsigned*)p.counter, 1u);
        if (ticket == (unsigned)(p.tiles - 1)) atomicExch((unsigned*)p.counter, 0u);
        *shared_ticket = ticket;
    }
    __syncthreads();
    return *shared_ticket;
}

// Byte offsets of line `line` in the input and in the result.
__device__ inline const char* gk_line_input(const gk_scan_params& p, gk_index line) {
    return (const char*)p.input + gk_offset_of(line, p.outer_shape, p.outer_input, p.outer_ndim);
}
__device__ inline char* gk_line_output(const gk_scan_params& p, gk_index line) {
    return (char*)p.output + gk_offset_of(line, p.outer_shape, p.outer_output, p.outer_ndim);
}

// Elements [begin, end) of a line scanned from `carry` (the value before them); returns the carry after.
template <class Op>
__device__ inline typename Op::acc_t gk_scan_run(const gk_scan_params& p, const char* in, char* out, gk_index begin,
                                                 gk_index end, typename Op::acc_t carry) {
    typedef typename Op::in_storage in_storage;
    typedef typename Op::out_storage out_storage;
#pragma unroll 4
    for (gk_index j = begin; j < end; ++j) {
        carry = Op::reduce(carry, Op::map(*(const in_storage*)(in + j * p.input_step)));
        *(out_storage*)(out + j * p.output_step) = gk_convert<out_storage>(Op::post(carry));
    }
    return carry;
}

// The same elements combined without storing anything.
template <class Op>
__device__ inline typename Op::acc_t gk_reduce_run(const gk_scan_params& p, const char* in, gk_index begin,
                                                   gk_index end) {
    typedef typename Op::in_storage in_storage;
    const auto element = [&](gk_index j) { return Op::map(*(const in_storage*)(in + j * p.input_step)); };
#ifdef GK_CHUNKED_SHAPES
    // A simulated thread's long chunk: four interleaved sums, so that a CPU core adds four at a time
    // (one chain waits an add's latency per element); every scan here is commutative.
    typename Op::acc_t a0 = Op::identity(), a1 = a0, a2 = a0, a3 = a0;
    gk_index j = begin;
    for (; j + 4 <= end; j += 4) {
        a0 = Op::reduce(a0, element(j));
        a1 = Op::reduce(a1, element(j + 1));
        a2 = Op::reduce(a2, element(j + 2));
        a3 = Op::reduce(a3, element(j + 3));
    }
    for (; j < end; ++j) a0 = Op::reduce(a0, element(j));
    return Op::reduce(Op::reduce(a0, a1), Op::reduce(a2, a3));
#else
    typename Op::acc_t a = Op::identity();
#pragma unroll 4
    for (gk_index j = begin; j < end; ++j) a = Op::reduce(a, element(j));
    return a;
#endif
}

// ---- warp helpers (any acc_t, a word at a time)
template <class T>
__device__ inline T gk_shfl_up(T value, unsigned offset) {
    gk_words<T> words;
    words.value = value;
    for (unsigned k = 0; k < sizeof(words.w) / sizeof(words.w[0]); ++k)
        words.w[k] = __shfl_up_sync(0xffffffffu, words.w[k], offset);
    return words.value;
}
template <class T>
__device__ inline T gk_shfl(T value, int lane) {
    gk_words<T> words;
    words.value = value;
    for (unsigned k = 0; k < sizeof(words.w) / sizeof(words.w[0]); ++k)
        words.w[k] = __shfl_sync(0xffffffffu, words.w[k], lane);
    return words.value;
}
// The inclusive scan of a warp's values in lane order.
template <class Op>
__device__ inline typename Op::acc_t gk_warp_scan(typename Op::acc_t a) {
    const int lane = threadIdx.x % 32;
    for (int offset = 1; offset < 32; offset *= 2) {
        const typename Op::acc_t before = gk_shfl_up(a, offset);
        if (lane >= offset) a = Op::reduce(before, a);
    }
    return a;
}

// ---- W elements of a line, at `e` (< end): one 16-byte (W > 1: contiguous, aligned) load or
// store where all W are in the line, else element by element. Streaming ones are marked evict-first
// (a scan touches each element once: data larger than the L2 cache leaves room there for the rest).
template <class T, int W, bool Streaming = false, class I>
__device__ inline void gk_load_elements(const char* in, I e, I end, long long step, T* x) {
    if (W > 1 && e + W <= end) {
        gk_vector<T, W> v;
#ifndef GK_SIMULATED
        if (Streaming)
            *(uint4*)&v = __ldcs((const uint4*)(in + e * sizeof(T)));  // W * sizeof(T) is 16
        else
#endif
            v = *(const gk_vector<T, W>*)(in + e * sizeof(T));
#pragma unroll
        for (int l = 0; l < W; ++l) x[l] = v.v[l];
    } else {
#pragma unroll
        for (int l = 0; l < W; ++l) x[l] = e + l < end ? *(const T*)(in + (e + l) * step) : T();
    }
}

// WO: the result is contiguous and aligned too (stored as vectors of up to 16 bytes).
template <class T, int W, bool WO, bool Streaming = false, class I>
__device__ inline void gk_store_elements(char* out, I e, I end, long long step, const T* y) {
    if (WO && e + W <= end) {
        enum { piece = 16 / sizeof(T) < W ? 16 / sizeof(T) : W };
#pragma unroll
        for (int k = 0; k < W; k += piece) {
            gk_vector<T, piece> v;
#pragma unroll
            for (int l = 0; l < piece; ++l) v.v[l] = y[k + l];
            char* const at = out + (e + k) * sizeof(T);
#ifndef GK_SIMULATED
            if (Streaming && piece * sizeof(T) == 16) {
                __stcs((uint4*)at, *(const uint4*)&v);
                continue;
            }
#endif
            *(gk_vector<T, piece>*)at = v;
        }
    } else {
#pragma unroll
        for (int l = 0; l < W; ++l)
            if (e + l < end) *(T*)(out + (e + l) * step) = y[l];
    }
}

// ---- tiles in the GPU's shape: GK_SCAN_THREADS threads x GK_SCAN_ROUNDS x W elements, loaded
// in rounds of one W-element vector per thread (coalesced), so that round r of thread t holds
// elements (r * threads + t) * W ... + W - 1 of the tile. Block b scans tile b: blocks start in
// index order, so the tiles a block waits for belong to blocks already running. Should one not
// have started all the same (no CUDA rule promises the order; the simulator's workers run their
// blocks one after another), the waiting warp stops waiting after GK_SCAN_PATIENCE looks and
// combines that tile's input itself: every launch finishes, whatever the order blocks run in.
#ifdef GK_SIMULATED
// A worker runs one block at a time: a tile not published soon may not start before this one ends.
#define GK_SCAN_PATIENCE 4
#else
#define GK_SCAN_PATIENCE 4096  // about a millisecond: far past any running block's publishing
#endif

template <class Op, int W>
struct gk_scan_tile_shared {
    enum { rounds = GK_SCAN_ROUNDS(W, sizeof(typename Op::acc_t)) };
    typename Op::acc_t warp_totals[rounds][GK_SCAN_THREADS / 32];
    // The value before each round's elements of each thread: kept here, not in registers, while
    // warp 0 looks back (the registers the look-back needs beside the tile's elements).
    typename Op::acc_t starts[rounds][GK_SCAN_THREADS];
    typename Op::acc_t prefix;
};

// The `count` elements at `in`, `step` bytes apart, combined by one warp (every lane gets the
// result): an element at a time, the fewest registers (only a late tile needs it).
template <class Op>
__device__ inline typename Op::acc_t gk_warp_combine(const char* in, int count, long long step) {
    typename Op::acc_t a = Op::identity();
#pragma unroll 1
    for (int e = (int)(threadIdx.x % 32); e < count; e += 32)
        a = Op::reduce(a, Op::map(*(const typename Op::in_storage*)(in + e * step)));
    return gk_shfl(gk_warp_reduce<Op>(a, 32), 0);
}

// Warp 0 of the k-th tile of a line (`slots` its line's, from the first tile; `in` the line's
// input): publishes the tile's total, looks back over the tiles before it 32 at a time (a lane
// each; a window ends at the nearest tile whose prefix is out) and publishes its own prefix;
// returns the prefix of the tiles before it (every lane).
template <class Op, int W>
__device__ inline typename Op::acc_t gk_tile_look_back(const gk_scan_params& p,
                                                       const gk_look_back_slots<typename Op::acc_t>& slots,
                                                       const char* in, int k, typename Op::acc_t tile_total) {
    typedef typename Op::acc_t acc_t;
    const unsigned aggregate_word = gk_status_word(p, GK_STATUS_AGGREGATE),
                   prefix_word = gk_status_word(p, GK_STATUS_PREFIX);
    const int lane = threadIdx.x % 32;
    if (k == 0) {
        if (lane == 0) slots.publish(0, tile_total, prefix_word);
        return Op::identity();
    }
    if (lane == 0) slots.publish(k, tile_total, aggregate_word);
    acc_t exclusive = Op::identity();
    for (int window_end = k;; window_end -= 32) {
        const int j = window_end - 32 + lane;
        acc_t value = Op::identity();
        unsigned word = prefix_word;  // before the line: the identity, as a prefix
        bool waiting = j >= 0;
        for (int looks = 0; looks < GK_SCAN_PATIENCE && __any_sync(0xffffffffu, waiting); ++looks) {
            if (waiting) {
                word = slots.read(j, &value);
                waiting = word != aggregate_word && word != prefix_word;
            }
        }
        if (j >= 0 && !waiting) value = slots.settle(j, word, value);
        for (unsigned late = __ballot_sync(0xffffffffu, waiting); late != 0; late &= late - 1) {
            const int q = __ffs(late) - 1;  // lane q's tile, unpublished (and whole): combined here
            const acc_t total = gk_warp_combine<Op>(in + (long long)(window_end - 32 + q) * p.tile * p.input_step,
                                                    (int)p.tile, p.input_step);
            if (lane == q) {
                value = total;
                word = aggregate_word;
            }
        }
        const unsigned prefixed = __ballot_sync(0xffffffffu, word == prefix_word);
        const int from = prefixed ? 31 - __clz((int)prefixed) : 0;
        if (lane < from) value = Op::identity();
        exclusive = Op::reduce(gk_shfl(gk_warp_reduce<Op>(value, 32), 0), exclusive);
        if (prefixed) break;
    }
    if (lane == 0) slots.publish(k, Op::reduce(exclusive, tile_total), prefix_word);
    return exclusive;
}

template <class Op, int W, bool WO, bool Streaming>
__device__ inline void gk_scan_tiles(const gk_scan_params& p, gk_scan_tile_shared<Op, W>& shared) {
    typedef typename Op::acc_t acc_t;
    typedef typename Op::in_storage in_storage;
    typedef typename Op::out_storage out_storage;
    enum { rounds = GK_SCAN_ROUNDS(W, sizeof(acc_t)), warps = GK_SCAN_THREADS / 32 };
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long tile = blockIdx.x;
    const long long line = tile / p.tiles_per_line, k = tile % p.tiles_per_line;
    const char* const in = gk_line_input(p, line);
    const gk_index begin = (gk_index)(k * p.tile);
    // Offsets within the tile (int: fewer registers than the line's 64-bit ones).
    const char* const tile_in = in + begin * p.input_step;
    char* const tile_out = gk_line_output(p, line) + begin * p.output_step;
    const int count = (int)((gk_index)p.length - begin < (gk_index)p.tile ? (gk_index)p.length - begin : p.tile);
    const auto first_of = [&](int r) { return (r * GK_SCAN_THREADS + (int)threadIdx.x) * W; };

    // Every load first (memory-level parallelism), then each round's total.
    in_storage x[rounds][W];
#pragma unroll
    for (int r = 0; r < rounds; ++r)
        gk_load_elements<in_storage, W, Streaming>(tile_in, first_of(r), count, p.input_step, x[r]);

    // Each round's thread totals scanned: within warps, then over the warps' totals.
    acc_t before_lane[rounds];
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        acc_t total = Op::identity();
#pragma unroll
        for (int l = 0; l < W; ++l)
            if (first_of(r) + l < count) total = Op::reduce(total, Op::map(x[r][l]));
        const acc_t inclusive = gk_warp_scan<Op>(total);
        const acc_t shifted = gk_shfl_up(inclusive, 1);
        before_lane[r] = lane == 0 ? Op::identity() : shifted;
        if (lane == 31) shared.warp_totals[r][warp] = inclusive;
    }
    __syncthreads();
    acc_t tile_total = Op::identity();  // of the rounds before r, then of the tile
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        acc_t before_warp = Op::identity(), round = Op::identity();
        for (int w = 0; w < warps; ++w) {
            if (w == warp) before_warp = round;
            round = Op::reduce(round, shared.warp_totals[r][w]);
        }
        shared.starts[r][threadIdx.x] = Op::reduce(Op::reduce(tile_total, before_warp), before_lane[r]);
        tile_total = Op::reduce(tile_total, round);
    }

    if (warp == 0) {
        const acc_t prefix =
            gk_tile_look_back<Op, W>(p, gk_look_back_slots<acc_t>(p).from(tile - k), in, (int)k, tile_total);
        if (lane == 0) shared.prefix = prefix;
    }
    __syncthreads();
    const acc_t prefix = shared.prefix;

#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        acc_t a = Op::reduce(prefix, shared.starts[r][threadIdx.x]);
        out_storage y[W];
#pragma unroll
        for (int l = 0; l < W; ++l) {
            if (first_of(r) + l < count) a = Op::reduce(a, Op::map(x[r][l]));
            y[l] = gk_convert<out_storage>(Op::post(a));
        }
        gk_store_elements<out_storage, W, WO, Streaming>(tile_out, first_of(r), count, p.output_step, y);
    }
}

// ---- tiles on the simulator: a block of 32 threads per tile, each thread a contiguous chunk,
// combined first (one pass), then scanned from its prefix (a second pass over the input). Each tile
// publishes its total only; the next ones wait for the totals before them.
template <class Op>
struct gk_scan_chunk_shared {
    typename Op::acc_t before[32];  // each thread's chunk total, then the value before its chunk
    typename Op::acc_t prefix;
    long long ticket;
};

template <class Op>
__device__ inline void gk_scan_tile_chunks(const gk_scan_params& p, gk_scan_chunk_shared<Op>& shared) {
    typedef typename Op::acc_t acc_t;
    const long long ticket = gk_take_ticket(p, &shared.ticket);
    const long long line = ticket / p.tiles_per_line, k = ticket % p.tiles_per_line;
    const char* const in = gk_line_input(p, line);
    char* const out = gk_line_output(p, line);
    const gk_index tile_begin = (gk_index)(k * p.tile);
    const gk_index tile_end =
        tile_begin + (gk_index)p.tile < (gk_index)p.length ? tile_begin + (gk_index)p.tile : (gk_index)p.length;
    const gk_index tile = tile_end > tile_begin ? tile_end - tile_begin : 0;
    const gk_index chunk = (tile + blockDim.x - 1) / blockDim.x;
    const gk_index begin = tile_begin + (chunk * threadIdx.x < tile ? chunk * threadIdx.x : tile);
    const gk_index end = tile_begin + (chunk * (threadIdx.x + 1) < tile ? chunk * (threadIdx.x + 1) : tile);
    shared.before[threadIdx.x] = gk_reduce_run<Op>(p, in, begin, end);
    __syncthreads();
    if (threadIdx.x == 0) {
        acc_t total = Op::identity();
        for (unsigned t = 0; t < blockDim.x; ++t) {
            const acc_t chunk_total = shared.before[t];
            shared.before[t] = total;
            total = Op::reduce(total, chunk_total);
        }
        // The tiles before this one in its line, their totals combined in order: few tiles, and the
        // same sums on every run (no prefix taken where one happens to be ready).
        gk_look_back_slots<acc_t>(p).publish(ticket, total, gk_status_word(p, GK_STATUS_AGGREGATE));
        acc_t exclusive = Op::identity();
        bool is_prefix;
        for (long long q = ticket - k; q < ticket; ++q)
            exclusive = Op::reduce(exclusive, gk_wait_for_tile<Op>(p, q, &is_prefix));
        shared.prefix = exclusive;
    }
    __syncthreads();
    gk_scan_run<Op>(p, in, out, begin, end, Op::reduce(shared.prefix, shared.before[threadIdx.x]));
}

// ---- lines: a warp per line on a GPU, 32 x W elements at a time (W-element loads, and stores when
// WO, as in tiles); a thread per line on the simulator.
template <class Op, int W, bool WO>
__device__ inline void gk_scan_lines(const gk_scan_params& p) {
    typedef typename Op::acc_t acc_t;
    typedef typename Op::in_storage in_storage;
    typedef typename Op::out_storage out_storage;
#ifdef GK_CHUNKED_SHAPES
    GK_ELEMENTS(line, (gk_index)p.lines) {
        gk_scan_run<Op>(p, gk_line_input(p, line), gk_line_output(p, line), 0, (gk_index)p.length, Op::identity());
    }
#else
    const gk_index line = ((gk_index)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (line >= (gk_index)p.lines) return;  // the whole warp
    const int lane = threadIdx.x % 32;
    const gk_index length = (gk_index)p.length;
    const char* const in = gk_line_input(p, line);
    char* const out = gk_line_output(p, line);
    acc_t carry = Op::identity();
    for (gk_index base = 0; base < length; base += 32 * W) {
        const gk_index e = base + (gk_index)lane * W;
        in_storage x[W];
        gk_load_elements<in_storage, W>(in, e, length, p.input_step, x);
        acc_t total = Op::identity();
#pragma unroll
        for (int l = 0; l < W; ++l)
            if (e + l < length) total = Op::reduce(total, Op::map(x[l]));
        const acc_t inclusive = gk_warp_scan<Op>(total);
        const acc_t shifted = gk_shfl_up(inclusive, 1);
        acc_t a = Op::reduce(carry, lane == 0 ? Op::identity() : shifted);
        out_storage y[W];
#pragma unroll
        for (int l = 0; l < W; ++l) {
            if (e + l < length) a = Op::reduce(a, Op::map(x[l]));
            y[l] = gk_convert<out_storage>(Op::post(a));
        }
        gk_store_elements<out_storage, W, WO>(out, e, length, p.output_step, y);
        carry = Op::reduce(carry, gk_shfl(inclusive, 31));
    }
#endif
}

// ---- columns: a thread per line walking down it. On a GPU, tiles_per_line > 1 splits each line
// into segments of GK_SCAN_COLUMN_ROWS elements (`tile`), a block per (segment, 256 lines) in
// ticket order: each thread loads its segment (held in registers: one pass over the memory),
// publishes its total, looks back over its line's earlier segments and scans its segment from their
// prefix. On the simulator a thread walks GK_SCAN_GROUP lines at once, row by row (the order their
// elements lie in memory).
#define GK_SCAN_COLUMN_ROWS(BYTES) (128 / ((BYTES) < 4 ? 4 : (BYTES)))  // src/ops/scan/scan.cpp too

template <class Op>
__device__ inline void gk_scan_columns(const gk_scan_params& p, long long* shared_ticket) {
    typedef typename Op::acc_t acc_t;
    typedef typename Op::in_storage in_storage;
    typedef typename Op::out_storage out_storage;
#ifdef GK_CHUNKED_SHAPES
    (void)shared_ticket;
    const gk_index groups = ((gk_index)p.lines + GK_SCAN_GROUP - 1) / GK_SCAN_GROUP;
    GK_ELEMENTS(group, groups) {
        const gk_index first = group * GK_SCAN_GROUP;
        const int count = (int)((gk_index)p.lines - first < GK_SCAN_GROUP ? (gk_index)p.lines - first : GK_SCAN_GROUP);
        const char* in[GK_SCAN_GROUP];
        char* out[GK_SCAN_GROUP];
        acc_t carry[GK_SCAN_GROUP];
        for (int c = 0; c < count; ++c) {
            in[c] = gk_line_input(p, first + c);
            out[c] = gk_line_output(p, first + c);
            carry[c] = Op::identity();
        }
        for (gk_index j = 0; j < (gk_index)p.length; ++j) {
            for (int c = 0; c < count; ++c) {
                carry[c] = Op::reduce(carry[c], Op::map(*(const in_storage*)(in[c] + j * p.input_step)));
                *(out_storage*)(out[c] + j * p.output_step) = gk_convert<out_storage>(Op::post(carry[c]));
            }
        }
    }
#else
    if (p.tiles_per_line == 1) {
        const gk_index line = (gk_index)blockIdx.x * blockDim.x + threadIdx.x;
        if (line < (gk_index)p.lines)
            gk_scan_run<Op>(p, gk_line_input(p, line), gk_line_output(p, line), 0, (gk_index)p.length, Op::identity());
        return;
    }
    const long long ticket = gk_take_ticket(p, shared_ticket);
    const long long groups = (p.lines + blockDim.x - 1) / blockDim.x;
    const long long segment = ticket / groups;
    const gk_index line = (gk_index)((ticket % groups) * blockDim.x + threadIdx.x);
    if (line >= (gk_index)p.lines) return;
    enum { rows = GK_SCAN_COLUMN_ROWS(sizeof(in_storage)) };
    const gk_index begin = (gk_index)(segment * p.tile);
    const int count = (gk_index)p.length - begin < rows ? (int)((gk_index)p.length - begin) : rows;
    const char* const in = gk_line_input(p, line) + begin * p.input_step;
    in_storage x[rows];
#pragma unroll
    for (int r = 0; r < rows; ++r)
        if (r < count) x[r] = *(const in_storage*)(in + r * p.input_step);
    acc_t total = Op::identity();
#pragma unroll
    for (int r = 0; r < rows; ++r)
        if (r < count) total = Op::reduce(total, Op::map(x[r]));
    const long long slot = segment * p.lines + line;  // segments of a line are p.lines slots apart
    acc_t exclusive = Op::identity();
    const gk_look_back_slots<acc_t> slots(p);
    if (segment > 0) {
        slots.publish(slot, total, gk_status_word(p, GK_STATUS_AGGREGATE));
        exclusive = gk_look_back_serial<Op>(p, line, slot, p.lines);
    }
    slots.publish(slot, Op::reduce(exclusive, total), gk_status_word(p, GK_STATUS_PREFIX));
    char* const out = gk_line_output(p, line) + begin * p.output_step;
#pragma unroll
    for (int r = 0; r < rows; ++r) {
        if (r < count) {
            exclusive = Op::reduce(exclusive, Op::map(x[r]));
            *(out_storage*)(out + r * p.output_step) = gk_convert<out_storage>(Op::post(exclusive));
        }
    }
#endif
}
