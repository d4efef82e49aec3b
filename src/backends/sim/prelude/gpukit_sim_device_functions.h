// src/backends/sim/prelude/gpukit_sim_device_functions.h: the device-function part of the
// simulator prelude in one include: vector types, math, integer intrinsics, 16-bit floats, atomics.
//
// It depends on nothing but the C++ standard library and compiles as C++17 or later with GCC or
// Clang. The runtime-facing part of the prelude (threadIdx, __syncthreads, warp functions, the
// kernel registry) is separate and may define GPUKIT_SIM_ON_FAILED_CAS() before including this.
#pragma once

// Each header includes what it uses; this order (types first, then what builds on them) only
// keeps a reader's path through them short.
// clang-format off
#include "gpukit_sim_vector_types.h"
#include "gpukit_sim_math.h"
#include "gpukit_sim_intrinsics.h"
#include "gpukit_sim_half.h"
#include "gpukit_sim_atomics.h"
// clang-format on
