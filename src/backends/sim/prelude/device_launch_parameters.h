// src/backends/sim/prelude/device_launch_parameters.h: kernels that include this CUDA header get
// the simulator's built-ins instead (everything is already declared by gpukit_sim.h).
#pragma once
#include "gpukit_sim.h"
