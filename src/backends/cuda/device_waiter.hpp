// src/backends/cuda/device_waiter.hpp: CUDA's waits made interruptible and timed.
//
// cuCtxSynchronize, cuStreamSynchronize and cuEventSynchronize neither time out nor return on
// Ctrl-C. A wait that has a deadline, or that runs while a wait interrupt check is installed (the
// Python bindings install one), goes through a DeviceWaiter: unless a query says the work is done
// already, the wait is handed to one of the waiter's threads, which makes CUDA's blocking call;
// the caller looks for its answer, spinning for a moment (so that a short wait costs about what
// CUDA's own spinning wait costs) and then in slices, between which it looks at the deadline and
// the interrupt check. Past either the caller throws; the thread goes on waiting for the GPU (CUDA
// cannot stop a running kernel). Each wait in progress has a thread of its own, so a wait for an
// endless kernel holds up no other; a thread stays for the next wait once its own is over.
#pragma once

#include <cuda.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "backends/cuda/driver.hpp"

namespace gpukit::detail::cuda {

class DeviceWaiter {
public:
    // `context` is made current on the waiter's threads, which start at the first hand-offs.
    DeviceWaiter(const DriverApi& api, CUcontext context);
    ~DeviceWaiter();
    DeviceWaiter(const DeviceWaiter&) = delete;
    DeviceWaiter& operator=(const DeviceWaiter&) = delete;

    // Whether a wait needs this class: it has a deadline or can be interrupted.
    static bool needed(const Deadline& deadline) noexcept;

    // Waits until `blocking` (a CUDA wait; it may run on the thread after this returns, so it owns
    // what it uses) returns, and returns its result. `query`, when given,
    // answers CUDA_ERROR_NOT_READY while the work runs. Throws WaitTimeoutError past the deadline
    // and WaitInterruptedError when the interrupt check says so; `what` names the awaited work,
    // e.g. "the stream's work on NVIDIA H100 (device 0)", in those messages.
    CUresult wait(const std::function<CUresult()>& blocking, const std::function<CUresult()>& query,
                  const Deadline& deadline, const std::string& what);

private:
    struct Shared;
    std::shared_ptr<Shared> shared_;  // also held by the thread, which may outlive this object
};

}  // namespace gpukit::detail::cuda
