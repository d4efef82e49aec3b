// python/src/kernel_args.hpp: Python kernel arguments turned into the bytes each parameter takes.
//
// The kernel's parameters (sizes from the driver, declared types from the source) decide how a
// Python value travels: an int for a 4-byte `int` is range-checked and sent as 4 bytes, a float
// for a 4-byte `float` as float32, a gpukit array as its device address. Mistakes a launch check
// cannot see from sizes alone (a float for an int, a host NumPy array for a pointer) are refused
// here, naming the argument and the parameter. A pointer parameter takes a gpukit array the core
// accepts for it (Kernel::check_array_argument: the element type, C-contiguity) or an explicit
// gpukit.DevicePointer; None, ints and bytes are refused there.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <vector>

#include "gpukit/kernel.hpp"

namespace gpukit::python {

// The packed arguments of one launch. Holds their bytes until the launch call returns.
class PackedArguments {
public:
    const KernelArgs& args() const noexcept { return args_; }
    // A CUDA array interface argument named a stream to synchronise on: wait for the device.
    bool needs_device_sync() const noexcept { return needs_device_sync_; }

private:
    friend PackedArguments pack_arguments(const Kernel& kernel, nanobind::handle arguments, const StreamRef& stream);
    std::vector<std::byte> bytes_;
    KernelArgs args_;
    bool needs_device_sync_ = false;
};

// Converts `arguments` (a tuple or list) for `kernel`, marking the memory of every array passed as
// used by a launch on `stream`. Raises TypeError for a value that cannot be the parameter and
// gpukit.KernelArgumentError for an integer out of the parameter's range; leaves count and size
// mismatches to the core's launch check, whose messages name the parameter.
PackedArguments pack_arguments(const Kernel& kernel, nanobind::handle arguments, const StreamRef& stream);

}  // namespace gpukit::python
