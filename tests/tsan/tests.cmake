# ThreadSanitizer build of the work-queue stress test (header-only code under test).
add_executable(nwq_tsan ${CMAKE_CURRENT_LIST_DIR}/nwq_tsan.cpp)
target_include_directories(nwq_tsan PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_options(nwq_tsan PRIVATE -fsanitize=thread -g -O1 -fopenmp)
target_link_options(nwq_tsan PRIVATE -fsanitize=thread -fopenmp)
add_test(NAME nwq_tsan COMMAND nwq_tsan)
set_tests_properties(nwq_tsan PROPERTIES ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1 exitcode=66"
                     PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "ThreadSanitizer")
