// src/backends/sim/red_zones.hpp: check mode's red zones: bytes that belong to no variable around
// each variable of a module, so that an index run past one variable lands there, where memcheck
// names the variable, rather than inside its neighbour, where the access would look right.
//
// The kernel's code reaches a variable through its symbol, so the compiler's assembly can be
// padded without changing what the code does. Compiled with -fdata-sections, each variable sits
// alone in a section named after it (".bss.table", ".rodata._ZL3lut", ".tbss._ZZ1kE4tile" for a
// __shared__ array); the pass puts red_zone_bytes(size) zero bytes at the start of that section,
// before the variable (aligned again after them), and as many at its end. The linker keeps a
// section whole, so every such variable has its red zones on both sides in the loaded image, and
// in each thread's copy of the thread-locals. SimModule finds the marker the pass leaves.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace gpukit::detail::sim {

// The bytes of red zone on each side of a variable of `size` bytes: its own size, rounded up to
// 64 bytes and at most 4 KiB, so that an index up to one array length past either end stays in
// the variable's own red zone.
constexpr std::size_t red_zone_bytes(std::size_t size) {
    constexpr std::size_t least = 64;
    constexpr std::size_t most = 4096;
    return std::clamp((size + least - 1) / least * least, least, most);
}

// The object the pass defines in the modules it padded (a runtime object: no kernel reads it).
inline constexpr std::string_view red_zone_marker = "gpukit_sim_red_zones";

// `assembly` (GNU assembler syntax, as g++ or clang++ -S -fdata-sections write it) with red zones
// around each object that sits alone in a data section named after it, and the marker. An object
// that shares its section (one the source placed with a section attribute) is left as it is.
std::string add_red_zones(std::string_view assembly);

}  // namespace gpukit::detail::sim
