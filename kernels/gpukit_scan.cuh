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
//            Garland): one pass over the memory. Tiles are taken in the order of a ticket (an atomic
//            count), so that every tile a block waits for belongs to a block that has started,
//            which on a GPU and on the simulator (whose blocks run to completion on a worker once
//            started) always finishes.
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
    long long tiles;                    // tickets in all
    int outer_ndim;
    unsigned epoch;  // this launch's tag in the status words (1 to 2^30 - 1)
};

#define GK_SCAN_THREADS 256  // a GPU tile's block
#define GK_SCAN_ITEMS 16     // elements per thread of a GPU tile loaded 16 bytes at a time
// Rounds of W-element loads per thread of a GPU tile (fewer registers for wide elements loaded one
// or two at a time); src/ops/scan/scan.cpp sizes tiles by the same rule.
#define GK_SCAN_ROUNDS(W) ((W) >= 4 ? GK_SCAN_ITEMS / (W) : 4)
#define GK_SCAN_GROUP 64  // the simulator's columns: lines walked together by one thread

// ---- look-back state: a status word per tile (its epoch and what it has published) and two value
// slots, its own total (aggregate) and its inclusive prefix, each written once per launch.
#define GK_STATUS_AGGREGATE 1u
#define GK_STATUS_PREFIX 2u

// A status another block writes. On the simulator an atomic, which racecheck takes as the acquire
// that makes the published value visible; on a GPU an acquire load at device scope.
__device__ inline unsigned gk_status_load(unsigned* status) {
#ifdef GK_SIMULATED
    return atomicAdd(status, 0u);
#else
    unsigned value;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(status) : "memory");
    return value;
#endif
}

// After a status seen published, on the simulator: one more atomic. Check mode advances its clock
// when an atomic is reported, just before it is performed, so the atomic that saw the status may
// carry a time from before the publisher's fence; this one's time is after it, and racecheck then
// takes the value as published (gk_arrive_last does the same). A GPU needs nothing more.
__device__ inline void gk_status_acquired(unsigned* status) {
#ifdef GK_SIMULATED
    (void)atomicAdd(status, 0u);
#else
    (void)status;
#endif
}

// Publishes `value` in `slot` and then the status saying so (the fence orders the two for readers).
template <class T>
__device__ inline void gk_publish(T* slot, T value, unsigned* status, unsigned word) {
    *slot = value;
    __threadfence();
    atomicExch(status, word);
}

// Waits until tile `j` has published its aggregate or its prefix; returns whether its prefix.
__device__ inline bool gk_wait_published(const gk_scan_params& p, long long j) {
    unsigned* const status = (unsigned*)p.statuses + j;
    const unsigned aggregate = (p.epoch << 2) | GK_STATUS_AGGREGATE, prefix = (p.epoch << 2) | GK_STATUS_PREFIX;
    unsigned word;
    do {
        word = gk_status_load(status);
    } while (word != aggregate && word != prefix);
    gk_status_acquired(status);
    return word == prefix;
}

// Tile `j`'s prefix once published, else its aggregate; `is_prefix` says which.
template <class Op>
__device__ inline typename Op::acc_t gk_wait_for_tile(const gk_scan_params& p, long long j, bool* is_prefix) {
    typedef typename Op::acc_t acc_t;
    *is_prefix = gk_wait_published(p, j);
    return gk_load_fresh((*is_prefix ? (const acc_t*)p.prefixes : (const acc_t*)p.aggregates) + j);
}

// The combined value of the tiles [first, j) of a line, walking back from j - 1 (one thread).
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

// ---- tiles on a GPU: GK_SCAN_THREADS threads x GK_SCAN_ROUNDS(W) x W elements, loaded in rounds of one
// W-element vector per thread (16-byte loads, coalesced), so that round r of thread t holds
// elements (r * threads + t) * W ... + W - 1 of the tile. WO: the result is contiguous and aligned
// too (stored as vectors of up to 16 bytes).
template <class Op, int W>
struct gk_scan_tile_shared {
    typename Op::acc_t warp_totals[GK_SCAN_ROUNDS(W)][GK_SCAN_THREADS / 32];
    typename Op::acc_t prefix;
    long long ticket;
};

// Stores W results at `out` (aligned): in pieces of at most 16 bytes.
template <class T, int W>
__device__ inline void gk_store_vector(char* out, const T* values) {
    enum { piece = 16 / sizeof(T) < W ? 16 / sizeof(T) : W };
    for (int k = 0; k < W; k += piece) {
        gk_vector<T, piece> v;
#pragma unroll
        for (int l = 0; l < piece; ++l) v.v[l] = values[k + l];
        *(gk_vector<T, piece>*)(out + k * sizeof(T)) = v;
    }
}

