// src/backends/sim/sim_fft.hpp: the simulator's FFT library (backends/fft_library.hpp): CpuFft
// run as host work in stream order on the simulator's device memory, which this process maps at
// the device addresses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "backends/fft_library.hpp"

namespace gpukit::detail::sim {

// How the library reaches the backend: `enqueue` runs work on a stream in order with its other
// work; `wrote` tells check mode that the host wrote device memory (initcheck counts it written).
struct SimFftHooks {
    std::function<void(NativeStream, std::function<void()>)> enqueue;
    std::function<void(std::uint64_t address, std::size_t bytes)> wrote;
};

std::unique_ptr<FftLibrary> make_sim_fft(SimFftHooks hooks);

}  // namespace gpukit::detail::sim
