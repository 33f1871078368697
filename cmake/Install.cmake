# `cmake --install` and the Debian package (scripts/package.sh): the binary (with the aarch64
# client build beside it when it was made), the shell completions and the man page generated from
# the built binary's help texts, and the docs, each in its Debian place.
include(GNUInstallDirs)

set(_extras ${CMAKE_BINARY_DIR}/extras)
set(_completions ${_extras}/dfbench.bash ${_extras}/_dfbench ${_extras}/dfbench.fish)
add_custom_command(
  OUTPUT ${_completions} ${_extras}/dfbench.1.gz
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_extras}
  COMMAND $<TARGET_FILE:dfbench> completion bash > ${_extras}/dfbench.bash
  COMMAND $<TARGET_FILE:dfbench> completion zsh > ${_extras}/_dfbench
  COMMAND $<TARGET_FILE:dfbench> completion fish > ${_extras}/dfbench.fish
  COMMAND python3 ${CMAKE_SOURCE_DIR}/scripts/make-man.py $<TARGET_FILE:dfbench> ${_extras}/dfbench.1
  COMMAND gzip -9nf ${_extras}/dfbench.1
  DEPENDS dfbench ${CMAKE_SOURCE_DIR}/scripts/make-man.py
  COMMENT "Completions and man page from dfbench's help texts"
  VERBATIM)
add_custom_target(dfbench_extras ALL DEPENDS ${_completions} ${_extras}/dfbench.1.gz)

install(TARGETS dfbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# setup looks for the client build of another architecture beside dfbench.
install(PROGRAMS ${CMAKE_BINARY_DIR}/dfbench-linux-aarch64 DESTINATION ${CMAKE_INSTALL_BINDIR}
        OPTIONAL)
install(FILES ${_extras}/dfbench.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME dfbench)
install(FILES ${_extras}/_dfbench DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${_extras}/dfbench.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES ${_extras}/dfbench.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dfbench)
set(CPACK_PACKAGE_CONTACT "dfbench maintainers <dfbench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "fair, reproducible benchmarks of Dragonfly, Redis, Valkey and memcached")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # dfbench_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from the libraries the binary links
# What the local provider runs and the ssh provider connects with; none is needed to compare or
# report result files.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "redis-server, memcached, openssh-client")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
