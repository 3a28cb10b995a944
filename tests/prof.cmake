# The SIMT profiler's command-line tests (included by tests/CMakeLists.txt):
# the seed lessons' claims with exact figures read from `--prof-json -`,
# the reports, compare/tune/plan, bad input (exit 2; an output that cannot
# be written exit 3, nothing half-written)
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
# Ties for a loop's worst spread (workgroups 3, 7, 11, ... of 2,048): the
# report names the first in dispatch order, (3, 0, 0) subgroup 0, on any
# number of threads and at any width (before, 3 threads named a different
# workgroup in each of six runs).
foreach(t 1 3)
  foreach(w 8 32)
    ls_prof_test(loop_tie.W${w}.t${t} 0 "\"worstGroup\": [3, 0, 0], \"worstSubgroup\": 0"
      -- ${L} run ${LS_PROF_DIR}/cases/loop_tie.json -W ${w} --threads ${t} --prof-json -)
  endforeach()
endforeach()
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

# Texel traffic (docs/profiler.md, "Texel traffic"): textures in 2D tiles
# of the profile's tile bytes. 64x64 r32float (4 B): a 128-byte tile is 32
# texels, 8 wide x 4 tall. An 8x8 workgroup at W = 32: each subgroup is the
# 8 x 4 patch of rows 4s..4s+3, exactly one tile; 64 workgroups x 2
# subgroups = 128 requests per access, 128 tiles, all 128 bytes used.
ls_prof_test(texture.tiles_8x8 0
  "\"space\": \"texture\", \"variable\": \"imagen\", \"requests\": 128, \"lanes\": 4096, \"bytes\": 16384, \"uniqueBytes\": 16384, \"outOfBoundsLanes\": 0, \"texelBytes\": 4, \"texels\": 4096, \"tiles\": 128, \"texelsPerRequest\": 32, \"tilesPerRequest\": 1, \"maxTiles\": 1, \"tile\": [8, 4], \"efficiency\": 1}|\"texture\": {\"tileBytes\": 128, \"requests\": 256,"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_8x8.json --profile nvidia --prof-json -)
# A 64x1 workgroup: 32 texels of one row, 32 / 8 = 4 tiles per request, a
# quarter of each used (128 B of 4 x 128 B).
ls_prof_test(texture.tiles_row 0
  "\"variable\": \"salida\", \"requests\": 128,|\"tiles\": 512, \"texelsPerRequest\": 32, \"tilesPerRequest\": 4, \"maxTiles\": 4, \"tile\": [8, 4], \"efficiency\": 0.25}"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_row.json --profile nvidia --prof-json -)
# intel: W = 16, 64-byte tiles of 4 x 4; a subgroup is 8 x 2 texels in one
# 4-row band: 2 tiles; 64 workgroups x 4 subgroups = 256 requests.
ls_prof_test(texture.tiles_intel 0
  "\"variable\": \"imagen\", \"requests\": 256,|\"tiles\": 512, \"texelsPerRequest\": 16, \"tilesPerRequest\": 2, \"maxTiles\": 2, \"tile\": [4, 4], \"efficiency\": 0.5}"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_8x8.json --profile intel --prof-json -)
# textureTileBytes 256 in a profile file: 8 x 8 tiles, the 8 x 4 patch fills
# half of one.
ls_prof_test(texture.tile_profile_file 0
  "\"tile\": [8, 8], \"efficiency\": 0.5}|\"tileBytes\": 256"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_8x8.json --profile-file ${LS_PROF_DIR}/profiles/tile256.json --prof-json -)
