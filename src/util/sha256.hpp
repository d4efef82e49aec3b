// src/util/sha256.hpp: SHA-256 (FIPS 180-4), our own, for cache keys and entry checksums.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gpukit::detail {

// Incremental SHA-256: update() any number of times, then finish() once.
class Sha256 {
public:
    using Digest = std::array<std::uint8_t, 32>;

    Sha256();

    void update(const void* data, std::size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    // Pads, returns the digest and leaves the object reset for a new message.
    Digest finish();

private:
    void compress(const std::uint8_t* block);
    void reset();

    std::array<std::uint32_t, 8> state_;
    std::array<std::uint8_t, 64> buffer_;
    std::size_t buffered_ = 0;
    std::uint64_t total_bytes_ = 0;
};

// Lower-case hexadecimal, two digits per byte.
std::string to_hex(std::span<const std::uint8_t> bytes);
// The SHA-256 of `text` in lower-case hexadecimal (64 characters).
std::string sha256_hex(std::string_view text);

}  // namespace gpukit::detail
