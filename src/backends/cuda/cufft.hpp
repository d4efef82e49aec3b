// src/backends/cuda/cufft.hpp: cuFFT, loaded at run time, as the CUDA backend's FFT library
// (backends/fft_library.hpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/fft_library.hpp"

namespace gpukit::detail::cuda {

// Where cuFFT is looked for (toolkit_library.hpp): GPUKIT_CUFFT alone when set (a library path,
// only ever given to dlopen); else the sonames of cuFFT 12 (CUDA 13) and 11 (CUDA 12), as the
// dynamic linker finds them, then in CUDA_HOME, CUDA_PATH and /usr/local/cuda.
std::vector<std::string> cufft_candidates();

// Loads cuFFT (each call anew; the backend keeps one) and says what it is:
// "cuFFT 12.0.0 (/usr/local/cuda/lib64/libcufft.so.12)". Throws BackendUnavailableError naming
// libcufft, every candidate tried, and how to install it.
std::string probe_cufft();

// The library for the backend's devices. `activate(device)` makes the device's context current on
// the calling thread (cuFFT works in the current context). Loads cuFFT: throws as probe_cufft.
std::unique_ptr<FftLibrary> make_cufft_library(std::function<void(int device)> activate);

}  // namespace gpukit::detail::cuda
