// src/collectives/collective_library_of.cpp: the collectives of a device's backend.
#include "collectives/collective_library_of.hpp"

#include "backends/backend.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

CollectiveLibrary& collective_library_of(const Device& device) {
    CollectiveLibrary* library = device.backend().collective_library();
    if (library == nullptr)
        throw BackendUnavailableError(
            concat("The ", device.backend().info().name, " backend has no collectives (gpukit.collectives)"));
    return *library;
}

}  // namespace gpukit::detail
