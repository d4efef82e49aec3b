// kernels/gpukit_sort.cuh: gpukit's own LSD radix sort, and the searches and flags that sorting
// and the set routines build on (src/ops/sort/kernels.cpp compiles this text, embedded in the
// library, with NVRTC or on the simulator: the same source runs on both).
//
// What it computes.
// - Keys: every dtype's elements become unsigned words whose unsigned order is NumPy's order
//   (gk_sort_encode): integers with the sign bit flipped, floats with the sign-magnitude bits
//   folded, every NaN the largest key (NaN last), -0.0 the key of 0.0 when `canonical_zero`
//   (argsort: equal keys keep their order). Complex numbers order by real, then imaginary part,
//   and NumPy's NaN classes come after every number: R + nanj (by R), nan + Rj (by R), nan + nanj.
//   complex64 is one 64-bit word, complex128 two (a high and a low word, sorted low first).
// - Radix passes (stable, 8-bit digits, the digit at `shift`), over the key's bits, least
//   significant first, sort it; values carry indices (argsort). Rows of an axis: the row index
//   (value / row_length) is the most significant part of a composite key, sorted by more passes
//   whose digit comes from the value (`digit_of_row`). A pass moves each key (and its value) to
//   its digit's start + the keys of that digit before it. A sort's first pass may read the
//   elements (making keys and indices on the way) and its last write the sorted elements or
//   argsort's int64 indices.
// - gk_sort_encode, gk_sort_decode: elements to keys and back; gk_sort_gather: elements or
//   indices at positions; gk_sort_search: binary searches of sorted keys (searchsorted's left and
//   right, isin's membership); gk_sort_flags: where a sorted run of equal keys starts (unique);
//   gk_sort_inverse and gk_sort_run_lengths: unique's inverse and counts.
//
// Kernel shapes. On a GPU, onesweep (Adinets and Merrill, 2022): gk_radix_count_passes counts
// every pass's digits in one read of the keys, then one gk_radix_onesweep kernel a pass, whose
// blocks of 256 threads (one per digit) take tiles by ticket, rank them by digit, publish their
// digit counts and look back over the tiles before them (a decoupled look-back per digit), and
// write the tile ordered by digit. On the simulator (GK_CHUNKED_SHAPES) three kernels a pass, a
// block being one thread with a contiguous chunk: gk_radix_histogram, gk_radix_scan and
// gk_radix_scatter, native loops.
//
// Reference: numpy.sort(kind='stable'), numpy.argsort(kind='stable'), numpy.searchsorted; the
// tests compare with NumPy.
#pragma once

#include "gpukit_elementwise.cuh"

#if defined(GK_SIMULATED) && !defined(GK_GPU_SHAPES)
#define GK_CHUNKED_SHAPES
#endif

#define GK_RADIX 256
#define GK_SORT_THREADS 256  // a GPU block of a radix pass: a thread per digit

// The element kinds gk_sort_encode and gk_sort_decode know (src/ops/sort/kernels.hpp: SortKind).
#define GK_SORT_UNSIGNED 0  // bool and unsigned integers
#define GK_SORT_SIGNED 1
#define GK_SORT_FLOAT16 2
#define GK_SORT_BFLOAT16 3
#define GK_SORT_FLOAT32 4
#define GK_SORT_FLOAT64 5
#define GK_SORT_COMPLEX64 6
#define GK_SORT_COMPLEX128 7

// Mirrors SortParams in src/ops/sort/kernels.hpp.
struct gk_sort_params {
    unsigned long long keys_in, keys_out;      // radix pass: keys; encode: out; decode: in
    unsigned long long values_in, values_out;  // radix pass: values (indices), or 0
    unsigned long long low_keys;               // complex128: the low words beside keys_in
    unsigned long long counts;                 // chunked pass: GK_RADIX * blocks + 1 offsets; onesweep: the
                                               // digit totals, [passes][GK_RADIX]
    unsigned long long elements;               // encode: the input; decode: the output
    unsigned long long positions;              // gather, search: int64 positions / indices
    unsigned long long needles, low_needles;   // search: the keys looked for
    long long size;                            // elements (keys, or needles of a search)
    long long haystack;                        // search: sorted keys searched
    long long row_length;                      // composite keys: row = value / row_length
    long long chunk;                           // chunked pass: keys per block
    long long blocks;                          // chunked pass: blocks of histogram and scatter
    unsigned long long nan_key;                // keys from nan_key on are NaN (when has_nan)
    int kind;                                  // encode, decode: GK_SORT_*
    int shift;                                 // radix pass: the digit's lowest bit
    int digit_of_row;                          // radix pass: the digit is the row's, not the key's
    int word;                                  // complex128 encode: 0 the high word, 1 the low
    int canonical_zero;                        // encode: -0.0 takes 0.0's key
    int mode;                                  // search: 0 left, 1 right, 2 membership
    int invert;                                // membership: true where absent
    int has_nan;                               // search, flags: the kind has NaN keys
    int equal_nan;                             // flags: NaN keys equal each other (unique)
    int itemsize;                              // gather: bytes per element
    int index_bytes;                           // gather: bytes per position (4 or 8)
    int encode_input;                          // radix pass: keys are elements' keys (gk_encode), not keys_in
    int index_values;                          // radix pass: values are the keys' indices, not values_in
    int decode_output;                         // radix pass: keys are written as elements (at decoded)
    int indices_output;                        // radix pass: values are written as int64 value % row_length
                                               // (at positions)
    int pass;                                  // onesweep: the pass (its tickets, totals, status tag)
    unsigned long long decoded;                // radix pass, decode_output: the sorted elements
    unsigned long long statuses;               // onesweep: look-back words, [tile][GK_RADIX]
    unsigned long long tickets;                // onesweep: each pass's ticket count (unsigned)
    int key_passes, passes;                    // count_passes: passes over the key's digits, in all
    int copies;                                // count_passes: copies of the counts in a block
    int unused;
};

// ---- keys: unsigned words in NumPy's order

