// kernels/gpukit_indexing.cuh: what the indexing kernels (gpukit_gather.cu, gpukit_select.cu)
// share: moving one element of any dtype, and telling whether one is nonzero, with the element's
// size a parameter, so that one kernel serves every dtype.
#pragma once

// Copies one element of `itemsize` bytes (1, 2, 4, 8 or 16).
__device__ inline void gk_copy_item(char* to, const char* from, int itemsize) {
    switch (itemsize) {
        case 1: *(unsigned char*)to = *(const unsigned char*)from; break;
        case 2: *(unsigned short*)to = *(const unsigned short*)from; break;
        case 4: *(unsigned*)to = *(const unsigned*)from; break;
        case 8: *(unsigned long long*)to = *(const unsigned long long*)from; break;
        default:  // 16: complex128, as two 8-byte words (its alignment)
            ((unsigned long long*)to)[0] = ((const unsigned long long*)from)[0];
            ((unsigned long long*)to)[1] = ((const unsigned long long*)from)[1];
    }
}

// Whether the element at `at` is nonzero: any of its `significant` bits set (the launcher leaves
// out the sign bits of floats, so that -0.0 is zero and NaN is not; complex numbers are two floats).
__device__ inline bool gk_nonzero(const char* at, int itemsize, const unsigned long long* significant) {
    switch (itemsize) {
        case 1: return (*(const unsigned char*)at & significant[0]) != 0;
        case 2: return (*(const unsigned short*)at & significant[0]) != 0;
        case 4: return (*(const unsigned*)at & significant[0]) != 0;
        case 8: return (*(const unsigned long long*)at & significant[0]) != 0;
        default:
            return ((((const unsigned long long*)at)[0] & significant[0]) |
                    (((const unsigned long long*)at)[1] & significant[1])) != 0;
    }
}
