# Fuzz targets (tests/fuzz/fuzz_*.cpp), one per reader or decoder.
#   Ordinary build: fuzz_<name>_replay runs the committed corpus
#     (tests/fuzz/corpus/<name>/: small seeds and every crash input found)
#     under ctest, so a fixed crash stays fixed.
#   NUMAGRAPH_FUZZ=ON (clang, libFuzzer): fuzz_<name> are fuzzers, built by
#     the fuzz_targets target; `make fuzz FUZZ_SECONDS=N` builds and runs them
#     (tests/fuzz/run.sh).
option(NUMAGRAPH_FUZZ "Build the libFuzzer targets (needs clang: make fuzz)" OFF)
file(GLOB NUMAGRAPH_FUZZ_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/fuzz_*.cpp)
find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)  # fuzz_roots reads roots files as the CLI does

if(NUMAGRAPH_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "NUMAGRAPH_FUZZ needs clang's libFuzzer: configure with CC=clang CXX=clang++ "
                        "(make fuzz does), after scripts/install-deps.sh --fuzz")
  endif()
  target_compile_options(numagraph_core PUBLIC -fsanitize=fuzzer-no-link)
  add_custom_target(fuzz_targets)
endif()

foreach(source ${NUMAGRAPH_FUZZ_SOURCES})
  get_filename_component(target ${source} NAME_WE)  # fuzz_ngr
  string(REGEX REPLACE "^fuzz_" "" name ${target})   # ngr
  if(NUMAGRAPH_FUZZ)
    add_executable(${target} ${source})
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
    add_dependencies(fuzz_targets ${target})
  else()
    set(target ${target}_replay)
    add_executable(${target} ${source} ${CMAKE_CURRENT_LIST_DIR}/replay_main.cpp)
    add_test(NAME fuzz_replay_${name} COMMAND ${target} ${CMAKE_CURRENT_LIST_DIR}/corpus/${name})
    set_tests_properties(fuzz_replay_${name} PROPERTIES PASS_REGULAR_EXPRESSION "PASS"
                         ENVIRONMENT "OMP_NUM_THREADS=2")
  endif()
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${PROJECT_SOURCE_DIR}/apps/numagraph
                             ${CLI11_INCLUDE_DIR})
  target_link_libraries(${target} PRIVATE numagraph_core)
endforeach()