template <class U>
__device__ inline U gk_float_key(U bits, U sign, bool nan, bool canonical_zero) {
    if (nan) return (U) ~(U)0;
    if (canonical_zero && (bits & (U)~sign) == 0) return sign;  // -0.0 and 0.0: 0.0's key
    return (bits & sign) ? (U)~bits : (U)(bits | sign);
}
template <class U>
__device__ inline U gk_float_of_key(U key, U sign, U quiet_nan) {
    if (key == (U) ~(U)0) return quiet_nan;
    return (key & sign) ? (U)(key & (U)~sign) : (U)~key;
}
__device__ inline bool gk_nan32(unsigned bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }
__device__ inline bool gk_nan64(unsigned long long bits) {
    return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
__device__ inline unsigned gk_key32(unsigned bits, bool canonical_zero) {
    return gk_float_key<unsigned>(bits, 0x80000000u, gk_nan32(bits), canonical_zero);
}
__device__ inline unsigned long long gk_key64(unsigned long long bits, bool canonical_zero) {
    return gk_float_key<unsigned long long>(bits, 0x8000000000000000ull, gk_nan64(bits), canonical_zero);
}

// A complex number's (high, low) words: numbers by (real, imaginary); NaN classes above every
// number's high word (a real part's key is at most +inf's, far below ~0 - 2).
template <class U>
__device__ inline void gk_complex_key(U re_key, U im_key, bool re_nan, bool im_nan, U* high, U* low) {
    const U top = (U) ~(U)0;
    if (!re_nan && !im_nan) {
        *high = re_key;
        *low = im_key;
    } else if (!re_nan) {
        *high = top - 2;
        *low = re_key;
    } else if (!im_nan) {
        *high = top - 1;
        *low = im_key;
    } else {
        *high = top;
        *low = top;
    }
}

// The key of a real element's bits (itemsize bytes of `kind`, not complex).
__device__ inline unsigned long long gk_key_of_bits(const gk_sort_params& p, unsigned long long bits) {
    const bool zero = p.canonical_zero != 0;
    switch (p.kind) {
        case GK_SORT_UNSIGNED: return bits;
        case GK_SORT_SIGNED: return bits ^ (1ull << (8 * p.itemsize - 1));
        case GK_SORT_FLOAT16:
            return gk_float_key<unsigned short>((unsigned short)bits, 0x8000u, (bits & 0x7fffu) > 0x7c00u, zero);
        case GK_SORT_BFLOAT16:
            return gk_float_key<unsigned short>((unsigned short)bits, 0x8000u, (bits & 0x7fffu) > 0x7f80u, zero);
        case GK_SORT_FLOAT32: return gk_key32((unsigned)bits, zero);
        default: return gk_key64(bits, zero);
    }
}

// Element i of the input (contiguous, of `kind`) as its key; complex128: word `word` of it.
__device__ inline unsigned long long gk_encode(const gk_sort_params& p, gk_index i) {
    const bool zero = p.canonical_zero != 0;
    if (p.kind == GK_SORT_COMPLEX64) {
        const unsigned re = ((const unsigned*)p.elements)[2 * i], im = ((const unsigned*)p.elements)[2 * i + 1];
        unsigned high, low;
        gk_complex_key<unsigned>(gk_key32(re, zero), gk_key32(im, zero), gk_nan32(re), gk_nan32(im), &high, &low);
        return ((unsigned long long)high << 32) | low;
    }
    if (p.kind == GK_SORT_COMPLEX128) {
        const unsigned long long re = ((const unsigned long long*)p.elements)[2 * i];
        const unsigned long long im = ((const unsigned long long*)p.elements)[2 * i + 1];
        unsigned long long high, low;
        gk_complex_key<unsigned long long>(gk_key64(re, zero), gk_key64(im, zero), gk_nan64(re), gk_nan64(im), &high,
                                           &low);
        return p.word == 0 ? high : low;
    }
    unsigned long long bits;
    switch (p.itemsize) {
        case 1: bits = ((const unsigned char*)p.elements)[i]; break;
        case 2: bits = ((const unsigned short*)p.elements)[i]; break;
        case 4: bits = ((const unsigned*)p.elements)[i]; break;
        default: bits = ((const unsigned long long*)p.elements)[i];
    }
    return gk_key_of_bits(p, bits);
}

template <class K>
__device__ inline void gk_sort_encode_keys(const gk_sort_params& p) {
    K* keys = (K*)p.keys_out;
    GK_ELEMENTS(i, (gk_index)p.size) keys[i] = (K)gk_encode(p, i);
}
extern "C" __global__ void gk_sort_encode32(const gk_sort_params p) { gk_sort_encode_keys<unsigned>(p); }
extern "C" __global__ void gk_sort_encode64(const gk_sort_params p) { gk_sort_encode_keys<unsigned long long>(p); }

// Key i (of K's width) back to its element of `kind` and `itemsize`.
// Element i of out (p.elements for gk_sort_decode) from its key (complex128: and its low word).
__device__ inline void gk_decode_key(const gk_sort_params& p, char* out, unsigned long long key, gk_index i,
                                     unsigned long long low_key) {
    switch (p.kind) {
        case GK_SORT_UNSIGNED:
        case GK_SORT_SIGNED: {
            const int bytes = p.itemsize;
            const unsigned long long flip = p.kind == GK_SORT_SIGNED ? 1ull << (8 * bytes - 1) : 0;
            const unsigned long long v = key ^ flip;
            if (bytes == 1) ((unsigned char*)out)[i] = (unsigned char)v;
            if (bytes == 2) ((unsigned short*)out)[i] = (unsigned short)v;
            if (bytes == 4) ((unsigned*)out)[i] = (unsigned)v;
            if (bytes == 8) ((unsigned long long*)out)[i] = v;
            break;
        }
        case GK_SORT_FLOAT16:
            ((unsigned short*)out)[i] = gk_float_of_key<unsigned short>((unsigned short)key, 0x8000u, 0x7e00u);
            break;
        case GK_SORT_BFLOAT16:
            ((unsigned short*)out)[i] = gk_float_of_key<unsigned short>((unsigned short)key, 0x8000u, 0x7fc0u);
            break;
        case GK_SORT_FLOAT32:
            ((unsigned*)out)[i] = gk_float_of_key<unsigned>((unsigned)key, 0x80000000u, 0x7fc00000u);
            break;
        case GK_SORT_FLOAT64:
            ((unsigned long long*)out)[i] =
                gk_float_of_key<unsigned long long>(key, 0x8000000000000000ull, 0x7ff8000000000000ull);
            break;
        case GK_SORT_COMPLEX64: {
            const unsigned high = (unsigned)(key >> 32), low = (unsigned)key, nan = 0x7fc00000u;
            unsigned re, im;
            if (high < 0xfffffffdu) {
                re = gk_float_of_key<unsigned>(high, 0x80000000u, nan);
                im = gk_float_of_key<unsigned>(low, 0x80000000u, nan);
            } else {
                re = high == 0xfffffffdu ? gk_float_of_key<unsigned>(low, 0x80000000u, nan) : nan;
                im = high == 0xfffffffeu ? gk_float_of_key<unsigned>(low, 0x80000000u, nan) : nan;
            }
            ((unsigned*)out)[2 * i] = re;
            ((unsigned*)out)[2 * i + 1] = im;
            break;
        }
        default: {
            const unsigned long long high = key, low = low_key;
            const unsigned long long sign = 0x8000000000000000ull, nan = 0x7ff8000000000000ull;
            const unsigned long long top = ~0ull;
            unsigned long long re, im;
            if (high < top - 2) {
                re = gk_float_of_key<unsigned long long>(high, sign, nan);
                im = gk_float_of_key<unsigned long long>(low, sign, nan);
            } else {
                re = high == top - 2 ? gk_float_of_key<unsigned long long>(low, sign, nan) : nan;
                im = high == top - 1 ? gk_float_of_key<unsigned long long>(low, sign, nan) : nan;
            }
            ((unsigned long long*)out)[2 * i] = re;
            ((unsigned long long*)out)[2 * i + 1] = im;
        }
    }
}
template <class K>
__device__ inline void gk_decode(const gk_sort_params& p, gk_index i) {
    gk_decode_key(p, (char*)p.elements, ((const K*)p.keys_in)[i], i,
                  p.low_keys ? ((const unsigned long long*)p.low_keys)[i] : 0);
}
extern "C" __global__ void gk_sort_decode32(const gk_sort_params p) {
    GK_ELEMENTS(i, (gk_index)p.size) gk_decode<unsigned>(p, i);
}
extern "C" __global__ void gk_sort_decode64(const gk_sort_params p) {
    GK_ELEMENTS(i, (gk_index)p.size) gk_decode<unsigned long long>(p, i);
}

// ---- a radix pass

// The digit of a key (or of its value's row) this pass sorts by. ROWS: whether a pass may sort by
// rows (only where values are carried: a sort of several rows carries indices).
template <class K, class V, bool ROWS = true>
__device__ inline unsigned gk_digit(const gk_sort_params& p, K key, V value) {
    if (ROWS && p.digit_of_row) {  // 32-bit values divide in 32 bits (a third of the instructions)
        const unsigned long long row = sizeof(V) == 4 ? (unsigned long long)((unsigned)value / (unsigned)p.row_length)
                                                      : (unsigned long long)value / (unsigned long long)p.row_length;
        return (unsigned)(row >> p.shift) & 255u;
    }
    return (unsigned)(key >> p.shift) & 255u;
}

// This block's keys, [*begin, *end).
__device__ inline void gk_radix_chunk(const gk_sort_params& p, long long* begin, long long* end) {
    *begin = (long long)blockIdx.x * p.chunk;
    *end = *begin + p.chunk < p.size ? *begin + p.chunk : p.size;
}

// An index's place within its row (argsort's result): a 64-bit remainder costs a hundred
// instructions, so one row skips it and 32-bit indices take a 32-bit one.
template <class V>
__device__ inline long long gk_index_in_row(const gk_sort_params& p, V value) {
    if ((unsigned long long)value < (unsigned long long)p.row_length) return (long long)value;
    if (sizeof(V) == 4) return (long long)((unsigned)value % (unsigned)p.row_length);
    return (long long)((unsigned long long)value % (unsigned long long)p.row_length);
}

// A pass's key and value i: the first pass of a sort reads the elements (their keys made on the
// way) and takes each key's index as its value; later ones read the last pass's.
template <class K>
__device__ inline K gk_pass_key(const gk_sort_params& p, long long i) {
    return p.encode_input ? (K)gk_encode(p, (gk_index)i) : ((const K*)p.keys_in)[i];
}
template <class V>
__device__ inline V gk_pass_value(const gk_sort_params& p, long long i) {
    if (p.index_values) return (V)i;
    return p.values_in ? ((const V*)p.values_in)[i] : (V)0;
}
// Value to place o: argsort's last pass writes int64 indices within rows; what nothing reads
// afterwards (a null address) is not written.
template <class V>
__device__ inline void gk_store_value(const gk_sort_params& p, long long o, V value) {
    if (p.indices_output) {
        ((long long*)p.positions)[o] = gk_index_in_row<V>(p, value);
    } else if (p.values_out) {
        ((V*)p.values_out)[o] = value;
    }
}
// Key and value to place o: the last pass of a sort writes the elements (decoded) and argsort's
// int64 indices; what nothing reads afterwards (a null address) is not written.
template <class K, class V>
__device__ inline void gk_pass_store(const gk_sort_params& p, long long o, K key, V value) {
    if (p.decode_output) {
        gk_decode_key(p, (char*)p.decoded, key, (gk_index)o, 0);
    } else if (p.keys_out) {
        ((K*)p.keys_out)[o] = key;
    }
    gk_store_value<V>(p, o, value);
}

// ---- the simulator's passes (GK_CHUNKED_SHAPES): three kernels a pass, a block of one thread and
// a contiguous chunk each. gk_radix_histogram counts each block's digits, gk_radix_scan turns the
// counts (digit-major: digit d of block b at d * blocks + b) into offsets within each digit and the
// digits' totals, gk_radix_scatter moves each key (and its value) to its digit's start + its
// offset, keys of one digit in their order. (Their bodies are empty in the GPU's shapes.)

template <class K, class V>
__device__ inline void gk_radix_histogram(const gk_sort_params& p) {
#ifdef GK_CHUNKED_SHAPES
    long long begin, end;
    gk_radix_chunk(p, &begin, &end);
    long long* out = (long long*)p.counts;
    __shared__ unsigned counts[GK_RADIX];
    for (int d = 0; d < GK_RADIX; ++d) counts[d] = 0;
    for (long long i = begin; i < end; ++i) ++counts[gk_digit<K, V>(p, gk_pass_key<K>(p, i), gk_pass_value<V>(p, i))];
    for (int d = 0; d < GK_RADIX; ++d) out[(long long)d * p.blocks + blockIdx.x] = counts[d];
#else
    (void)p;
#endif
}

// Block d: digit d's counts in the pass's blocks, counts[d * blocks + b], into exclusive offsets
// within the digit; the digit's total goes to counts[GK_RADIX * blocks + d].
extern "C" __global__ void gk_radix_scan(const gk_sort_params p) {
#ifdef GK_CHUNKED_SHAPES
    long long* counts = (long long*)p.counts + (long long)blockIdx.x * p.blocks;
    long long running = 0;
    for (long long b = 0; b < p.blocks; ++b) {
        const long long c = counts[b];
        counts[b] = running;
        running += c;
    }
    ((long long*)p.counts)[GK_RADIX * p.blocks + blockIdx.x] = running;
#else
    (void)p;
#endif
}

// Its chunk's keys in order, each to the next offset of its digit.
template <class K, class V>
__device__ inline void gk_radix_scatter(const gk_sort_params& p) {
#ifdef GK_CHUNKED_SHAPES
    __shared__ long long offsets[GK_RADIX];
    const long long* counts = (const long long*)p.counts;
    long long digit_start = 0;
    for (int d = 0; d < GK_RADIX; ++d) {
        offsets[d] = digit_start + counts[(long long)d * p.blocks + blockIdx.x];
        digit_start += counts[GK_RADIX * p.blocks + d];
    }
    long long begin, end;
    gk_radix_chunk(p, &begin, &end);
    for (long long i = begin; i < end; ++i) {
        const K key = gk_pass_key<K>(p, i);
        const V value = gk_pass_value<V>(p, i);
        gk_pass_store<K, V>(p, offsets[gk_digit<K, V>(p, key, value)]++, key, value);
    }
#else
    (void)p;
#endif
}

// ---- a GPU's passes: onesweep (Adinets and Merrill, 2022). One read of the keys counts the digits
// of every pass (gk_radix_count_passes); then one kernel a pass (gk_radix_onesweep): a block takes
// the next tile by ticket, ranks its keys by digit, publishes its tile's count of each digit and
// looks back over the tiles before it for where its keys of each digit go (a decoupled look-back per
// digit), then writes its keys, ordered by digit in shared memory, in runs. The scratch the launcher
// zeroes before a sort holds each pass's ticket count, each pass's digit totals and a status word per
// (tile, digit), reused by every pass: a word carries its pass (tag), whether it holds the tile's own
// count (aggregate) or the count of the tiles up to and including it (inclusive prefix), and the count.

#define GK_LOOKBACK_TAG_SHIFT 58              // bits 58-63: the pass + 1 (0: nothing yet)
#define GK_LOOKBACK_PREFIX (1ull << 57)       // the count is the inclusive prefix
#define GK_LOOKBACK_COUNT ((1ull << 57) - 1)  // bits 0-56: the count

// A status word another block writes. The count travels in the word, so a relaxed load and store at
// device scope suffice on a GPU (nothing else is read through it); on the simulator, atomics.
__device__ inline unsigned long long gk_lookback_load(unsigned long long* word) {
#ifdef GK_SIMULATED
    return atomicAdd(word, 0ull);
#else
    unsigned long long value;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(value) : "l"(word) : "memory");
    return value;
#endif
}
__device__ inline void gk_lookback_store(unsigned long long* word, unsigned long long value) {
#ifdef GK_SIMULATED
    atomicExch(word, value);
#else
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(word), "l"(value) : "memory");
#endif
}

