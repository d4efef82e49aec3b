// tests/util/elf_symbols_test.cpp: reading this test program's own ELF image.
#include "util/elf_symbols.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "gpukit/error.hpp"

// One variable the program may change, and one the dynamic linker fills with an address and then
// makes read-only (RELRO), so that each lands in the part of the image the test is about.
extern "C" {
__attribute__((used)) int gpukit_test_mutable_counter = 7;
extern const int* const gpukit_test_relocated_constant;  // extern: a namespace-scope const is otherwise local
__attribute__((used)) const int* const gpukit_test_relocated_constant = &gpukit_test_mutable_counter;
}

namespace gpukit::detail {
namespace {

std::string own_image() {
    std::ifstream file("/proc/self/exe", std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::uint64_t symbol_value(const std::vector<ElfSymbol>& symbols, const std::string& name) {
    const auto it = std::find_if(symbols.begin(), symbols.end(), [&](const ElfSymbol& s) { return s.name == name; });
    EXPECT_NE(it, symbols.end()) << name;
    return it == symbols.end() ? 0 : it->value;
}

bool inside(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges, std::uint64_t address) {
    return std::any_of(ranges.begin(), ranges.end(),
                       [&](const auto& r) { return address >= r.first && address < r.second; });
}

TEST(ElfImage, WritableRangesLeaveOutWhatTheLinkerProtectsAfterRelocation) {
    const std::string image = own_image();
    const auto symbols = read_elf_symbols(image);
    const auto loaded = read_elf_load_segments(image);
    const auto writable = read_elf_writable_ranges(image);
    const auto counter = symbol_value(symbols, "gpukit_test_mutable_counter");
    const auto constant = symbol_value(symbols, "gpukit_test_relocated_constant");
    EXPECT_TRUE(inside(loaded, counter) && inside(loaded, constant));
    EXPECT_TRUE(inside(writable, counter));
    EXPECT_FALSE(inside(writable, constant));
    for (const auto& [begin, end] : writable) EXPECT_LT(begin, end);
}

TEST(ElfImage, ANonElfImageIsAnInvalidArgument) {
    EXPECT_THROW(read_elf_writable_ranges(std::string(128, 'x')), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::detail
