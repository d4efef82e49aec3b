// gpukit/gpukit.hpp: the whole C++ API.
#pragma once

#include "gpukit/backend.hpp"
#include "gpukit/cache.hpp"
#include "gpukit/check.hpp"
#include "gpukit/device.hpp"
#include "gpukit/error.hpp"
#include "gpukit/event.hpp"
#include "gpukit/geometry.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"
#include "gpukit/stream.hpp"
#include "gpukit/version.hpp"