# The blur's store (009_texture_blur): rgba32float (16 B) tiles are 4 x 2;
# the 13x7 image in 8x8 workgroups, guarded: the four subgroups store
# 8x4, 8x3, 5x4 and 5x3 texels (91 in all), and each patch spans 2 x 2
# tiles: 4 requests, 16 tiles, 91 x 16 B of 16 x 128 B = 71.1%.
ls_prof_test(texture.blur_store 0
  "\"access\": \"store\", \"space\": \"texture\", \"variable\": \"dst\", \"requests\": 4, \"lanes\": 91, \"bytes\": 1456, \"uniqueBytes\": 1456, \"outOfBoundsLanes\": 0, \"texelBytes\": 16, \"texels\": 91, \"tiles\": 16, \"texelsPerRequest\": 22.75, \"tilesPerRequest\": 4, \"maxTiles\": 4, \"tile\": [4, 2], \"efficiency\": 0.710938}"
  -- ${L} run ${LS_CASES}/009_texture_blur.json --profile nvidia --prof-json -)
# The blur's nine loads (rgba8unorm, 8 x 4 tiles; taps clamped to the
# 13x7 image): 91 live invocations x 9 = 819 lanes, 4 subgroups x 9 = 36
# requests. A tap dx of -1 or 0 stays in one tile column and +1 reaches a
# second for the subgroups at x 0..7 (x 1..8); at x 8..12, dx = -1 reaches
# back to x 7 (two columns) and the others stay in one; rows likewise (y
# 0..3: dy = +1 reaches y 4; y 4..6: dy = -1 reaches y 3, +1 clamps to 6).
# So each subgroup's 9 taps touch (1 + 1 + 2) x (1 + 1 + 2) = 16 tiles
# (in some order of the factors): 64 in all, 64 / 36 = 1.77778 per request.
ls_prof_test(texture.blur_loads 0
  "\"variable\": \"src\", \"requests\": 36, \"lanes\": 819,|\"tiles\": 64, \"texelsPerRequest\"|\"tilesPerRequest\": 1.77778, \"maxTiles\": 4, \"tile\": [8, 4]"
  -- ${L} run ${LS_CASES}/009_texture_blur.json --profile nvidia --prof-json -)
# The blur's totals: 36 + 4 requests, 64 + 16 tiles; --compare-profiles
# adds a tiles-per-request column for a case with textures.
ls_prof_test(texture.blur_totals 0 "texture totals: 40 requests, |texels, 80 tiles, efficiency"
  -- ${L} run ${LS_CASES}/009_texture_blur.json --profile nvidia --prof)
ls_prof_test(texture.compare_profiles 0 "tiles/req|texture tiles per texel request"
  -- ${L} run ${LS_CASES}/009_texture_blur.json --compare-profiles)
ls_prof_test(texture.text 0
  "-- Texture memory (tiles of 128 B|texture totals: 256 requests, 8192 texels, 256 tiles, efficiency 100.0%|texel req"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_8x8.json --profile nvidia --prof)
# line 12 holds both accesses: 2 x 128 requests, one tile each
ls_prof_test(texture.annotate 0 "tex (tile/req)|256 (1.00)"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_8x8.json --profile nvidia --annotate)
ls_prof_test(texture.expect 0 "expect: all 2 read-back buffers match"
  -- ${L} run ${LS_CASES}/009_texture_blur.json --prof --expect ${CMAKE_CURRENT_LIST_DIR}/results/009_texture_blur.json)

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

# The cost model (docs/profiler.md, "Cost model"): reports lead with the
# predicted time and its bound. 46876 workgroups of 64 at 32 per SM on 132
# SMs: the busiest SM launches 356 of them at 80 ns, 28.5 us, more than any
# other term, so launch overhead bounds it.
ls_prof_test(cost.text 0 "predicted time|bound by: launch overhead|occupancy             100% (32 workgroups per SM, limited by workgroups per SM)"
  -- ${L} run ${LS_CASES}/000_guard_3000001.json --profile nvidia --prof)
ls_prof_test(cost.json 0 "\"predicted\": {\"ns\": |\"bound\": \"launch overhead\", \"calibrated\": true|\"residentGroups\": 32|\"costInputs\": {\"classIssued\": {"
  -- ${L} run ${LS_CASES}/000_guard_3000001.json --profile nvidia --prof-json -)
ls_prof_test(cost.not_calibrated 0 "(model not calibrated for this profile)"
  -- ${L} run ${LS_CASES}/000_guard_3000001.json --profile amd --prof)
