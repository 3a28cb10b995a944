# The installed library (included by tests/CMakeLists.txt; label "install"):
# install.consume installs into a temporary prefix and builds and runs
# tests/install/hello.c against the copy with pkg-config and with
# find_package; install.deb makes the Debian package with cpack and lists
# it. Both leave nothing behind (tests/install/run.sh).
set(LS_INSTALL_RUN ${CMAKE_CURRENT_LIST_DIR}/install/run.sh)
add_test(NAME install.consume COMMAND bash ${LS_INSTALL_RUN} consume ${CMAKE_BINARY_DIR}
  ${CMAKE_C_COMPILER} "${CMAKE_C_FLAGS}")
add_test(NAME install.deb COMMAND bash ${LS_INSTALL_RUN} deb ${CMAKE_BINARY_DIR})
set_tests_properties(install.consume install.deb PROPERTIES LABELS install TIMEOUT 300)
