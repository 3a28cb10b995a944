# Observers that share a dispatch, and the front door's use of the public
# header (included by tests/CMakeLists.txt):
#
#   observe.both.NAME.V     tests/tools/check_and_prof.sh: `lockstep run
#                           NAME.json --check --prof...` gives the profile
#                           (JSON and HTML report, with a traced workgroup)
#                           of --prof alone and the findings and exit status
#                           of --check alone, at W 32 on one thread (V = t1)
#                           and at W 8 on three (V = W8.t3)     (label "observe")
#   observe.both.text       the text report and the findings in one run
#   observe.public_api_only src/cli/ and src/prof/ include no file of src/api/
set(LS_OBSERVE_TOOL ${CMAKE_CURRENT_LIST_DIR}/tools/check_and_prof.sh)

# NAME, its case file, the findings --check must at least find, and
# whether it also runs on three threads: races between workgroups and in
# workgroup memory, out-of-bounds buffer and texel accesses, reads of
# inactive lanes, a logical size, and cases with nothing wrong but
# divergence, loops, barriers and textures. race_groups runs on one thread
# only: on several, which pair of its racing workgroups the sanitizer alone
# names depends on which thread ran which (docs/sanitizer.md), so two runs
# need not agree on it.
set(LS_OBSERVE_CASES
  "race_groups|check/race_groups.json|1|t1"
  "race_workgroup|check/race_workgroup.json|1|t3"
  "oob_unguarded|check/oob_unguarded.json|1|t3"
  "oob_texture_2d|check/oob_texture_2d.json|1|t3"
  "subgroup_inactive|check/subgroup_inactive.json|1|t3"
  "logical_pool|check/logical_pool.json|1|t3"
  "reduction_ok|check/reduction_ok.json|0|t3"
  "divergence|cases/002_divergence.json|0|t3"
  "loop_longest_lane|cases/002_loop_longest_lane.json|0|t3"
  "texture_blur|cases/009_texture_blur.json|0|t3"
  "v2_two_modules|check/v2_two_modules.json|2|t3"
  "v2_scan_pingpong|cases/200_v2_scan_pingpong.json|0|t3")
foreach(entry ${LS_OBSERVE_CASES})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 file)
  list(GET parts 2 min)
  list(GET parts 3 threads)
  add_test(NAME observe.both.${name}.t1
    COMMAND bash ${LS_OBSERVE_TOOL} $<TARGET_FILE:lockstep> ${CMAKE_CURRENT_LIST_DIR}/${file}
            ${min} --threads 1)
  set_tests_properties(observe.both.${name}.t1 PROPERTIES LABELS observe TIMEOUT 120)
  if(threads STREQUAL "t3")
    add_test(NAME observe.both.${name}.W8.t3
      COMMAND bash ${LS_OBSERVE_TOOL} $<TARGET_FILE:lockstep> ${CMAKE_CURRENT_LIST_DIR}/${file}
              ${min} -W 8 --threads 3)
    set_tests_properties(observe.both.${name}.W8.t3 PROPERTIES LABELS observe TIMEOUT 120)
  endif()
endforeach()

# Both outputs of one run in text: the report on stdout, the findings on
# stderr, exit 1 for the race.
add_test(NAME observe.both.text
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/prof/run_cli.sh 1
          "-- Launch and occupancy|-- Per line|error: data race|[data-race]|check: 1 error, 0 warnings"
          -- $<TARGET_FILE:lockstep> run ${CMAKE_CURRENT_LIST_DIR}/check/race_groups.json --check --prof)
set_tests_properties(observe.both.text PROPERTIES LABELS observe)

add_test(NAME observe.public_api_only
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tools/public_api_only.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(observe.public_api_only PROPERTIES LABELS observe)