// How a onesweep kernel reads and writes elements, fixed at compile time (a kind chosen per element
// at run time costs the first and last passes a third of their time): the keys as they are
// (GK_SORT_KEYS_AS_IS: no pass here reads or writes elements), float32 or float64 elements, or any
// kind (GK_SORT_ANY_KIND: p.kind at run time).
#define GK_SORT_KEYS_AS_IS (-1)
#define GK_SORT_ANY_KIND (-2)

// A pass's keys and values from `first` on, as a onesweep tile's lane reads them (32 apart) and the
// counting and uniform-digit copies do (one at a time): a key made from its element when
// p.encode_input, else keys_in's; a value its index in the first pass, else values_in's; both
// streamed (read once). Offsets from one address: a 64-bit address and bounds test a key made a
// fifth of a pass's instructions.
template <int KIND, class K, class V>
struct gk_tile_reader {
    const char* keys;  // the key (or element) words from `first` on; null where keys are encoded
    const V* values;   // the values from `first` on; null where they are the keys' indices
    long long first;
    bool elements, canonical_zero;
    __device__ gk_tile_reader(const gk_sort_params& p, long long first_) : first(first_) {
        elements = KIND != GK_SORT_KEYS_AS_IS && p.encode_input;
        canonical_zero = p.canonical_zero != 0;
        keys = !elements                 ? (const char*)p.keys_in + first * (long long)sizeof(K)
               : KIND == GK_SORT_FLOAT32 ? (const char*)p.elements + first * 4
               : KIND == GK_SORT_FLOAT64 ? (const char*)p.elements + first * 8
                                         : nullptr;
        values = p.index_values || !p.values_in ? nullptr : (const V*)p.values_in + first;
    }
    __device__ K key(const gk_sort_params& p, int offset) const {
        if (elements) {
            if (KIND == GK_SORT_FLOAT32) return (K)gk_key32(__ldcg((const unsigned*)keys + offset), canonical_zero);
            if (KIND == GK_SORT_FLOAT64)
                return (K)gk_key64(__ldcg((const unsigned long long*)keys + offset), canonical_zero);
            return (K)gk_encode(p, (gk_index)(first + offset));
        }
        return __ldcg((const K*)keys + offset);
    }
    __device__ V value(int offset) const { return values ? __ldcg(values + offset) : (V)(first + offset); }
};

