// src/collectives/communicator.cpp: gpukit's communicator over the backend's collectives
// (gpukit/collectives.hpp, backends/collective_library.hpp).
//
// Each operation checks its arrays and turns them into one CollectiveCall and each rank's buffers
// (a strided array goes through a contiguous copy, as CuPy users expect it to work), all on the
// current stream of each array's device, then hands them to the library in one group.
#include <algorithm>

#include "collectives/call_agreement.hpp"
#include "collectives/collective_library_of.hpp"
#include "collectives/wire_type.hpp"
#include "gpukit/collectives.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

struct Communicator::State {
    detail::CollectiveLibrary* library = nullptr;
    std::unique_ptr<detail::CollectiveComm> comm;
    int size = 0;
    std::vector<int> ranks;  // held, in order
    std::vector<Device> devices;
    CommunicatorOptions options;
    bool one_rank = false;  // a rank of several processes or threads, rather than every rank here
    std::string aborted;
};

namespace {

detail::CollectiveOptions library_options(const CommunicatorOptions& options) {
    if (options.timeout && options.timeout->count() <= 0)
        throw InvalidArgumentError(
            concat("A communicator's timeout must be positive (or none), not ", options.timeout->count(), " s"));
    return {options.timeout};
}

// One rank's part of a call: what is sent, what receives, and the array the caller gets.
struct RankPart {
    std::optional<Array> send;  // optional: Array has no empty state; set by each operation
    std::optional<Array> receive;
    std::optional<Array> result;
    bool copy_back = false;  // receive is a contiguous stand-in for the strided result
};

Array contiguous(const Array& array) { return array.is_c_contiguous() ? array : array.copy(); }

// The result array as the collective writes it: itself where contiguous, else a stand-in.
void set_result(RankPart& part, const Array& result) {
    part.result = result;
    part.copy_back = !result.is_c_contiguous();
    part.receive = part.copy_back ? Array::empty(result.shape(), result.dtype(), result.device()) : result;
}

void require_like(const Array& output, const Array& input, std::string_view operation, int rank) {
    if (output.dtype() != input.dtype() || output.shape() != input.shape())
        throw InvalidArgumentError(concat("Failed to ", operation, " on rank ", rank, ": its output is ",
                                          format_shape(output.shape()), " ", to_string(output.dtype()),
                                          " where the input is ", format_shape(input.shape()), " ",
                                          to_string(input.dtype()), " (they must match)"));
}

void require_elements(const Array& output, DType dtype, std::int64_t elements, std::string_view operation, int rank,
                      std::string_view rule) {
    if (output.dtype() != dtype || output.size() != elements)
        throw InvalidArgumentError(concat("Failed to ", operation, " on rank ", rank, ": its output holds ",
                                          output.size(), " ", to_string(output.dtype()), " where ", rule, " needs ",
                                          elements, " ", to_string(dtype)));
}

std::string describe(const detail::CollectiveCall& call) {
    return concat(call.count, " ", to_string(call.type), " elements");
}

bool same_call(const detail::CollectiveCall& a, const detail::CollectiveCall& b) {
    return a.kind == b.kind && a.type == b.type && a.op == b.op && a.count == b.count && a.root == b.root;
}

}  // namespace

Communicator::Communicator(std::unique_ptr<State> state) : state_(std::move(state)) {}
Communicator::~Communicator() = default;
Communicator::Communicator(Communicator&&) noexcept = default;
Communicator& Communicator::operator=(Communicator&&) noexcept = default;

Communicator::State& Communicator::state() const {
    if (!state_) throw UsageError("This Communicator was moved from");
    return *state_;
}

