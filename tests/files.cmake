# The command's files (included by tests/CMakeLists.txt): tools/files.sh
# runs one scenario per test, label "files" (src/cli/cli_io.h has the
# rules). Every output option is tried on each kind of path.
set(LS_FILES_SH ${CMAKE_CURRENT_LIST_DIR}/tools/files.sh)

function(ls_files_test name)
  add_test(NAME files.${name}
    COMMAND bash ${LS_FILES_SH} $<TARGET_FILE:lockstep> ${CMAKE_CURRENT_LIST_DIR} ${ARGN})
  set_tests_properties(files.${name} PROPERTIES LABELS files TIMEOUT 120)
endfunction()

foreach(opt out prof-json report)
  foreach(scenario dev-null fifo symlink dangling-symlink regular folder no-folder)
    ls_files_test(${opt}.${scenario} ${scenario} --${opt})
  endforeach()
endforeach()
ls_files_test(out.dev-full dev-full --out)
foreach(scenario case-dev-zero shader-dev-zero expect-dev-zero profile-dev-zero too-large
                 endless-pipe)
  ls_files_test(${scenario} ${scenario})
endforeach()
# An address-space limit (ulimit -v) and AddressSanitizer's shadow memory
# do not go together: the memory scenarios run in plain builds only.
if(NOT CMAKE_C_FLAGS MATCHES "sanitize=address")
  ls_files_test(case-out-of-memory case-out-of-memory)
  ls_files_test(device-out-of-memory device-out-of-memory)
endif()
