# How the code off the load generator's request path is compiled. Only protocol, the latency
# histogram and loadgen run per request and are optimised fully (-O3 in Release); everything else
# (the layers above, the commands, every test) runs a few times per trial and, in Release, is
# compiled at -Og: about three quarters of -O1's compile time. Measured by bench/build_time.sh:
# what a new user waits for before the first result.

set(dfbench_hot_targets dfbench_protocol dfbench_histogram dfbench_loadgen)
# Of those, what runs once per run: loadgen reading its options and writing its report (each
# then its own unit, out of the library's batch).
set(dfbench_cold_sources_of_hot_targets
  ${CMAKE_SOURCE_DIR}/src/loadgen/config.cc ${CMAKE_SOURCE_DIR}/src/loadgen/report.cc)

# The compiled targets defined in `dir` and the directories below it, but for the bench programs
# (what they measure runs as built at -O3) and the fuzz targets (their own compiler flags).
function(dfbench_targets_under dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  list(REMOVE_ITEM subdirs ${CMAKE_SOURCE_DIR}/bench ${CMAKE_SOURCE_DIR}/fuzz)
  foreach(sub IN LISTS subdirs)
    dfbench_targets_under(${sub} below)
    list(APPEND targets ${below})
  endforeach()
  set(compiled "")
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
      list(APPEND compiled ${target})
    endif()
  endforeach()
  set(${out} ${compiled} PARENT_SCOPE)
endfunction()

function(dfbench_compile_cold_code)
  dfbench_targets_under(${CMAKE_SOURCE_DIR} cold)
  list(REMOVE_ITEM cold ${dfbench_hot_targets})
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    foreach(target IN LISTS cold)
      target_compile_options(${target} PRIVATE -Og)
    endforeach()
    set_source_files_properties(${dfbench_cold_sources_of_hot_targets}
      TARGET_DIRECTORY dfbench_loadgen PROPERTIES COMPILE_OPTIONS -Og)
  endif()
endfunction()
