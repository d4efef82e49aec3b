// kernels/gpukit_random.cuh: gpukit.random's numbers, from a counter-based generator
// (src/ops/random/kernels.cpp compiles this text, embedded in the library, with NVRTC or on the
// simulator: the same source runs on both, and gives the same bits on both).
//
// What it computes.
// - The stream: Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as
//   1, 2, 3", SC 2011). A block of four 32-bit words is a pure function of a 64-bit key (the seed)
//   and a 128-bit counter. Block j of a call at attempt a takes the counter
//   offset + j + a * 2^96 (128-bit arithmetic): `offset` is the generator's position, which each
//   call advances by the blocks it used; `a` numbers the retries of a rejection loop (0 for every
//   first draw), so a retry reads a substream of its own and every value depends only on
//   (seed, element index, draw number), never on the grid.
// - Conversions, per element i of a call:
//     float32 in [0, 1):   the top 24 bits of word i % 4 of block i / 4, times 2^-24;
//     float64 in [0, 1):   (w0 >> 5) * 2^26 + (w1 >> 6), times 2^-53, where (w0, w1) are words
//                          (2 (i % 2), 2 (i % 2) + 1) of block i / 2 (NumPy's 53-bit conversion);
//     the open-at-zero variants (0, 1] add 1 to the integer before scaling (logarithms' inputs).
//   integers: Lemire's multiply-shift (Lemire, "Fast random integer generation in an interval",
//     2019) with its rejection, on word i % 4 of block i / 4 when the range fits 32 bits, else on
//     the 64-bit (w0 << 32) | w1 of words (2 (i % 2), 2 (i % 2) + 1) of block i / 2; a rejected
//     element retries on the same words of the block's next attempt.
//   standard normal: Box-Muller. float32: block i / 4 holds two pairs (words 0, 1 and 2, 3); the
//     pair p = (i % 4) / 2 gives u1 = (0, 1] of its first word, u2 = [0, 1) of its second,
//     r = sqrt(-2 log u1), and elements r cos(2 pi u2) (even i) and r sin(2 pi u2) (odd i).
//     float64: block i / 2, u1 the (0, 1] double of words 0, 1 and u2 the [0, 1) double of 2, 3.
//   exponential: -log(u) of the (0, 1] variant of the uniform's words, times the scale.
//   poisson (int64): element i reads its own substream, blocks offset + i at attempts 0, 1, ...,
//     two [0, 1) doubles a block. lam < 10: the count of unit exponential gaps that fit in lam;
//     lam >= 10: Hoermann's PTRS ("The transformed rejection method for generating Poisson random
//     variables", 1993).
//   standard gamma (float64): element i reads its own substream as poisson does. Shape k >= 1:
//     Marsaglia and Tsang ("A simple method for generating gamma variables", 2000), its normals by
//     Box-Muller's cosine from two of the substream's words at a time; k < 1: the value for k + 1
//     times u^(1/k), u in (0, 1] (their note). k = 0 gives 0, a NaN k NaN.
//   binomial (int64): element i reads its own substream; p > 1/2 draws n - binomial(n, 1 - p).
//     n min(p, 1 - p) < 10: inversion, the sequential search from P(0) = (1 - p)^n; beyond:
//     Hoermann's BTRD ("The generation of binomial random variates", 1993), its squeeze and its
//     final test by the Stirling correction.
//   logseries, zipf (int64): element i reads its own substream: Kemp's second method and NumPy's
//     rejection from the continuous Pareto bound, as numpy.random's.
//   hypergeometric (int64): element i reads its own substream: inversion by a chop-down search
//     from the mode (probabilities by the recursion between neighbours, the mode's by logarithms of
//     factorials), O(sqrt(nsample)) steps.
//   vonmises (float64): element i reads its own substream: NumPy's branches (uniform below kappa =
//     1e-8, a wrapped normal above 1e6) around Best and Fisher's rejection ("Efficient simulation of
//     the von Mises distribution", 1979), with our cos(pi u), acos (Taylor series of asin) and an
//     exact fmod by integer long division.
// - Bit-identical on a GPU and on the simulator: the module is compiled with --fmad=false (no
//   multiply-add contraction, on either side), CUDA's float division and sqrt are IEEE's by
//   default as the host's are, and the transcendental functions are our own below, made of +, -,
//   *, /, sqrt and fmaf alone (libdevice's logf and glibc's differ in the last bit). fmaf is
//   a * b + c rounded once on both sides (the GPU's FFMA; the C library's fmaf, correctly rounded):
//   the float32 polynomials are written with it, a fused multiply-add where the unfused form took a
//   multiply and an add (the float32 normal kernel is compute bound). Their polynomials are Taylor
//   series, truncated where the next term is below 2^-30 (float) or 2^-60 (double) relative;
//   within 2 ulp of the true value. tests/python/array/test_random.py repeats every step in NumPy
//   (fmaf included, exactly) and compares bits.
//
// Reference: the Random123 paper's known-answer vectors (tests/device/random_test.cpp) and the
// NumPy Philox and conversions of tests/python/array/test_random.py.
#pragma once

#include "gpukit_elementwise.cuh"

// Mirrors RandomParams in src/ops/random/kernels.hpp.
struct gk_random_params {
    unsigned long long out;                      // the output, C-contiguous
    long long size;                              // its elements
    unsigned long long offset_low, offset_high;  // the generator's counter offset (128 bits)
    unsigned key0, key1;                         // the Philox key
    double a, b;                                 // normal: loc, scale (when affine); uniform: low, high - low;
                                                 // exponential: scale; poisson: lam
    unsigned long long low;                      // integers: the smallest value, two's complement
    unsigned long long span;                     // integers: high - low (inclusive high)
    unsigned long long values_a;                 // 0, or one parameter per element (C order): poisson's lam (float64),
    unsigned long long values_b;                 // integers' low and span (uint64): draws whose parameters are arrays
    unsigned long long values_c;                 // a third parameter per element (hypergeometric's nsample)
    long long step_a, step_b, step_c;            // per-element parameters: 1, or 0 where one value serves all
    int itemsize;                                // bytes of an output element (integers, standard_gamma)
    int affine;                                  // normal, uniform: out = a + b * z, not z
};

