// src/backends/sim/prelude/gpukit_sim_vector_types.h: CUDA's built-in vector types (char1 ..
// double4), their make_* functions, uint3 and dim3, for kernels compiled by the host compiler.
//
// Each type has the alignment the CUDA C++ Programming Guide documents, so a user struct built
// from them has the same size and member offsets as under nvcc, and kernel arguments match the
// GPU byte for byte. The types stay aggregates, as in CUDA: `float4 v = {1, 2, 3, 4};` works.
#pragma once

// The generators below are #undef'd at the end of the file: user code never sees them.
#define GPUKIT_SIM_VEC1(name, T, align) \
    struct alignas(align) name {        \
        T x;                            \
    };                                  \
    inline constexpr name make_##name(T x) { return name{x}; }

#define GPUKIT_SIM_VEC2(name, T, align) \
    struct alignas(align) name {        \
        T x, y;                         \
    };                                  \
    inline constexpr name make_##name(T x, T y) { return name{x, y}; }

#define GPUKIT_SIM_VEC3(name, T, align) \
    struct alignas(align) name {        \
        T x, y, z;                      \
    };                                  \
    inline constexpr name make_##name(T x, T y, T z) { return name{x, y, z}; }

#define GPUKIT_SIM_VEC4(name, T, align) \
    struct alignas(align) name {        \
        T x, y, z, w;                   \
    };                                  \
    inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }

// One element type in its four widths: 1 and 3 components keep the element's own alignment,
// 2 and 4 components are aligned to their full size (capped at 16 bytes), as CUDA documents.
#define GPUKIT_SIM_VEC_FAMILY(prefix, T)         \
    GPUKIT_SIM_VEC1(prefix##1, T, alignof(T))    \
    GPUKIT_SIM_VEC2(prefix##2, T, 2 * sizeof(T)) \
    GPUKIT_SIM_VEC3(prefix##3, T, alignof(T))    \
    GPUKIT_SIM_VEC4(prefix##4, T, (4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16))

// CUDA's char vectors hold signed char, whatever the signedness of plain char.
GPUKIT_SIM_VEC_FAMILY(char, signed char)
GPUKIT_SIM_VEC_FAMILY(uchar, unsigned char)
GPUKIT_SIM_VEC_FAMILY(short, short)
GPUKIT_SIM_VEC_FAMILY(ushort, unsigned short)
GPUKIT_SIM_VEC_FAMILY(int, int)
GPUKIT_SIM_VEC_FAMILY(uint, unsigned int)
GPUKIT_SIM_VEC_FAMILY(long, long)
GPUKIT_SIM_VEC_FAMILY(ulong, unsigned long)
GPUKIT_SIM_VEC_FAMILY(longlong, long long)
GPUKIT_SIM_VEC_FAMILY(ulonglong, unsigned long long)
GPUKIT_SIM_VEC_FAMILY(float, float)
GPUKIT_SIM_VEC_FAMILY(double, double)

// CUDA 13 deprecates the 16-byte-aligned 4 x 64-bit types above in favour of explicit _16a and
// _32a variants; the plain names stay (at 16 bytes, as in CUDA 12) so existing code compiles.
GPUKIT_SIM_VEC4(long4_16a, long, 16)
GPUKIT_SIM_VEC4(long4_32a, long, 32)
GPUKIT_SIM_VEC4(ulong4_16a, unsigned long, 16)
GPUKIT_SIM_VEC4(ulong4_32a, unsigned long, 32)
GPUKIT_SIM_VEC4(longlong4_16a, long long, 16)
GPUKIT_SIM_VEC4(longlong4_32a, long long, 32)
GPUKIT_SIM_VEC4(ulonglong4_16a, unsigned long long, 16)
GPUKIT_SIM_VEC4(ulonglong4_32a, unsigned long long, 32)
GPUKIT_SIM_VEC4(double4_16a, double, 16)
GPUKIT_SIM_VEC4(double4_32a, double, 32)

#undef GPUKIT_SIM_VEC_FAMILY
#undef GPUKIT_SIM_VEC4
#undef GPUKIT_SIM_VEC3
#undef GPUKIT_SIM_VEC2
#undef GPUKIT_SIM_VEC1

// Launch geometry. Unlike the vector types dim3 has constructors: every component the caller
// leaves out is 1, so `dim3 grid(64)` is 64 x 1 x 1, and it converts to and from uint3 (the type of
// threadIdx and blockIdx) implicitly, as in CUDA.
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// The layout checks that matter most for kernel arguments: a mismatch here would silently shift
// every later argument.
static_assert(sizeof(char2) == 2 && alignof(char2) == 2, "char2 layout");
static_assert(sizeof(char3) == 3 && alignof(char3) == 1, "char3 layout");
static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "char4 layout");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2 layout");
static_assert(sizeof(short3) == 6 && alignof(short3) == 2, "short3 layout");
static_assert(sizeof(short4) == 8 && alignof(short4) == 8, "short4 layout");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2 layout");
static_assert(sizeof(int3) == 12 && alignof(int3) == 4, "int3 layout");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4 layout");
static_assert(sizeof(uint3) == 12 && alignof(uint3) == 4, "uint3 layout");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2 layout");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3 layout");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 layout");
static_assert(sizeof(long2) == 2 * sizeof(long) && alignof(long2) == 2 * sizeof(long), "long2 layout");
static_assert(sizeof(long4) == 4 * sizeof(long) && alignof(long4) == 16, "long4 layout");
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16, "longlong2 layout");
static_assert(sizeof(longlong3) == 24 && alignof(longlong3) == 8, "longlong3 layout");
static_assert(sizeof(longlong4) == 32 && alignof(longlong4) == 16, "longlong4 layout");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2 layout");
static_assert(sizeof(double3) == 24 && alignof(double3) == 8, "double3 layout");
static_assert(sizeof(double4) == 32 && alignof(double4) == 16, "double4 layout");
static_assert(sizeof(double4_32a) == 32 && alignof(double4_32a) == 32, "double4_32a layout");
static_assert(sizeof(dim3) == 12, "dim3 layout");
