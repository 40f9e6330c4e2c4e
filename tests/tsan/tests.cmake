# ThreadSanitizer build of the work-queue stress test (header-only code under test).
add_executable(nwq_tsan ${CMAKE_CURRENT_LIST_DIR}/nwq_tsan.cpp)
target_include_directories(nwq_tsan PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_options(nwq_tsan PRIVATE -fsanitize=thread -g -O1 -fopenmp)
target_link_options(nwq_tsan PRIVATE -fsanitize=thread -fopenmp)
add_test(NAME nwq_tsan COMMAND nwq_tsan)
set_tests_properties(nwq_tsan PROPERTIES ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1 exitcode=66"
                     PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "ThreadSanitizer")

# ThreadSanitizer build of delta-stepping's round bookkeeping (one barrier per
# round, double-buffered slots).
add_executable(round_slots_tsan ${CMAKE_CURRENT_LIST_DIR}/round_slots_tsan.cpp)
target_include_directories(round_slots_tsan PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_options(round_slots_tsan PRIVATE -fsanitize=thread -g -O1)
target_link_options(round_slots_tsan PRIVATE -fsanitize=thread)
add_test(NAME round_slots_tsan COMMAND round_slots_tsan)
set_tests_properties(round_slots_tsan PROPERTIES ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1 exitcode=66"
                     PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "ThreadSanitizer")