// ---- Philox4x32-10

#define GK_PHILOX_M0 0xD2511F53u
#define GK_PHILOX_M1 0xCD9E8D57u
#define GK_PHILOX_W0 0x9E3779B9u  // the golden ratio's bits: the key schedule
#define GK_PHILOX_W1 0xBB67AE85u  // sqrt(3) - 1's bits

struct gk_philox_block {
    unsigned w[4];
};

__device__ inline gk_philox_block gk_philox4x32_10(unsigned c0, unsigned c1, unsigned c2, unsigned c3, unsigned k0,
                                                   unsigned k1) {
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += GK_PHILOX_W0;
            k1 += GK_PHILOX_W1;
        }
        const unsigned long long p0 = (unsigned long long)GK_PHILOX_M0 * c0;
        const unsigned long long p1 = (unsigned long long)GK_PHILOX_M1 * c2;
        const unsigned hi0 = (unsigned)(p0 >> 32), lo0 = (unsigned)p0;
        const unsigned hi1 = (unsigned)(p1 >> 32), lo1 = (unsigned)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
    }
    gk_philox_block block = {{c0, c1, c2, c3}};
    return block;
}

// Block `block` of the call at `attempt`: counter offset + block + attempt * 2^96.
__device__ inline gk_philox_block gk_random_block(const gk_random_params& p, unsigned long long block,
                                                  unsigned attempt) {
    const unsigned long long low = p.offset_low + block;
    const unsigned long long high = p.offset_high + (low < block ? 1ull : 0ull) + ((unsigned long long)attempt << 32);
    return gk_philox4x32_10((unsigned)low, (unsigned)(low >> 32), (unsigned)high, (unsigned)(high >> 32), p.key0,
                            p.key1);
}

// ---- words to uniform numbers

__device__ inline float gk_uniform_float(unsigned w) { return (float)(w >> 8) * 5.9604644775390625e-08f; }
__device__ inline float gk_open_uniform_float(unsigned w) { return (float)((w >> 8) + 1u) * 5.9604644775390625e-08f; }
__device__ inline unsigned long long gk_bits53(unsigned w0, unsigned w1) {
    return ((unsigned long long)(w0 >> 5) << 26) | (w1 >> 6);
}
__device__ inline double gk_uniform_double(unsigned w0, unsigned w1) {
    return (double)gk_bits53(w0, w1) * 1.1102230246251565e-16;
}
__device__ inline double gk_open_uniform_double(unsigned w0, unsigned w1) {
    return (double)(gk_bits53(w0, w1) + 1ull) * 1.1102230246251565e-16;
}

// A per-element parameter of element i (values_a, _b or _c with its step): float64.
__device__ inline double gk_parameter(unsigned long long values, long long step, unsigned long long i) {
    return ((const double*)values)[i * (unsigned long long)step];
}

// ---- logarithm and the sine and cosine of a whole turn's fraction, from IEEE operations alone

// log(x) for x > 0 normal (the float32 conversions' (0, 1] uniforms), by a table of 16
// intervals and a short series, without a division: x = z 2^k with z in [0.6992, 1.3984) (its bits
// less 0x3f330000: k in the exponent's place, the interval i in the next four bits); c_i an
// interval's harmonic centre 2 lo hi / (lo + hi), invc = 1/c_i as a float rounded to 12 bits
// (exactly 1 for the interval around 1), logc = -log(invc) as a float and its remainder;
// r = z invc - 1 (|r| < 0.03, one rounding) and log(x) = k log 2 + logc + log1p(r), with
// log1p(r) = r + r^2 (-1/2 + r (1/3 + r (-1/4 + r / 5))), the terms past r^5 below 2^-30
// relative. Within 1.5 ulp of log(x) for every uniform's value (tests/python/array/test_random.py
// checks them all). The table lives in shared memory, filled by gk_log_float_table at the start of
// each kernel that takes these logarithms.
__constant__ float gk_log_float_intervals[16][3] = {
    {1.3994141f, -0.3360536f, -1.23806965e-08f}, {1.3408203f, -0.2932816f, 1.4611908e-08f},
    {1.2871094f, -0.2523989f, -1.3247243e-09f},  {1.2373047f, -0.21293537f, -1.5346209e-09f},
    {1.190918f, -0.17472441f, 2.8881268e-09f},   {1.1484375f, -0.13840233f, 5.0360454e-09f},
    {1.1083984f, -0.10291612f, -2.8332008e-09f}, {1.0712891f, -0.068862654f, -4.0703554e-10f},
    {1.0366211f, -0.035966475f, -9.809743e-10f}, {1.0f, 0.0f, 0.0f},
    {0.9489746f, 0.052373234f, 1.6845243e-09f},  {0.89575195f, 0.110091746f, -3.4893624e-09f},
    {0.8483887f, 0.1644164f, 6.1420975e-09f},    {0.8054199f, 0.21639149f, 6.581041e-09f},
    {0.7668457f, 0.26546967f, -3.1150182e-09f},  {0.73168945f, 0.3123991f, 1.0066286e-08f},
};

// The block's copy of gk_log_float_intervals: every thread of the block calls it, before any
// returns.
__device__ inline void gk_log_float_table(float4* table) {
    if (threadIdx.x < 16)
        table[threadIdx.x] = make_float4(gk_log_float_intervals[threadIdx.x][0], gk_log_float_intervals[threadIdx.x][1],
                                         gk_log_float_intervals[threadIdx.x][2], 0.0f);
    __syncthreads();
}

