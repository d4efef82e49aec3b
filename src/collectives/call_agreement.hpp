// src/collectives/call_agreement.hpp: ranks in several processes (or threads) check that they are
// about to call the same collective (CommunicatorOptions::verify_calls).
//
// NCCL trusts every rank to call the same collective with the same count, type, op and root;
// where they do not, it hangs or returns garbage. Before each collective the ranks all-gather a
// descriptor of what they are about to call (64 bytes each) and each host waits for it, so that a
// mismatch, or a rank that refused its own arguments, is an InvalidArgumentError on every rank,
// before anything else is enqueued.
#pragma once

#include <optional>

#include "backends/collective_library.hpp"
#include "gpukit/collectives.hpp"

namespace gpukit::detail {

// `call` is this rank's collective, nullopt where its own arguments were refused (it then still
// takes part, so that the others learn it). Returns when every rank called the same; throws
// InvalidArgumentError naming each rank's call otherwise, WaitTimeoutError past the
// communicator's timeout (after aborting it), or the communicator's failure.
void agree_on_call(CollectiveComm& comm, const Device& device, int rank, int size,
                   const std::optional<CollectiveCall>& call, const CommunicatorOptions& options);

}  // namespace gpukit::detail