ls_prof_test(cost.compare 0 "predicted  bound by|(not calibrated)"
  -- ${L} run ${LS_CASES}/002_divergence.json --compare-profiles)
ls_prof_test(cost.tune 0 "ranked by predicted time per profile|predicted  bound by"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAM=64,128)
# A custom profile's cost object: half the SMs, so the busiest SM launches
# 711 workgroups instead of 356: 711 x 80 ns = 56.9 us, plus the last
# workgroup's own path (0.2 us).
ls_prof_test(cost.custom 0 "profile h200-half|terms                 launch 57.1 us"
  -- ${L} run ${LS_CASES}/000_guard_3000001.json --prof --profile-file ${LS_PROF_DIR}/profiles/cost_half.json)
# grid-stride sized for the emulated GPU: 132 SMs x 32 workgroups of 64
# (2,048 threads or 32 workgroups per SM), not for the host's threads.
ls_prof_test(plan.grid_stride_gpu 0 "dispatchWorkgroups(4224, 1, 1)"
  -- ${L} plan 8000000 --workgroup-size 64 --pattern grid-stride --profile nvidia)
# ... and 8 workgroups of 256.
ls_prof_test(plan.grid_stride_gpu_256 0 "dispatchWorkgroups(1056, 1, 1)"
  -- ${L} plan 8000000 --workgroup-size 256 --pattern grid-stride --profile nvidia)
# The model against the H200 timings committed in bench/gpu: within 2x,
# ratios between variants within 20% (bench/gpu/check_model.mjs). The
# predictions do not depend on the build, and under AddressSanitizer the
# profiled runs take a minute and a half: plain builds only.
find_program(LS_PROF_NODE node)
if(LS_PROF_NODE AND NOT CMAKE_C_FLAGS MATCHES "-fsanitize")
  add_test(NAME prof.cost.h200
    COMMAND ${LS_PROF_NODE} ${CMAKE_CURRENT_LIST_DIR}/../bench/gpu/check_model.mjs ${L})
  set_tests_properties(prof.cost.h200 PROPERTIES LABELS prof TIMEOUT 600 COST 30)
endif()

# Bad input: exit 2 with a clear message.
ls_prof_test(bad.cost_sms 2 "cost model: sms = 0 must be greater than 0"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_cost_sms.json)
ls_prof_test(bad.cost_dram 2 "cost model: dramGBs = 0 must be greater than 0"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_cost_dram.json)
ls_prof_test(bad.cost_negative 2 "cost model: groupNs = -5 must not be negative"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_cost_negative.json)
ls_prof_test(bad.cost_unknown 2 "cost: unknown parameter 'smCount'"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_cost_unknown.json)
ls_prof_test(bad.profile_w48 2 "subgroup size 48 is not a power of two"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_w48.json)
ls_prof_test(bad.profile_w256 2 "subgroup size 256 is above 128"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_w256.json)
ls_prof_test(bad.profile_w128_vm 2 "lockstep's VM runs subgroups of 8, 16, 32 or 64"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/w128.json)
ls_prof_test(bad.profile_tile48 2 "texture tile 48 is not a power of two"
  -- ${L} run ${LS_PROF_DIR}/cases/texture_8x8.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_tile48.json)
ls_prof_test(bad.profile_unknown_field 2 "unknown field 'textureTile'"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof --profile-file ${LS_PROF_DIR}/profiles/bad_field.json)
ls_prof_test(bad.tune_unknown_override 2 "declares no override 'TAMANO'"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAMANO=32,64)
ls_prof_test(bad.tune_rejected_value 2 "TAM = 2048|rejected"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAM=64,2048)
ls_prof_test(bad.tune_not_numbers 2 "is not a list of numbers"
  -- ${L} tune ${LS_CASES}/001_override_tam_64.json --override TAM=64,abc)
# An output path that cannot be written: output not written (exit 3, as
# for --out), found before the run.
ls_prof_test(bad.report_path 3 "cannot write '/nonexistent-lockstep-dir/out.html'"
  --absent /nonexistent-lockstep-dir/out.html
  -- ${L} run ${LS_CASES}/002_divergence.json --report /nonexistent-lockstep-dir/out.html)
