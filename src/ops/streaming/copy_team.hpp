// src/ops/streaming/copy_team.hpp: a memcpy split over a few host threads.
//
// One thread copies host memory at 10-20 GB/s; the bus into pinned memory carries 50 GB/s and more.
// The streaming pipeline copies every chunk into and out of pinned staging, so it keeps a team of
// threads for its life (threads made per copy would cost a few percent of each chunk).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace gpukit::detail {

class CopyTeam {
public:
    // `threads` copying in all, the caller's among them (1: the caller alone).
    explicit CopyTeam(int threads);
    ~CopyTeam();
    CopyTeam(const CopyTeam&) = delete;
    CopyTeam& operator=(const CopyTeam&) = delete;

    // Copies `bytes` from `src` to `dst` (not overlapping); returns when done.
    void copy(std::byte* dst, const std::byte* src, std::size_t bytes);
    // Writes zeros.
    void zero(std::byte* dst, std::size_t bytes);
    int threads() const noexcept { return threads_; }

private:
    void run(std::byte* dst, const std::byte* src, std::size_t bytes);
    void part(int index, std::byte* dst, const std::byte* src, std::size_t bytes) const;
    void work(int index);

    int threads_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::byte* dst_ = nullptr;
    const std::byte* src_ = nullptr;  // null: write zeros
    std::size_t bytes_ = 0;
    std::size_t generation_ = 0;
    int busy_ = 0;
    bool stopping_ = false;
    std::vector<std::jthread> helpers_;
};

}  // namespace gpukit::detail
