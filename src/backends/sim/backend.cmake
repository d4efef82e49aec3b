# src/backends/sim/backend.cmake: the simulator builds everywhere; it needs a host C++ compiler at
# run time only. Its prelude headers go into the library as text (embed_prelude.cmake), and its
# device process, gpukit-sim-device, an executable made of the library's own objects, goes into
# the library as bytes (embed_device.cmake): kernels run in it, apart from the user's process.
file(GLOB_RECURSE gpukit_sim_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
list(FILTER gpukit_sim_sources EXCLUDE REGEX "/device_process/")
file(GLOB gpukit_sim_prelude CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/prelude/*.h)
set(gpukit_sim_prelude_cpp ${CMAKE_CURRENT_BINARY_DIR}/generated/sim_prelude_files.cpp)
string(REPLACE ";" "|" gpukit_sim_prelude_argument "${gpukit_sim_prelude}")  # one argument, no shell ';'
add_custom_command(OUTPUT ${gpukit_sim_prelude_cpp}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${gpukit_sim_prelude_cpp} -DFILES=${gpukit_sim_prelude_argument}
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_prelude.cmake
  VERBATIM
  DEPENDS ${gpukit_sim_prelude} ${CMAKE_CURRENT_LIST_DIR}/embed_prelude.cmake
  COMMENT "Embedding the simulator prelude")
target_sources(gpukit_objects PRIVATE ${gpukit_sim_sources} ${gpukit_sim_prelude_cpp})

# The device process links an archive of the library's objects (only what it uses is pulled in);
# its main defines device_executable() as empty, the library's comes from the bytes below.
add_library(gpukit_device_runtime STATIC EXCLUDE_FROM_ALL $<TARGET_OBJECTS:gpukit_objects>)
add_executable(gpukit-sim-device ${CMAKE_CURRENT_LIST_DIR}/device_process/main.cpp)
target_link_libraries(gpukit-sim-device PRIVATE gpukit_device_runtime Threads::Threads ${CMAKE_DL_LIBS})
target_include_directories(gpukit-sim-device PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_options(gpukit-sim-device PRIVATE -Wall -Wextra -Wpedantic)
target_link_options(gpukit-sim-device PRIVATE -s)  # carried in every copy of the library: no symbols
set(gpukit_sim_device_cpp ${CMAKE_CURRENT_BINARY_DIR}/generated/sim_device_executable.cpp)
add_custom_command(OUTPUT ${gpukit_sim_device_cpp}
  COMMAND ${CMAKE_COMMAND} -DEXECUTABLE=$<TARGET_FILE:gpukit-sim-device> -DOUTPUT=${gpukit_sim_device_cpp}
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_device.cmake
  VERBATIM
  DEPENDS gpukit-sim-device ${CMAKE_CURRENT_LIST_DIR}/embed_device.cmake
  COMMENT "Embedding the simulator's device process")
list(APPEND gpukit_carried_sources ${gpukit_sim_device_cpp})
