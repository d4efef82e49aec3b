// src/ops/streaming/kept.hpp: what the streaming pipeline keeps between calls, lent to each call.
//
// Page-locking memory costs milliseconds a call (cuMemHostAlloc faults in and locks every page,
// and cuMemFreeHost waits for the device), and a team of copy threads costs a thread start each:
// more than the copies of a small streamed call take. So the pinned staging and the copy team
// outlive the call that made them, up to a bound, and the next call borrows them.
#pragma once

#include <cstddef>
#include <optional>

#include "gpukit/memory.hpp"
#include "ops/streaming/copy_team.hpp"

namespace gpukit::detail {

// Pinned staging of at least `bytes` for `device`: a kept buffer if one fits, else a new one. It
// goes back when the loan ends (its copies done), kept while the kept total stays under the bound.
class StagingLoan {
public:
    StagingLoan(Device device, std::size_t bytes);
    ~StagingLoan();
    StagingLoan(StagingLoan&& other) noexcept : buffer_(std::move(other.buffer_)) { other.buffer_.reset(); }
    StagingLoan& operator=(StagingLoan&&) = delete;
    StagingLoan(const StagingLoan&) = delete;
    StagingLoan& operator=(const StagingLoan&) = delete;

    std::byte* data() const { return buffer_->data(); }
    std::size_t size_bytes() const { return buffer_->size_bytes(); }

private:
    std::optional<PinnedBuffer> buffer_;  // empty once moved from
};

// A copy team of `threads` threads: a kept one of that size, else a new one.
class CopyTeamLoan {
public:
    explicit CopyTeamLoan(int threads);
    ~CopyTeamLoan();
    CopyTeamLoan(const CopyTeamLoan&) = delete;
    CopyTeamLoan& operator=(const CopyTeamLoan&) = delete;

    CopyTeam& operator*() const { return *team_; }

private:
    CopyTeam* team_;
};

}  // namespace gpukit::detail
