// gpukit/backend.hpp: the backends this gpukit was built with, what each can do, and which one runs.
//
// A backend runs kernels on one kind of device: a GPU through its driver, or the CPU simulator.
// Each describes itself (name, capabilities, the libraries and compilers it found); code that
// must behave differently on another kind of device asks a capability, never a backend's name.
// The process uses one backend, chosen once: GPUKIT_BACKEND=<name>|auto, or select_backend()
// before the first device is used; auto takes the first backend that can run here, in the order
// backends() lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpukit {

// What a backend can do.
struct BackendCapabilities {
    // Kernels run on this machine's CPU, not on an accelerator (timings are CPU timings).
    bool simulated = false;
    // Runs kernels under check mode's tools (gpukit/check.hpp): CompileOptions::check,
    // LaunchConfig::check and GPUKIT_CHECK take effect.
    bool check_mode = false;
    // Loads code compiled elsewhere: PTX, cubin, fatbin (Module::load, Module::load_file).
    bool loads_binary_images = false;
    // Its devices may have matrix units (tensor cores); a device's compute capability says which.
    bool tensor_cores = false;
    // Where DLPack places the backend's memory: 1 (kDLCPU: host memory, which any CPU code may
    // read) or 2 (kDLCUDA: CUDA device memory, which CUDA libraries also take through the CUDA
    // Array Interface).
    int dlpack_device_type = 0;
    // Can run kernels in a sandbox (set_sandbox): apart from this process, with no network, a
    // private temporary directory and a read-only view of the files. Where kernels are native
    // code with the user's rights (the simulator), this confines one you do not trust.
    bool sandbox = false;
};

struct BackendInfo {
    std::string name;          // what GPUKIT_BACKEND, select_backend() and device lists call it
    std::string description;   // one line: what it runs kernels on, and how
    std::string device_label;  // how device lists label its devices ("GPU 0")
    bool built = false;        // built into this gpukit; a backend that is not says why (unavailable_reason)
    BackendCapabilities capabilities;
};

// A library or program a backend needs, as found on this machine.
struct ToolchainPart {
    std::string role;     // what it is for the backend: "driver", "NVRTC", "host compiler"
    std::string path;     // the file in use, or found on disk; empty when none was found
    std::string version;  // "13.0" (a library), the first line of `--version` (a compiler); empty when unknown
    std::string problem;  // why it cannot be used; empty when it can
};

// Every backend gpukit knows, the built ones first, in the order automatic selection tries them.
const std::vector<BackendInfo>& backends();
// The backend of that name. Throws InvalidArgumentError naming the backends there are.
const BackendInfo& backend_info(std::string_view name);
// Why the backend cannot be used here (not built in, no driver, no device, no compiler), or an
// empty string when it can; "auto": why no backend can. Never throws.
std::string backend_unavailable_reason(std::string_view name);
// The libraries and compilers the backend uses, where they were found, or why they cannot be
// used. Loads what is not loaded yet, as the backend would; never throws.
std::vector<ToolchainPart> backend_toolchain(std::string_view name);

// Chooses the process's backend by name, or "auto". Call before the first device is used; a
// later call that asks for a different backend throws UsageError. A backend that cannot run here
// throws BackendUnavailableError saying why; an unknown name, InvalidArgumentError.
void select_backend(std::string_view name);
// The backend in use, selecting it from GPUKIT_BACKEND (default auto) on first call.
const BackendInfo& selected_backend();

// Runs the selected backend's kernels in its sandbox (BackendCapabilities::sandbox), or, with
// false, no longer. The sandbox starts at once: work already running finishes first, and the
// modules loaded so far are loaded again inside it (their variables keep their values). Returns
// when kernels run as asked. Throws BackendUnavailableError when the backend has no sandbox, or
// when this system forbids what it needs (it names the setting, e.g. unprivileged user
// namespaces): kernels are then refused, never run unconfined, until set_sandbox(false) says
// they may. On the simulator GPUKIT_SIM_SANDBOX=1 turns it on from the start.
void set_sandbox(bool on);
// Whether the selected backend's kernels run in its sandbox.
bool sandboxed();

}  // namespace gpukit
