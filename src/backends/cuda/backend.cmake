# src/backends/cuda/backend.cmake: the CUDA backend builds wherever the CUDA headers are. Nothing
# CUDA is linked: libcuda and libnvrtc are loaded at run time, so the library runs without them.
find_path(GPUKIT_CUDA_INCLUDE_DIR NAMES cuda.h nvrtc.h
  HINTS ENV CUDA_HOME ENV CUDA_PATH ENV CUDAToolkit_ROOT
  PATHS /usr/local/cuda /opt/cuda
  PATH_SUFFIXES include targets/x86_64-linux/include)
if(GPUKIT_CUDA_INCLUDE_DIR AND EXISTS "${GPUKIT_CUDA_INCLUDE_DIR}/nvrtc.h")
  file(GLOB gpukit_cuda_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
  target_sources(gpukit_objects PRIVATE ${gpukit_cuda_sources})
  target_include_directories(gpukit_objects SYSTEM PRIVATE ${GPUKIT_CUDA_INCLUDE_DIR})
else()
  set(gpukit_backend_unbuilt_reason
      "CUDA headers (cuda.h, nvrtc.h) were not found at build time. Rebuild with the CUDA toolkit installed, or set CUDA_HOME")
endif()
