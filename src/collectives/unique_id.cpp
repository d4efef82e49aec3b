// src/collectives/unique_id.cpp: the id ranks meet by (gpukit/collectives.hpp).
#include <algorithm>

#include "collectives/collective_library_of.hpp"
#include "gpukit/collectives.hpp"
#include "util/text.hpp"

namespace gpukit {

UniqueId UniqueId::create(const Device& device) {
    const detail::UniqueIdBytes bytes = detail::collective_library_of(device).create_unique_id();
    return from_bytes(bytes);
}

UniqueId UniqueId::from_bytes(std::span<const std::byte> bytes) {
    if (bytes.size() != unique_id_bytes)
        throw InvalidArgumentError(
            detail::concat("A UniqueId is ", unique_id_bytes, " bytes (NCCL's ncclUniqueId), not ", bytes.size()));
    UniqueId id;
    std::copy(bytes.begin(), bytes.end(), id.bytes_.begin());
    return id;
}

}  // namespace gpukit
