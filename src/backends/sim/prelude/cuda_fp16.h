// src/backends/sim/prelude/cuda_fp16.h: kernels that include this CUDA header get the simulator's
// built-ins instead (everything is already declared by gpukit_sim.h).
#pragma once
#include "gpukit_sim.h"