Communicator Communicator::over(const std::vector<Device>& devices, CommunicatorOptions options) {
    if (devices.empty()) throw InvalidArgumentError("Failed to make a communicator: no devices were given");
    std::vector<int> ordinals;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (&devices[i].backend() != &devices[0].backend())
            throw InvalidArgumentError(concat("Failed to make a communicator: ", devices[i].describe(), " and ",
                                              devices[0].describe(), " belong to different backends"));
        for (std::size_t j = 0; j < i; ++j)
            if (devices[j] == devices[i])
                throw InvalidArgumentError(concat("Failed to make a communicator: ", devices[i].describe(),
                                                  " is given twice (ranks ", j, " and ", i,
                                                  "); each rank needs a device of its own"));
        ordinals.push_back(devices[i].ordinal());
    }
    auto state = std::make_unique<State>();
    state->library = &detail::collective_library_of(devices[0]);
    state->comm = state->library->create_comm(ordinals, library_options(options));
    state->size = static_cast<int>(devices.size());
    for (int r = 0; r < state->size; ++r) state->ranks.push_back(r);
    state->devices = devices;
    state->options = options;
    return Communicator(std::move(state));
}

Communicator::Communicator(const UniqueId& id, int rank, int size, const Device& device, CommunicatorOptions options) {
    if (size < 1 || rank < 0 || rank >= size)
        throw InvalidArgumentError(concat("Failed to make a communicator: rank ", rank, " is not a rank of ", size,
                                          " (ranks go from 0 to size - 1)"));
    auto state = std::make_unique<State>();
    state->library = &detail::collective_library_of(device);
    detail::UniqueIdBytes bytes{};
    std::copy(id.bytes().begin(), id.bytes().end(), bytes.begin());
    state->comm = state->library->join(bytes, rank, size, device.ordinal(), library_options(options));
    state->size = size;
    state->ranks = {rank};
    state->devices = {device};
    state->options = options;
    state->one_rank = true;
    state_ = std::move(state);
}

int Communicator::size() const { return state().size; }
const std::vector<int>& Communicator::ranks() const { return state().ranks; }
const std::vector<Device>& Communicator::devices() const { return state().devices; }
const CommunicatorOptions& Communicator::options() const { return state().options; }

void Communicator::abort() {
    State& s = state();
    if (s.aborted.empty()) s.aborted = "abort() was called";
    s.comm->abort(concat("rank ", s.ranks.front(), " called abort()"));
}

namespace {

// Prepares every rank's part (prepare(i, part) returns the rank's call), checks that the ranks
// agree, and enqueues the collective as one group; a refused argument is raised before anything
// of the collective is enqueued, on every rank (see CommunicatorOptions::verify_calls).
template <class Prepare>
std::vector<RankPart> run(Communicator::State& s, std::string_view operation, const Communicator::Arrays& inputs,
                          Prepare prepare) {
    if (!s.aborted.empty())
        throw UsageError(concat("Failed to ", operation, ": the communicator was aborted (", s.aborted, ")"));
    s.comm->raise_async_error();
    std::vector<RankPart> parts(s.ranks.size());
    std::optional<detail::CollectiveCall> call;
    std::exception_ptr refused;
    try {
        if (inputs.size() != s.ranks.size())
            throw InvalidArgumentError(concat("Failed to ", operation, ": the communicator holds ", s.ranks.size(),
                                              s.ranks.size() == 1 ? " rank" : " ranks",
                                              " and takes one array each, not ", inputs.size()));
        for (std::size_t i = 0; i < s.ranks.size(); ++i) {
            if (inputs[i].device() != s.devices[i])
                throw InvalidArgumentError(concat("Failed to ", operation, ": rank ", s.ranks[i], "'s array is on ",
                                                  inputs[i].device().describe(), ", not on the rank's ",
                                                  s.devices[i].describe(), " (copy it with to_device)"));
            const detail::CollectiveCall mine = prepare(i, parts[i]);
            if (!call) {
                call = mine;
            } else if (!same_call(*call, mine)) {
                throw InvalidArgumentError(concat("Failed to ", operation, ": the ranks' arrays differ (rank ",
                                                  s.ranks[0], ": ", describe(*call), "; rank ", s.ranks[i], ": ",
                                                  describe(mine), "); every rank's array must have the same dtype ",
                                                  "and size"));
            }
        }
    } catch (...) {
        refused = std::current_exception();
    }
    if (s.one_rank && s.options.verify_calls) {
        try {
            detail::agree_on_call(*s.comm, s.devices[0], s.ranks[0], s.size, refused ? std::nullopt : call, s.options);
        } catch (const InvalidArgumentError&) {
            if (refused) std::rethrow_exception(refused);  // this rank's own reason says more
            throw;
        }
    } else if (refused) {
        // Without the exchange the other ranks cannot learn it: give the communicator up, so
        // that they fail (or time out) rather than wait for this rank for ever.
        if (s.one_rank) {
            s.aborted = concat("rank ", s.ranks[0], " refused the arguments of a ", operation);
            s.comm->abort(s.aborted);
        }
        std::rethrow_exception(refused);
    }
    std::vector<detail::RankBuffers> buffers;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const StreamRef stream = current_stream(s.devices[i]);
        buffers.push_back({detail::launch_address(*parts[i].send, stream),
                           detail::launch_address(*parts[i].receive, stream), stream.native_handle()});
    }
    s.comm->enqueue(*call, buffers);
    for (auto& part : parts)
        if (part.copy_back) part.result->assign(*part.receive);
    return parts;
}

