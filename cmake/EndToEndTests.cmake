# The end-to-end test binaries of tests/: each links the test support and GoogleTest's main,
# includes the helpers of tests/integration, and registers its tests with ctest.
#
#   dfbench_end_to_end_tests(<name> SOURCES <file>... TIMEOUT <seconds>
#                            [RUNS_DFBENCH] [TESTBED] [SKIPPABLE]
#                            [DEFINITIONS <definition>...] [LIBRARIES <library>...])
#
# RUNS_DFBENCH: the tests run the built dfbench (tests/integration/dfbench_runner.h, compiled
#   in), so the binary is built after it and knows its path.
# TESTBED: the tests use the multi-host test bed (tests/integration/ssh_testbed.h, compiled in).
#   Every test of the binary shares the bed, and no other test may use it meanwhile: the binary
#   is one ctest entry, holding the bed's lock. Otherwise each test is an entry of its own.
# SKIPPABLE: a test that prints "[  SKIPPED ]" (a missing engine or bed) counts as skipped, not
#   as passed.
function(dfbench_end_to_end_tests name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "RUNS_DFBENCH;TESTBED;SKIPPABLE" "TIMEOUT"
                        "SOURCES;DEFINITIONS;LIBRARIES")
  set(helpers ${CMAKE_SOURCE_DIR}/tests/integration)
  set(sources ${arg_SOURCES})
  set(definitions ${arg_DEFINITIONS})
  if(arg_RUNS_DFBENCH)
    # First, as the binaries always listed it: a unity batch compiles its sources in order.
    list(PREPEND sources ${helpers}/dfbench_runner.cc)
    list(APPEND definitions DFBENCH_BINARY="$<TARGET_FILE:dfbench>")
  endif()
  if(arg_TESTBED)
    list(APPEND sources ${helpers}/ssh_testbed.cc)
    list(APPEND definitions DFBENCH_TESTBEDS_DIR="${CMAKE_SOURCE_DIR}/../shared/testbeds")
  endif()
  add_executable(${name} ${sources})
  target_compile_definitions(${name} PRIVATE ${definitions})
  target_include_directories(${name} PRIVATE ${helpers})
  target_link_libraries(${name} PRIVATE ${arg_LIBRARIES} dfbench_test_support dfbench_core
                                        nlohmann_json::nlohmann_json GTest::gtest_main)
  if(arg_RUNS_DFBENCH)
    add_dependencies(${name} dfbench)
  endif()

  set(properties TIMEOUT ${arg_TIMEOUT})
  if(arg_SKIPPABLE)
    list(APPEND properties SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endif()
  if(arg_TESTBED)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES ${properties} RESOURCE_LOCK netns_testbed)
  else()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 30 PROPERTIES ${properties})
  endif()
endfunction()
