// kernels/gpukit_elementwise_kernel.cuh: what a user's ElementwiseKernel sees besides its own
// parameters (src/ops/elementwise/generator.cpp, generate_user_elementwise, writes the kernel;
// gpukit_elementwise.cuh comes first). Embedded in the library like gpukit_elementwise.cuh, so the
// same text reaches NVRTC and the simulator.
//
// - gk_ref<S, C>: an element stored as S (float16, bfloat16) read and written as C (float), so a
//   half-precision output or raw element is assigned and read like any number.
// - gk_raw<S, C>: a `raw` parameter, CuPy's CArray: x[j] decodes the flat C-order index j through
//   the array's own shape and strides (not broadcast), x[idx] takes one index per dimension, and
//   x.size(), x.shape(), x.strides(), x.ndim() describe it.
// - gk_user_index: `_ind` in the operation, CuPy's CIndexer: _ind.size() is the loop's length and
//   _ind.get() the element's flat index (`i`).
// - gk_ew_array, gk_ew_loop: how a broadcast (non-raw) array and the loop travel to the kernel.
// - complex<T> (the prelude's gk_complex) with a few of the helpers CuPy's complex<T> has.
#pragma once

template <class S, class C>
struct gk_ref {
    S* p;
    __device__ explicit gk_ref(S* at) : p(at) {}
    __device__ operator C() const { return gk_convert<C>(*p); }
    __device__ gk_ref& operator=(C v) {
        *p = gk_convert<S>(v);
        return *this;
    }
    __device__ gk_ref& operator=(const gk_ref& other) { return *this = (C)other; }
    __device__ gk_ref& operator+=(C v) { return *this = (C) * this + v; }
    __device__ gk_ref& operator-=(C v) { return *this = (C) * this - v; }
    __device__ gk_ref& operator*=(C v) { return *this = (C) * this * v; }
    __device__ gk_ref& operator/=(C v) { return *this = (C) * this / v; }
};

// How an element of storage type S is reached as C: a plain reference where they are one type.
template <class S, class C>
struct gk_element {
    typedef gk_ref<S, C> reference;
    __device__ static reference at(S* p) { return reference(p); }
};
template <class T>
struct gk_element<T, T> {
    typedef T& reference;
    __device__ static T& at(T* p) { return *p; }
};

template <class S, class C>
struct gk_raw {
    typedef typename gk_element<S, C>::reference reference;
    unsigned long long address;
    long long size_;
    long long shape_[GK_MAX_DIMS];
    long long strides_[GK_MAX_DIMS];  // bytes
    int ndim_;
    int contiguous_;  // C-contiguous: x[j] is the j-th element in memory

    __device__ long long size() const { return size_; }
    __device__ int ndim() const { return ndim_; }
    __device__ const long long* shape() const { return shape_; }
    __device__ const long long* strides() const { return strides_; }
    __device__ S* data() const { return (S*)address; }

    __device__ reference operator[](long long j) const {
        if (contiguous_) return gk_element<S, C>::at((S*)address + j);
        long long offset = 0;
        for (int d = ndim_ - 1; d >= 0; --d) {
            offset += (j % shape_[d]) * strides_[d];
            j /= shape_[d];
        }
        return gk_element<S, C>::at((S*)((char*)address + offset));
    }
    template <class I, int N>
    __device__ reference operator[](const I (&index)[N]) const {
        long long offset = 0;
        for (int d = 0; d < N; ++d) offset += (long long)index[d] * strides_[d];
        return gk_element<S, C>::at((S*)((char*)address + offset));
    }
};

struct gk_ew_array {
    unsigned long long address;
    long long strides[GK_MAX_DIMS];  // bytes, along the loop's dimensions
};

struct gk_ew_loop {
    long long size;
    long long shape[GK_MAX_DIMS];
    int ndim;
    int unused;
};

struct gk_user_index {
    gk_index n, i;
    __device__ gk_index size() const { return n; }
    __device__ gk_index get() const { return i; }
};

// ---- complex numbers as CuPy's complex<T> offers them: complex<float>{re, im}, real(z), imag(z),
// conj(z), abs(z), and arithmetic with real numbers
template <class T>
using complex = gk_complex<T>;
template <class T>
__device__ inline T real(gk_complex<T> z) {
    return z.re;
}
template <class T>
__device__ inline T imag(gk_complex<T> z) {
    return z.im;
}
template <class T>
__device__ inline gk_complex<T> conj(gk_complex<T> z) {
    return {z.re, -z.im};
}
template <class T>
__device__ inline T abs(gk_complex<T> z) {
    return gk_fabs(z);
}
// With a real number of any arithmetic type (2 * z, z / 2.0f); complex with complex stays the
// prelude's own operators (more specialised, so overload resolution picks them).
#define GK_COMPLEX_WITH_REAL(op)                                        \
    template <class T, class U>                                         \
    __device__ inline gk_complex<T> operator op(gk_complex<T> a, U b) { \
        return a op gk_complex<T>{(T)b, (T)0};                          \
    }                                                                   \
    template <class T, class U>                                         \
    __device__ inline gk_complex<T> operator op(U a, gk_complex<T> b) { \
        return gk_complex<T>{(T)a, (T)0} op b;                          \
    }
GK_COMPLEX_WITH_REAL(+)
GK_COMPLEX_WITH_REAL(-)
GK_COMPLEX_WITH_REAL(*)
GK_COMPLEX_WITH_REAL(/)
#undef GK_COMPLEX_WITH_REAL
template <class T>
__device__ inline gk_complex<T>& operator+=(gk_complex<T>& a, gk_complex<T> b) {
    return a = a + b;
}
template <class T>
__device__ inline gk_complex<T>& operator-=(gk_complex<T>& a, gk_complex<T> b) {
    return a = a - b;
}
template <class T>
__device__ inline gk_complex<T>& operator*=(gk_complex<T>& a, gk_complex<T> b) {
    return a = a * b;
}
template <class T>
__device__ inline gk_complex<T>& operator/=(gk_complex<T>& a, gk_complex<T> b) {
    return a = a / b;
}
