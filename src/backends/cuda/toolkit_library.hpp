// src/backends/cuda/toolkit_library.hpp: where a CUDA toolkit library (NVRTC, cuBLAS, ...) may be,
// in the order gpukit tries them.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace gpukit::detail::cuda {

// The path in `variable` alone when it is set (a wrong path is then an error naming it, never a
// silent fallback); else each soname as the dynamic linker finds it, then under $CUDA_HOME/lib64,
// $CUDA_PATH/lib64 and /usr/local/cuda/lib64, then each of `wheel_files` (paths inside
// site-packages, "nvidia/nccl/lib/libnccl.so.2") that exists beside this gpukit, where pip
// installed an nvidia wheel and gpukit into one site-packages.
std::vector<std::string> toolkit_library_candidates(const char* variable,
                                                    std::initializer_list<std::string_view> sonames,
                                                    std::initializer_list<std::string_view> wheel_files = {});

}  // namespace gpukit::detail::cuda
