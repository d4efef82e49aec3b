// src/backends/fft_library.hpp: the FFT library a backend offers (cuFFT on CUDA, a CPU FFT on the
// simulator), as the operations of gpukit/fft.hpp ask for it.
//
// A transform is described the way cufftPlanMany describes one: the extents of one transform
// (rank 1 to 3, outermost first), how many of them (batch), and the element distance from one
// transform's data to the next; the elements of one transform are dense, C order. Extents are the
// real (time-domain) sizes; the complex side of a real transform keeps last / 2 + 1 along its last
// axis. Transforms are unnormalised in both directions (cuFFT's and FFTW's convention): the caller
// scales. Code above the backend interface asks Backend::fft_library() for this, never a backend's name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.hpp"

namespace gpukit::detail {

enum class FftType : std::uint8_t {
    c2c,  // complex to complex, either direction
    r2c,  // real to the non-redundant half of its spectrum (forward only)
    c2r,  // a half spectrum to real (inverse only); may overwrite its input, as cuFFT's does
};
enum class FftPrecision : std::uint8_t { single, double_precision };
enum class FftDirection : std::uint8_t { forward, inverse };

// What a plan is made for; plan caches are keyed by it.
struct FftPlanKey {
    std::vector<std::int64_t> extents;  // one transform's sizes, outermost first; 1 to 3 of them
    std::int64_t batch = 1;
    std::int64_t input_distance = 0;   // elements from one transform's input to the next
    std::int64_t output_distance = 0;  // and its output
    FftType type = FftType::c2c;
    FftPrecision precision = FftPrecision::double_precision;
    friend bool operator==(const FftPlanKey&, const FftPlanKey&) = default;
};

// Elements one transform reads and writes: complex ones on the complex side, real on the real one.
inline std::int64_t fft_real_elements(const FftPlanKey& key) {
    std::int64_t count = 1;
    for (std::int64_t extent : key.extents) count *= extent;
    return count;
}
inline std::int64_t fft_complex_elements(const FftPlanKey& key) {
    if (key.type == FftType::c2c || key.extents.empty()) return fft_real_elements(key);
    return fft_real_elements(key) / key.extents.back() * (key.extents.back() / 2 + 1);
}
inline std::int64_t fft_input_elements(const FftPlanKey& key) {
    return key.type == FftType::r2c ? fft_real_elements(key) : fft_complex_elements(key);
}
inline std::int64_t fft_output_elements(const FftPlanKey& key) {
    return key.type == FftType::c2r ? fft_real_elements(key) : fft_complex_elements(key);
}

class FftLibrary {
public:
    virtual ~FftLibrary() = default;
    // The library and its version ("cuFFT 11.3.0 (/usr/local/cuda/lib64/libcufft.so.12)").
    virtual std::string identity() const = 0;
    // Enqueues the transforms on `stream` of `device` (addresses of device memory) and returns
    // without waiting. Input and output do not overlap. Throws CudaError-like errors naming the
    // library when the library refuses.
    virtual void execute(int device, const FftPlanKey& key, FftDirection direction, std::uint64_t input,
                         std::uint64_t output, NativeStream stream) = 0;
};

}  // namespace gpukit::detail
