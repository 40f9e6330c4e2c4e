# Distributed Graph500 BFS smoke tests: 1, 2 and 4 ranks (shared bitmaps, and
# private ones with the leader-based allgather), every tree
# validated, the communicator size checked in the JSON record (a binary
# started by another MPI's mpirun would run as N 1-rank jobs). The thorough
# checks (depths vs the shared-memory BFS and SciPy, every sharing mode) are
# in test_graph500.py, which `make test` runs with pytest.
if(TARGET numagraph-graph500)
  set(NUMAGRAPH_DIST_TEST_ENV
      "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;OMPI_MCA_pml=ob1;OMPI_MCA_btl=self,vader;OMPI_MCA_osc=sm,ucx;OMP_NUM_THREADS=1")
  foreach(ranks 1 2 4)
    add_test(NAME graph500_np${ranks}
             COMMAND timeout -k 10 120 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:numagraph-graph500> ${MPIEXEC_POSTFLAGS} --scale 12 --roots 16 --share all --json)
    set_tests_properties(graph500_np${ranks} PROPERTIES TIMEOUT 150 ENVIRONMENT "${NUMAGRAPH_DIST_TEST_ENV}"
                         PASS_REGULAR_EXPRESSION "\"ranks\": ${ranks},.*\"verified\": true")
    # The leader-based allgather baseline of private bitmaps.
    add_test(NAME graph500_leader_np${ranks}
             COMMAND timeout -k 10 120 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:numagraph-graph500> ${MPIEXEC_POSTFLAGS} --scale 12 --roots 16 --allgather leader
                     --json)
    set_tests_properties(graph500_leader_np${ranks} PROPERTIES TIMEOUT 150 ENVIRONMENT "${NUMAGRAPH_DIST_TEST_ENV}"
                         PASS_REGULAR_EXPRESSION "\"ranks\": ${ranks},.*\"allgather\": \"leader\".*\"verified\": true")
  endforeach()
endif()
