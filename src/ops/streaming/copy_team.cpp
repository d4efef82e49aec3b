// src/ops/streaming/copy_team.cpp: see copy_team.hpp.
#include "ops/streaming/copy_team.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gpukit::detail {
namespace {
// Below this a copy is one thread's: waking the others costs more than they save.
constexpr std::size_t split_above = std::size_t{4} << 20;
// From this size a part is copied with stores that bypass the cache.
constexpr std::size_t stream_above = std::size_t{1} << 20;

// memcpy, but with non-temporal stores on x86-64: the bytes are read next by the copy engine (or,
// copied out, much later), not by this core, and a cached store first reads the line it is about
// to overwrite: a third of the memory traffic, where memory bandwidth is what limits the pipeline.
void copy_bytes(std::byte* dst, const std::byte* src, std::size_t bytes) {
#if defined(__x86_64__)
    if (bytes >= stream_above) {
        const std::size_t head = std::min(bytes, (16 - reinterpret_cast<std::uintptr_t>(dst) % 16) % 16);
        std::memcpy(dst, src, head);
        dst += head, src += head, bytes -= head;
        const std::size_t blocks = bytes / 64;
        for (std::size_t b = 0; b < blocks; ++b, dst += 64, src += 64) {
            const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
            const __m128i v1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
            const __m128i v2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
            const __m128i v3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst), v0);
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16), v1);
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 32), v2);
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 48), v3);
        }
        _mm_sfence();  // the streamed stores are visible before the copy counts as done
        bytes -= blocks * 64;
    }
#endif
    std::memcpy(dst, src, bytes);
}
}  // namespace

CopyTeam::CopyTeam(int threads) : threads_(std::max(1, threads)) {
    for (int index = 1; index < threads_; ++index) helpers_.emplace_back([this, index] { work(index); });
}

CopyTeam::~CopyTeam() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
}  // the jthreads join

void CopyTeam::copy(std::byte* dst, const std::byte* src, std::size_t bytes) { run(dst, src, bytes); }
void CopyTeam::zero(std::byte* dst, std::size_t bytes) { run(dst, nullptr, bytes); }

void CopyTeam::part(int index, std::byte* dst, const std::byte* src, std::size_t bytes) const {
    // Parts of whole pages, so that no two threads write one page.
    const std::size_t page = 4096;
    const std::size_t share = (bytes / static_cast<std::size_t>(threads_) + page - 1) / page * page;
    const std::size_t begin = std::min(bytes, share * static_cast<std::size_t>(index));
    const std::size_t end = std::min(bytes, begin + share);
    if (end == begin) return;
    if (src)
        copy_bytes(dst + begin, src + begin, end - begin);
    else
        std::memset(dst + begin, 0, end - begin);
}

void CopyTeam::run(std::byte* dst, const std::byte* src, std::size_t bytes) {
    if (bytes == 0) return;
    if (threads_ == 1 || bytes < split_above) {
        if (src)
            copy_bytes(dst, src, bytes);
        else
            std::memset(dst, 0, bytes);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        dst_ = dst, src_ = src, bytes_ = bytes;
        busy_ = threads_ - 1;
        ++generation_;
    }
    wake_.notify_all();
    part(0, dst, src, bytes);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
}

void CopyTeam::work(int index) {
    std::size_t seen = 0;
    for (;;) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        std::byte* dst = dst_;
        const std::byte* src = src_;
        const std::size_t bytes = bytes_;
        lock.unlock();
        part(index, dst, src, bytes);
        lock.lock();
        if (--busy_ == 0) done_.notify_one();
    }
}

}  // namespace gpukit::detail
