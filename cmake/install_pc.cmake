# Run by `cmake --install` (and by cpack's install step), not at configure
# time: writes lockstep.pc with the prefix being installed to, so that
# `--prefix DIR` gives a pkg-config file that points into DIR. The rest of
# the file was filled in at configure time (cmake/install.cmake).
file(READ "${LS_PC_IN}" text)
string(REPLACE "@LS_PC_PREFIX@" "${CMAKE_INSTALL_PREFIX}" text "${text}")
get_filename_component(out "${LS_PC_IN}" DIRECTORY)
file(WRITE "${out}/pkgconfig/lockstep.pc" "${text}")
if(IS_ABSOLUTE "${LS_PC_LIBDIR}")
  set(dest "${LS_PC_LIBDIR}/pkgconfig")
else()
  set(dest "${CMAKE_INSTALL_PREFIX}/${LS_PC_LIBDIR}/pkgconfig")
endif()
file(INSTALL DESTINATION "${dest}" TYPE FILE FILES "${out}/pkgconfig/lockstep.pc")
