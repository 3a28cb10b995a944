# The case corpus and the error corpus, as ctest tests (included by
# tests/CMakeLists.txt).
#
#   case.NAME.W<w>.t<t>   lockstep run cases/NAME.json --expect results/NAME.json
#                         -W w --threads t --quiet             (label "case");
#                         results/NAME.W<w>.json instead when the case's
#                         output depends on the width (subgroup built-ins)
#   error.NAME            tools/run_error_case.sh on errors/NAME.expect:
#                         exit status and stderr substrings    (label "error")
#   case.000_indirect_over_limit.warning
#                         the skipped indirect dispatch is reported on stderr
#
# Every case runs at subgroup widths 8, 32 and 64 with 1 and 2 worker
# threads: results must not depend on either. The multi-million-element
# cases (LS_LARGE_CASES, about a second per run on one core) run at every
# combination too; configure with -DLOCKSTEP_LARGE_CASES=SOME to run them at
# widths 8 and 32 only (1 and 2 threads), or OFF to leave them out.

set(LOCKSTEP_LARGE_CASES "FULL" CACHE STRING
  "Multi-million-element cases: FULL (every width and thread count), SOME (W 8 and 32) or OFF")
set_property(CACHE LOCKSTEP_LARGE_CASES PROPERTY STRINGS SOME FULL OFF)

set(LS_CASE_WIDTHS 8 32 64)
set(LS_CASE_THREADS 1 2)
set(LS_LARGE_CASES
  000_guard_3000000 000_guard_3000001 000_dispatch2d_4194241 000_dispatch2d_8000000)
set(LS_LARGE_CASE_WIDTHS 8 32)

set(LS_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})