__device__ inline float gk_log_float(float x, const float4* table) {
    const unsigned bits = __float_as_uint(x);
    const unsigned offset = bits - 0x3f330000u;
    const int k = (int)offset >> 23;
    const float4 interval = table[(offset >> 19) & 15u];
    const float z = __uint_as_float(bits - (offset & 0xff800000u));
    const float r = fmaf(z, interval.x, -1.0f);
    const float series = fmaf(r, fmaf(r, fmaf(r, 0.2f, -0.25f), 0.33333334f), -0.5f);
    const float log1p = fmaf(r * r, series, r);
    const float fk = (float)k;
    // fk * 0.69314575f (log 2 to 16 bits) is exact; the rest of log 2 goes with logc's remainder.
    return fmaf(fk, 0.69314575f, interval.y) + (log1p + fmaf(fk, 1.4286068e-06f, interval.z));
}

__device__ inline double gk_log_double(double x) {
    if (!(x > 0.0)) return -__longlong_as_double(0x7ff0000000000000ll);  // -inf: PTRS may ask log(0)
    const unsigned long long bits = (unsigned long long)__double_as_longlong(x);
    int e = (int)(bits >> 52) - 1023;
    unsigned long long mantissa = bits & 0xfffffffffffffull;
    if (mantissa > 0x6a09e667f3bcdull) {
        mantissa |= 0x3fe0000000000000ull;
        e += 1;
    } else {
        mantissa |= 0x3ff0000000000000ull;
    }
    const double f = __longlong_as_double((long long)mantissa) - 1.0;
    const double s = f / (2.0 + f);
    const double z = s * s;
    const double series =
        z * (0.6666666666666666 +
             z * (0.4 + z * (0.2857142857142857 +
                             z * (0.2222222222222222 +
                                  z * (0.18181818181818182 +
                                       z * (0.15384615384615385 +
                                            z * (0.13333333333333333 +
                                                 z * (0.11764705882352941 +
                                                      z * (0.10526315789473684 + z * 0.09523809523809523)))))))));
    const double log1p = (s + s) + s * series;
    const double de = (double)e;
    return de * 0.6931471803691238 + (de * 1.9082149292705877e-10 + log1p);
}

// sin and cos of 2 pi k / 2^bits for an integer k < 2^bits: k in quarter turns is q + x with q
// the nearest quarter and |x| <= 1/2 (exact, integer arithmetic); sin(pi/2 x) = x S(x^2),
// cos(pi/2 x) = C(x^2); the quadrant q % 4 swaps and negates them:
//   q % 4:  0          1           2            3
//   sin:    sin x      cos x      -sin x       -cos x     (odd q swaps; q & 2 negates the sine)
//   cos:    cos x     -sin x      -cos x        sin x     ((q + 1) & 2 negates the cosine)
// as selects and sign flips, not branches: q is random across a warp, whose four-way branch ran
// every case one after another.
__device__ inline float gk_negate_if(float x, unsigned bit) { return bit ? -x : x; }
__device__ inline double gk_negate_if(double x, unsigned bit) { return bit ? -x : x; }
__device__ inline void gk_quadrant(unsigned q, float* s, float* c) {
    const float sin_x = *s, cos_x = *c;
    *s = gk_negate_if(q & 1u ? cos_x : sin_x, q & 2u);
    *c = gk_negate_if(q & 1u ? sin_x : cos_x, (q + 1u) & 2u);
}
__device__ inline void gk_sincos_turn_float(unsigned k24, float* s, float* c) {
    const unsigned q = (k24 + (1u << 21)) >> 22;
    const float x = (float)((int)k24 - (int)(q << 22)) * 2.384185791015625e-07f;  // 2^-22
    const float x2 = x * x;
    *s = x *
         fmaf(x2, fmaf(x2, fmaf(x2, fmaf(x2, 0.00016044118f, -0.004681754f), 0.079692625f), -0.6459641f), 1.5707964f);
    *c = fmaf(
        x2,
        fmaf(x2, fmaf(x2, fmaf(x2, fmaf(x2, -2.5202042e-05f, 0.00091926026f), -0.02086348f), 0.2536695f), -1.2337005f),
        1.0f);
    gk_quadrant(q, s, c);
}
__device__ inline void gk_quadrant(unsigned q, double* s, double* c) {
    const double sin_x = *s, cos_x = *c;
    *s = gk_negate_if(q & 1u ? cos_x : sin_x, q & 2u);
    *c = gk_negate_if(q & 1u ? sin_x : cos_x, (q + 1u) & 2u);
}
// sin(pi/2 x) and cos(pi/2 x) for |x| <= 1/2.
__device__ inline void gk_sincos_quarter_double(double x, double* s, double* c) {
    const double x2 = x * x;
    *s = x * (1.5707963267948966 +
              x2 * (-0.6459640975062463 +
                    x2 * (0.07969262624616705 +
                          x2 * (-0.004681754135318688 +
                                x2 * (0.00016044118478735983 +
                                      x2 * (-3.598843235212085e-06 +
                                            x2 * (5.692172921967927e-08 +
                                                  x2 * (-6.688035109811468e-10 + x2 * 6.0669357311061955e-12))))))));
    *c = 1.0 + x2 * (-1.2337005501361697 +
                     x2 * (0.25366950790104803 +
                           x2 * (-0.02086348076335296 +
                                 x2 * (0.0009192602748394266 +
                                       x2 * (-2.5202042373060607e-05 +
                                             x2 * (4.710874778818172e-07 +
                                                   x2 * (-6.386603083791852e-09 + x2 * 6.565963114979473e-11)))))));
}
__device__ inline void gk_sincos_turn_double(unsigned long long k53, double* s, double* c) {
    const unsigned long long q = (k53 + (1ull << 50)) >> 51;
    gk_sincos_quarter_double((double)((long long)k53 - (long long)(q << 51)) * 4.440892098500626e-16, s, c);  // 2^-51
    gk_quadrant((unsigned)q, s, c);
}