// Key, and value, to place o (gk_pass_store's, with KIND's elements).
template <int KIND, class K>
__device__ inline void gk_tile_store_key(const gk_sort_params& p, long long o, K key) {
    if (KIND == GK_SORT_FLOAT32 && p.decode_output) {
        ((unsigned*)p.decoded)[o] = gk_float_of_key<unsigned>((unsigned)key, 0x80000000u, 0x7fc00000u);
    } else if (KIND == GK_SORT_FLOAT64 && p.decode_output) {
        ((unsigned long long*)p.decoded)[o] =
            gk_float_of_key<unsigned long long>(key, 0x8000000000000000ull, 0x7ff8000000000000ull);
    } else if (KIND == GK_SORT_ANY_KIND && p.decode_output) {
        gk_decode_key(p, (char*)p.decoded, key, (gk_index)o, 0);
    } else if (p.keys_out) {
        ((K*)p.keys_out)[o] = key;
    }
}
// Tiles a look-back reads at once (argsort on an H200: 188 GB/s with 8 or 4, 182 with 1, 181 with 16).
#define GK_LOOKBACK_BATCH 8

// Counts key i's digit of each pass (its key's, then its row's) in `counts` ([passes][GK_RADIX + 1]).
// WHOLE: every byte of the key is a pass and there are no rows' passes (no branches: a third of the
// instructions of the general case).
template <bool WHOLE, class K, class V>
__device__ inline void gk_count_digits(const gk_sort_params& p, unsigned* counts, K key, long long i) {
#pragma unroll
    for (int pass = 0; pass < (int)sizeof(K); ++pass)
        if (WHOLE || pass < p.key_passes)
            atomicAdd(&counts[pass * (GK_RADIX + 1) + (unsigned)((key >> (8 * pass)) & 255u)], 1u);
    if (WHOLE || p.passes == p.key_passes) return;
    const V value = gk_pass_value<V>(p, i);
    const unsigned long long row = sizeof(V) == 4 ? (unsigned long long)((unsigned)value / (unsigned)p.row_length)
                                                  : (unsigned long long)value / (unsigned long long)p.row_length;
    for (int pass = p.key_passes; pass < p.passes; ++pass)
        atomicAdd(&counts[pass * (GK_RADIX + 1) + (unsigned)((row >> (8 * (pass - p.key_passes))) & 255u)], 1u);
}