file(GLOB LS_CASE_FILES CONFIGURE_DEPENDS ${LS_TESTS_DIR}/cases/*.json)
foreach(case_file ${LS_CASE_FILES})
  get_filename_component(name ${case_file} NAME_WE)
  # Outputs that depend on the subgroup width (the subgroup built-ins) have
  # one expected result per width: results/NAME.W<w>.json.
  set(result_file ${LS_TESTS_DIR}/results/${name}.json)
  set(per_width FALSE)
  if(NOT EXISTS ${result_file})
    foreach(w ${LS_CASE_WIDTHS})
      if(EXISTS ${LS_TESTS_DIR}/results/${name}.W${w}.json)
        set(per_width TRUE)
      endif()
    endforeach()
    if(NOT per_width)
      message(WARNING "case ${name} has no expected result (tests/results/${name}.json); not registered")
      continue()
    endif()
  endif()

  set(widths ${LS_CASE_WIDTHS})
  set(labels case)
  set(timeout 120)
  if(name IN_LIST LS_LARGE_CASES)
    if(LOCKSTEP_LARGE_CASES STREQUAL "OFF")
      continue()
    elseif(NOT LOCKSTEP_LARGE_CASES STREQUAL "FULL")
      set(widths ${LS_LARGE_CASE_WIDTHS})
    endif()
    set(labels case case-large)
    set(timeout 600)
  endif()

  foreach(w ${widths})
    set(result_file ${LS_TESTS_DIR}/results/${name}.json)
    if(EXISTS ${LS_TESTS_DIR}/results/${name}.W${w}.json)
      set(result_file ${LS_TESTS_DIR}/results/${name}.W${w}.json)
    elseif(per_width)
      message(WARNING "case ${name} has no expected result for W = ${w} (tests/results/${name}.W${w}.json)")
      continue()
    endif()
    foreach(t ${LS_CASE_THREADS})
      set(test case.${name}.W${w}.t${t})
      add_test(NAME ${test}
        COMMAND $<TARGET_FILE:lockstep> run ${case_file} --expect ${result_file}
                -W ${w} --threads ${t} --quiet)
      set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout})
    endforeach()
  endforeach()
endforeach()

# The version-2 cases' expected results are their models' words: the
# committed result agrees with the check module's closed forms
# (tests/tools/v2_model.mjs), so neither can change alone.
find_program(LS_NODE node)
if(LS_NODE)
  file(GLOB LS_V2_CASES CONFIGURE_DEPENDS ${LS_TESTS_DIR}/cases/*_v2_*.json)
  foreach(case_file ${LS_V2_CASES})
    get_filename_component(name ${case_file} NAME_WE)
    add_test(NAME case.${name}.model
      COMMAND ${LS_NODE} ${LS_TESTS_DIR}/tools/v2_model.mjs ${case_file}
              ${LS_TESTS_DIR}/results/${name}.json)
    set_tests_properties(case.${name}.model PROPERTIES LABELS case TIMEOUT 60)
  endforeach()
endif()

# A version-2 case that fails at command 11, after two readbacks succeeded:
# exit 2 and no --out file (nothing half-written); an --out path that cannot
# be written: exit 3 before anything runs.
add_test(NAME error.v2_nothing_half_written
  COMMAND bash ${LS_TESTS_DIR}/prof/run_cli.sh 2 "commands[11] (dispatch of pipeline scan)"
          --absent ${CMAKE_CURRENT_BINARY_DIR}/v2-half.json
          -- $<TARGET_FILE:lockstep> run ${LS_TESTS_DIR}/errors/err_v2_writable_alias.json
             --out ${CMAKE_CURRENT_BINARY_DIR}/v2-half.json)
add_test(NAME error.v2_out_unwritable
  COMMAND bash ${LS_TESTS_DIR}/prof/run_cli.sh 3 "--out:"
          -- $<TARGET_FILE:lockstep> run ${LS_TESTS_DIR}/cases/200_v2_scan_pingpong.json
             --out /nonexistent-lockstep-dir/v2.json)
set_tests_properties(error.v2_nothing_half_written error.v2_out_unwritable
  PROPERTIES LABELS error TIMEOUT 60)

# Error cases: errors/NAME.expect with errors/NAME.json (lockstep run) or
# errors/NAME.wgsl (lockstep check).
file(GLOB LS_ERROR_EXPECTS CONFIGURE_DEPENDS ${LS_TESTS_DIR}/errors/err_*.expect)
foreach(expect_file ${LS_ERROR_EXPECTS})
  get_filename_component(name ${expect_file} NAME_WE)
  add_test(NAME error.${name}
    COMMAND bash ${LS_TESTS_DIR}/tools/run_error_case.sh $<TARGET_FILE:lockstep> ${expect_file})
  set_tests_properties(error.${name} PROPERTIES LABELS error TIMEOUT 60)
endforeach()

# A workgroup that loops 2^32 times with no workgroup budget: --time-limit
# loses the device after 300 ms and the message names the limit and the
# loop's line (its column is whichever jump of the loop saw the clock).
add_test(NAME error.limit_time_spin
  COMMAND bash ${LS_TESTS_DIR}/tools/run_error_case.sh $<TARGET_FILE:lockstep>
          ${LS_TESTS_DIR}/errors/limit_time_spin.expect ${LS_TESTS_DIR}/errors/limit_time_spin.json
          --budget none --time-limit 300)
set_tests_properties(error.limit_time_spin PROPERTIES LABELS error TIMEOUT 60)

# 65535 workgroups of 4096 loop trips each, every one far inside the
# workgroup budget: --dispatch-budget loses the device once the dispatch
# as a whole has run 10^6 subgroup-instructions (checked between chunks of
# workgroups, so which workgroup is named varies), and the message names
# the budget and the option.
add_test(NAME error.limit_dispatch_spin
  COMMAND bash ${LS_TESTS_DIR}/tools/run_error_case.sh $<TARGET_FILE:lockstep>
          ${LS_TESTS_DIR}/errors/limit_dispatch_spin.expect
          ${LS_TESTS_DIR}/errors/limit_dispatch_spin.json --dispatch-budget 1000000 --time-limit none)
set_tests_properties(error.limit_dispatch_spin PROPERTIES LABELS error TIMEOUT 60)

# An indirect count over maxComputeWorkgroupsPerDimension skips the dispatch
# (the outputs are checked by case.000_indirect_over_limit.*); lockstep must
# also say so on stderr.
add_test(NAME case.000_indirect_over_limit.warning
  COMMAND bash ${LS_TESTS_DIR}/tools/run_error_case.sh $<TARGET_FILE:lockstep>
          ${LS_TESTS_DIR}/errors/warn_indirect_over_limit.expect
          ${LS_TESTS_DIR}/cases/000_indirect_over_limit.json
          --expect ${LS_TESTS_DIR}/results/000_indirect_over_limit.json)
set_tests_properties(case.000_indirect_over_limit.warning PROPERTIES LABELS "case;error" TIMEOUT 60)
