# Placement checks inside the emulated 4-node machine (../shared/tools/numa-vm).
# The guest has no AVX-512, so this binary is built for x86-64-v3 from the
# sources it needs, without the core library's -march=native.
set(NUMAVM_RUNNER ${PROJECT_SOURCE_DIR}/../shared/tools/numa-vm/run-in-numa-vm.sh)
add_executable(placement_check ${CMAKE_CURRENT_LIST_DIR}/placement_check.cpp
               ${PROJECT_SOURCE_DIR}/src/numa/memory.cpp ${PROJECT_SOURCE_DIR}/src/numa/runtime.cpp
               ${PROJECT_SOURCE_DIR}/src/numa/topology.cpp ${PROJECT_SOURCE_DIR}/src/graph/builder.cpp
               ${PROJECT_SOURCE_DIR}/src/graph/generators.cpp)
target_include_directories(placement_check PRIVATE ${PROJECT_SOURCE_DIR}/include ${NUMA_INCLUDE_DIR})
target_compile_options(placement_check PRIVATE -O2 -march=x86-64-v3)
target_link_libraries(placement_check PRIVATE OpenMP::OpenMP_CXX PkgConfig::HWLOC ${NUMA_LIBRARY})
if(EXISTS ${NUMAVM_RUNNER})
  add_test(NAME numa_vm_placement COMMAND ${NUMAVM_RUNNER} 4 1 $<TARGET_FILE:placement_check>)
  set_tests_properties(numa_vm_placement PROPERTIES TIMEOUT 300 PASS_REGULAR_EXPRESSION "[1-9][0-9]* passed, 0 failed"
                       ENVIRONMENT "NUMAVM_APPEND=transparent_hugepage=madvise")
else()
  message(STATUS "../shared/tools/numa-vm not found: the NUMA VM placement test is not registered")
endif()