// The keys [first, n), `step` apart, counted; 4-byte words (elements or keys) four at a time with
// 16-byte loads when aligned. Returns nothing; the caller flushes the counts.
template <int KIND, bool WHOLE, class K, class V>
__device__ inline void gk_count_keys(const gk_sort_params& p, unsigned* counts, long long first, long long step) {
    const long long n = p.size;
    long long rest = 0;  // keys from here on: one at a time
    const unsigned* words = (const unsigned*)(p.encode_input ? p.elements : p.keys_in);
    if (sizeof(K) == 4 && (KIND == GK_SORT_KEYS_AS_IS || KIND == GK_SORT_FLOAT32) &&
        ((unsigned long long)words & 15) == 0) {
        typedef gk_vector<unsigned, 4> quad;
        const long long quads = n / 4;
        for (long long q = first; q < quads; q += step) {
            const quad v = ((const quad*)words)[q];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const K key = KIND == GK_SORT_FLOAT32 ? (K)gk_key32(v.v[k], p.canonical_zero != 0) : (K)v.v[k];
                gk_count_digits<WHOLE, K, V>(p, counts, key, 4 * q + k);
            }
        }
        rest = 4 * quads;
    }
    for (long long i = rest + first; i < n; i += step)
        gk_count_digits<WHOLE, K, V>(p, counts, gk_tile_reader<KIND, K, V>(p, i).key(p, 0), i);
}

// Every pass's digit totals (p.counts: [passes][GK_RADIX], zeroed), read as the first pass reads.
// A block counts in `copies` copies (lane % copies chooses one: lanes counting one digit, as keys of
// few distinct top bytes do, mostly hit different words).
template <class K, class V>
__device__ inline void gk_radix_count_passes(const gk_sort_params& p) {
#ifndef GK_CHUNKED_SHAPES
    extern __shared__ unsigned long long gk_sort_shared[];  // [copies][passes][GK_RADIX + 1]
    unsigned* copies = (unsigned*)gk_sort_shared;
    const int stride = p.passes * (GK_RADIX + 1);
    for (int w = threadIdx.x; w < p.copies * stride; w += blockDim.x) copies[w] = 0;
    __syncthreads();
    unsigned* counts = copies + (threadIdx.x % p.copies) * stride;
    const long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x, step = (long long)gridDim.x * blockDim.x;
    const bool whole = p.passes == p.key_passes && p.key_passes == (int)sizeof(K);
    if (!p.encode_input && whole) {
        gk_count_keys<GK_SORT_KEYS_AS_IS, true, K, V>(p, counts, first, step);
    } else if (!p.encode_input) {
        gk_count_keys<GK_SORT_KEYS_AS_IS, false, K, V>(p, counts, first, step);
    } else if (sizeof(K) == 4 && p.kind == GK_SORT_FLOAT32 && whole) {
        gk_count_keys<GK_SORT_FLOAT32, true, K, V>(p, counts, first, step);
    } else if (sizeof(K) == 4 && p.kind == GK_SORT_FLOAT32) {
        gk_count_keys<GK_SORT_FLOAT32, false, K, V>(p, counts, first, step);
    } else {
        gk_count_keys<GK_SORT_ANY_KIND, false, K, V>(p, counts, first, step);
    }
    __syncthreads();
    unsigned long long* totals = (unsigned long long*)p.counts;
    for (int w = threadIdx.x; w < p.passes * GK_RADIX; w += blockDim.x) {
        const int at = w / GK_RADIX * (GK_RADIX + 1) + w % GK_RADIX;
        unsigned total = 0;
        for (int c = 0; c < p.copies; ++c) total += copies[c * stride + at];
        if (total) atomicAdd(&totals[w], (unsigned long long)total);
    }
#else
    (void)p;
#endif
}

// The lanes of the warp whose digit equals this lane's: a ballot a bit. (__match_any_sync costs
// more the more distinct digits a warp holds: a third of a pass over random digits.)
__device__ inline unsigned gk_digit_peers(unsigned digit) {
    unsigned peers = 0xffffffffu;
#pragma unroll
    for (int b = 0; b < 8; ++b) {
#ifdef GK_SIMULATED
        const bool set = (digit & (1u << b)) != 0;
        const unsigned ones = __ballot_sync(0xffffffffu, set);
        peers &= set ? ones : ~ones;
#else
        // One predicate for the ballot and the choice (from C, the compiler tests the bit twice).
        asm("{\n\t.reg .pred set;\n\t.reg .b32 same;\n\t"
            "and.b32 same, %1, %2;\n\tsetp.ne.u32 set, same, 0;\n\t"
            "vote.sync.ballot.b32 same, set, 0xffffffff;\n\t@!set not.b32 same, same;\n\t"
            "and.b32 %0, %0, same;\n\t}"
            : "+r"(peers)
            : "r"(digit), "r"(1u << b));
#endif
    }
    return peers;
}

// Keys a thread of a onesweep tile holds: GK_ONESWEEP_BYTES_KEYS (keys alone) or _PAIRS (keys and
// values) over the wider of key and carried value (src/ops/sort/radix.cpp sizes tiles by the same
// rule); GK_ONESWEEP_BLOCKS_* blocks a multiprocessor runs at once (caps the registers a thread takes).
// Measured on an H200 (2^26 float32): keys alone 96 bytes and 3 blocks (259 GB/s against 235 for 64
// bytes and 4 blocks, 216 for 3 and 2), pairs 80 bytes and 3 blocks (argsort 194 GB/s against 188 for
// 64, 184 for 48 bytes and 4 blocks, 168 for 96 bytes and 2 blocks).
#define GK_ONESWEEP_BYTES_KEYS 96
#define GK_ONESWEEP_BYTES_PAIRS 80
#define GK_ONESWEEP_BLOCKS_KEYS 3
#define GK_ONESWEEP_BLOCKS_PAIRS 3
template <class K, class V, bool CARRY>
struct gk_onesweep_shape {
    enum {
        ITEMS = CARRY ? GK_ONESWEEP_BYTES_PAIRS / (sizeof(V) > sizeof(K) ? sizeof(V) : sizeof(K))
                      : GK_ONESWEEP_BYTES_KEYS / sizeof(K),
        TILE = GK_SORT_THREADS * ITEMS,
        WARPS = GK_SORT_THREADS / 32
    };
};

