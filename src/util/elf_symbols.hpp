// src/util/elf_symbols.hpp: the symbol table of an ELF64 object or shared library in memory.
//
// The simulator reads it to find the extern __shared__ arrays a kernel object leaves undefined,
// the size of each kernel's static __shared__ variables, and the module's globals.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpukit::detail {

struct ElfSymbol {
    std::string name;
    std::uint64_t value = 0;  // address relative to the load base (shared objects)
    std::uint64_t size = 0;
    unsigned char type = 0;     // STT_*: 1 object, 2 function, 6 TLS
    unsigned char binding = 0;  // STB_*: 0 local, 1 global, 2 weak
    bool defined = false;
};

inline constexpr unsigned char elf_type_object = 1;
inline constexpr unsigned char elf_type_function = 2;
inline constexpr unsigned char elf_type_tls = 6;

// Every symbol of .symtab (or .dynsym where the file has no .symtab). Throws
// InvalidArgumentError when `image` is not a well-formed little-endian ELF64 file.
std::vector<ElfSymbol> read_elf_symbols(std::string_view image);

// The [begin, end) virtual address ranges of the file's loadable segments (relative to the load
// base of a shared object).
std::vector<std::pair<std::uint64_t, std::uint64_t>> read_elf_load_segments(std::string_view image);

// A loadable segment and how it is mapped.
struct ElfSegment {
    std::uint64_t begin = 0;  // virtual addresses, relative to the load base of a shared object
    std::uint64_t end = 0;
    bool writable = false;
    bool executable = false;
};
std::vector<ElfSegment> read_elf_segments(std::string_view image);
// The range the dynamic linker makes read-only after relocating it (PT_GNU_RELRO); empty if none.
std::pair<std::uint64_t, std::uint64_t> read_elf_relro(std::string_view image);

// The parts of those that stay writable once loaded: writable segments less the range the dynamic
// linker makes read-only after relocating it (PT_GNU_RELRO: vtables, typeinfo, const pointers).
std::vector<std::pair<std::uint64_t, std::uint64_t>> read_elf_writable_ranges(std::string_view image);

}  // namespace gpukit::detail
