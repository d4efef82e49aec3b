// src/backends/cuda/nccl.cpp: NCCL as the CUDA backend's collectives (nccl.hpp).
//
// Nothing of NCCL is linked or included: the few entry points used are declared here from NCCL's
// documented API (nccl.h: results, data types and reductions are the documented enumerator values,
// the unique id is 128 bytes passed by value, a communicator an opaque pointer). gpukit needs
// NCCL 2.10 or newer (avg and bfloat16 came with it).
//
// One process over several devices: ncclCommInitAll, and every rank's call inside one
// ncclGroupStart/End. A rank per process or thread: ncclCommInitRankConfig with blocking = 0
// where NCCL has it (2.14+), so that joining and each call can be waited for with a deadline
// (ncclCommGetAsyncError until it leaves ncclInProgress) and aborted past it, instead of
// blocking inside NCCL for ever; older NCCL joins with ncclCommInitRank, without a limit.
#include "backends/cuda/nccl.hpp"

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "backends/cuda/toolkit_library.hpp"
#include "gpukit/error.hpp"
#include "util/dynamic_library.hpp"
#include "util/once.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

// ---- NCCL's API, as nccl.h defines it
using Result = int;  // ncclResult_t
using Comm = void*;  // ncclComm_t
constexpr Result nccl_success = 0, nccl_in_progress = 7;
struct NcclUniqueId {
    char internal[unique_id_bytes];
};
// The leading fields of ncclConfig_t, as NCCL 2.14 (which introduced `blocking`) laid them out.
// NCCL reads `size` bytes and takes its defaults for every field a struct of `version` lacks.
struct NcclConfig {
    std::size_t size;
    unsigned int magic;
    unsigned int version;
    int blocking;
};
constexpr unsigned int nccl_api_magic = 0xcafebeef;
constexpr unsigned int nccl_config_version = 21400;  // NCCL_VERSION(2, 14, 0)
constexpr int oldest_version = 21000;                // 2.10.0: ncclAvg and ncclBfloat16

struct NcclApi {
    Result (*ncclGetVersion)(int*) = nullptr;
    Result (*ncclGetUniqueId)(NcclUniqueId*) = nullptr;
    Result (*ncclCommInitRank)(Comm*, int nranks, NcclUniqueId id, int rank) = nullptr;
    Result (*ncclCommInitRankConfig)(Comm*, int nranks, NcclUniqueId id, int rank, NcclConfig*) = nullptr;  // 2.14+
    Result (*ncclCommInitAll)(Comm*, int ndev, const int* devices) = nullptr;
    Result (*ncclCommDestroy)(Comm) = nullptr;
    Result (*ncclCommAbort)(Comm) = nullptr;
    Result (*ncclCommGetAsyncError)(Comm, Result*) = nullptr;
    Result (*ncclCommCount)(Comm, int*) = nullptr;
    Result (*ncclCommUserRank)(Comm, int*) = nullptr;
    Result (*ncclAllReduce)(const void*, void*, std::size_t, int type, int op, Comm, void* stream) = nullptr;
    Result (*ncclReduce)(const void*, void*, std::size_t, int type, int op, int root, Comm, void* stream) = nullptr;
    Result (*ncclBroadcast)(const void*, void*, std::size_t, int type, int root, Comm, void* stream) = nullptr;
    Result (*ncclAllGather)(const void*, void*, std::size_t, int type, Comm, void* stream) = nullptr;
    Result (*ncclReduceScatter)(const void*, void*, std::size_t, int type, int op, Comm, void* stream) = nullptr;
    Result (*ncclGroupStart)() = nullptr;
    Result (*ncclGroupEnd)() = nullptr;
    const char* (*ncclGetErrorString)(Result) = nullptr;
    const char* (*ncclGetLastError)(Comm) = nullptr;
    std::string path;
    int version = 0;
};

const char* result_name(Result result) {
    switch (result) {
        case 0: return "ncclSuccess";
        case 1: return "ncclUnhandledCudaError";
        case 2: return "ncclSystemError";
        case 3: return "ncclInternalError";
        case 4: return "ncclInvalidArgument";
        case 5: return "ncclInvalidUsage";
        case 6: return "ncclRemoteError";
        case 7: return "ncclInProgress";
        case 8: return "ncclTimeout";
        default: return "ncclUnknownError";
    }
}

