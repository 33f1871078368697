# Embeds the version, the git commit and the build date into src/core/version.cc.
find_package(Git QUIET)
set(DFBENCH_COMMIT "unknown")
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=7 HEAD
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE _commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _commit)
    set(DFBENCH_COMMIT ${_commit})
  endif()
endif()
string(TIMESTAMP DFBENCH_BUILD_DATE "%Y-%m-%d" UTC)
configure_file(${CMAKE_SOURCE_DIR}/src/core/version.cc.in ${CMAKE_BINARY_DIR}/generated/version.cc @ONLY)
