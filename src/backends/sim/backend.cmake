# src/backends/sim/backend.cmake: the simulator builds everywhere; it needs a host C++ compiler at
# run time only. Its prelude headers go into the library as text (embed_prelude.cmake).
file(GLOB_RECURSE gpukit_sim_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
file(GLOB gpukit_sim_prelude CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/prelude/*.h)
set(gpukit_sim_prelude_cpp ${CMAKE_CURRENT_BINARY_DIR}/generated/sim_prelude_files.cpp)
string(REPLACE ";" "|" gpukit_sim_prelude_argument "${gpukit_sim_prelude}")  # one argument, no shell ';'
add_custom_command(OUTPUT ${gpukit_sim_prelude_cpp}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${gpukit_sim_prelude_cpp} -DFILES=${gpukit_sim_prelude_argument}
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_prelude.cmake
  VERBATIM
  DEPENDS ${gpukit_sim_prelude} ${CMAKE_CURRENT_LIST_DIR}/embed_prelude.cmake
  COMMENT "Embedding the simulator prelude")
target_sources(gpukit PRIVATE ${gpukit_sim_sources} ${gpukit_sim_prelude_cpp})
