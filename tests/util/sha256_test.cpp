// tests/util/sha256_test.cpp: SHA-256 against the FIPS 180 test vectors, and incremental use.
#include "util/sha256.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace gpukit::detail {
namespace {

TEST(Sha256, EmptyMessage) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) { EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"); }

TEST(Sha256, FourHundredFortyEightBitMessage) {
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, EightHundredNinetySixBitMessage) {
    EXPECT_EQ(
        sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                   "mnopqrstnopqrstu"),
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
    EXPECT_EQ(sha256_hex(std::string(1'000'000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, OneMillionAInOddChunks) {
    Sha256 hasher;
    const std::string chunk(997, 'a');
    std::size_t left = 1'000'000;
    while (left > 0) {
        const std::size_t take = std::min(left, chunk.size());
        hasher.update(chunk.data(), take);
        left -= take;
    }
    EXPECT_EQ(to_hex(hasher.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
    // 55, 56 and 64 bytes: the length fits in the last block, just does not, and a whole block.
    EXPECT_EQ(sha256_hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(sha256_hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, SplitAtEveryOffsetEqualsOneShot) {
    std::mt19937 random(12345);
    std::string message(200, '\0');
    for (char& c : message) c = static_cast<char>(random());
    const std::string expected = sha256_hex(message);
    for (std::size_t split = 0; split <= message.size(); ++split) {
        Sha256 hasher;
        hasher.update(message.data(), split);
        hasher.update(std::string_view(message).substr(split));
        EXPECT_EQ(to_hex(hasher.finish()), expected) << "split at " << split;
    }
}

TEST(Sha256, ByteByByteEqualsOneShot) {
    const std::string message = "the quick brown fox jumps over the lazy dog, many times over and over again";
    Sha256 hasher;
    for (char c : message) hasher.update(&c, 1);
    EXPECT_EQ(to_hex(hasher.finish()), sha256_hex(message));
}

TEST(Sha256, FinishResetsForANewMessage) {
    Sha256 hasher;
    hasher.update("something else");
    (void)hasher.finish();
    hasher.update("abc");
    EXPECT_EQ(to_hex(hasher.finish()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, ToHexIsLowerCaseTwoDigitsPerByte) {
    const std::uint8_t bytes[] = {0x00, 0x0f, 0xa0, 0xff};
    EXPECT_EQ(to_hex(bytes), "000fa0ff");
    EXPECT_EQ(to_hex({}), "");
}

}  // namespace
}  // namespace gpukit::detail