// ---- the kernels: a thread per Philox block (four words), over the engine's grid

// The blocks a call of `size` elements uses, `per_block` elements a block.
__device__ inline long long gk_random_blocks(long long size, int per_block) {
    return (size + per_block - 1) / per_block;
}

// Four float32 elements from block j at out + 4 j: one 16-byte store where all four are there and
// the output is aligned (Array::empty's always is), else one store each.
__device__ inline void gk_store4(const gk_random_params& p, long long j, float v0, float v1, float v2, float v3) {
    float* out = (float*)p.out + 4 * j;
    const long long left = p.size - 4 * j;
    if (left >= 4 && (p.out & 15ull) == 0) {
        float4 v = {v0, v1, v2, v3};
        *(float4*)out = v;
        return;
    }
    out[0] = v0;
    if (left > 1) out[1] = v1;
    if (left > 2) out[2] = v2;
    if (left > 3) out[3] = v3;
}
__device__ inline void gk_store2(const gk_random_params& p, long long j, double v0, double v1) {
    double* out = (double*)p.out + 2 * j;
    if (p.size - 2 * j >= 2 && (p.out & 15ull) == 0) {
        double2 v = {v0, v1};
        *(double2*)out = v;
        return;
    }
    out[0] = v0;
    if (p.size - 2 * j > 1) out[1] = v1;
}

// The raw stream: word 4 j + k of the output (uint32) is word k of block j.
extern "C" __global__ void gk_random_bits(const gk_random_params p) {
    GK_ELEMENTS(j, gk_random_blocks(p.size, 4)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        unsigned* out = (unsigned*)p.out + 4 * j;
        for (int k = 0; k < 4 && 4 * j + k < p.size; ++k) out[k] = b.w[k];
    }
}

// random and uniform: [0, 1), or a + b * u when affine.
extern "C" __global__ void gk_random_uniform32(const gk_random_params p) {
    const float low = (float)p.a, range = (float)p.b;
    GK_ELEMENTS(j, gk_random_blocks(p.size, 4)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        float v[4];
        for (int k = 0; k < 4; ++k) {
            v[k] = gk_uniform_float(b.w[k]);
            if (p.affine) v[k] = low + range * v[k];
        }
        gk_store4(p, j, v[0], v[1], v[2], v[3]);
    }
}
extern "C" __global__ void gk_random_uniform64(const gk_random_params p) {
    GK_ELEMENTS(j, gk_random_blocks(p.size, 2)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        double v0 = gk_uniform_double(b.w[0], b.w[1]), v1 = gk_uniform_double(b.w[2], b.w[3]);
        if (p.affine) {
            v0 = p.a + p.b * v0;
            v1 = p.a + p.b * v1;
        }
        gk_store2(p, j, v0, v1);
    }
}

// standard_normal and normal: z, or a + b * z when affine.
extern "C" __global__ void gk_random_normal32(const gk_random_params p) {
    __shared__ float4 gk_log_table[16];
    gk_log_float_table(gk_log_table);
    const float loc = (float)p.a, scale = (float)p.b;
    GK_ELEMENTS(j, gk_random_blocks(p.size, 4)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        float v[4];
        for (int pair = 0; pair < 2; ++pair) {
            const float r = sqrtf(-2.0f * gk_log_float(gk_open_uniform_float(b.w[2 * pair]), gk_log_table));
            float s, c;
            gk_sincos_turn_float(b.w[2 * pair + 1] >> 8, &s, &c);
            v[2 * pair] = r * c;
            v[2 * pair + 1] = r * s;
        }
        if (p.affine)
            for (int k = 0; k < 4; ++k) v[k] = loc + scale * v[k];
        gk_store4(p, j, v[0], v[1], v[2], v[3]);
    }
}
extern "C" __global__ void gk_random_normal64(const gk_random_params p) {
    GK_ELEMENTS(j, gk_random_blocks(p.size, 2)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        const double r = sqrt(-2.0 * gk_log_double(gk_open_uniform_double(b.w[0], b.w[1])));
        double s, c;
        gk_sincos_turn_double(gk_bits53(b.w[2], b.w[3]), &s, &c);
        double v0 = r * c, v1 = r * s;
        if (p.affine) {
            v0 = p.a + p.b * v0;
            v1 = p.a + p.b * v1;
        }
        gk_store2(p, j, v0, v1);
    }
}

// exponential: -log(u) * scale, u in (0, 1].
extern "C" __global__ void gk_random_exponential32(const gk_random_params p) {
    __shared__ float4 gk_log_table[16];
    gk_log_float_table(gk_log_table);
    const float scale = (float)p.a;
    GK_ELEMENTS(j, gk_random_blocks(p.size, 4)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        float v[4];
        for (int k = 0; k < 4; ++k) v[k] = -gk_log_float(gk_open_uniform_float(b.w[k]), gk_log_table) * scale;
        gk_store4(p, j, v[0], v[1], v[2], v[3]);
    }
}
extern "C" __global__ void gk_random_exponential64(const gk_random_params p) {
    GK_ELEMENTS(j, gk_random_blocks(p.size, 2)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        gk_store2(p, j, -gk_log_double(gk_open_uniform_double(b.w[0], b.w[1])) * p.a,
                  -gk_log_double(gk_open_uniform_double(b.w[2], b.w[3])) * p.a);
    }
}

// integers: low + a uniform integer in [0, span], stored in itemsize bytes (two's complement
// truncated: every integer dtype and bool).
__device__ inline void gk_store_integer(const gk_random_params& p, long long i, unsigned long long value) {
    switch (p.itemsize) {
        case 1: ((unsigned char*)p.out)[i] = (unsigned char)value; break;
        case 2: ((unsigned short*)p.out)[i] = (unsigned short)value; break;
        case 4: ((unsigned*)p.out)[i] = (unsigned)value; break;
        default: ((unsigned long long*)p.out)[i] = value; break;
    }
}

