// src/core/backend_registry.cpp: which backends exist and which one the process uses.
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "backend.hpp"
#include "backends/sim/host_compiler.hpp"
#include "backends/sim/sim_backend.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

#if GPUKIT_WITH_CUDA
#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/nvrtc.hpp"
#endif

namespace gpukit {

std::string_view to_string(BackendKind kind) {
    switch (kind) {
        case BackendKind::cuda: return "cuda";
        case BackendKind::sim: return "sim";
        case BackendKind::automatic: return "auto";
    }
    return "unknown";
}

BackendKind parse_backend_kind(std::string_view text) {
    if (text == "cuda") return BackendKind::cuda;
    if (text == "sim") return BackendKind::sim;
    if (text == "auto" || text.empty()) return BackendKind::automatic;
    throw InvalidArgumentError(detail::concat("Unknown backend '", text, "': use cuda, sim or auto"));
}

namespace detail {

namespace {

std::unique_ptr<Backend> create(BackendKind kind) {
    switch (kind) {
        case BackendKind::cuda:
#if GPUKIT_WITH_CUDA
            return cuda::make_cuda_backend();
#else
            throw BackendUnavailableError(
                "This gpukit was built without the CUDA backend: CUDA headers (cuda.h, nvrtc.h) were not found at "
                "build time. Rebuild with the CUDA toolkit installed, or set CUDA_HOME");
#endif
        case BackendKind::sim: return sim::make_sim_backend();
        case BackendKind::automatic: break;
    }
    throw InvalidArgumentError("backend(): ask for cuda or sim, not auto");
}

struct Registry {
    std::mutex mutex;
    // Each backend is created at most once; a failure is remembered so that a missing driver is
    // not searched for again on every call.
    std::map<BackendKind, std::unique_ptr<Backend>> instances;
    std::map<BackendKind, std::exception_ptr> failures;
    std::optional<BackendKind> requested;  // select_backend()
    Backend* selected = nullptr;
};

Registry& registry() {
    // Never destroyed: backends must outlive every static object that may still free memory.
    static Registry* instance = new Registry;
    return *instance;
}

Backend& backend_locked(Registry& r, BackendKind kind) {
    if (auto it = r.instances.find(kind); it != r.instances.end()) return *it->second;
    if (auto it = r.failures.find(kind); it != r.failures.end()) std::rethrow_exception(it->second);
    try {
        auto created = create(kind);
        return *(r.instances[kind] = std::move(created));
    } catch (...) {
        r.failures[kind] = std::current_exception();
        throw;
    }
}

std::string reason_locked(Registry& r, BackendKind kind) {
    try {
        backend_locked(r, kind);
        return {};
    } catch (const std::exception& e) {
        return e.what();
    }
}

BackendKind requested_kind(Registry& r) {
    if (r.requested) return *r.requested;
    const char* env = std::getenv("GPUKIT_BACKEND");
    try {
        return parse_backend_kind(env ? env : "");
    } catch (const InvalidArgumentError& e) {
        throw InvalidArgumentError(concat("GPUKIT_BACKEND=", env, ": ", e.what()));
    }
}

Backend& resolve_locked(Registry& r) {
    if (r.selected) return *r.selected;
    const BackendKind kind = requested_kind(r);
    if (kind != BackendKind::automatic) {
        r.selected = &backend_locked(r, kind);
        return *r.selected;
    }
    for (BackendKind candidate : {BackendKind::cuda, BackendKind::sim}) {
        if (reason_locked(r, candidate).empty()) {
            r.selected = &backend_locked(r, candidate);
            return *r.selected;
        }
    }
    throw BackendUnavailableError(concat("No gpukit backend is available.\n  cuda: ", reason_locked(r, BackendKind::cuda),
                                         "\n  sim: ", reason_locked(r, BackendKind::sim)));
}

}  // namespace

Backend& backend(BackendKind kind) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return backend_locked(r, kind);
}

Backend* existing_backend(BackendKind kind) noexcept {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.instances.find(kind);
    return it == r.instances.end() ? nullptr : it->second.get();
}

Backend& selected() {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return resolve_locked(r);
}

const Compiler& compiler(BackendKind kind) {
    switch (kind) {
        case BackendKind::cuda:
#if GPUKIT_WITH_CUDA
            return cuda::nvrtc_compiler();
#else
            break;
#endif
        case BackendKind::sim: return sim::host_compiler();
        case BackendKind::automatic: break;
    }
    return backend(kind).compiler();
}

}  // namespace detail

void select_backend(BackendKind kind) {
    auto& r = detail::registry();
    std::lock_guard lock(r.mutex);
    if (r.selected) {
        if (kind == BackendKind::automatic || r.selected->kind() == kind) return;
        throw UsageError(detail::concat("Cannot switch to the ", to_string(kind), " backend: the process already uses the ",
                                        to_string(r.selected->kind()),
                                        " backend. Select the backend before the first device is used"));
    }
    const auto previous = std::exchange(r.requested, kind);
    try {
        detail::resolve_locked(r);
    } catch (...) {
        r.requested = previous;  // a request that could not be met leaves the choice open
        throw;
    }
}

BackendKind selected_backend() { return detail::selected().kind(); }

std::string backend_unavailable_reason(BackendKind kind) {
    auto& r = detail::registry();
    std::lock_guard lock(r.mutex);
    if (kind == BackendKind::automatic) {
        try {
            detail::resolve_locked(r);
            return {};
        } catch (const std::exception& e) {
            return e.what();
        }
    }
    return detail::reason_locked(r, kind);
}

}  // namespace gpukit