template <class Op, int W, bool WO>
__device__ inline void gk_scan_tiles(const gk_scan_params& p, gk_scan_tile_shared<Op, W>& shared) {
    typedef typename Op::acc_t acc_t;
    typedef typename Op::in_storage in_storage;
    typedef typename Op::out_storage out_storage;
    enum { rounds = GK_SCAN_ROUNDS(W), warps = GK_SCAN_THREADS / 32 };
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const long long ticket = gk_take_ticket(p, &shared.ticket);
    const long long line = ticket / p.tiles_per_line, k = ticket % p.tiles_per_line;
    const char* const in = gk_line_input(p, line);
    char* const out = gk_line_output(p, line);
    const gk_index begin = (gk_index)(k * p.tile);
    const gk_index end = begin + (gk_index)p.tile < (gk_index)p.length ? begin + (gk_index)p.tile : (gk_index)p.length;

    // Every load first (memory-level parallelism), then each round's total.
    in_storage x[rounds][W];
    acc_t total[rounds];
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        const gk_index e = begin + ((gk_index)r * GK_SCAN_THREADS + threadIdx.x) * W;
        if (W > 1 && e + W <= end) {
            const gk_vector<in_storage, W> v = *(const gk_vector<in_storage, W>*)(in + e * sizeof(in_storage));
#pragma unroll
            for (int l = 0; l < W; ++l) x[r][l] = v.v[l];
        } else {
#pragma unroll
            for (int l = 0; l < W; ++l)
                x[r][l] = e + l < end ? *(const in_storage*)(in + (e + l) * p.input_step) : in_storage();
        }
    }
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        const gk_index e = begin + ((gk_index)r * GK_SCAN_THREADS + threadIdx.x) * W;
        acc_t a = Op::identity();
#pragma unroll
        for (int l = 0; l < W; ++l)
            if (e + l < end) a = Op::reduce(a, Op::map(x[r][l]));
        total[r] = a;
    }

    // Each round's thread totals scanned: within warps, then over the warps' totals.
    acc_t before_lane[rounds];
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        const acc_t inclusive = gk_warp_scan<Op>(total[r]);
        const acc_t shifted = gk_shfl_up(inclusive, 1);
        before_lane[r] = lane == 0 ? Op::identity() : shifted;
        if (lane == 31) shared.warp_totals[r][warp] = inclusive;
    }
    __syncthreads();
    acc_t tile_total = Op::identity();  // of the rounds before r, then of the tile
    acc_t start[rounds];                // the value before each round's elements of this thread
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        acc_t before_warp = Op::identity(), round = Op::identity();
        for (int w = 0; w < warps; ++w) {
            if (w == warp) before_warp = round;
            round = Op::reduce(round, shared.warp_totals[r][w]);
        }
        start[r] = Op::reduce(Op::reduce(tile_total, before_warp), before_lane[r]);
        tile_total = Op::reduce(tile_total, round);
    }

    // The prefix of the tiles before this one in its line: warp 0 looks back 32 tiles at a time.
    const unsigned aggregate_word = (p.epoch << 2) | GK_STATUS_AGGREGATE,
                   prefix_word = (p.epoch << 2) | GK_STATUS_PREFIX;
    unsigned* const statuses = (unsigned*)p.statuses;
    acc_t* const aggregates = (acc_t*)p.aggregates;
    acc_t* const prefixes = (acc_t*)p.prefixes;
    if (k == 0) {
        if (threadIdx.x == 0) {
            shared.prefix = Op::identity();
            gk_publish(prefixes + ticket, tile_total, statuses + ticket, prefix_word);
        }
    } else if (warp == 0) {
        if (lane == 0) gk_publish(aggregates + ticket, tile_total, statuses + ticket, aggregate_word);
        const long long first = ticket - k;  // the line's first tile
        acc_t exclusive = Op::identity();
        for (long long window_end = ticket;; window_end -= 32) {
            const long long j = window_end - 32 + lane;
            unsigned word;  // before the line: the identity, as a prefix
            do {
                word = j >= first ? gk_status_load(statuses + j) : prefix_word;
            } while (!__all_sync(0xffffffffu, word == aggregate_word || word == prefix_word));
            if (j >= first) gk_status_acquired(statuses + j);
#ifndef GK_SIMULATED
            __threadfence();  // the values published before the statuses just read
#endif
            acc_t value = Op::identity();
            if (j >= first) value = gk_load_fresh((word == prefix_word ? prefixes : aggregates) + j);
            const unsigned prefixed = __ballot_sync(0xffffffffu, word == prefix_word);
            const int from = prefixed ? 31 - __clz((int)prefixed) : 0;
            if (lane < from) value = Op::identity();
            const acc_t window = gk_shfl(gk_warp_reduce<Op>(value, 32), 0);
            exclusive = Op::reduce(window, exclusive);
            if (prefixed) break;
        }
        if (lane == 0) {
            shared.prefix = exclusive;
            gk_publish(prefixes + ticket, Op::reduce(exclusive, tile_total), statuses + ticket, prefix_word);
        }
    }
    __syncthreads();
    const acc_t prefix = shared.prefix;