// span < 2^32: Lemire's method on 32-bit words, a retry at the block's next attempt.
extern "C" __global__ void gk_random_integers32(const gk_random_params p) {
    const unsigned long long range = p.span + 1;                            // at most 2^32
    const unsigned threshold = (unsigned)(((1ull << 32) - range) % range);  // 2^32 mod range
    GK_ELEMENTS(j, gk_random_blocks(p.size, 4)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        for (int k = 0; k < 4 && 4 * j + k < p.size; ++k) {
            unsigned long long product = (unsigned long long)b.w[k] * range;
            for (unsigned attempt = 1; (unsigned)product < threshold; ++attempt)
                product = (unsigned long long)gk_random_block(p, (unsigned long long)j, attempt).w[k] * range;
            gk_store_integer(p, 4 * j + k, p.low + (product >> 32));
        }
    }
}

// Word pair k of block j (retried at the block's next attempts while rejected) as a uniform
// integer in [0, range): Lemire's method on 64-bit words; range 0 stands for 2^64 (the word itself).
__device__ inline unsigned long long gk_lemire64(const gk_random_params& p, const gk_philox_block& b, long long j,
                                                 int k, unsigned long long range, unsigned long long threshold) {
    unsigned long long x = ((unsigned long long)b.w[2 * k] << 32) | b.w[2 * k + 1];
    unsigned long long low = x * range;
    for (unsigned attempt = 1; low < threshold; ++attempt) {
        const gk_philox_block retry = gk_random_block(p, (unsigned long long)j, attempt);
        x = ((unsigned long long)retry.w[2 * k] << 32) | retry.w[2 * k + 1];
        low = x * range;
    }
    return range == 0 ? x : __umul64hi(x, range);
}

// span >= 2^32: the same on 64-bit words (range 2^64 when span is 2^64 - 1: the word itself).
extern "C" __global__ void gk_random_integers64(const gk_random_params p) {
    const unsigned long long range = p.span + 1;  // 0 stands for 2^64
    const unsigned long long threshold = range == 0 ? 0ull : (0ull - range) % range;
    GK_ELEMENTS(j, gk_random_blocks(p.size, 2)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        for (int k = 0; k < 2 && 2 * j + k < p.size; ++k)
            gk_store_integer(p, 2 * j + k, p.low + gk_lemire64(p, b, j, k, range, threshold));
    }
}

// Array bounds: each element's own low and span, 64-bit words (two a block) whatever the span.
extern "C" __global__ void gk_random_integers_each(const gk_random_params p) {
    const unsigned long long* lows = (const unsigned long long*)p.values_a;
    const unsigned long long* spans = (const unsigned long long*)p.values_b;
    GK_ELEMENTS(j, gk_random_blocks(p.size, 2)) {
        const gk_philox_block b = gk_random_block(p, (unsigned long long)j, 0);
        for (int k = 0; k < 2 && 2 * j + k < p.size; ++k) {
            const long long i = 2 * j + k;
            const unsigned long long range = spans[i] + 1;  // 0 stands for 2^64
            const unsigned long long threshold = range == 0 ? 0ull : (0ull - range) % range;
            gk_store_integer(p, i, lows[i] + gk_lemire64(p, b, j, k, range, threshold));
        }
    }
}

// ---- poisson

// An element's own substream: block `element` at attempts 0, 1, ..., two [0, 1) doubles each.
struct gk_substream {
    unsigned long long element;
    unsigned attempt;
    int used;
    gk_philox_block block;
};
__device__ inline double gk_next_uniform(const gk_random_params& p, gk_substream* s) {
    if (s->used == 2) {
        s->block = gk_random_block(p, s->element, ++s->attempt);
        s->used = 0;
    }
    const int k = s->used++;
    return gk_uniform_double(s->block.w[2 * k], s->block.w[2 * k + 1]);
}

// log(k!): the product itself up to 20! (exact in a double), Stirling's series beyond.
__device__ inline double gk_log_factorial(double k) {
    if (k <= 20.0) {
        double product = 1.0;
        for (double m = 2.0; m <= k; m += 1.0) product = product * m;
        return gk_log_double(product);
    }
    const double x = k + 1.0, x2 = x * x;
    const double correction = (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - (1.0 / 1680.0) / x2) / x2) / x2) / x;
    return (x - 0.5) * gk_log_double(x) - x + 0.9189385332046728 + correction;  // 0.91.. = log(2 pi) / 2
}

__device__ inline long long gk_poisson(const gk_random_params& p, unsigned long long element) {
    const double lam = p.values_a ? gk_parameter(p.values_a, p.step_a, element) : p.a;
    if (lam == 0.0) return 0;
    gk_substream s = {element, 0u, 0, gk_random_block(p, element, 0)};
    if (lam < 10.0) {
        long long k = 0;
        for (double t = -gk_log_double(1.0 - gk_next_uniform(p, &s)); t <= lam;
             t = t - gk_log_double(1.0 - gk_next_uniform(p, &s)))
            ++k;
        return k;
    }
    const double slam = sqrt(lam), loglam = gk_log_double(lam);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double log_invalpha = gk_log_double(1.1239 + 1.1328 / (b - 3.4)), vr = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        const double u = gk_next_uniform(p, &s) - 0.5, v = gk_next_uniform(p, &s);
        const double us = 0.5 - fabs(u);
        const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) return (long long)k;
        if (k < 0.0 || (us < 0.013 && v > us)) continue;
        if (gk_log_double(v) + log_invalpha - gk_log_double(a / (us * us) + b) <=
            -lam + k * loglam - gk_log_factorial(k))
            return (long long)k;
    }
}

extern "C" __global__ void gk_random_poisson(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) { ((long long*)p.out)[i] = gk_poisson(p, (unsigned long long)i); }
}

// ---- standard gamma

