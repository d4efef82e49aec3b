// src/ops/streaming/kept.cpp: see kept.hpp.
#include "ops/streaming/kept.hpp"

#include <unistd.h>

#include <algorithm>
#include <list>
#include <memory>
#include <mutex>
#include <vector>

namespace gpukit::detail {
namespace {

// The most pinned staging kept: the default chunks' (64 MiB) in and out for up to 3 buffers, with
// room for halos, and at most 1/64 of the device's memory (the simulator counts page-locked memory
// against its device's). Larger staging is allocated and freed by its call.
constexpr std::size_t most_kept_bytes = std::size_t{512} << 20;
constexpr std::size_t most_idle_teams = 1;  // one call after another needs one; calls at once make their own

// Never destroyed: at exit the backends their destructors would call may be gone already, and the
// process's memory and threads go with it.
struct Kept {
    std::mutex mutex;
    std::list<PinnedBuffer> staging;  // oldest first
    std::size_t staging_bytes = 0;
    std::vector<std::unique_ptr<CopyTeam>> idle_teams;
    pid_t owner = getpid();

    // A child made by fork() has neither the parent's page-locked memory nor its threads: it
    // forgets them without freeing or joining anything.
    void forget_after_fork() {
        if (getpid() == owner) return;
        new std::list<PinnedBuffer>(std::move(staging));  // NOLINT(cppcoreguidelines-owning-memory): left as it is
        staging.clear();
        staging_bytes = 0;
        for (auto& team : idle_teams) static_cast<void>(team.release());
        idle_teams.clear();
        owner = getpid();
    }
};

Kept& kept() {
    static auto* const instance = new Kept;  // NOLINT(cppcoreguidelines-owning-memory): see Kept
    return *instance;
}

}  // namespace

StagingLoan::StagingLoan(Device device, std::size_t bytes) {
    {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        k.forget_after_fork();
        auto best = k.staging.end();
        for (auto it = k.staging.begin(); it != k.staging.end(); ++it)
            if (it->device() == device && it->size_bytes() >= bytes &&
                (best == k.staging.end() || it->size_bytes() < best->size_bytes()))
                best = it;
        if (best != k.staging.end()) {
            k.staging_bytes -= best->size_bytes();
            buffer_.emplace(std::move(*best));
            k.staging.erase(best);
            return;
        }
    }
    buffer_.emplace(device, bytes);
}

StagingLoan::~StagingLoan() {
    if (!buffer_) return;
    const std::size_t size = buffer_->size_bytes();
    const std::size_t bound = std::min(most_kept_bytes, buffer_->device().properties().total_memory / 64);
    if (size > bound) return;         // freed with buffer_
    std::list<PinnedBuffer> evicted;  // freed after the lock
    try {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        k.forget_after_fork();
        while (k.staging_bytes + size > bound && !k.staging.empty()) {
            k.staging_bytes -= k.staging.front().size_bytes();
            evicted.splice(evicted.end(), k.staging, k.staging.begin());
        }
        k.staging.push_back(std::move(*buffer_));
        k.staging_bytes += size;
        buffer_.reset();
    } catch (...) {  // no memory for the list's node: the buffer is freed instead
    }
}

CopyTeamLoan::CopyTeamLoan(int threads) : team_(nullptr) {
    {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        k.forget_after_fork();
        const auto it = std::find_if(k.idle_teams.begin(), k.idle_teams.end(),
                                     [&](const auto& team) { return team->threads() == threads; });
        if (it != k.idle_teams.end()) {
            team_ = it->release();
            k.idle_teams.erase(it);
            return;
        }
    }
    team_ = new CopyTeam(threads);  // NOLINT(cppcoreguidelines-owning-memory): owned until the destructor
}

CopyTeamLoan::~CopyTeamLoan() {
    std::unique_ptr<CopyTeam> team(team_);
    try {
        Kept& k = kept();
        std::lock_guard lock(k.mutex);
        k.forget_after_fork();
        if (k.idle_teams.size() < most_idle_teams) k.idle_teams.push_back(std::move(team));
    } catch (...) {  // no memory for the list: the team ends here
    }
}

}  // namespace gpukit::detail
