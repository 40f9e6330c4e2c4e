# Placement checks inside the emulated NUMA machine (../shared/tools/numa-vm):
# 4 nodes x 1 CPU and 4 nodes x 2 CPUs (two threads per node, node-major ids).
# The guest has no AVX-512, so this binary is built for x86-64-v3 from the
# sources it needs, whatever the core library's -march. The tests are skipped
# (exit 77) when QEMU or the guest kernel is missing; `make test` installs them.
set(NUMAVM_RUNNER ${PROJECT_SOURCE_DIR}/../shared/tools/numa-vm/run-in-numa-vm.sh)
add_executable(placement_check ${CMAKE_CURRENT_LIST_DIR}/placement_check.cpp
               ${PROJECT_SOURCE_DIR}/src/numa/memory.cpp ${PROJECT_SOURCE_DIR}/src/numa/roles.cpp
               ${PROJECT_SOURCE_DIR}/src/numa/runtime.cpp
               ${PROJECT_SOURCE_DIR}/src/numa/topology.cpp ${PROJECT_SOURCE_DIR}/src/graph/builder.cpp
               ${PROJECT_SOURCE_DIR}/src/graph/id_relabel.cpp
               ${PROJECT_SOURCE_DIR}/src/graph/generators.cpp ${PROJECT_SOURCE_DIR}/src/util/memory_guard.cpp)
target_include_directories(placement_check PRIVATE ${PROJECT_SOURCE_DIR}/include ${NUMA_INCLUDE_DIR})
target_compile_options(placement_check PRIVATE -O2 -march=x86-64-v3)
target_link_libraries(placement_check PRIVATE OpenMP::OpenMP_CXX PkgConfig::HWLOC ${NUMA_LIBRARY})
foreach(cpus 1 2)
  add_test(NAME numa_vm_placement_4x${cpus}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/run-or-skip.sh ${NUMAVM_RUNNER} 4 ${cpus} $<TARGET_FILE:placement_check>)
  # THP on "madvise" in the guest: first-touch checks must not see huge pages
  # shared with a thread stack (see the numa-vm README). Automatic NUMA
  # balancing off: it unmaps pages for a while to sample accesses (and may
  # migrate them), so move_pages() reported blocks that threads had just
  # written as "not present" (4x2, under load, about one run in three).
  set_tests_properties(numa_vm_placement_4x${cpus} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "NUMAVM_APPEND=transparent_hugepage=madvise numa_balancing=disable")
endforeach()
