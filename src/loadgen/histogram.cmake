# The latency histogram: a small library of its own (dfbench_loadgen links it) with its own
# test executable. Included from src/loadgen/CMakeLists.txt; bench/ includes it too when built
# without that file, hence the guard.
include_guard(GLOBAL)

add_library(dfbench_histogram ${CMAKE_CURRENT_LIST_DIR}/histogram.cc)
target_link_libraries(dfbench_histogram PUBLIC dfbench_core)

if(DFBENCH_BUILD_TESTS)
  add_executable(dfbench_histogram_tests ${CMAKE_CURRENT_LIST_DIR}/histogram_test.cc)
  target_link_libraries(dfbench_histogram_tests PRIVATE dfbench_histogram GTest::gtest_main)
  gtest_discover_tests(dfbench_histogram_tests DISCOVERY_TIMEOUT 30)
endif()