Communicator::Arrays results(const std::vector<RankPart>& parts) {
    Communicator::Arrays arrays;
    for (const auto& part : parts) arrays.push_back(*part.result);
    return arrays;
}

void require_outputs(const Communicator::Arrays& outputs, std::size_t ranks, std::string_view operation) {
    if (!outputs.empty() && outputs.size() != ranks)
        throw InvalidArgumentError(concat("Failed to ", operation, ": ", outputs.size(), " outputs were given for ",
                                          ranks, ranks == 1 ? " rank" : " ranks", " (one each, or none)"));
}

void require_root(int root, int size, std::string_view operation) {
    if (root < 0 || root >= size)
        throw InvalidArgumentError(
            concat("Failed to ", operation, ": root ", root, " is not a rank of ", size, " (0 to ", size - 1, ")"));
}

}  // namespace

Communicator::Arrays Communicator::all_reduce(const Arrays& inputs, ReduceOp op, const Arrays& outputs) {
    State& s = state();
    require_outputs(outputs, s.ranks.size(), "all_reduce");
    return results(run(s, "all_reduce", inputs, [&](std::size_t i, RankPart& part) {
        const Array& input = inputs[i];
        const auto wire = detail::reduction_wire_type(input.dtype(), op, "all_reduce");
        if (!outputs.empty()) require_like(outputs[i], input, "all_reduce", s.ranks[i]);
        part.send = contiguous(input);
        set_result(part, outputs.empty() ? Array::empty(input.shape(), input.dtype(), input.device()) : outputs[i]);
        return detail::CollectiveCall{detail::CollectiveKind::all_reduce, wire.type, op,
                                      static_cast<std::size_t>(input.size()) * wire.per_element, 0};
    }));
}

std::optional<Array> Communicator::reduce(const Arrays& inputs, int root, ReduceOp op,
                                          const std::optional<Array>& output) {
    State& s = state();
    require_root(root, s.size, "reduce");
    const bool holds_root = std::find(s.ranks.begin(), s.ranks.end(), root) != s.ranks.end();
    if (output && !holds_root)
        throw InvalidArgumentError(concat("Failed to reduce: an output was given, but only the root (rank ", root,
                                          ") receives one, and this communicator holds rank ", s.ranks.front()));
    const auto parts = run(s, "reduce", inputs, [&](std::size_t i, RankPart& part) {
        const Array& input = inputs[i];
        const auto wire = detail::reduction_wire_type(input.dtype(), op, "reduce");
        part.send = contiguous(input);
        if (s.ranks[i] == root) {
            if (output) require_like(*output, input, "reduce", root);
            set_result(part, output ? *output : Array::empty(input.shape(), input.dtype(), input.device()));
        } else {
            part.receive = part.send;  // NCCL writes only the root's
        }
        return detail::CollectiveCall{detail::CollectiveKind::reduce, wire.type, op,
                                      static_cast<std::size_t>(input.size()) * wire.per_element, root};
    });
    for (const auto& part : parts)
        if (part.result) return part.result;
    return std::nullopt;
}

