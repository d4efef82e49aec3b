// python/src/collectives.cpp: gpukit._core.collectives, NCCL's collectives over gpukit arrays
// (gpukit/collectives.hpp): UniqueId and Communicator. python/gpukit/collectives.py re-exports them.
//
// Only translation: an array stands for the one rank a communicator holds, a list for each rank
// of one made over several devices (and a list comes back); op names are strings; a timeout is
// seconds or None. The GIL is released while a call waits for the other ranks.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstring>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/collectives.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// The arrays of a call: one array (a communicator of one rank held), or a sequence of them.
struct RankArrays {
    Communicator::Arrays arrays;
    bool single = false;
};

RankArrays rank_arrays(nb::handle value, std::string_view name) {
    if (nb::isinstance<Array>(value)) return {{to_array(value, name)}, true};
    return {to_arrays(value, name), false};
}

Communicator::Arrays outputs_of(nb::handle out) {
    if (out.is_none()) return {};
    return rank_arrays(out, "out").arrays;
}

nb::object results(const RankArrays& inputs, Communicator::Arrays arrays) {
    if (inputs.single) return nb::cast(arrays.at(0));
    return nb::cast(std::move(arrays));
}

ReduceOp op_of(nb::handle op) {
    if (!PyUnicode_Check(op.ptr()))
        raise_type_error("op must be one of 'sum', 'prod', 'max', 'min', 'avg', not " + describe_value(op));
    return reduce_op_from_name(nb::cast<std::string>(op));
}

// all_reduce and reduce_scatter: one array per rank held, an op, outputs; the call without the GIL.
template <Communicator::Arrays (Communicator::*method)(const Communicator::Arrays&, ReduceOp,
                                                       const Communicator::Arrays&)>
nb::object reducing(Communicator& comm, nb::handle x, nb::handle op, nb::handle out) {
    const auto inputs = rank_arrays(x, "x");
    const ReduceOp reduction = op_of(op);
    const auto outputs = outputs_of(out);
    Communicator::Arrays arrays;
    {
        nb::gil_scoped_release release;
        arrays = (comm.*method)(inputs.arrays, reduction, outputs);
    }
    return results(inputs, std::move(arrays));
}

CommunicatorOptions options_of(nb::handle timeout, bool verify_calls) {
    CommunicatorOptions options;
    const std::optional<double> seconds = to_timeout(timeout, "timeout");
    options.timeout = seconds ? std::optional(std::chrono::duration<double>(*seconds)) : std::nullopt;
    options.verify_calls = verify_calls;
    return options;
}

nb::bytes bytes_of(const UniqueId& id) {
    return nb::bytes(reinterpret_cast<const char*>(id.bytes().data()), id.bytes().size());
}

UniqueId id_from(const nb::bytes& data) {
    return UniqueId::from_bytes(std::span(reinterpret_cast<const std::byte*>(data.c_str()), data.size()));
}

constexpr const char* arrays_doc =
    "``x`` is an array for a communicator holding one rank, or a list of arrays, one per rank held "
    "(:meth:`Communicator.over`), each on its rank's device; results come back the same way. ``out`` "
    "(optional) likewise; ``out=x`` works in place. Work is enqueued on the current stream of each "
    "array's device and nothing waits for it (read the result, or synchronize, to wait).";

}  // namespace