// A tile of GK_SORT_THREADS x ITEMS keys, each warp 32 x ITEMS consecutive ones, loaded in rounds of
// 32 (coalesced); thread d also keeps digit d. A key's place in its tile = the tile's start of its
// digit + the keys of that digit in earlier warps + those before it in its warp (its rank, from the
// lanes of equal digit and per-warp counts in shared memory). The tile is ordered by digit in shared
// memory, then written out: a digit's keys go to consecutive places from the digit's start + the
// keys of that digit in earlier tiles (the look-back's) - the tile's start of the digit. Places past
// the end of the keys (the last tile's) rank as the last digit's last keys and are not counted.
template <class K, class V, bool CARRY, int KIND>
__device__ inline void gk_onesweep_tile(const gk_sort_params& p) {
    typedef gk_onesweep_shape<K, V, CARRY> shape;
    enum { ITEMS = shape::ITEMS, TILE = shape::TILE, WARPS = shape::WARPS };
    // Dynamic shared memory (the launcher, src/ops/sort/radix.cpp, gives as much: at most 35.3 KiB, for
    // 5120 pairs of 32-bit keys and values), in this order:
    extern __shared__ unsigned long long gk_sort_shared[];
    long long* out_base = (long long*)gk_sort_shared;  // [GK_RADIX] the place of the tile's place 0, by digit
    long long* warp_sums = out_base + GK_RADIX;        // [32] the block scan's
    long long* ticket_slot = warp_sums + 32;           // [1]
    unsigned(*warp_counts)[GK_RADIX] = (unsigned(*)[GK_RADIX])(ticket_slot + 1);  // [WARPS][GK_RADIX] per warp,
                                                                                  // then the warps' places
    // [TILE] the tile's keys, then its values, in their places (one at a time: half the memory)
    K* staged_keys = (K*)(warp_counts + WARPS);
    V* staged_values = (V*)staged_keys;
    unsigned char* staged_digits =  // [TILE] when CARRY: each place's digit
        (unsigned char*)(staged_keys + (CARRY && sizeof(V) > sizeof(K) ? TILE * sizeof(V) / sizeof(K) : TILE));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, digit_kept = threadIdx.x;

    if (threadIdx.x == 0) *ticket_slot = atomicAdd((unsigned*)p.tickets + p.pass, 1u);
    for (int w = 0; w < WARPS; ++w) warp_counts[w][digit_kept] = 0;
    const unsigned long long* totals = (const unsigned long long*)p.counts + (long long)GK_RADIX * p.pass;
    // Whether one digit holds every key, through each warp's word (__syncthreads_or here fails ptxas
    // of CUDA 13.0: "register allocation failed").
    const unsigned holders = __ballot_sync(0xffffffffu, totals[digit_kept] == (unsigned long long)p.size);
    if (lane == 0) warp_sums[warp] = holders != 0;
    __syncthreads();
    bool one_digit = false;
    for (int w = 0; w < WARPS; ++w) one_digit = one_digit || warp_sums[w] != 0;
    const long long tile = *ticket_slot, start = tile * TILE;
    const long long end = start + TILE < p.size ? start + TILE : p.size;
    if (one_digit) {  // every key has this pass's digit (keys of a narrow range): the pass keeps their order
        for (long long i = start + threadIdx.x; i < end; i += GK_SORT_THREADS) {
            const gk_tile_reader<KIND, K, V> read(p, i);
            gk_tile_store_key<KIND, K>(p, i, read.key(p, 0));
            if (CARRY) gk_store_value<V>(p, i, read.value(0));
        }
        return;
    }

    K key[ITEMS];
    V value[ITEMS];
    unsigned ranks[(ITEMS + 1) / 2];  // each key's rank in its warp, two 16-bit ranks a word (registers are scarce)
    const long long first = start + (long long)warp * 32 * ITEMS + lane;
    // The lane's keys at offsets below `reach` from `first` exist (every one but in the last tile).
    const long long left = end - first;
    const int reach = left <= 0 ? 0 : left >= 32 * ITEMS ? 32 * ITEMS : (int)left;
    const unsigned lanes_before = (1u << lane) - 1u;
    {
        const gk_tile_reader<KIND, K, V> read(p, first);
#pragma unroll
        for (int r = 0; r < ITEMS; ++r) {
            key[r] = 32 * r < reach ? read.key(p, 32 * r) : (K)0;
            value[r] = CARRY && 32 * r < reach ? read.value(32 * r) : (V)0;
        }
    }
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const unsigned digit = 32 * r < reach ? gk_digit<K, V, CARRY>(p, key[r], value[r]) : GK_RADIX - 1;
        const unsigned peers = gk_digit_peers(digit);
        const int leader = __ffs(peers) - 1;
        unsigned before = 0;
        if (lane == leader) before = atomicAdd(&warp_counts[warp][digit], (unsigned)__popc(peers));
        const unsigned rank = __shfl_sync(0xffffffffu, before, leader) + __popc(peers & lanes_before);
        if (r % 2 == 0) {
            ranks[r / 2] = rank;
        } else {
            ranks[r / 2] |= rank << 16;
        }
    }
    __syncthreads();

    // The tile's count of digit_kept, published at once (later tiles wait for it); warp_counts become
    // the keys of the digit before each warp.
    unsigned count = 0;
    for (int w = 0; w < WARPS; ++w) {
        const unsigned c = warp_counts[w][digit_kept];
        warp_counts[w][digit_kept] = count;
        count += c;
    }
    if (digit_kept == GK_RADIX - 1) count -= (unsigned)(TILE - (end - start));  // the places past the end
    unsigned long long* statuses = (unsigned long long*)p.statuses + (long long)GK_RADIX * tile;
    const unsigned long long tag = (unsigned long long)(p.pass + 1) << GK_LOOKBACK_TAG_SHIFT;
    gk_lookback_store(statuses + digit_kept, tag | (tile == 0 ? GK_LOOKBACK_PREFIX : 0ull) | count);

    // The digit's start (the digit totals before it, from the count of every pass) and the tile's
    // start of it, in one scan: totals above bit 16, tile counts (at most TILE) below.
    long long all;
    const long long before = gk_block_exclusive_scan((long long)(totals[digit_kept] << 16 | count), &all, warp_sums);
    const long long digit_start = before >> 16;
    const unsigned tile_start = (unsigned)(before & 0xffff);
    for (int w = 0; w < WARPS; ++w) warp_counts[w][digit_kept] += tile_start;
    __syncthreads();

    // Keys to their places in the tile (ranks become the places) before the look-back, which then
    // has the registers of the keys; out after it, values after them.
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) {
        const unsigned digit = 32 * r < reach ? gk_digit<K, V, CARRY>(p, key[r], value[r]) : GK_RADIX - 1;
        const unsigned place = warp_counts[warp][digit] + ((ranks[r / 2] >> (16 * (r % 2))) & 0xffffu);
        staged_keys[place] = key[r];
        if (CARRY) {
            staged_digits[place] = (unsigned char)digit;
            ranks[r / 2] = r % 2 == 0 ? (ranks[r / 2] & 0xffff0000u) | place : (ranks[r / 2] & 0xffffu) | place << 16;
        }
    }

    // The keys of digit_kept in the tiles before this one: their aggregates back to the first
    // inclusive prefix found (each tile waited for belongs to a block that took its ticket earlier
    // and publishes its aggregate without waiting). GK_LOOKBACK_BATCH tiles at once: a tile's wait is
    // about (latency of a load)^2 / (time between tiles), loads one after another.
    long long earlier = 0;
    const unsigned long long this_pass = (unsigned long long)(p.pass + 1);
    for (long long j = tile - 1; j >= 0; j -= GK_LOOKBACK_BATCH) {
        unsigned long long status[GK_LOOKBACK_BATCH];
#pragma unroll
        for (int b = 0; b < GK_LOOKBACK_BATCH; ++b)
            status[b] = j - b >= 0 ? gk_lookback_load((unsigned long long*)p.statuses + GK_RADIX * (j - b) + digit_kept)
                                   : (this_pass << GK_LOOKBACK_TAG_SHIFT) | GK_LOOKBACK_PREFIX;  // before the first
        bool found = false;
#pragma unroll
        for (int b = 0; b < GK_LOOKBACK_BATCH; ++b) {
            if (found) break;
            while ((status[b] >> GK_LOOKBACK_TAG_SHIFT) != this_pass)  // (a pause here measured no better)
                status[b] = gk_lookback_load((unsigned long long*)p.statuses + GK_RADIX * (j - b) + digit_kept);
            earlier += (long long)(status[b] & GK_LOOKBACK_COUNT);
            found = (status[b] & GK_LOOKBACK_PREFIX) != 0;
        }
        if (found) break;
    }
    if (tile > 0)
        gk_lookback_store(statuses + digit_kept, tag | GK_LOOKBACK_PREFIX | (unsigned long long)(earlier + count));
    out_base[digit_kept] = digit_start + earlier - tile_start;
    __syncthreads();

    const int valid = (int)(end - start);
    for (int j = threadIdx.x; j < valid; j += GK_SORT_THREADS) {
        const K k = staged_keys[j];
        const unsigned digit = CARRY ? (unsigned)staged_digits[j] : gk_digit<K, V, false>(p, k, (V)0);
        gk_tile_store_key<KIND, K>(p, out_base[digit] + j, k);
    }
    if (!CARRY) return;
    __syncthreads();
