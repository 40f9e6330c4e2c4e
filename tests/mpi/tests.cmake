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

# The distributed kernels against the shared-memory ones on the same graph
# (tests/mpi/dist_check_*.cpp: every depth, distance, component and score
# compared), at 1 to 4 ranks, odd counts too, on real graphs of ../shared/data.
if(TARGET dist-check-bfs)
  set(NUMAGRAPH_SHARED_DATA ${PROJECT_SOURCE_DIR}/../shared/data)
  if(EXISTS ${NUMAGRAPH_SHARED_DATA}/email-Enron/email-Enron.txt.gz)
    set(NUMAGRAPH_DIST_CHECKS
        "bfs|email-Enron/email-Enron.txt.gz|1 2 3 4|"
        "cc|email-Enron/email-Enron.txt.gz|1 2 3 4|"
        "pr|email-Enron/email-Enron.txt.gz|1 2 3 4|"
        "sssp|email-Enron/email-Enron.txt.gz|1 2 3 4|"
        "sssp|rome99/rome99.gr|2 3|"
        "pr|rome99/rome99.gr|3|"
        "bfs|facebook_combined/facebook_combined.txt.gz|2 3|-s"
        "cc|USA-road-d.NY/USA-road-d.NY.gr.gz|3 4|")
    foreach(check ${NUMAGRAPH_DIST_CHECKS})
      string(REPLACE "|" ";" parts "${check}")
      list(GET parts 0 kernel)
      list(GET parts 1 graph)
      list(GET parts 2 rank_counts)
      list(GET parts 3 extra)
      get_filename_component(graph_name ${graph} NAME_WE)
      separate_arguments(rank_counts)
      separate_arguments(extra)
      foreach(ranks ${rank_counts})
        add_test(NAME dist_check_${kernel}_${graph_name}_np${ranks}
                 COMMAND timeout -k 10 120 ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${MPIEXEC_PREFLAGS}
                         $<TARGET_FILE:dist-check-${kernel}> ${MPIEXEC_POSTFLAGS} ${NUMAGRAPH_SHARED_DATA}/${graph} ${extra})
        set_tests_properties(dist_check_${kernel}_${graph_name}_np${ranks} PROPERTIES
                             TIMEOUT 150 ENVIRONMENT "${NUMAGRAPH_DIST_TEST_ENV}"
                             PASS_REGULAR_EXPRESSION "\"ranks\": ${ranks},.*\"ok\": true")
      endforeach()
    endforeach()
  endif()
endif()
