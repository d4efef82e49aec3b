// src/backends/registry.cpp: which backends exist, which one the process uses, and the public
// queries about them (gpukit/backend.hpp). Knows backends only through their descriptors.
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "backends/backend.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace detail {

namespace {

constexpr std::string_view automatic = "auto";

const BackendDescriptor* find_built(std::string_view name) {
    for (const BackendDescriptor* descriptor : built_backends())
        if (descriptor->info.name == name) return descriptor;
    return nullptr;
}

const UnbuiltBackend* find_unbuilt(std::string_view name) {
    for (const UnbuiltBackend& unbuilt : unbuilt_backends())
        if (unbuilt.name == name) return &unbuilt;
    return nullptr;
}

// "cuda, sim or auto": the names select_backend takes.
std::string accepted_names() {
    std::vector<std::string> names;
    for (const auto& info : gpukit::backends()) names.push_back(info.name);
    return concat(join(names, ", "), " or ", automatic);
}

[[noreturn]] void refuse_unknown(std::string_view name) {
    throw InvalidArgumentError(concat("Unknown backend '", name, "': use ", accepted_names()));
}

const BackendDescriptor& descriptor(std::string_view name) {
    if (const BackendDescriptor* built = find_built(name)) return *built;
    if (const UnbuiltBackend* unbuilt = find_unbuilt(name))
        throw BackendUnavailableError(
            concat("This gpukit was built without the ", name, " backend: ", unbuilt->reason));
    refuse_unknown(name);
}

struct Registry {
    std::mutex mutex;
    // Each backend is created at most once; a failure is remembered so that a missing driver is
    // not searched for again on every call.
    std::map<std::string, std::unique_ptr<Backend>, std::less<>> instances;
    std::map<std::string, std::exception_ptr, std::less<>> failures;
    std::optional<std::string> requested;  // select_backend()
    Backend* selected = nullptr;
};

Registry& registry() {
    // Never destroyed: backends must outlive every static object that may still free memory.
    static Registry* instance = new Registry;
    return *instance;
}

Backend& backend_locked(Registry& r, std::string_view name) {
    if (auto it = r.instances.find(name); it != r.instances.end()) return *it->second;
    if (auto it = r.failures.find(name); it != r.failures.end()) std::rethrow_exception(it->second);
    const BackendDescriptor& made_by = descriptor(name);  // an unknown name is not remembered
    try {
        auto created = made_by.create();
        return *(r.instances[std::string(name)] = std::move(created));
    } catch (...) {
        r.failures[std::string(name)] = std::current_exception();
        throw;
    }
}

std::string reason_locked(Registry& r, std::string_view name) {
    try {
        backend_locked(r, name);
        return {};
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::string requested_name(Registry& r) {
    if (r.requested) return *r.requested;
    const char* env = std::getenv("GPUKIT_BACKEND");
    std::string name = env && *env ? env : std::string(automatic);
    if (name != automatic && !find_built(name) && !find_unbuilt(name))
        throw InvalidArgumentError(
            concat("GPUKIT_BACKEND=", name, ": Unknown backend '", name, "': use ", accepted_names()));
    return name;
}

Backend& resolve_locked(Registry& r) {
    if (r.selected) return *r.selected;
    const std::string name = requested_name(r);
    if (name != automatic) {
        r.selected = &backend_locked(r, name);
        return *r.selected;
    }
    std::string reasons;
    for (const BackendDescriptor* candidate : built_backends()) {
        const std::string reason = reason_locked(r, candidate->info.name);
        if (reason.empty()) {
            r.selected = &backend_locked(r, candidate->info.name);
            return *r.selected;
        }
        reasons += concat("\n  ", candidate->info.name, ": ", reason);
    }
    for (const UnbuiltBackend& unbuilt : unbuilt_backends())
        reasons += concat("\n  ", unbuilt.name, ": not built in: ", unbuilt.reason);
    throw BackendUnavailableError(concat("No gpukit backend is available.", reasons));
}

}  // namespace

Backend& backend(std::string_view name) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return backend_locked(r, name);
}

std::vector<Backend*> existing_backends() {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    std::vector<Backend*> created;
    for (const auto& [name, instance] : r.instances) created.push_back(instance.get());
    return created;
}

Backend& selected() {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return resolve_locked(r);
}

const Compiler& compiler(std::string_view name) { return descriptor(name).compiler(); }

}  // namespace detail

const std::vector<BackendInfo>& backends() {
    static const std::vector<BackendInfo> all = [] {
        std::vector<BackendInfo> infos;
        for (const detail::BackendDescriptor* descriptor : detail::built_backends()) infos.push_back(descriptor->info);
        for (const detail::UnbuiltBackend& unbuilt : detail::unbuilt_backends()) {
            BackendInfo info;
            info.name = unbuilt.name;
            infos.push_back(std::move(info));
        }
        return infos;
    }();
    return all;
}

const BackendInfo& backend_info(std::string_view name) {
    const auto& all = backends();
    auto it = std::find_if(all.begin(), all.end(), [&](const BackendInfo& info) { return info.name == name; });
    if (it == all.end()) detail::refuse_unknown(name);
    return *it;
}

void select_backend(std::string_view name) {
    auto& r = detail::registry();
    std::lock_guard lock(r.mutex);
    if (name.empty()) name = detail::automatic;
    if (name != detail::automatic) detail::descriptor(name);  // unknown and unbuilt names throw here
    if (r.selected) {
        if (name == detail::automatic || r.selected->info().name == name) return;
        throw UsageError(detail::concat("Cannot switch to the ", name, " backend: the process already uses the ",
                                        r.selected->info().name,
                                        " backend. Select the backend before the first device is used"));
    }
    auto previous = std::exchange(r.requested, std::string(name));
    try {
        detail::resolve_locked(r);
    } catch (...) {
        r.requested = std::move(previous);  // a request that could not be met leaves the choice open
        throw;
    }
}

const BackendInfo& selected_backend() { return detail::selected().info(); }

void set_sandbox(bool on) {
    detail::Backend& backend = detail::selected();
    if (on && !backend.info().capabilities.sandbox) {
        std::vector<std::string> able;
        for (const auto& info : backends())
            if (info.capabilities.sandbox) able.push_back(info.name);
        throw BackendUnavailableError(detail::concat(
            "Cannot run kernels in a sandbox: the ", backend.info().name,
            " backend has none (its kernels do not run as native code of this process's user). ",
            able.empty() ? std::string("No backend of this gpukit has one")
                         : detail::concat("Select one that has (", detail::join(able, ", "),
                                          ") before the first device is used, or leave the sandbox off")));
    }
    backend.set_sandbox(on);
}

bool sandboxed() { return detail::selected().sandboxed(); }

std::string backend_unavailable_reason(std::string_view name) {
    auto& r = detail::registry();
    std::lock_guard lock(r.mutex);
    try {
        if (name.empty() || name == detail::automatic) {
            detail::resolve_locked(r);
            return {};
        }
        detail::descriptor(name);
    } catch (const std::exception& e) {
        return e.what();
    }
    return detail::reason_locked(r, name);
}

std::vector<ToolchainPart> backend_toolchain(std::string_view name) {
    const detail::BackendDescriptor* descriptor = detail::find_built(name);
    if (!descriptor) return {};
    return descriptor->toolchain();
}

}  // namespace gpukit
