// src/backends/collective_library.hpp: collective communication across a backend's devices
// (all-reduce, reduce, broadcast, all-gather, reduce-scatter), as NCCL offers it.
//
// gpukit's collectives (include/gpukit/collectives.hpp) are written once against this; the CUDA
// backend serves it with NCCL, loaded at run time, the simulator with a host implementation that
// runs in its streams' order, so that the same programs run (and are tested) without a GPU.
#pragma once

namespace gpukit::detail {

class CollectiveLibrary {
public:
    virtual ~CollectiveLibrary() = default;
};

}  // namespace gpukit::detail
