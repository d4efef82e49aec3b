// tests/backends/sim/red_zones_test.cpp: the red-zone pass pads each variable that sits alone in
// its section, as g++ and clang++ write them, and leaves everything else as it was.
#include "backends/sim/red_zones.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpukit::detail::sim {
namespace {

// g++ -S -fdata-sections: the alignment, type and size come before the label.
constexpr const char* gcc_assembly = R"(	.text
	.globl	table
	.section	.bss.table,"aw",@nobits
	.align 16
	.type	table, @object
	.size	table, 16
table:
	.zero	16
	.section	.rodata
	.align 4
.L4:
	.long	.L10-.L4
	.section	.rodata._ZL3lut,"a"
	.align 32
	.type	_ZL3lut, @object
	.size	_ZL3lut, 400
_ZL3lut:
	.long	1065353216
	.zero	396
	.section	.tbss._ZZ1kE4tile,"awT",@nobits
	.align 32
	.type	_ZZ1kE4tile, @object
	.size	_ZZ1kE4tile, 20000
_ZZ1kE4tile:
	.zero	20000
	.section	.rodata.str1.1,"aMS",@progbits,1
.LC0:
	.string	"kernel.cu"
	.section	.mine,"aw"
	.type	placed, @object
	.size	placed, 4
placed:
	.long	5
	.section	.note.GNU-stack,"",@progbits
)";

// clang++ -S -fdata-sections: the type before the section, the size after the data, comments after labels.
constexpr const char* clang_assembly = R"(	.type	counts,@object                  # @counts
	.section	.bss.counts,"aw",@nobits
	.globl	counts
	.p2align	4
counts:                                 # @counts
	.zero	32
	.size	counts, 32

	.section	".note.GNU-stack","",@progbits
)";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RedZones, TheirSizeFollowsTheVariablesWithinBounds) {
    EXPECT_EQ(red_zone_bytes(1), 64u);
    EXPECT_EQ(red_zone_bytes(16), 64u);
    EXPECT_EQ(red_zone_bytes(65), 128u);
    EXPECT_EQ(red_zone_bytes(400), 448u);
    EXPECT_EQ(red_zone_bytes(20000), 4096u);
}

TEST(RedZones, EachVariableAloneInItsSectionIsPaddedOnBothSidesAndAlignedAgain) {
    const std::string padded = add_red_zones(gcc_assembly);
    EXPECT_TRUE(contains(padded, "\t.size\ttable, 16\n\t.zero\t64\n\t.align 16\ntable:\n\t.zero\t16\n")) << padded;
    EXPECT_TRUE(contains(padded, "\t.size\t_ZL3lut, 400\n\t.zero\t448\n\t.align 32\n_ZL3lut:\n")) << padded;
    // A __shared__ array is a thread-local: padded in every thread's copy.
    EXPECT_TRUE(contains(padded, "\t.zero\t4096\n\t.align 32\n_ZZ1kE4tile:\n")) << padded;
    // After the last line, the red zone after each: its section entered again.
    const auto tail = padded.find("\t.section\t.note.GNU-stack");
    ASSERT_NE(tail, std::string::npos);
    const std::string after = padded.substr(tail);
    EXPECT_TRUE(contains(after, "\t.section\t.bss.table,\"aw\",@nobits\n\t.zero\t64\n")) << after;
    EXPECT_TRUE(contains(after, "\t.section\t.rodata._ZL3lut,\"a\"\n\t.zero\t448\n")) << after;
    EXPECT_TRUE(contains(after, "\t.section\t.tbss._ZZ1kE4tile,\"awT\",@nobits\n\t.zero\t4096\n")) << after;
    EXPECT_TRUE(contains(after, std::string(red_zone_marker) + ":\n")) << after;
}

TEST(RedZones, WhatIsNotAVariableAloneInItsSectionIsLeftAsItWas) {
    const std::string padded = add_red_zones(gcc_assembly);
    EXPECT_TRUE(contains(padded, "\t.align 4\n.L4:\n")) << padded;  // a jump table
    EXPECT_TRUE(contains(padded, "\"aMS\",@progbits,1\n.LC0:\n")) << padded;
    EXPECT_TRUE(contains(padded, "\t.size\tplaced, 4\nplaced:\n")) << padded;  // a section of the source's choosing
    EXPECT_FALSE(contains(padded, "\t.section\t.mine,\"aw\"\n\t.zero")) << padded;
    // Every original line is there, in order.
    std::string::size_type at = 0;
    const std::string original = gcc_assembly;
    for (std::string::size_type line = 0; line < original.size();) {
        const auto end = original.find('\n', line);
        const std::string text = original.substr(line, end - line + 1);
        at = padded.find(text, at);
        ASSERT_NE(at, std::string::npos) << "lost or moved: " << text;
        line = end + 1;
    }
}

TEST(RedZones, ClangsLayoutIsPaddedToo) {
    const std::string padded = add_red_zones(clang_assembly);
    EXPECT_TRUE(contains(padded, "\t.p2align\t4\n\t.zero\t64\n\t.p2align\t4\ncounts:")) << padded;
    EXPECT_TRUE(contains(padded, "\t.section\t.bss.counts,\"aw\",@nobits\n\t.zero\t64\n\t.section\t.rodata."))
        << padded;
}

}  // namespace
}  // namespace gpukit::detail::sim
