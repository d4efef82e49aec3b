// src/collectives/call_agreement.cpp: ranks check that they call the same collective
// (call_agreement.hpp).
#include "collectives/call_agreement.hpp"

#include <algorithm>
#include <array>
#include <thread>

#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/event.hpp"
#include "gpukit/kernel.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

namespace {

constexpr std::int64_t descriptor_words = 8;
constexpr std::int64_t descriptor_tag = 0x676b2d63616c6c;  // "gk-call": a word a stray buffer would not hold

using Descriptor = std::array<std::int64_t, descriptor_words>;

Descriptor encode(const std::optional<CollectiveCall>& call) {
    if (!call) return {descriptor_tag, 0, 0, 0, 0, 0, 0, 0};
    return {descriptor_tag,
            1,
            static_cast<std::int64_t>(call->kind),
            static_cast<std::int64_t>(call->type),
            static_cast<std::int64_t>(call->op),
            static_cast<std::int64_t>(call->count),
            call->root,
            0};
}

bool reduces(std::int64_t kind) {
    const auto k = static_cast<CollectiveKind>(kind);
    return k == CollectiveKind::all_reduce || k == CollectiveKind::reduce || k == CollectiveKind::reduce_scatter;
}
bool rooted(std::int64_t kind) {
    const auto k = static_cast<CollectiveKind>(kind);
    return k == CollectiveKind::reduce || k == CollectiveKind::broadcast;
}

std::string describe(const Descriptor& d) {
    if (d[0] != descriptor_tag) return "not a gpukit collective (its descriptor is garbage)";
    if (d[1] == 0) return "refused its own arguments";
    return concat(to_string(static_cast<CollectiveKind>(d[2])), " of ", d[5], " ",
                  to_string(static_cast<CollectiveType>(d[3])),
                  reduces(d[2]) ? concat(" (", to_string(static_cast<ReduceOp>(d[4])), ")") : std::string(),
                  rooted(d[2]) ? concat(" to/from root ", d[6]) : std::string());
}

bool same(const Descriptor& a, const Descriptor& b) {
    if (a[0] != descriptor_tag || b[0] != descriptor_tag || a[1] == 0 || b[1] == 0) return false;
    return a[2] == b[2] && a[3] == b[3] && a[5] == b[5] && (!reduces(a[2]) || a[4] == b[4]) &&
           (!rooted(a[2]) || a[6] == b[6]);
}

// Waits for `done` without a blocking synchronize: NCCL's work may wait for a peer that never
// comes, so the wait asks the communicator for failures as it goes and gives up at the timeout.
void wait_for(const Event& done, CollectiveComm& comm, const CommunicatorOptions& options) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto pause = std::chrono::microseconds(5);
    while (!done.query()) {
        comm.raise_async_error();
        if (options.timeout && Clock::now() - start > *options.timeout) {
            const std::string why = concat("the ranks' exchange of what they are about to call did not end within ",
                                           options.timeout->count(), " s (the communicator's timeout)");
            comm.abort(why);
            throw WaitTimeoutError(concat("Failed to check a collective's arguments across ranks: ", why),
                                   options.timeout->count());
        }
        if (const auto check = wait_interrupt_check(); check && check())
            throw WaitInterruptedError("Waiting for the ranks' exchange before a collective was interrupted");
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
}

}  // namespace

void agree_on_call(CollectiveComm& comm, const Device& device, int rank, int size,
                   const std::optional<CollectiveCall>& call, const CommunicatorOptions& options) {
    const StreamRef stream = current_stream(device);
    const Descriptor mine = encode(call);
    const Array sent = Array::from_host(std::span<const std::int64_t>(mine), {descriptor_words}, device);
    const Array gathered = Array::empty({size, descriptor_words}, DType::int64, device);
    CollectiveCall exchange;
    exchange.kind = CollectiveKind::all_gather;
    exchange.type = CollectiveType::int64;
    exchange.count = descriptor_words;
    const RankBuffers buffers{launch_address(sent, stream), launch_address(gathered, stream), stream.native_handle()};
    comm.enqueue(exchange, std::span<const RankBuffers>(&buffers, 1));
    Event done(device, EventFlags::no_timing);
    done.record(stream);
    wait_for(done, comm, options);
    const std::vector<std::int64_t> words = gathered.to_vector<std::int64_t>();

    std::vector<Descriptor> all(static_cast<std::size_t>(size));
    for (std::size_t r = 0; r < all.size(); ++r)
        std::copy_n(words.begin() + static_cast<std::ptrdiff_t>(r * descriptor_words), descriptor_words,
                    all[r].begin());
    bool agree = true;
    for (const auto& other : all) agree = agree && same(other, all[0]);
    if (agree) return;
    std::string calls;
    for (std::size_t r = 0; r < all.size(); ++r)
        calls += concat(r == 0 ? "" : "; ", "rank ", r, r == static_cast<std::size_t>(rank) ? " (this one)" : "", ": ",
                        describe(all[r]));
    throw InvalidArgumentError(concat("Failed to run a collective on rank ", rank, ": the ranks did not call the same ",
                                      "one (", calls, "). Every rank must call the same collective with the same ",
                                      "count, dtype, op and root"));
}

}  // namespace gpukit::detail