Communicator::Arrays Communicator::broadcast(const Arrays& arrays, int root, const Arrays& outputs) {
    State& s = state();
    require_root(root, s.size, "broadcast");
    require_outputs(outputs, s.ranks.size(), "broadcast");
    return results(run(s, "broadcast", arrays, [&](std::size_t i, RankPart& part) {
        const Array& array = arrays[i];
        const auto wire = detail::movement_wire_type(array.dtype());
        if (!outputs.empty()) require_like(outputs[i], array, "broadcast", s.ranks[i]);
        set_result(part, outputs.empty() ? array : outputs[i]);
        // Only the root's is read; the others pass their receiving array, as NCCL allows.
        part.send = s.ranks[i] == root ? contiguous(array) : *part.receive;
        return detail::CollectiveCall{detail::CollectiveKind::broadcast, wire.type, ReduceOp::sum,
                                      static_cast<std::size_t>(array.size()) * wire.per_element, root};
    }));
}

Communicator::Arrays Communicator::all_gather(const Arrays& inputs, const Arrays& outputs) {
    State& s = state();
    require_outputs(outputs, s.ranks.size(), "all_gather");
    return results(run(s, "all_gather", inputs, [&](std::size_t i, RankPart& part) {
        const Array& input = inputs[i];
        const auto wire = detail::movement_wire_type(input.dtype());
        Shape stacked{s.size};
        stacked.insert(stacked.end(), input.shape().begin(), input.shape().end());
        if (!outputs.empty())
            require_elements(outputs[i], input.dtype(), s.size * input.size(), "all_gather", s.ranks[i],
                             "size x the input's elements");
        part.send = contiguous(input);
        set_result(part, outputs.empty() ? Array::empty(stacked, input.dtype(), input.device()) : outputs[i]);
        return detail::CollectiveCall{detail::CollectiveKind::all_gather, wire.type, ReduceOp::sum,
                                      static_cast<std::size_t>(input.size()) * wire.per_element, 0};
    }));
}

Communicator::Arrays Communicator::reduce_scatter(const Arrays& inputs, ReduceOp op, const Arrays& outputs) {
    State& s = state();
    require_outputs(outputs, s.ranks.size(), "reduce_scatter");
    return results(run(s, "reduce_scatter", inputs, [&](std::size_t i, RankPart& part) {
        const Array& input = inputs[i];
        const auto wire = detail::reduction_wire_type(input.dtype(), op, "reduce_scatter");
        if (input.size() % s.size != 0)
            throw InvalidArgumentError(concat("Failed to reduce_scatter on rank ", s.ranks[i], ": its ", input.size(),
                                              " elements do not split into ", s.size, " equal parts"));
        const std::int64_t part_size = input.size() / s.size;
        Shape shape{part_size};
        if (outputs.empty() && input.ndim() >= 1 && input.shape()[0] % s.size == 0) {
            shape = input.shape();
            shape[0] /= s.size;
        } else if (outputs.empty()) {
            throw InvalidArgumentError(concat("Failed to reduce_scatter on rank ", s.ranks[i], ": the first axis of ",
                                              format_shape(input.shape()), " does not split into ", s.size,
                                              " parts; reshape it, or give outputs of ", part_size, " elements"));
        } else {
            require_elements(outputs[i], input.dtype(), part_size, "reduce_scatter", s.ranks[i],
                             "the input's elements / size");
        }
        part.send = contiguous(input);
        set_result(part, outputs.empty() ? Array::empty(shape, input.dtype(), input.device()) : outputs[i]);
        return detail::CollectiveCall{detail::CollectiveKind::reduce_scatter, wire.type, op,
                                      static_cast<std::size_t>(part_size) * wire.per_element, 0};
    }));
}

}  // namespace gpukit