// exp(x) from IEEE operations alone: x = n log 2 + r, n the nearest integer and |r| <= log(2)/2
// (n log 2 subtracted in two parts, as the logarithm adds them), e^r by its Taylor series to r^17
// (the next term below 2^-60 relative), times 2^n by the exponent's bits. 0 below -708 (the
// subnormal results are not needed here), inf above 709.
__device__ inline double gk_exp_double(double x) {
    if (x < -708.0) return 0.0;
    if (x > 709.0) return __longlong_as_double(0x7ff0000000000000ll);
    const double n = floor(x * 1.4426950408889634 + 0.5);
    const double r = (x - n * 0.6931471803691238) - n * 1.9082149292705877e-10;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k <= 17; ++k) {
        term = term * r / (double)k;
        sum = sum + term;
    }
    return sum * __longlong_as_double((long long)(n + 1023.0) << 52);
}

// A standard normal from the element's substream: Box-Muller's r cos(2 pi u2), u1 the (0, 1] double
// of the next two words, u2's 53 bits the following two.
__device__ inline double gk_next_normal(const gk_random_params& p, gk_substream* s) {
    const double u1 = 1.0 - gk_next_uniform(p, s);  // (0, 1]
    if (s->used == 2) {
        s->block = gk_random_block(p, s->element, ++s->attempt);
        s->used = 0;
    }
    const int k = s->used++;
    const unsigned long long angle = gk_bits53(s->block.w[2 * k], s->block.w[2 * k + 1]);
    double sine, cosine;
    gk_sincos_turn_double(angle, &sine, &cosine);
    return sqrt(-2.0 * gk_log_double(u1)) * cosine;
}

__device__ inline double gk_standard_gamma(const gk_random_params& p, unsigned long long element) {
    const double shape = p.values_a ? gk_parameter(p.values_a, p.step_a, element) : p.a;
    if (shape == 0.0 || shape != shape) return shape;
    gk_substream s = {element, 0u, 0, gk_random_block(p, element, 0)};
    const double k = shape < 1.0 ? shape + 1.0 : shape;
    const double d = k - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    double value;
    for (;;) {
        double x, v;
        do {
            x = gk_next_normal(p, &s);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = gk_next_uniform(p, &s);
        const double x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2 || gk_log_double(u) < 0.5 * x2 + d * (1.0 - v + gk_log_double(v))) {
            value = d * v;
            break;
        }
    }
    if (shape < 1.0) value = value * gk_exp_double(gk_log_double(1.0 - gk_next_uniform(p, &s)) / shape);
    return value;
}

// float64, or float32 where itemsize is 4: the float64 draw rounded, as astype would round it.
extern "C" __global__ void gk_random_standard_gamma(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) {
        const double value = gk_standard_gamma(p, (unsigned long long)i);
        if (p.itemsize == 4)
            ((float*)p.out)[i] = (float)value;
        else
            ((double*)p.out)[i] = value;
    }
}

// ---- binomial

// The Stirling correction: log(k!) - ((k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2).
__device__ inline double gk_stirling_correction(double k) {
    return gk_log_factorial(k) - ((k + 0.5) * gk_log_double(k + 1.0) - (k + 1.0) + 0.9189385332046728);
}

__device__ inline long long gk_binomial(const gk_random_params& p, unsigned long long element) {
    const double n = gk_parameter(p.values_a, p.step_a, element);
    const double chance = gk_parameter(p.values_b, p.step_b, element);
    if (n == 0.0 || chance == 0.0) return 0;
    if (chance == 1.0) return (long long)n;
    const bool flipped = chance > 0.5;
    const double q_chance = flipped ? 1.0 - chance : chance, q = 1.0 - q_chance;
    gk_substream s = {element, 0u, 0, gk_random_block(p, element, 0)};
    long long k;
    if (n * q_chance < 10.0) {
        const double ratio = q_chance / q, a = (n + 1.0) * ratio;
        for (;;) {
            double probability = gk_exp_double(n * gk_log_double(q)), u = gk_next_uniform(p, &s);
            k = 0;
            while (u > probability && (double)k < n) {
                u = u - probability;
                ++k;
                probability = probability * (a / (double)k - ratio);
            }
            if (u <= probability) break;  // else rounding left u past the last term: draw again
        }
    } else {
        const double spq = sqrt(n * q_chance * q), npq = n * q_chance * q;
        const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * q_chance, c = n * q_chance + 0.5;
        const double alpha = (2.83 + 5.1 / b) * spq, vr = 0.92 - 4.2 / b, urvr = 0.86 * vr;
        const double m = floor((n + 1.0) * q_chance), r = q_chance / q, nr = (n + 1.0) * r;
        for (;;) {
            double v = gk_next_uniform(p, &s), u;
            if (v <= urvr) {
                u = v / vr - 0.43;
                k = (long long)floor((2.0 * a / (0.5 - fabs(u)) + b) * u + c);
                break;
            }
            if (v >= vr) {
                u = gk_next_uniform(p, &s) - 0.5;
            } else {
                u = v / vr - 0.93;
                u = (u < 0.0 ? -0.5 : 0.5) - u;
                v = gk_next_uniform(p, &s) * vr;
            }
            const double us = 0.5 - fabs(u);
            const double kd = floor((2.0 * a / us + b) * u + c);
            if (kd < 0.0 || kd > n) continue;
            v = v * alpha / (a / (us * us) + b);
            const double km = fabs(kd - m);
            if (km <= 15.0) {  // the ratio of the probabilities of kd and m, by their recursion
                double f = 1.0;
                if (m < kd)
                    for (double i = m + 1.0; i <= kd; i += 1.0) f = f * (nr / i - r);
                else
                    for (double i = kd + 1.0; i <= m; i += 1.0) v = v * (nr / i - r);
                if (v <= f) {
                    k = (long long)kd;
                    break;
                }
                continue;
            }
            v = gk_log_double(v);
            const double rho = (km / npq) * (((km / 3.0 + 0.625) * km + 1.0 / 6.0) / npq + 0.5);
            const double t = -km * km / (2.0 * npq);
            if (v < t - rho) {
                k = (long long)kd;
                break;
            }
            if (v > t + rho) continue;
            const double nm = n - m + 1.0, nk = n - kd + 1.0;
            const double h = (m + 0.5) * gk_log_double((m + 1.0) / (r * nm)) + gk_stirling_correction(m) +
                             gk_stirling_correction(n - m);
            if (v <= h + (n + 1.0) * gk_log_double(nm / nk) + (kd + 0.5) * gk_log_double(nk * r / (kd + 1.0)) -
                         gk_stirling_correction(kd) - gk_stirling_correction(n - kd)) {
                k = (long long)kd;
                break;
            }
        }
    }
    return flipped ? (long long)n - k : k;
}