int data_type(CollectiveType type) {  // ncclDataType_t
    switch (type) {
        case CollectiveType::int8: return 0;
        case CollectiveType::uint8: return 1;
        case CollectiveType::int32: return 2;
        case CollectiveType::uint32: return 3;
        case CollectiveType::int64: return 4;
        case CollectiveType::uint64: return 5;
        case CollectiveType::float16: return 6;
        case CollectiveType::float32: return 7;
        case CollectiveType::float64: return 8;
        case CollectiveType::bfloat16: return 9;
    }
    return -1;
}

int reduction(ReduceOp op) {  // ncclRedOp_t
    switch (op) {
        case ReduceOp::sum: return 0;
        case ReduceOp::prod: return 1;
        case ReduceOp::max: return 2;
        case ReduceOp::min: return 3;
        case ReduceOp::avg: return 4;
    }
    return -1;
}

std::string version_text(int code) {
    // NCCL_VERSION: major * 10000 + minor * 100 + patch since 2.9, major * 1000 + minor * 100 before.
    if (code >= 10000) return concat(code / 10000, ".", code / 100 % 100, ".", code % 100);
    return concat(code / 1000, ".", code / 100 % 10, ".", code % 100);
}

}  // namespace

std::vector<std::string> nccl_candidates() {
    return toolkit_library_candidates("GPUKIT_NCCL", {"libnccl.so.2"},
                                      {"nvidia/nccl/lib/libnccl.so.2", "nvidia/cu13/lib/libnccl.so.2"});
}