void bind_collectives(nb::module_& m) {
    static const std::string all_reduce_doc =
        std::string(
            "Every rank gets the elementwise reduction (op: 'sum', 'prod', 'max', 'min', 'avg') of "
            "every rank's array (one shape and dtype on all). ") +
        arrays_doc;
    static const std::string broadcast_doc =
        std::string(
            "Every rank's array gets the root's values, in place (as NCCL, PyTorch and CuPy do), and "
            "is returned; with ``out`` the root's ``x`` is sent and ``out`` receives. Any dtype. ") +
        arrays_doc;
    static const std::string all_gather_doc =
        std::string(
            "Every rank gets every rank's array stacked in rank order: shape (size, *x.shape), or "
            "into ``out`` of size * x.size elements. Any dtype. ") +
        arrays_doc;
    static const std::string reduce_scatter_doc =
        std::string(
            "The reduction of every rank's array cut into size parts along axis 0: rank r gets part r, "
            "shape (x.shape[0] // size, *x.shape[1:]), or into ``out`` of x.size // size elements. ") +
        arrays_doc;
    nb::module_ module = m.def_submodule(
        "collectives", "NCCL's collectives over gpukit arrays on several devices (gpukit/collectives.hpp).");

    nb::class_<UniqueId>(module, "UniqueId",
                         "What the ranks of a communicator meet by (NCCL's ``ncclUniqueId``): made once with "
                         ":meth:`UniqueId.create` by one rank and sent to the others as ``bytes(uid)`` (128 bytes; "
                         "it pickles too). ``UniqueId(data)`` rebuilds it from those bytes.")
        .def(
            "__init__", [](UniqueId* self, const nb::bytes& data) { new (self) UniqueId(id_from(data)); }, "data"_a,
            "The id whose ``bytes()`` are ``data`` (128 bytes); InvalidArgumentError otherwise.")
        .def_static(
            "create", [](nb::handle device) { return UniqueId::create(to_device(device, "device")); },
            "device"_a.none() = nb::none(), nb::sig("def create(device: Device | int | None = None) -> UniqueId"),
            "A new id from the collectives of the device's backend (``ncclGetUniqueId`` on a GPU; on the "
            "simulator an id that only threads of this process can join).")
        .def("__bytes__", &bytes_of, "The id's 128 bytes, to send to the other ranks.")
        .def("__getstate__", &bytes_of, "The id's bytes (pickling).")
        .def(
            "__setstate__", [](UniqueId& self, const nb::bytes& data) { new (&self) UniqueId(id_from(data)); },
            "state"_a, "Rebuilds the id from its bytes (unpickling).")
        .def(
            "__eq__",
            [](const UniqueId& a, nb::handle b) {
                return nb::isinstance<UniqueId>(b) && a == nb::cast<const UniqueId&>(b);
            },
            "other"_a, "Whether both ids have the same bytes.")
        .def(
            "__hash__", [](const UniqueId& id) { return nb::hash(bytes_of(id)); }, "The hash of the id's bytes.")
        .def(
            "__repr__",
            [](const UniqueId& id) {
                static constexpr char hex[] = "0123456789abcdef";
                std::string text = "UniqueId(";
                for (std::size_t i = 0; i < 8; ++i) {
                    const auto byte = std::to_integer<unsigned>(id.bytes()[i]);
                    text += hex[byte >> 4];
                    text += hex[byte & 15];
                }
                return text + "...)";
            },
            "The first bytes, in hex.");

    nb::class_<Communicator>(
        module, "Communicator",
        "A communicator (NCCL's ``ncclComm_t``): the ranks of it this process holds.\n\n"
        "``Communicator(uid, rank, size, device=None, *, timeout=600.0, verify_calls=True)`` is rank "
        "``rank`` of ``size`` meeting the others by ``uid`` (``ncclCommInitRank``): one per process or per "
        "thread; it returns once every rank has joined. ``Communicator.over(devices)`` holds every rank, "
        "one per device, in this process (``ncclCommInitAll``).\n\n"
        "Every rank must call the same collectives in the same order with the same count, dtype, op and "
        "root; where they do not, each raises InvalidArgumentError instead of hanging: ranks in several "
        "processes or threads exchange what they are about to call first (``verify_calls``: an all-gather "
        "and a wait per call; turn it off once the program is known to agree). ``timeout`` (seconds, or "
        "None for no limit) bounds every wait: joining, the other ranks' calls, the exchange; past it the "
        "communicator is aborted and the call raises WaitTimeoutError.\n\n"
        "On GPUs this is NCCL (``pip install nvidia-nccl-cu13``, or GPUKIT_NCCL=<path to libnccl.so.2>; "
        "BackendUnavailableError says so when it is missing). On the simulator a host implementation gives "
        "the same results in the same stream order, for several devices of one process and for ranks that "
        "are threads of one process (not across processes: its memory is not shared).")
        .def(
            "__init__",
            [](Communicator* self, const UniqueId& id, int rank, int size, nb::handle device, nb::handle timeout,
               bool verify_calls) {
                const Device on = to_device(device, "device");
                const CommunicatorOptions options = options_of(timeout, verify_calls);
                nb::gil_scoped_release release;  // joining waits for the other ranks
                new (self) Communicator(id, rank, size, on, options);
            },
            "uid"_a, "rank"_a, "size"_a, "device"_a.none() = nb::none(), nb::kw_only(), "timeout"_a.none() = 600.0,
            "verify_calls"_a = true,
            nb::sig("def __init__(self, uid: UniqueId, rank: int, size: int, device: Device | int | None = None, *, "
                    "timeout: float | None = 600.0, verify_calls: bool = True) -> None"),
            "Joins as rank ``rank`` of ``size`` on ``device`` (the current device for None).")
        .def_static(
            "over",
            [](nb::handle devices, nb::handle timeout) {
                std::vector<Device> on;
                for (nb::handle item : devices) on.push_back(to_device(item, "devices"));
                const CommunicatorOptions options = options_of(timeout, true);
                nb::gil_scoped_release release;
                return Communicator::over(on, options);
            },
            "devices"_a, nb::kw_only(), "timeout"_a.none() = 600.0,
            nb::sig("def over(devices: Sequence[Device | int], *, timeout: float | None = 600.0) -> Communicator"),
            "A communicator over ``devices`` (rank i on devices[i]), every rank in this process: each call takes "
            "a list of arrays, one per device, and runs as one group.")
        .def_prop_ro("size", &Communicator::size, "Ranks in the whole communicator.")
        .def_prop_ro("ranks", &Communicator::ranks, "The ranks this communicator holds, in order.")
        .def_prop_ro(
            "rank",
            [](const Communicator& comm) {
                if (comm.ranks().size() != 1)
                    throw UsageError("This communicator holds every rank (Communicator.over); see .ranks");
                return comm.ranks()[0];
            },
            "The one rank this communicator holds (UsageError for one made with Communicator.over).")
        .def_prop_ro("devices", &Communicator::devices, "The devices of the ranks held, in order.")
        .def("all_reduce", &reducing<&Communicator::all_reduce>, "x"_a, "op"_a = "sum", "out"_a.none() = nb::none(),
             nb::sig("def all_reduce(self, x: ndarray | Sequence[ndarray], op: str = 'sum', "
                     "out: ndarray | Sequence[ndarray] | None = None) -> ndarray | list[ndarray]"),
             all_reduce_doc.c_str())
        .def(
            "reduce",
            [](Communicator& comm, nb::handle x, int root, nb::handle op, nb::handle out) {
                const auto inputs = rank_arrays(x, "x");
                const ReduceOp reduction = op_of(op);
                const std::optional<Array> output =
                    out.is_none() ? std::nullopt : std::optional<Array>(to_array(out, "out"));
                nb::gil_scoped_release release;
                return comm.reduce(inputs.arrays, root, reduction, output);
            },
            "x"_a, "root"_a = 0, "op"_a = "sum", "out"_a.none() = nb::none(),
            nb::sig("def reduce(self, x: ndarray | Sequence[ndarray], root: int = 0, op: str = 'sum', "
                    "out: ndarray | None = None) -> ndarray | None"),
            "The root gets the reduction of every rank's array: returned where this communicator holds the root "
            "(into ``out`` where given), None elsewhere. ``x`` as in :meth:`all_reduce`.")
        .def(
            "broadcast",
            [](Communicator& comm, nb::handle x, int root, nb::handle out) {
                const auto inputs = rank_arrays(x, "x");
                const auto outputs = outputs_of(out);
                Communicator::Arrays arrays;
                {
                    nb::gil_scoped_release release;
                    arrays = comm.broadcast(inputs.arrays, root, outputs);
                }
                return results(inputs, std::move(arrays));
            },
            "x"_a, "root"_a = 0, "out"_a.none() = nb::none(),
            nb::sig("def broadcast(self, x: ndarray | Sequence[ndarray], root: int = 0, "
                    "out: ndarray | Sequence[ndarray] | None = None) -> ndarray | list[ndarray]"),
            broadcast_doc.c_str())
        .def(
            "all_gather",
            [](Communicator& comm, nb::handle x, nb::handle out) {
                const auto inputs = rank_arrays(x, "x");
                const auto outputs = outputs_of(out);
                Communicator::Arrays arrays;
                {
                    nb::gil_scoped_release release;
                    arrays = comm.all_gather(inputs.arrays, outputs);
                }
                return results(inputs, std::move(arrays));
            },
            "x"_a, "out"_a.none() = nb::none(),
            nb::sig("def all_gather(self, x: ndarray | Sequence[ndarray], "
                    "out: ndarray | Sequence[ndarray] | None = None) -> ndarray | list[ndarray]"),
            all_gather_doc.c_str())
        .def("reduce_scatter", &reducing<&Communicator::reduce_scatter>, "x"_a, "op"_a = "sum",
             "out"_a.none() = nb::none(),
             nb::sig("def reduce_scatter(self, x: ndarray | Sequence[ndarray], op: str = 'sum', "
                     "out: ndarray | Sequence[ndarray] | None = None) -> ndarray | list[ndarray]"),
             reduce_scatter_doc.c_str())
        .def(
            "abort", [](Communicator& comm) { comm.abort(); },
            "Gives the communicator up: its later calls raise; collectives the other ranks wait in fail (the "
            "simulator's threads) or end at their timeout (NCCL).");
}

}  // namespace gpukit::python
