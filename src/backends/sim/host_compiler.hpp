// src/backends/sim/host_compiler.hpp: compiles CUDA C source into a kernel module (a shared
// object) with the host C++ compiler, after the simulator's prelude.
#pragma once

#include <string>
#include <string_view>

#include "backends/backend.hpp"

namespace gpukit::detail::sim {

// The bytes every extern __shared__ array of a module can address: the opt-in maximum.
inline constexpr unsigned long dynamic_shared_capacity = 227ul * 1024;

class HostCompiler final : public Compiler {
public:
    // The compiler's resolved path, size and time, the prelude's hash and the flags gpukit adds.
    // Throws BackendUnavailableError when no host C++ compiler is on PATH.
    std::string identity() const override;
    // Source → object (prelude, `#line`-mapped user source, kernel registry) → shared object.
    // Compile errors point at the user's file and lines; throws CompileError.
    CompiledImage compile(const CompileInput& input) const override;
};

const HostCompiler& host_compiler();

// The compiler gpukit uses: GPUKIT_SIM_CXX, then CXX, then c++, g++, clang++ on PATH; empty if none.
std::string host_compiler_path();

}  // namespace gpukit::detail::sim