namespace {

NcclApi load_nccl() {
    const auto library = DynamicLibrary::open_first(
        "NCCL (libnccl.so.2), which gpukit.collectives uses on CUDA devices,", nccl_candidates(),
        "Install it with `pip install nvidia-nccl-cu13` (nvidia-nccl-cu12 for CUDA 12), or your distribution's "
        "libnccl2; set GPUKIT_NCCL to the path of its libnccl.so.2.");
    NcclApi api;
    api.path = library.path();
    std::string missing;
    const auto get = [&](auto& slot, const char* name) { library.resolve(slot, name, missing); };
    get(api.ncclGetVersion, "ncclGetVersion");
    get(api.ncclGetUniqueId, "ncclGetUniqueId");
    get(api.ncclCommInitRank, "ncclCommInitRank");
    get(api.ncclCommInitAll, "ncclCommInitAll");
    get(api.ncclCommDestroy, "ncclCommDestroy");
    get(api.ncclCommAbort, "ncclCommAbort");
    get(api.ncclCommGetAsyncError, "ncclCommGetAsyncError");
    get(api.ncclCommCount, "ncclCommCount");
    get(api.ncclCommUserRank, "ncclCommUserRank");
    get(api.ncclAllReduce, "ncclAllReduce");
    get(api.ncclReduce, "ncclReduce");
    get(api.ncclBroadcast, "ncclBroadcast");
    get(api.ncclAllGather, "ncclAllGather");
    get(api.ncclReduceScatter, "ncclReduceScatter");
    get(api.ncclGroupStart, "ncclGroupStart");
    get(api.ncclGroupEnd, "ncclGroupEnd");
    get(api.ncclGetErrorString, "ncclGetErrorString");
    get(api.ncclGetLastError, "ncclGetLastError");
    if (!missing.empty())
        throw BackendUnavailableError(concat("NCCL at ", api.path, " lacks ", missing,
                                             "; it is too old (gpukit.collectives needs NCCL 2.10 or newer)"));
    api.ncclCommInitRankConfig =
        reinterpret_cast<decltype(api.ncclCommInitRankConfig)>(library.symbol("ncclCommInitRankConfig"));
    if (api.ncclGetVersion(&api.version) != nccl_success || api.version < oldest_version)
        throw BackendUnavailableError(concat("NCCL ", version_text(api.version), " at ", api.path,
                                             " is too old: gpukit.collectives needs NCCL 2.10 or newer "
                                             "(pip install nvidia-nccl-cu13)"));
    return api;
}

std::string describe(const NcclApi& api) { return concat("NCCL ", version_text(api.version), " (", api.path, ")"); }

template <class Action>
void check(const NcclApi& api, Result result, Comm comm, Action&& action) {
    if (result == nccl_success || result == nccl_in_progress) return;
    const char* last = api.ncclGetLastError(comm);
    throw CudaError(action(), result_name(result), result,
                    concat(api.ncclGetErrorString(result), last && *last ? concat(" (", last, ")") : std::string()));
}

using Clock = std::chrono::steady_clock;

// Waits for a non-blocking communicator to leave ncclInProgress (after joining, after a call),
// up to the timeout; past it the communicator is aborted. Throws its failure.
void settle(const NcclApi& api, Comm& comm, const CollectiveOptions& options, const std::string& what) {
    const auto start = Clock::now();
    auto pause = std::chrono::microseconds(1);
    for (;;) {
        Result state = nccl_success;
        Result asked = api.ncclCommGetAsyncError(comm, &state);
        if (asked == nccl_success && state == nccl_success) return;
        if (asked != nccl_success || state != nccl_in_progress) {
            try {
                check(api, asked != nccl_success ? asked : state, comm, [&] { return concat("Failed to ", what); });
            } catch (...) {
                static_cast<void>(api.ncclCommAbort(std::exchange(comm, nullptr)));  // NCCL: unusable after an error
                throw;
            }
        }
        if (options.timeout && Clock::now() - start > *options.timeout) {
            static_cast<void>(api.ncclCommAbort(comm));
            comm = nullptr;
            throw WaitTimeoutError(concat("Failed to ", what, ": NCCL did not finish within ", options.timeout->count(),
                                          " s (the communicator's timeout); the communicator was aborted"),
                                   options.timeout->count());
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
}

// Enqueues one rank's part of `call`.
Result issue(const NcclApi& api, const CollectiveCall& call, const RankBuffers& rank, Comm comm) {
    const auto* send = reinterpret_cast<const void*>(rank.send);
    auto* receive = reinterpret_cast<void*>(rank.receive);
    const int type = data_type(call.type);
    switch (call.kind) {
        case CollectiveKind::all_reduce:
            return api.ncclAllReduce(send, receive, call.count, type, reduction(call.op), comm, rank.stream);
        case CollectiveKind::reduce:
            return api.ncclReduce(send, receive, call.count, type, reduction(call.op), call.root, comm, rank.stream);
        case CollectiveKind::broadcast:
            return api.ncclBroadcast(send, receive, call.count, type, call.root, comm, rank.stream);
        case CollectiveKind::all_gather: return api.ncclAllGather(send, receive, call.count, type, comm, rank.stream);
        case CollectiveKind::reduce_scatter:
            return api.ncclReduceScatter(send, receive, call.count, type, reduction(call.op), comm, rank.stream);
    }
    return nccl_success;
}

class NcclComm final : public CollectiveComm {
public:
    // `devices[i]` is the device of `comms[i]`; `blocking`: made without the non-blocking config.
    NcclComm(const NcclApi& api, std::function<void(int)> activate, std::vector<Comm> comms, std::vector<int> devices,
             bool blocking, CollectiveOptions options)
        : api_(api),
          activate_(std::move(activate)),
          comms_(std::move(comms)),
          devices_(std::move(devices)),
          blocking_(blocking),
          options_(options) {}

    ~NcclComm() override {
        for (std::size_t i = 0; i < comms_.size(); ++i) {
            if (!comms_[i]) continue;
            try {
                activate_(devices_[i]);
            } catch (...) {
                continue;  // the context is gone: so is what NCCL held in it
            }
            static_cast<void>(api_.ncclCommDestroy(comms_[i]));  // a destructor has no one to tell
        }
    }

    void enqueue(const CollectiveCall& call, std::span<const RankBuffers> buffers) override {
        std::lock_guard lock(mutex_);
        require_usable();
        const std::string what =
            concat("run NCCL's ", to_string(call.kind), " of ", call.count, " ", to_string(call.type));
        if (comms_.size() == 1) {
            activate_(devices_[0]);
            check(api_, issue(api_, call, buffers[0], comms_[0]), comms_[0],
                  [&] { return concat("Failed to ", what); });
            if (!blocking_) settle(api_, comms_[0], options_, what);
            return;
        }
        check(api_, api_.ncclGroupStart(), nullptr, [&] { return concat("Failed to start the group to ", what); });
        Result first = nccl_success;
        Comm failed = nullptr;
        for (std::size_t i = 0; i < comms_.size() && first == nccl_success; ++i) {
            activate_(devices_[i]);
            first = issue(api_, call, buffers[i], comms_[i]);
            if (first != nccl_success) failed = comms_[i];
        }
        const Result ended = api_.ncclGroupEnd();  // always, so that NCCL's group state is left clean
        check(api_, first, failed, [&] { return concat("Failed to ", what); });
        check(api_, ended, nullptr, [&] { return concat("Failed to ", what, " (ending the group)"); });
    }

    void raise_async_error() override {
        std::lock_guard lock(mutex_);
        require_usable();
        for (Comm comm : comms_) {
            Result state = nccl_success;
            check(api_, api_.ncclCommGetAsyncError(comm, &state), comm,
                  [] { return std::string("Failed to ask NCCL for the communicator's errors"); });
            if (state != nccl_in_progress)
                check(api_, state, comm, [] { return std::string("NCCL's communicator failed"); });
        }
    }

    void abort(const std::string& why) noexcept override {
        std::lock_guard lock(mutex_);
        if (aborted_.empty()) aborted_ = why.empty() ? "abort() was called" : why;
        for (Comm& comm : comms_)
            if (comm) static_cast<void>(api_.ncclCommAbort(std::exchange(comm, nullptr)));
    }

private:
    void require_usable() const {
        if (!aborted_.empty()) throw Error(concat("The NCCL communicator was aborted: ", aborted_));
        for (Comm comm : comms_)
            if (!comm) throw Error("The NCCL communicator was aborted after a timeout");
    }

    const NcclApi& api_;
    std::function<void(int)> activate_;
    std::mutex mutex_;
    std::vector<Comm> comms_;
    std::vector<int> devices_;
    bool blocking_;
    CollectiveOptions options_;
    std::string aborted_;
};

class NcclLibrary final : public CollectiveLibrary {
public:
    NcclLibrary(NcclApi api, std::function<void(int)> activate)
        : api_(std::move(api)), activate_(std::move(activate)) {}

    std::string identity() const override { return describe(api_); }

    UniqueIdBytes create_unique_id() override {
        NcclUniqueId id{};
        check(api_, api_.ncclGetUniqueId(&id), nullptr, [] { return std::string("Failed to make an NCCL unique id"); });
        UniqueIdBytes bytes{};
        std::memcpy(bytes.data(), id.internal, bytes.size());
        return bytes;
    }

    std::unique_ptr<CollectiveComm> create_comm(std::span<const int> devices,
                                                const CollectiveOptions& options) override {
        for (int device : devices) activate_(device);  // each context exists before NCCL uses it
        std::vector<Comm> comms(devices.size(), nullptr);
        check(api_, api_.ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()), nullptr,
              [&] { return concat("Failed to make an NCCL communicator over ", devices.size(), " devices"); });
        return std::make_unique<NcclComm>(api_, activate_, std::move(comms),
                                          std::vector<int>(devices.begin(), devices.end()), true, options);
    }

    std::unique_ptr<CollectiveComm> join(const UniqueIdBytes& id, int rank, int size, int device,
                                         const CollectiveOptions& options) override {
        activate_(device);  // NCCL's rank takes the current device
        NcclUniqueId nccl_id{};
        std::memcpy(nccl_id.internal, id.data(), id.size());
        const std::string what =
            concat("join an NCCL communicator as rank ", rank, " of ", size, " on device ", device);
        Comm comm = nullptr;
        if (api_.ncclCommInitRankConfig) {
            NcclConfig config{sizeof(NcclConfig), nccl_api_magic, nccl_config_version, 0};
            check(api_, api_.ncclCommInitRankConfig(&comm, size, nccl_id, rank, &config), comm,
                  [&] { return concat("Failed to ", what); });
            settle(api_, comm, options, what);
            return std::make_unique<NcclComm>(api_, activate_, std::vector<Comm>{comm}, std::vector<int>{device}, false,
                                              options);
        }
        check(api_, api_.ncclCommInitRank(&comm, size, nccl_id, rank), comm,
              [&] { return concat("Failed to ", what); });
        return std::make_unique<NcclComm>(api_, activate_, std::vector<Comm>{comm}, std::vector<int>{device}, true,
                                          options);
    }

private:
    NcclApi api_;
    std::function<void(int)> activate_;
};

}  // namespace

std::string probe_nccl() { return describe(load_nccl()); }

std::unique_ptr<CollectiveLibrary> make_nccl_collectives(std::function<void(int)> activate) {
    return std::make_unique<NcclLibrary>(load_nccl(), std::move(activate));
}

}  // namespace gpukit::detail::cuda
