// src/backends/cuda/device_waiter.hpp: CUDA's waits made interruptible and timed.
//
// cuCtxSynchronize, cuStreamSynchronize and cuEventSynchronize neither time out nor return on
// Ctrl-C. A wait that has a deadline, or that runs while a wait interrupt check is installed (the
// Python bindings install one), goes through a DeviceWaiter: where CUDA has a query for the work
// (streams, events) the caller first polls it, so that a short wait costs what CUDA's own spinning
// wait costs; a longer one is handed to the waiter's thread, which makes the blocking call, while
// the caller waits for that thread in slices and looks at the deadline and the interrupt check
// between them. Past either the caller throws; the thread goes on waiting for the GPU (CUDA cannot
// stop a running kernel), and later waits queue behind it.
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
    // `context` is made current on the waiter's thread, which starts at the first hand-off.
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
