// src/backends/sim/prelude/cuda_runtime.h: kernels that include this CUDA header get the
// simulator's built-ins instead (everything is already declared by gpukit_sim.h).
#pragma once
#include "gpukit_sim.h"
