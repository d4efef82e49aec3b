// src/cache/cache_entry.cpp: writing and checking disk cache entries.
#include "cache/cache_entry.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "util/sha256.hpp"

namespace gpukit::detail {

namespace {

constexpr std::string_view magic = "GPUKITC";
constexpr char format_version = 1;
constexpr std::size_t digest_size = 32;

void append_number(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(static_cast<std::uint8_t>(value >> (8 * i))));
}

void append_text(std::string& out, std::string_view text) {
    append_number(out, text.size(), 8);
    out.append(text);
}

std::string encode_payload(const CompiledImage& image) {
    std::string payload;
    payload.reserve(image.data.size() + image.log.size() + 64);
    append_number(payload, static_cast<std::uint32_t>(image.format), 4);
    append_text(payload, image.data);
    append_text(payload, image.log);
    append_number(payload, image.lowered_names.size(), 8);
    for (const auto& [expression, mangled] : image.lowered_names) {
        append_text(payload, expression);
        append_text(payload, mangled);
    }
    return payload;
}

// Reads from untrusted bytes: every read checks the bounds first and reports failure by
// returning false, so a damaged entry can never read past the end or allocate absurd sizes.
class Reader {
public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}

    bool number(std::uint64_t& value, int size) {
        if (remaining() < static_cast<std::size_t>(size)) return false;
        value = 0;
        for (int i = 0; i < size; ++i) value |= std::uint64_t{static_cast<std::uint8_t>(bytes_[pos_ + i])} << (8 * i);
        pos_ += size;
        return true;
    }
    bool raw(std::string_view& out, std::uint64_t size) {
        if (remaining() < size) return false;
        out = bytes_.substr(pos_, size);
        pos_ += size;
        return true;
    }
    bool text(std::string& out) {
        std::uint64_t size = 0;
        std::string_view view;
        if (!number(size, 8) || !raw(view, size)) return false;
        out.assign(view);
        return true;
    }
    std::size_t remaining() const { return bytes_.size() - pos_; }

private:
    std::string_view bytes_;
    std::size_t pos_ = 0;
};

bool valid_format(std::uint64_t value) {
    for (ImageFormat format : {ImageFormat::cubin, ImageFormat::ptx, ImageFormat::fatbin, ImageFormat::shared_object})
        if (value == static_cast<std::uint64_t>(format)) return true;
    return false;
}

std::optional<CompiledImage> decode_payload(std::string_view payload) {
    Reader reader(payload);
    CompiledImage image;
    std::uint64_t format = 0;
    if (!reader.number(format, 4) || !valid_format(format)) return std::nullopt;
    image.format = static_cast<ImageFormat>(format);
    if (!reader.text(image.data) || !reader.text(image.log)) return std::nullopt;
    std::uint64_t count = 0;
    if (!reader.number(count, 8)) return std::nullopt;
    // Each pair takes at least 16 bytes: a count the rest cannot hold is damage, not a reason to reserve.
    if (count > reader.remaining() / 16) return std::nullopt;
    image.lowered_names.resize(count);
    for (auto& [expression, mangled] : image.lowered_names)
        if (!reader.text(expression) || !reader.text(mangled)) return std::nullopt;
    if (reader.remaining() != 0) return std::nullopt;
    return image;
}

}  // namespace

std::string encode_cache_entry(std::string_view key, const CompiledImage& image) {
    const std::string payload = encode_payload(image);
    Sha256 hasher;
    hasher.update(payload);
    const Sha256::Digest digest = hasher.finish();

    std::string entry;
    entry.reserve(magic.size() + 1 + 4 + key.size() + 8 + digest_size + payload.size());
    entry.append(magic);
    entry.push_back(format_version);
    append_number(entry, key.size(), 4);
    entry.append(key);
    append_number(entry, payload.size(), 8);
    entry.append(reinterpret_cast<const char*>(digest.data()), digest.size());
    entry.append(payload);
    return entry;
}

std::optional<CompiledImage> decode_cache_entry(std::string_view key, std::string_view bytes) {
    Reader reader(bytes);
    std::string_view found_magic;
    if (!reader.raw(found_magic, magic.size()) || found_magic != magic) return std::nullopt;
    std::string_view version;
    if (!reader.raw(version, 1) || version[0] != format_version) return std::nullopt;
    std::uint64_t key_size = 0;
    std::string_view found_key;
    if (!reader.number(key_size, 4) || !reader.raw(found_key, key_size) || found_key != key) return std::nullopt;
    std::uint64_t payload_size = 0;
    std::string_view expected_digest;
    if (!reader.number(payload_size, 8) || !reader.raw(expected_digest, digest_size)) return std::nullopt;
    std::string_view payload;
    if (reader.remaining() != payload_size || !reader.raw(payload, payload_size)) return std::nullopt;

    Sha256 hasher;
    hasher.update(payload);
    const Sha256::Digest digest = hasher.finish();
    if (std::memcmp(digest.data(), expected_digest.data(), digest_size) != 0) return std::nullopt;
    return decode_payload(payload);
}

}  // namespace gpukit::detail