#pragma unroll
    for (int r = 0; r < rounds; ++r) {
        const gk_index e = begin + ((gk_index)r * GK_SCAN_THREADS + threadIdx.x) * W;
        acc_t a = Op::reduce(prefix, start[r]);
        out_storage y[W];
#pragma unroll
        for (int l = 0; l < W; ++l) {
            if (e + l < end) a = Op::reduce(a, Op::map(x[r][l]));
            y[l] = gk_convert<out_storage>(Op::post(a));
        }
        if (WO && e + W <= end) {
            gk_store_vector<out_storage, W>(out + e * sizeof(out_storage), y);
        } else {
#pragma unroll
            for (int l = 0; l < W; ++l)
                if (e + l < end) *(out_storage*)(out + (e + l) * p.output_step) = y[l];
        }
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
        gk_publish((acc_t*)p.aggregates + ticket, total, (unsigned*)p.statuses + ticket,
                   (p.epoch << 2) | GK_STATUS_AGGREGATE);
        acc_t exclusive = Op::identity();
        for (long long q = ticket - k; q < ticket; ++q) {
            (void)gk_wait_published(p, q);
            exclusive = Op::reduce(exclusive, gk_load_fresh((const acc_t*)p.aggregates + q));
        }
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
        if (W > 1 && e + W <= length) {
            const gk_vector<in_storage, W> v = *(const gk_vector<in_storage, W>*)(in + e * sizeof(in_storage));
#pragma unroll
            for (int l = 0; l < W; ++l) x[l] = v.v[l];
        } else {
#pragma unroll
            for (int l = 0; l < W; ++l)
                x[l] = e + l < length ? *(const in_storage*)(in + (e + l) * p.input_step) : in_storage();
        }
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
        if (WO && e + W <= length) {
            gk_store_vector<out_storage, W>(out + e * sizeof(out_storage), y);
        } else {
#pragma unroll
            for (int l = 0; l < W; ++l)
                if (e + l < length) *(out_storage*)(out + (e + l) * p.output_step) = y[l];
        }
        carry = Op::reduce(carry, gk_shfl(inclusive, 31));
    }
#endif
}

// ---- columns: a thread per line walking down it. On a GPU, tiles_per_line > 1 splits each line
// into that many segments of `tile` elements, a block per (segment, 256 lines) in ticket order:
// each thread combines its segment, publishes it, looks back over its line's earlier segments and
// scans its segment from their prefix. On the simulator a thread walks GK_SCAN_GROUP lines at
// once, row by row (the order their elements lie in memory).
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
    const gk_index begin = (gk_index)(segment * p.tile);
    const gk_index end = begin + (gk_index)p.tile < (gk_index)p.length ? begin + (gk_index)p.tile : (gk_index)p.length;
    const char* const in = gk_line_input(p, line);
    const acc_t total = gk_reduce_run<Op>(p, in, begin, end);
    const long long slot = segment * p.lines + line;  // segments of a line are p.lines slots apart
    acc_t exclusive = Op::identity();
    if (segment > 0) {
        gk_publish((acc_t*)p.aggregates + slot, total, (unsigned*)p.statuses + slot,
                   (p.epoch << 2) | GK_STATUS_AGGREGATE);
        exclusive = gk_look_back_serial<Op>(p, line, slot, p.lines);
    }
    gk_publish((acc_t*)p.prefixes + slot, Op::reduce(exclusive, total), (unsigned*)p.statuses + slot,
               (p.epoch << 2) | GK_STATUS_PREFIX);
    gk_scan_run<Op>(p, in, gk_line_output(p, line), begin, end, exclusive);
#endif
}