#pragma unroll
    for (int r = 0; r < ITEMS; ++r) staged_values[(ranks[r / 2] >> (16 * (r % 2))) & 0xffffu] = value[r];
    __syncthreads();
    for (int j = threadIdx.x; j < valid; j += GK_SORT_THREADS)
        gk_store_value<V>(p, out_base[staged_digits[j]] + j, staged_values[j]);
}

// A onesweep pass, its element kind fixed at compile time where elements are read or written.
template <class K, class V, bool CARRY>
__device__ inline void gk_radix_onesweep(const gk_sort_params& p) {
#ifndef GK_CHUNKED_SHAPES
    if (!p.encode_input && !p.decode_output) {
        gk_onesweep_tile<K, V, CARRY, GK_SORT_KEYS_AS_IS>(p);
    } else if (sizeof(K) == 4 && p.kind == GK_SORT_FLOAT32) {
        gk_onesweep_tile<K, V, CARRY, GK_SORT_FLOAT32>(p);
    } else if (sizeof(K) == 8 && p.kind == GK_SORT_FLOAT64) {
        gk_onesweep_tile<K, V, CARRY, GK_SORT_FLOAT64>(p);
    } else {
        gk_onesweep_tile<K, V, CARRY, GK_SORT_ANY_KIND>(p);
    }
#else
    (void)p;
#endif
}

// One kernel per key and value width (v0: keys alone), written out: kernel names are found in the
// text, unexpanded.
extern "C" __global__ void gk_radix_histogram_k32_v32(const gk_sort_params p) {
    gk_radix_histogram<unsigned, unsigned>(p);
}
extern "C" __global__ void gk_radix_scatter_k32_v32(const gk_sort_params p) { gk_radix_scatter<unsigned, unsigned>(p); }
extern "C" __global__ void gk_radix_count_passes_k32_v32(const gk_sort_params p) {
    gk_radix_count_passes<unsigned, unsigned>(p);
}
extern "C" __global__ void __launch_bounds__(GK_SORT_THREADS, GK_ONESWEEP_BLOCKS_PAIRS)
    gk_radix_onesweep_k32_v32(const gk_sort_params p) {
    gk_radix_onesweep<unsigned, unsigned, true>(p);
}
extern "C" __global__ void gk_radix_histogram_k32_v64(const gk_sort_params p) {
    gk_radix_histogram<unsigned, unsigned long long>(p);
}
extern "C" __global__ void gk_radix_scatter_k32_v64(const gk_sort_params p) {
    gk_radix_scatter<unsigned, unsigned long long>(p);
}
extern "C" __global__ void gk_radix_count_passes_k32_v64(const gk_sort_params p) {
    gk_radix_count_passes<unsigned, unsigned long long>(p);
}
extern "C" __global__ void __launch_bounds__(GK_SORT_THREADS, GK_ONESWEEP_BLOCKS_PAIRS)
    gk_radix_onesweep_k32_v64(const gk_sort_params p) {
    gk_radix_onesweep<unsigned, unsigned long long, true>(p);
}
extern "C" __global__ void gk_radix_histogram_k64_v32(const gk_sort_params p) {
    gk_radix_histogram<unsigned long long, unsigned>(p);
}
extern "C" __global__ void gk_radix_scatter_k64_v32(const gk_sort_params p) {
    gk_radix_scatter<unsigned long long, unsigned>(p);
}
extern "C" __global__ void gk_radix_count_passes_k64_v32(const gk_sort_params p) {
    gk_radix_count_passes<unsigned long long, unsigned>(p);
}
extern "C" __global__ void __launch_bounds__(GK_SORT_THREADS, GK_ONESWEEP_BLOCKS_PAIRS)
    gk_radix_onesweep_k64_v32(const gk_sort_params p) {
    gk_radix_onesweep<unsigned long long, unsigned, true>(p);
}
extern "C" __global__ void gk_radix_histogram_k64_v64(const gk_sort_params p) {
    gk_radix_histogram<unsigned long long, unsigned long long>(p);
}
extern "C" __global__ void gk_radix_scatter_k64_v64(const gk_sort_params p) {
    gk_radix_scatter<unsigned long long, unsigned long long>(p);
}
extern "C" __global__ void gk_radix_count_passes_k64_v64(const gk_sort_params p) {
    gk_radix_count_passes<unsigned long long, unsigned long long>(p);
}
extern "C" __global__ void __launch_bounds__(GK_SORT_THREADS, GK_ONESWEEP_BLOCKS_PAIRS)
    gk_radix_onesweep_k64_v64(const gk_sort_params p) {
    gk_radix_onesweep<unsigned long long, unsigned long long, true>(p);
}
extern "C" __global__ void __launch_bounds__(GK_SORT_THREADS, GK_ONESWEEP_BLOCKS_KEYS)
    gk_radix_onesweep_k32_v0(const gk_sort_params p) {
    gk_radix_onesweep<unsigned, unsigned, false>(p);
}
extern "C" __global__ void __launch_bounds__(GK_SORT_THREADS, GK_ONESWEEP_BLOCKS_KEYS)
    gk_radix_onesweep_k64_v0(const gk_sort_params p) {
    gk_radix_onesweep<unsigned long long, unsigned, false>(p);
}

