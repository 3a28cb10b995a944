# The SIMT profiler's command-line tests (included by tests/CMakeLists.txt):
# the seed lessons' claims with exact figures read from `--prof-json -`,
# the reports, compare/tune/plan, bad input (exit 2, nothing half-written)
# and the HTML page in headless Chromium. Unit tests: unit/test_prof.c.
set(LS_PROF_DIR ${CMAKE_CURRENT_LIST_DIR}/prof)
set(LS_PROF_RUN bash ${LS_PROF_DIR}/run_cli.sh)
set(LS_CASES ${CMAKE_CURRENT_LIST_DIR}/cases)

function(ls_prof_test name status wants)
  add_test(NAME prof.${name} COMMAND ${LS_PROF_RUN} ${status} "${wants}" ${ARGN})
  set_tests_properties(prof.${name} PROPERTIES LABELS prof TIMEOUT 300)
endfunction()

set(L $<TARGET_FILE:lockstep>)

# Lesson 002: @workgroup_size(100) at W = 32: 128 lanes, 28 idle (21.9%).
ls_prof_test(seed.workgroup_100 0
  "\"groupLanes\": 128|\"groupIdle\": 28|\"idleFraction\": 0.21875|\"lanesIdle\": 28000"
  -- ${L} run ${LS_CASES}/002_workgroup_100.json --profile nvidia --prof-json -)
ls_prof_test(seed.workgroup_100.text 0 "28 per workgroup, 21.9%"
  -- ${L} run ${LS_CASES}/002_workgroup_100.json --profile nvidia --prof)
# ... and 64 wastes none; its guard's tail (32) sits in the last group only.
ls_prof_test(seed.workgroup_64 0
  "\"groupLanes\": 64|\"groupIdle\": 0|\"tail\": 32, \"tailGroups\": 1, \"tailFirstGroup\": 1562, \"tailLastGroup\": 1562"
  -- ${L} run ${LS_CASES}/002_workgroup_64.json --profile nvidia --prof-json -)
# Lesson 000: 3000001 elements, 46876 groups of 64: 63 exit at the guard,
# all in the last workgroup.
ls_prof_test(seed.guard_tail 0
  "\"tail\": 63, \"tailGroups\": 1, \"tailFirstGroup\": 46875, \"tailLastGroup\": 46875"
  -- ${L} run ${LS_CASES}/000_guard_3000001.json --profile nvidia --prof-json -)
# Lesson 002: 3 trips on 31 lanes, 500 on one: the subgroup goes round 500
# times; the average lane 593/32 = 18.53.
ls_prof_test(seed.loop_longest_lane 0
  "\"maxTrips\": 500|\"avgSubgroupTrips\": 500|\"avgLaneTrips\": 18.5312|\"maxSpread\": 481.469"
  -- ${L} run ${LS_CASES}/002_loop_longest_lane.json --profile nvidia --prof-json -)
# 32 consecutive f32: one 128-byte line; a stride of 32: 32 lines.
ls_prof_test(seed.coalesced 0
  "\"variable\": \"entrada\", \"requests\": 1, \"lanes\": 32, \"bytes\": 128, \"uniqueBytes\": 128, \"outOfBoundsLanes\": 0, \"sectors\": 4, \"lines\": 1,"
  -- ${L} run ${LS_PROF_DIR}/cases/coalesce_contiguo.json --profile nvidia --prof-json -)
ls_prof_test(seed.strided 0
  "\"variable\": \"entrada\", \"requests\": 1, \"lanes\": 32, \"bytes\": 128, \"uniqueBytes\": 128, \"outOfBoundsLanes\": 0, \"sectors\": 32, \"lines\": 32,"
  -- ${L} run ${LS_PROF_DIR}/cases/coalesce_zancada.json --profile nvidia --prof-json -)
# Lesson 001: an 8x8 workgroup by gid.xy at W = 32: 4 segments per request.
ls_prof_test(seed.image_8x8 0
  "\"variable\": \"imagen\", \"requests\": 128,|\"sectorsPerRequest\": 4, \"linesPerRequest\": 4, \"maxSectors\": 4"
  -- ${L} run ${LS_PROF_DIR}/cases/image8x8.json --profile nvidia --prof-json -)

# Reports and commands.
ls_prof_test(report.sections 0
  "-- Launch and occupancy|-- SIMT efficiency|-- Divergence|-- Loops|-- Memory|-- Workgroup memory|-- Synchronisation and atomics|-- Per line"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof)
ls_prof_test(report.annotate 0 "if ((li & 1u) == 0u) {|SIMT"
  -- ${L} run ${LS_CASES}/002_divergence.json --annotate)
ls_prof_test(report.expect 0 "expect: all 2 read-back buffers match"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --expect ${CMAKE_CURRENT_LIST_DIR}/results/002_divergence.json)
ls_prof_test(compare_profiles 0 "nvidia    32|amd       64|intel     16|mobile     8"
  -- ${L} run ${LS_CASES}/002_workgroup_100.json --compare-profiles)
ls_prof_test(custom_profile 0 "profile narrow-sectors|sector 64 B, line 64 B|, W = 16"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/custom16.json)
ls_prof_test(tune 0 "profile nvidia (W = 32)|profile amd (W = 64)|<- keep"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAM=64,100,256)
ls_prof_test(plan.1d 0 "dispatchWorkgroups(46876, 1, 1)|63 past the end|let i = gid.x;"
  -- ${L} plan 3000001 --workgroup-size 64)
ls_prof_test(plan.2d 0 "dispatchWorkgroups(4096, 31, 1)|wid.y * WIDTH + wid.x"
  -- ${L} plan 8000000 --workgroup-size 64)

# Bad input: exit 2 with a clear message.
ls_prof_test(bad.profile_w48 2 "subgroup size 48 is not a power of two"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_w48.json)
ls_prof_test(bad.profile_w256 2 "subgroup size 256 is above 128"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_w256.json)
ls_prof_test(bad.profile_w128_vm 2 "lockstep's VM runs subgroups of 8, 16, 32 or 64"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/w128.json)
ls_prof_test(bad.tune_unknown_override 2 "declares no override 'TAMANO'"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAMANO=32,64)
ls_prof_test(bad.tune_rejected_value 2 "TAM = 2048|rejected"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAM=64,2048)
ls_prof_test(bad.tune_not_numbers 2 "is not a list of numbers"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAM=64,abc)
ls_prof_test(bad.report_path 2 "cannot write '/nonexistent-lockstep-dir/out.html'"
  --absent /nonexistent-lockstep-dir/out.html
  -- ${L} run ${LS_CASES}/002_divergence.json --report /nonexistent-lockstep-dir/out.html)
ls_prof_test(bad.json_path 2 "cannot write"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof-json /proc/lockstep-no/x.json)
ls_prof_test(bad.trace_group 2 "is not a workgroup of dispatch 1"
  --absent ${CMAKE_CURRENT_BINARY_DIR}/prof-bad-trace.html
  -- ${L} run ${LS_CASES}/002_divergence.json --report ${CMAKE_CURRENT_BINARY_DIR}/prof-bad-trace.html --trace-group 99)

# The HTML page in headless Chromium: loads without console errors, the
# expected elements exist, the lane picture was drawn; keeps a screenshot.
add_test(NAME prof.html.chromium
  COMMAND bash ${LS_PROF_DIR}/html_test.sh ${L} ${LS_CASES}/002_divergence.json
          ${CMAKE_CURRENT_BINARY_DIR}/prof-html)
set_tests_properties(prof.html.chromium PROPERTIES LABELS prof TIMEOUT 300)