extern "C" __global__ void gk_random_binomial(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) { ((long long*)p.out)[i] = gk_binomial(p, (unsigned long long)i); }
}

// ---- logseries, zipf and hypergeometric

// x^y for x > 0 by the logarithm and exp above.
__device__ inline double gk_pow_double(double x, double y) { return gk_exp_double(y * gk_log_double(x)); }

extern "C" __global__ void gk_random_logseries(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) {
        const double chance = gk_parameter(p.values_a, p.step_a, (unsigned long long)i);
        gk_substream s = {(unsigned long long)i, 0u, 0, gk_random_block(p, (unsigned long long)i, 0)};
        const double r = gk_log_double(1.0 - chance);
        long long result;
        for (;;) {
            const double v = gk_next_uniform(p, &s);
            if (v >= chance) {
                result = 1;
                break;
            }
            const double u = gk_next_uniform(p, &s);
            const double q = 1.0 - gk_exp_double(r * u);
            if (v <= q * q) {
                if (v == 0.0) continue;
                const double k = floor(1.0 + gk_log_double(v) / gk_log_double(q));
                if (k < 1.0) continue;
                result = (long long)k;
                break;
            }
            result = v >= q ? 1 : 2;
            break;
        }
        ((long long*)p.out)[i] = result;
    }
}

extern "C" __global__ void gk_random_zipf(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) {
        const double a = gk_parameter(p.values_a, p.step_a, (unsigned long long)i);
        gk_substream s = {(unsigned long long)i, 0u, 0, gk_random_block(p, (unsigned long long)i, 0)};
        const double am1 = a - 1.0, b = gk_pow_double(2.0, am1);
        long long result;
        for (;;) {
            const double u = 1.0 - gk_next_uniform(p, &s);  // (0, 1]
            const double v = gk_next_uniform(p, &s);
            const double x = floor(gk_pow_double(u, -1.0 / am1));
            if (!(x >= 1.0) || x > 9.2233720368547748e18) continue;  // past int64: NumPy rejects it too
            const double t = gk_pow_double(1.0 + 1.0 / x, am1);
            if (v * x * (t - 1.0) / (b - 1.0) <= t / b) {
                result = (long long)x;
                break;
            }
        }
        ((long long*)p.out)[i] = result;
    }
}

// log C(n, k) by logarithms of factorials.
__device__ inline double gk_log_choose(double n, double k) {
    return gk_log_factorial(n) - gk_log_factorial(k) - gk_log_factorial(n - k);
}

extern "C" __global__ void gk_random_hypergeometric(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) {
        const double good = gk_parameter(p.values_a, p.step_a, (unsigned long long)i);
        const double bad = gk_parameter(p.values_b, p.step_b, (unsigned long long)i);
        const double sample = gk_parameter(p.values_c, p.step_c, (unsigned long long)i);
        gk_substream s = {(unsigned long long)i, 0u, 0, gk_random_block(p, (unsigned long long)i, 0)};
        const double low = fmax(0.0, sample - bad), high = fmin(sample, good);
        const double mode = fmin(high, fmax(low, floor((sample + 1.0) * (good + 1.0) / (good + bad + 2.0))));
        const double at_mode = gk_exp_double(gk_log_choose(good, mode) + gk_log_choose(bad, sample - mode) -
                                             gk_log_choose(good + bad, sample));
        double result = mode;
        for (bool found = false; !found;) {
            double u = gk_next_uniform(p, &s);
            if (u <= at_mode) break;
            u = u - at_mode;
            double up = mode, down = mode, p_up = at_mode, p_down = at_mode;
            while (up < high || down > low) {  // chop down: the next above, then the next below
                if (up < high) {
                    p_up = p_up * (good - up) * (sample - up) / ((up + 1.0) * (bad - sample + up + 1.0));
                    up = up + 1.0;
                    if (u <= p_up) {
                        result = up;
                        found = true;
                        break;
                    }
                    u = u - p_up;
                }
                if (down > low) {
                    p_down = p_down * down * (bad - sample + down) / ((good - down + 1.0) * (sample - down + 1.0));
                    down = down - 1.0;
                    if (u <= p_down) {
                        result = down;
                        found = true;
                        break;
                    }
                    u = u - p_down;
                }
            }  // past both ends: rounding left u over; draw again
        }
        ((long long*)p.out)[i] = (long long)result;
    }
}

// ---- von Mises

// cos(pi u) for u in [0, 1]: 2u quarter turns, q the nearest quarter and x = 2u - q (both exact).
__device__ inline double gk_cos_pi_double(double u) {
    const double quarters = u + u;
    const double q = floor(quarters + 0.5);
    double s, c;
    gk_sincos_quarter_double(quarters - q, &s, &c);
    gk_quadrant((unsigned)q, &s, &c);
    return c;
}

