// src/util/elf_symbols.cpp: the symbol table of an ELF64 object or shared library in memory.
#include "util/elf_symbols.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "gpukit/error.hpp"

namespace gpukit::detail {

namespace {

template <class T>
T read_at(std::string_view image, std::uint64_t offset) {
    if (offset > image.size() || image.size() - offset < sizeof(T))
        throw InvalidArgumentError("read_elf_symbols: the ELF file is truncated");
    T value;
    std::memcpy(&value, image.data() + offset, sizeof(T));
    return value;
}

// The program headers of an ELF64 file; `reader` names the caller in the error for anything else.
std::vector<Elf64_Phdr> program_headers(std::string_view image, const char* reader) {
    const auto header = read_at<Elf64_Ehdr>(image, 0);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64)
        throw InvalidArgumentError(std::string(reader) + ": not an ELF64 file");
    std::vector<Elf64_Phdr> programs;
    for (unsigned i = 0; i < header.e_phnum; ++i)
        programs.push_back(read_at<Elf64_Phdr>(image, header.e_phoff + std::uint64_t{i} * header.e_phentsize));
    return programs;
}

}  // namespace

std::vector<ElfSymbol> read_elf_symbols(std::string_view image) {
    const auto header = read_at<Elf64_Ehdr>(image, 0);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_ident[EI_DATA] != ELFDATA2LSB)
        throw InvalidArgumentError("read_elf_symbols: not a little-endian ELF64 file");

    std::vector<Elf64_Shdr> sections;
    for (unsigned i = 0; i < header.e_shnum; ++i)
        sections.push_back(read_at<Elf64_Shdr>(image, header.e_shoff + std::uint64_t{i} * header.e_shentsize));

    const Elf64_Shdr* table = nullptr;
    for (const auto& section : sections)
        if (section.sh_type == SHT_SYMTAB) table = &section;
    if (!table)
        for (const auto& section : sections)
            if (section.sh_type == SHT_DYNSYM) table = &section;
    if (!table) return {};
    if (table->sh_link >= sections.size()) throw InvalidArgumentError("read_elf_symbols: bad string table index");
    const Elf64_Shdr& strings = sections[table->sh_link];

    std::vector<ElfSymbol> symbols;
    const std::uint64_t count = table->sh_entsize ? table->sh_size / table->sh_entsize : 0;
    for (std::uint64_t i = 1; i < count; ++i) {  // entry 0 is the null symbol
        const auto raw = read_at<Elf64_Sym>(image, table->sh_offset + i * table->sh_entsize);
        ElfSymbol symbol;
        const std::uint64_t name_at = strings.sh_offset + raw.st_name;
        if (raw.st_name >= strings.sh_size || name_at >= image.size())
            throw InvalidArgumentError("read_elf_symbols: a symbol name lies outside the string table");
        const char* name = image.data() + name_at;
        symbol.name.assign(name, strnlen(name, image.size() - name_at));
        symbol.value = raw.st_value;
        symbol.size = raw.st_size;
        symbol.type = ELF64_ST_TYPE(raw.st_info);
        symbol.binding = ELF64_ST_BIND(raw.st_info);
        symbol.defined = raw.st_shndx != SHN_UNDEF;
        symbols.push_back(std::move(symbol));
    }
    return symbols;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> read_elf_load_segments(std::string_view image) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> segments;
    for (const auto& program : program_headers(image, "read_elf_load_segments"))
        if (program.p_type == PT_LOAD) segments.emplace_back(program.p_vaddr, program.p_vaddr + program.p_memsz);
    return segments;
}

std::vector<ElfSegment> read_elf_segments(std::string_view image) {
    std::vector<ElfSegment> segments;
    for (const auto& program : program_headers(image, "read_elf_segments"))
        if (program.p_type == PT_LOAD)
            segments.push_back({program.p_vaddr, program.p_vaddr + program.p_memsz, (program.p_flags & PF_W) != 0,
                                (program.p_flags & PF_X) != 0});
    return segments;
}

std::pair<std::uint64_t, std::uint64_t> read_elf_relro(std::string_view image) {
    for (const auto& program : program_headers(image, "read_elf_relro"))
        if (program.p_type == PT_GNU_RELRO) return {program.p_vaddr, program.p_vaddr + program.p_memsz};
    return {0, 0};
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> read_elf_writable_ranges(std::string_view image) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> writable, relro;
    for (const auto& program : program_headers(image, "read_elf_writable_ranges")) {
        if (program.p_type == PT_LOAD && (program.p_flags & PF_W))
            writable.emplace_back(program.p_vaddr, program.p_vaddr + program.p_memsz);
        if (program.p_type == PT_GNU_RELRO) relro.emplace_back(program.p_vaddr, program.p_vaddr + program.p_memsz);
    }
    for (const auto& [protected_begin, protected_end] : relro) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> remaining;
        for (const auto& [begin, end] : writable) {
            if (begin < std::min(end, protected_begin)) remaining.emplace_back(begin, std::min(end, protected_begin));
            if (std::max(begin, protected_end) < end) remaining.emplace_back(std::max(begin, protected_end), end);
        }
        writable = std::move(remaining);
    }
    return writable;
}

}  // namespace gpukit::detail
