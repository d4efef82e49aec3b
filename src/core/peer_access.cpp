// src/core/peer_access.cpp: peer access between two devices, settled once per ordered pair.
#include "core/peer_access.hpp"

#include <map>
#include <mutex>
#include <tuple>

#include "backends/backend.hpp"

namespace gpukit::detail {

bool peer_access(const Device& device, const Device& peer) {
    // The driver refuses a second enable of a pair, and each copy would otherwise ask it again:
    // every pair's answer is remembered for the process.
    static std::mutex mutex;
    static std::map<std::tuple<const Backend*, int, int>, bool> settled;
    const auto pair = std::make_tuple(&device.backend(), device.ordinal(), peer.ordinal());
    std::lock_guard lock(mutex);
    if (const auto known = settled.find(pair); known != settled.end()) return known->second;
    const bool reachable = device.can_access_peer(peer);
    if (reachable) device.backend().enable_peer_access(device.ordinal(), peer.ordinal());
    settled.emplace(pair, reachable);
    return reachable;
}

}  // namespace gpukit::detail
