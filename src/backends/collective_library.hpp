// src/backends/collective_library.hpp: collective communication across a backend's devices
// (all-reduce, reduce, broadcast, all-gather, reduce-scatter), as NCCL offers it.
//
// gpukit's collectives (include/gpukit/collectives.hpp) are written once against this; the CUDA
// backend serves it with NCCL, loaded at run time, the simulator with a host implementation that
// runs in its streams' order, so that the same programs run (and are tested) without a GPU.
//
// Everything here is NCCL's model: a communicator of `size` ranks, one device each; a collective
// is called by every rank with the same kind, element type, count, operation and root, and only
// enqueues work on each rank's stream. The caller (src/collectives/) has checked the arguments
// it can see; a library checks again what it can see across ranks, and never hangs for ever:
// its waits end at the communicator's timeout.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "gpukit/collectives.hpp"

namespace gpukit::detail {

using NativeStream = void*;  // nullptr: the device's default stream

// The element types a collective moves or reduces: NCCL's (ncclDataType_t), under our names; each
// library maps them to its own.
enum class CollectiveType : std::uint8_t {
    int8,
    uint8,
    int32,
    uint32,
    int64,
    uint64,
    float16,
    float32,
    float64,
    bfloat16
};

constexpr std::size_t collective_type_size(CollectiveType type) noexcept {
    switch (type) {
        case CollectiveType::int8:
        case CollectiveType::uint8: return 1;
        case CollectiveType::float16:
        case CollectiveType::bfloat16: return 2;
        case CollectiveType::int32:
        case CollectiveType::uint32:
        case CollectiveType::float32: return 4;
        default: return 8;
    }
}

constexpr const char* to_string(CollectiveType type) noexcept {
    constexpr const char* names[] = {"int8",   "uint8",   "int32",   "uint32",  "int64",
                                     "uint64", "float16", "float32", "float64", "bfloat16"};
    return names[static_cast<std::size_t>(type)];
}

enum class CollectiveKind : std::uint8_t { all_reduce, reduce, broadcast, all_gather, reduce_scatter };

constexpr const char* to_string(CollectiveKind kind) noexcept {
    constexpr const char* names[] = {"all_reduce", "reduce", "broadcast", "all_gather", "reduce_scatter"};
    return names[static_cast<std::size_t>(kind)];
}

// What every rank of one collective must agree on. `count` is NCCL's: the elements of each rank's
// send buffer for all_reduce, reduce and broadcast; of each rank's part (its send buffer) for
// all_gather; of each rank's result (its receive buffer) for reduce_scatter.
struct CollectiveCall {
    CollectiveKind kind = CollectiveKind::all_reduce;
    CollectiveType type = CollectiveType::uint8;
    ReduceOp op = ReduceOp::sum;  // reductions only
    std::size_t count = 0;
    int root = 0;  // reduce and broadcast only
};

// One rank's buffers (device addresses) and the stream its work runs on. `send == receive` (or,
// for all_gather and reduce_scatter, the rank's own part of the larger buffer) is in place.
struct RankBuffers {
    std::uint64_t send = 0;
    std::uint64_t receive = 0;
    NativeStream stream = nullptr;
};

// How long a communicator's waits may last (joining, a rendezvous, a collective the host waits
// for); nullopt: without limit, as NCCL by default.
struct CollectiveOptions {
    std::optional<std::chrono::duration<double>> timeout;
};

// The ranks of one communicator that this process holds: all of them (one process over several
// devices) or one (a rank per process or per thread). Destroying it frees the communicator
// (ncclCommDestroy); it never throws.
class CollectiveComm {
public:
    virtual ~CollectiveComm() = default;

    // Enqueues `call` for every rank held, `buffers[i]` for the i-th (in rank order), as one group
    // (NCCL's ncclGroupStart/End), on the ranks' streams. Throws InvalidArgumentError, before
    // anything is enqueued, where the ranks disagree and the library can see it; Error where the
    // communicator failed or was aborted; WaitTimeoutError past the timeout.
    virtual void enqueue(const CollectiveCall& call, std::span<const RankBuffers> buffers) = 0;
    // Throws the first failure the communicator met asynchronously (a peer gone, a network error,
    // an abort); returns quietly while all is well.
    virtual void raise_async_error() = 0;
    // Gives the communicator up: enqueued and later collectives fail (on every rank where the
    // library can tell the others) rather than wait. Never throws.
    virtual void abort(const std::string& why) noexcept = 0;
};

using UniqueIdBytes = std::array<std::byte, unique_id_bytes>;

class CollectiveLibrary {
public:
    virtual ~CollectiveLibrary() = default;

    // "NCCL 2.28.3 (/path/libnccl.so.2)": for messages and `gpukit info`.
    virtual std::string identity() const = 0;
    // A new id for ranks to meet by (ncclGetUniqueId).
    virtual UniqueIdBytes create_unique_id() = 0;
    // One communicator over `devices`, rank i on devices[i], all in this process (ncclCommInitAll).
    virtual std::unique_ptr<CollectiveComm> create_comm(std::span<const int> devices,
                                                        const CollectiveOptions& options) = 0;
    // Rank `rank` of `size` ranks that meet by `id`, on `device` (ncclCommInitRank): returns once
    // every rank has joined; WaitTimeoutError past the timeout.
    virtual std::unique_ptr<CollectiveComm> join(const UniqueIdBytes& id, int rank, int size, int device,
                                                 const CollectiveOptions& options) = 0;
};

}  // namespace gpukit::detail
