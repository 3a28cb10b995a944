# What `cmake --install` puts where, and the Debian package `cpack` makes of
# it (included by the top CMakeLists.txt, after the targets). The layout is
# GNUInstallDirs' (docs/architecture.md, "Installed layout"):
#   bin/lockstep                         the command line program
#   include/lockstep.h                   the one public header
#   LIBDIR/liblockstep.a                 static library
#   LIBDIR/liblockstep.so.X.Y.Z          shared library, SONAME liblockstep.so.X,
#         .so.X, .so                     and its two symlinks
#   LIBDIR/pkgconfig/lockstep.pc         pkg-config
#   LIBDIR/cmake/lockstep/               find_package(lockstep): lockstep::lockstep
#                                        (shared), lockstep::lockstep_static
# tests/install/run.sh installs into a temporary prefix and builds a program
# against the copy both ways, then builds the .deb and lists it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/lockstep)

install(TARGETS lockstep_shared lockstep_static EXPORT lockstepTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS lockstep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES include/lockstep.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The CMake package: the exported targets (their paths relative to the
# package's own folder, so the installed tree can move), a config file
# that finds Threads for the static target first, and a version file.
install(EXPORT lockstepTargets NAMESPACE lockstep:: DESTINATION ${LS_CMAKE_DIR})
configure_package_config_file(cmake/lockstepConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfig.cmake INSTALL_DESTINATION ${LS_CMAKE_DIR})
# The SONAME changes with the major version only, so within one major
# version the library is a drop-in replacement; find_package says the same.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/lockstepConfigVersion.cmake
  COMPATIBILITY ${LS_VERSION_COMPATIBILITY})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfigVersion.cmake DESTINATION ${LS_CMAKE_DIR})

# pkg-config. The prefix is the one given at install time (`cmake --install
# build --prefix DIR`, or /usr inside cpack), not the one configured, so the
# file is written by the install step itself. Libs.private is what the
# library's own code calls beyond libc (pthreads, libm: see the static
# link in tests/install/run.sh); jansson and nettle are the CLI's alone.
foreach(d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${d}}")
    set(LS_PC_${d} "${CMAKE_INSTALL_${d}}")
  else()
    set(LS_PC_${d} "\${prefix}/${CMAKE_INSTALL_${d}}")
  endif()
endforeach()
set(LS_PC_PREFIX @LS_PC_PREFIX@) # left for cmake/install_pc.cmake
configure_file(cmake/lockstep.pc.in ${CMAKE_CURRENT_BINARY_DIR}/lockstep.pc.in @ONLY)
install(CODE "set(LS_PC_IN \"${CMAKE_CURRENT_BINARY_DIR}/lockstep.pc.in\")
  set(LS_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")")
install(SCRIPT cmake/install_pc.cmake)

# cpack: one Debian package, lockstep, with the library (static, shared and
# development files) and the CLI. dpkg-shlibdeps (dpkg-dev) works out the
# runtime packages the binaries need (libc6, and the CLI's libjansson4 and
# libnettle8); the shlibs file lets packages built against it depend on it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lockstep)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "lockstep developers <lockstep@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "WebGPU compute model on the CPU: a C library and the lockstep command")
# Debian's long description: lines of at most 80 columns (CPack indents them).
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "lockstep compiles WGSL compute shaders and runs their dispatches on the CPU"
  "as SIMT hardware does (subgroups of lanes sharing a program counter, with an"
  "execution mask), behind a C API that follows WebGPU's compute subset, with a"
  "sanitizer (out-of-bounds accesses, data races, barrier divergence) and a SIMT"
  "profiler. This package holds the shared and static library, its header, its"
  "pkg-config and CMake files, and the lockstep command line program.")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
include(CPack)