// asin(z) for |z| <= 1/2: z + z^3 sum c_n z^(2n - 2), c_n = (2n)! / (4^n (n!)^2 (2n + 1)), to n = 25
// (the next term below 2^-60 relative).
__device__ inline double gk_asin_half_double(double z) {
    const double z2 = z * z;
    const double c[25] = {0.16666666666666666,   0.075,
                          0.044642857142857144,  0.030381944444444444,
                          0.022372159090909092,  0.017352764423076924,
                          0.01396484375,         0.011551800896139705,
                          0.009761609529194078,  0.008390335809616815,
                          0.0073125258735988454, 0.006447210311889649,
                          0.005740037670841924,  0.005153309682319905,
                          0.004660143486915096,  0.004240907093679363,
                          0.003880964558837669,  0.0035692053938259347,
                          0.003297059503473485,  0.0030578216492580306,
                          0.002846178401108942,  0.00265787063820729,
                          0.0024894486782468836, 0.002338091892111975,
                          0.0022014739737101384};
    double series = c[24];
    for (int n = 23; n >= 0; --n) series = c[n] + z2 * series;
    return z + z * (z2 * series);
}

// acos(w) for w in [-1, 1]: pi/2 - asin(w) for |w| <= 1/2, else 2 asin(sqrt((1 - |w|) / 2)) (1 - |w|
// exact there), taken from pi for w < 0; pi/2 and pi in two parts. A w that rounding carried past
// an end gives that end's angle, where the C library's gives NaN.
__device__ inline double gk_acos_double(double w) {
    if (w >= 1.0) return 0.0;
    if (w <= -1.0) return 3.141592653589793;
    if (fabs(w) <= 0.5) return 1.5707963267948966 - (gk_asin_half_double(w) - 6.123233995736766e-17);
    const double half_angle = gk_asin_half_double(sqrt((1.0 - fabs(w)) * 0.5));
    if (w > 0.0) return half_angle + half_angle;
    return 3.141592653589793 - ((half_angle + half_angle) - 1.2246467991473532e-16);
}

// fmod(x, y) for y = 2 pi (normal, far above the subnormals) and x >= 0: exact, as the C library's,
// by long division of the significands, a bit of the quotient a step. NaN for x inf or NaN.
__device__ inline double gk_fmod_double(double x, double y) {
    if (!(x <= 1.7976931348623157e308)) return __longlong_as_double(0x7ff8000000000000ll);
    if (x < y) return x;
    const unsigned long long fraction = 0xfffffffffffffull, implicit = 1ull << 52;
    const unsigned long long x_bits = (unsigned long long)__double_as_longlong(x);
    const unsigned long long y_bits = (unsigned long long)__double_as_longlong(y);
    int exponent = (int)(y_bits >> 52);
    unsigned long long remainder = (x_bits & fraction) | implicit;
    const unsigned long long divisor = (y_bits & fraction) | implicit;
    for (int shift = (int)(x_bits >> 52) - exponent; shift > 0; --shift) {
        if (remainder >= divisor) remainder -= divisor;
        remainder <<= 1;  // below 2^54: the remainder was below the divisor
    }
    if (remainder >= divisor) remainder -= divisor;
    if (remainder == 0) return 0.0;
    for (; remainder < implicit; --exponent) remainder <<= 1;
    return __longlong_as_double((long long)(((unsigned long long)exponent << 52) | (remainder & fraction)));
}

// NumPy's random_vonmises on the element's own substream: kappa < 1e-8 uniform on the circle (mu
// unused); kappa > 1e6 the wrapped normal mu + z / sqrt(kappa), wrapped once; else Best and
// Fisher's rejection from a wrapped Cauchy envelope (s its parameter, by a Taylor expansion below
// kappa = 1e-5, where the exact form loses every digit), then acos(w) with a fair sign, plus mu,
// folded into [-pi, pi] symmetrically about 0 as NumPy folds it. NaN kappa: NaN.
__device__ inline double gk_vonmises(const gk_random_params& p, unsigned long long element) {
    const double pi = 3.141592653589793, nan = __longlong_as_double(0x7ff8000000000000ll);
    const double mu = gk_parameter(p.values_a, p.step_a, element);
    const double kappa = gk_parameter(p.values_b, p.step_b, element);
    if (kappa != kappa) return nan;
    gk_substream s = {element, 0u, 0, gk_random_block(p, element, 0)};
    if (kappa < 1e-8) return pi * (2.0 * gk_next_uniform(p, &s) - 1.0);
    if (kappa > 1e6) {
        double result = mu + sqrt(1.0 / kappa) * gk_next_normal(p, &s);
        if (result < -pi) result = result + 2.0 * pi;
        if (result > pi) result = result - 2.0 * pi;
        return result == result ? result : nan;
    }
    double envelope;
    if (kappa < 1e-5) {
        envelope = 1.0 / kappa + kappa;
    } else {
        const double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
        const double rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
        envelope = (1.0 + rho * rho) / (2.0 * rho);
    }
    double w;
    for (;;) {
        const double z = gk_cos_pi_double(gk_next_uniform(p, &s));
        w = (1.0 + envelope * z) / (envelope + z);
        const double y = kappa * (envelope - w);
        const double v = gk_next_uniform(p, &s);
        if (y * (2.0 - y) - v >= 0.0) break;
        // v = 0 with y > 0: log(y / v) is +inf, an acceptance.
        if (y > 0.0 && (v == 0.0 || gk_log_double(y / v) + 1.0 - y >= 0.0)) break;
    }
    const double u = gk_next_uniform(p, &s);
    double angle = gk_acos_double(w);
    if (u < 0.5) angle = -angle;
    angle = angle + mu;
    double folded = gk_fmod_double(fabs(angle) + pi, 2.0 * pi) - pi;
    if (angle < 0.0) folded = -folded;
    return folded == folded ? folded : nan;
}

extern "C" __global__ void gk_random_vonmises(const gk_random_params p) {
    GK_ELEMENTS(i, p.size) { ((double*)p.out)[i] = gk_vonmises(p, (unsigned long long)i); }
}