// ---- moving elements and indices

// positions[i] gives the element of elements (itemsize bytes) written at keys_out[i]
// (positions of index_bytes; row_length > 0: positions % row_length, as int64, are written instead).
extern "C" __global__ void gk_sort_gather(const gk_sort_params p) {
    GK_ELEMENTS(i, (gk_index)p.size) {
        const long long at =
            p.index_bytes == 4 ? (long long)((const unsigned*)p.positions)[i] : ((const long long*)p.positions)[i];
        if (p.row_length > 0) {
            ((long long*)p.keys_out)[i] = at % p.row_length;
            continue;
        }
        const char* from = (const char*)p.elements + at * p.itemsize;
        char* to = (char*)p.keys_out + (long long)i * p.itemsize;
        switch (p.itemsize) {
            case 1: *(unsigned char*)to = *(const unsigned char*)from; break;
            case 2: *(unsigned short*)to = *(const unsigned short*)from; break;
            case 4: *(unsigned*)to = *(const unsigned*)from; break;
            case 8: *(unsigned long long*)to = *(const unsigned long long*)from; break;
            default:
                ((unsigned long long*)to)[0] = ((const unsigned long long*)from)[0];
                ((unsigned long long*)to)[1] = ((const unsigned long long*)from)[1];
        }
    }
}

// Identity values: values_out[i] = i (32 or 64 bits: index_bytes).
extern "C" __global__ void gk_sort_iota(const gk_sort_params p) {
    GK_ELEMENTS(i, (gk_index)p.size) {
        if (p.index_bytes == 4) {
            ((unsigned*)p.values_out)[i] = (unsigned)i;
        } else {
            ((unsigned long long*)p.values_out)[i] = (unsigned long long)i;
        }
    }
}

// ---- searches of sorted keys (64-bit words, the low words beside for complex128)

__device__ inline bool gk_key_less(const gk_sort_params& p, const unsigned long long* keys, long long i,
                                   unsigned long long high, unsigned long long low) {
    const unsigned long long k = keys[i];
    if (k != high || !p.low_keys) return k < high;
    return ((const unsigned long long*)p.low_keys)[i] < low;
}
__device__ inline bool gk_key_greater(const gk_sort_params& p, const unsigned long long* keys, long long i,
                                      unsigned long long high, unsigned long long low) {
    const unsigned long long k = keys[i];
    if (k != high || !p.low_keys) return k > high;
    return ((const unsigned long long*)p.low_keys)[i] > low;
}

// For each needle: left, the first place whose key is not less; right, the first greater;
// membership, whether an equal key is there (NaN equals nothing, as NumPy's ==).
extern "C" __global__ void gk_sort_search(const gk_sort_params p) {
    const unsigned long long* keys = (const unsigned long long*)p.keys_in;
    GK_ELEMENTS(i, (gk_index)p.size) {
        const unsigned long long high = ((const unsigned long long*)p.needles)[i];
        const unsigned long long low = p.low_needles ? ((const unsigned long long*)p.low_needles)[i] : 0;
        long long lo = 0, hi = p.haystack;
        while (lo < hi) {
            const long long mid = lo + (hi - lo) / 2;
            const bool go_right =
                p.mode == 1 ? !gk_key_greater(p, keys, mid, high, low) : gk_key_less(p, keys, mid, high, low);
            if (go_right) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (p.mode != 2) {
            ((long long*)p.positions)[i] = lo;
            continue;
        }
        bool found = lo < p.haystack && !gk_key_less(p, keys, lo, high, low) && !gk_key_greater(p, keys, lo, high, low);
        if (p.has_nan && high >= p.nan_key) found = false;
        ((bool*)p.positions)[i] = found != (p.invert != 0);
    }
}

// ---- unique: runs of equal keys in sorted order

__device__ inline bool gk_key_nan(const gk_sort_params& p, const unsigned long long* keys, long long i) {
    return p.has_nan && keys[i] >= p.nan_key;
}

// flags[i] (bool, at positions): a run of equal keys starts at i.
extern "C" __global__ void gk_sort_flags(const gk_sort_params p) {
    const unsigned long long* keys = (const unsigned long long*)p.keys_in;
    const unsigned long long* low = (const unsigned long long*)p.low_keys;
    GK_ELEMENTS(i, (gk_index)p.size) {
        bool starts = i == 0;
        if (!starts) {
            if (gk_key_nan(p, keys, i)) {
                starts = !p.equal_nan || !gk_key_nan(p, keys, i - 1);
            } else {
                starts = keys[i] != keys[i - 1] || (low && low[i] != low[i - 1]);
            }
        }
        ((bool*)p.positions)[i] = starts;
    }
}

// unique's inverse: element values_in[i] (its place before sorting; index_bytes wide) belongs to
// the run that covers sorted place i: the last start (needles: haystack int64 starts) <= i.
extern "C" __global__ void gk_sort_inverse(const gk_sort_params p) {
    const long long* starts = (const long long*)p.needles;
    GK_ELEMENTS(i, (gk_index)p.size) {
        long long lo = 0, hi = p.haystack;  // the first start > i
        while (lo < hi) {
            const long long mid = lo + (hi - lo) / 2;
            if (starts[mid] <= (long long)i) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        const long long at =
            p.index_bytes == 4 ? (long long)((const unsigned*)p.values_in)[i] : ((const long long*)p.values_in)[i];
        ((long long*)p.positions)[at] = lo - 1;
    }
}

// unique's counts: the length of each run (needles: its starts; size runs of row_length keys).
extern "C" __global__ void gk_sort_run_lengths(const gk_sort_params p) {
    const long long* starts = (const long long*)p.needles;
    GK_ELEMENTS(i, (gk_index)p.size) {
        const long long end = i + 1 < p.size ? starts[i + 1] : p.row_length;
        ((long long*)p.positions)[i] = end - starts[i];
    }
}
