// src/ops/elementwise/op_key.hpp: what identifies one generated elementwise kernel.
//
// Plain bytes, compared and hashed as such: looking a kernel up on every `a + b` must cost
// nanoseconds, not a string build. Two launches with equal keys run the same kernel with
// different parameters (addresses, extents, strides: gk_params).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>

#include "gpukit/dtype.hpp"
#include "ops/elementwise/collapse.hpp"

namespace gpukit::detail {

inline constexpr std::size_t max_elementwise_operands = 8;  // GK_MAX_OPERANDS in gpukit_elementwise.cuh
inline constexpr std::size_t max_elementwise_dims = 8;      // GK_MAX_DIMS

struct OpKey {
    std::uint16_t op = 0;            // which operation (its expression), ElementwiseLoop::op
    std::uint8_t nin = 0, nout = 0;  // inputs, then outputs
    std::uint8_t ndim = 0;           // of the collapsed layout
    std::uint8_t vector_width = 1;   // elements per 16-byte group; 1: element by element
    bool index32 = false;            // int indices and offsets
    bool simulated = false;          // the backend runs kernels on the CPU (chunked loop order)
    bool masked = false;             // a bool mask follows the outputs (where=)
    bool tiled = false;              // two dimensions through shared-memory tiles (transposed inputs)
    std::int32_t device = 0;         // the ordinal on the backend below; kernels are per device
    const void* backend = nullptr;   // identity of the device's backend (its BackendInfo)
    std::array<DType, max_elementwise_operands> storage{};       // each operand's dtype in memory
    std::array<DType, max_elementwise_operands> loop{};          // the dtype the expression computes it in
    std::array<AccessClass, max_elementwise_operands> access{};  // how each operand is reached

    friend bool operator==(const OpKey& a, const OpKey& b) noexcept = default;
};

struct OpKeyHash {
    std::size_t operator()(const OpKey& key) const noexcept {
        // FNV-1a over the fields (not the padding).
        std::uint64_t h = 1469598103934665603ull;
        const auto mix = [&h](const void* data, std::size_t bytes) {
            const auto* p = static_cast<const unsigned char*>(data);
            for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
        };
        mix(&key.op, sizeof key.op);
        for (const auto* byte : {&key.nin, &key.nout, &key.ndim, &key.vector_width}) mix(byte, 1);
        mix(&key.index32, sizeof key.index32);
        mix(&key.simulated, sizeof key.simulated);
        mix(&key.masked, sizeof key.masked);
        mix(&key.tiled, sizeof key.tiled);
        mix(&key.device, sizeof key.device);
        mix(&key.backend, sizeof key.backend);
        mix(key.storage.data(), sizeof key.storage);
        mix(key.loop.data(), sizeof key.loop);
        mix(key.access.data(), sizeof key.access);
        return static_cast<std::size_t>(h);
    }
};

}  // namespace gpukit::detail
