// gpukit/collectives.hpp: NCCL's collectives (all-reduce, reduce, broadcast, all-gather,
// reduce-scatter) over gpukit arrays on several devices.
//
// On GPUs they are NCCL's (libnccl.so.2, loaded at run time: `pip install nvidia-nccl-cu13`, or
// GPUKIT_NCCL=<path>); on the simulator a host implementation gives the same results in the same
// stream order, so that programs run and are tested without GPUs (GPUKIT_SIM_DEVICES=4).
//
// Two ways to make a communicator, as NCCL's:
//
//   // one process drives every device (ncclCommInitAll): one array per rank, one group call
//   auto comm = gpukit::Communicator::over(gpukit::devices());
//   std::vector<gpukit::Array> sums = comm.all_reduce({x0, x1});
//
//   // one rank per process (or per thread): rank 0 makes an id and sends its bytes to the others
//   gpukit::Communicator comm(id, rank, size, gpukit::device(rank));
//   gpukit::Array sum = comm.all_reduce({x})[0];
//
// Every call only enqueues work, on the current stream of each array's device, as NCCL does:
// read the results after the stream's work (a transfer to the host waits for it). Every rank
// must call the same collectives in the same order with the same count, dtype, op and root;
// where they do not, each rank gets an InvalidArgumentError (not a hang): one process checks
// directly, ranks in several processes exchange what they are about to call first
// (CommunicatorOptions::verify_calls). Waits end at the communicator's timeout.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/device.hpp"

namespace gpukit {

// The reductions NCCL offers. avg is sum / size: integers truncate toward zero, floats are
// multiplied by 1 / size before the sum, as NCCL computes it.
enum class ReduceOp : std::uint8_t { sum, prod, max, min, avg };

std::string_view to_string(ReduceOp op) noexcept;
// "sum", "prod", "max", "min", "avg"; InvalidArgumentError naming them for anything else.
ReduceOp reduce_op_from_name(std::string_view name);

inline constexpr std::size_t unique_id_bytes = 128;  // NCCL_UNIQUE_ID_BYTES

// What the ranks of a communicator meet by (NCCL's ncclUniqueId): made once, by one rank, and
// sent to the others as bytes (a file, a socket, MPI, a multiprocessing queue).
class UniqueId {
public:
    // A new id from the collectives of `device`'s backend (ncclGetUniqueId on a GPU).
    static UniqueId create(const Device& device = Device::current());
    // The id whose bytes() these are; InvalidArgumentError unless there are unique_id_bytes.
    static UniqueId from_bytes(std::span<const std::byte> bytes);

    std::span<const std::byte, unique_id_bytes> bytes() const noexcept { return bytes_; }
    friend bool operator==(const UniqueId&, const UniqueId&) = default;

private:
    std::array<std::byte, unique_id_bytes> bytes_{};
};

struct CommunicatorOptions {
    // How long any wait may last: for the other ranks to join, to call a collective, for the
    // work a check waits for. Past it the communicator is aborted and the call raises
    // WaitTimeoutError. 10 minutes by default, as PyTorch's process groups; nullopt: no limit,
    // as NCCL's own (a rank that never comes then hangs the others).
    std::optional<std::chrono::duration<double>> timeout = std::chrono::minutes(10);
    // One rank per process or thread: before each collective, the ranks all-gather what they are
    // about to call (kind, dtype, count, op, root: 64 bytes per rank) and the host waits for it,
    // so that a mismatch, or a rank that refused its arguments, is an InvalidArgumentError on
    // every rank instead of a hang or wrong results. That costs an all-gather and a wait per call
    // (tens of microseconds on NVLink, and the host no longer runs ahead of the device); turn it
    // off once the program is known to agree. Off, a rank that refuses its arguments aborts the
    // communicator so that the others fail (on the simulator) or time out (NCCL) rather than
    // hang. One process over several devices checks its arrays directly and ignores this.
    bool verify_calls = true;
};

// A communicator (NCCL's ncclComm_t), the ranks of it this process holds: move-only; destroying
// it destroys them.
class Communicator {
public:
    using Arrays = std::vector<Array>;

    // Rank i on devices[i], every rank in this process (ncclCommInitAll). The devices must be
    // distinct devices of one backend.
    static Communicator over(const std::vector<Device>& devices, CommunicatorOptions options = {});
    // Rank `rank` of `size`, on `device`, meeting the others by `id` (ncclCommInitRank): returns
    // once all `size` ranks have joined. On the simulator the ranks must be threads of the
    // process that made the id (it has no memory shared between processes).
    Communicator(const UniqueId& id, int rank, int size, const Device& device, CommunicatorOptions options = {});

    ~Communicator();
    Communicator(Communicator&&) noexcept;
    Communicator& operator=(Communicator&&) noexcept;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    // Ranks in the whole communicator.
    int size() const;
    // The ranks this communicator holds, in order: 0 .. size-1 (over()), or its one rank.
    const std::vector<int>& ranks() const;
    // Their devices, in the same order.
    const std::vector<Device>& devices() const;
    const CommunicatorOptions& options() const;

    // Each operation takes one array per rank held (in ranks() order), each on its rank's
    // device, contiguous or not (a strided array is copied). Where `outputs` is empty the results
    // are new arrays; outputs may be the inputs themselves (in place). They return the results,
    // one per rank held. Reductions take int8, uint8, int32, uint32, int64, uint64, float16,
    // bfloat16, float32, float64; bool with max (any), min (all) or prod (all); complex64 and
    // complex128 with sum or avg. broadcast and all_gather move any dtype.

    // Every rank gets the elementwise reduction of every rank's array (of one shape and dtype).
    Arrays all_reduce(const Arrays& inputs, ReduceOp op = ReduceOp::sum, const Arrays& outputs = {});
    // The root gets the reduction: returned where this communicator holds the root (into `output`
    // where given), nullopt elsewhere.
    std::optional<Array> reduce(const Arrays& inputs, int root, ReduceOp op = ReduceOp::sum,
                                const std::optional<Array>& output = std::nullopt);
    // Every rank's array gets the root's values, in place (as NCCL, PyTorch and CuPy do): the
    // arrays are returned. With `outputs`, the root's array is sent and the outputs receive.
    Arrays broadcast(const Arrays& arrays, int root, const Arrays& outputs = {});
    // Every rank gets every rank's array, stacked in rank order: shape (size, *input.shape) by
    // default; an output of size * input.size elements of the dtype otherwise.
    Arrays all_gather(const Arrays& inputs, const Arrays& outputs = {});
    // The reduction of every rank's array, cut into size parts along axis 0: rank r gets part r,
    // shape (input.shape[0] / size, *input.shape[1:]) by default (the first axis must divide);
    // an output of input.size / size elements otherwise.
    Arrays reduce_scatter(const Arrays& inputs, ReduceOp op = ReduceOp::sum, const Arrays& outputs = {});

    // Gives the communicator up: its later calls raise; collectives the peers wait in fail (the
    // simulator's threads) or end at their timeout (NCCL). Destroying does not abort.
    void abort();

    struct State;

private:
    explicit Communicator(std::unique_ptr<State> state);
    State& state() const;
    std::unique_ptr<State> state_;
};

}  // namespace gpukit