ls_prof_test(bad.json_path 3 "cannot write"
  -- ${L} run ${LS_CASES}/002_divergence.json --prof-json /proc/lockstep-no/x.json)
ls_prof_test(bad.trace_group 2 "is not a workgroup of dispatch 1"
  --absent ${CMAKE_CURRENT_BINARY_DIR}/prof-bad-trace.html
  -- ${L} run ${LS_CASES}/002_divergence.json --report ${CMAKE_CURRENT_BINARY_DIR}/prof-bad-trace.html --trace-group 99)

# A version-2 case (several modules, nine dispatches): every dispatch is
# profiled and named by its module, the file for one and the label of the
# inline one (mix.wgsl) for the other.
set(LS_V2 ${LS_CASES}/200_v2_scan_pingpong.json)
ls_prof_test(v2.text 0 "9 dispatches|== dispatch 8: main (|200_v2_scan.wgsl)|== dispatch 9: main (mix.wgsl)|out[i] = x[i] + 2u * y[255u - i];"
  -- ${L} run ${LS_V2} --prof)
ls_prof_test(v2.json 0 "\"index\": 8, \"entryPoint\": \"main\", \"shader\": \"mix.wgsl\"|\"index\": 7, \"entryPoint\": \"main\", \"shader\": \"${LS_CASES}/../kernels/200_v2_scan.wgsl\""
  -- ${L} run ${LS_V2} --prof-json -)
ls_prof_test(v2.expect 0 "expect: all 5 read-back buffers match"
  -- ${L} run ${LS_V2} --prof --expect ${CMAKE_CURRENT_LIST_DIR}/results/200_v2_scan_pingpong.json)
ls_prof_test(v2.report 0 "Dispatch 9: entry point <code>main</code> of <code>mix.wgsl</code>|<p>Dispatch 9: <code>mix.wgsl</code></p>|200_v2_scan.wgsl</code>"
  -- sh -c "'${L}' run '${LS_V2}' --report '${CMAKE_CURRENT_BINARY_DIR}/prof-v2.html' --trace-dispatch 9 && cat '${CMAKE_CURRENT_BINARY_DIR}/prof-v2.html'")
ls_prof_test(v2.compare_profiles 0 "200_v2_scan_pingpong: the same case under every vendor profile|amd       64|mobile     8"
  -- ${L} run ${LS_V2} --compare-profiles)
# tune: the override reaches the scan module's pipeline (WG = 32 at W = 64
# leaves half its lanes idle) and not the inline module's, which declares
# no WG (its dispatch stays full): 47.1% idle over the run, not 50%.
ls_prof_test(v2.tune 0 "profile amd (W = 64)|32x1x1         1548   47.1%|<- keep"
  -- ${L} tune ${LS_V2} --override WG=32,64,128 --profile nvidia --profile amd)
ls_prof_test(v2.bad.tune_unknown_override 2 "no module of the case declares an override 'NOPE'"
  -- ${L} tune ${LS_V2} --override NOPE=1,2)

# The HTML page in headless Chromium: loads without console errors, the
# expected elements exist, the lane picture was drawn; keeps a screenshot.
add_test(NAME prof.html.chromium
  COMMAND bash ${LS_PROF_DIR}/html_test.sh ${L} ${LS_CASES}/002_divergence.json
          ${CMAKE_CURRENT_BINARY_DIR}/prof-html)
set_tests_properties(prof.html.chromium PROPERTIES LABELS prof TIMEOUT 300)
# ... and for a case with textures (the texture-tiles row and the per-line
# texel figures).
add_test(NAME prof.html.chromium.texture
  COMMAND bash ${LS_PROF_DIR}/html_test.sh ${L} ${LS_CASES}/009_texture_blur.json
          ${CMAKE_CURRENT_BINARY_DIR}/prof-html-texture)
set_tests_properties(prof.html.chromium.texture PROPERTIES LABELS prof TIMEOUT 300)
