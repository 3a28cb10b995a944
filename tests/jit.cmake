# The compiled tier (src/vm/jit.c), against the interpreter:
#   jit.corpus          the case corpus with every program compiled, at W 8
#                       and 32 (tools/jit_corpus.sh); skipped without cc, and
#                       in the sanitizer pass (label case-large)
#   jit.prof            the case corpus under the profiler, observed
#                       interpreter against observed compiled code (built
#                       at -O1): the same profile, byte for byte
#                       (tools/jit_prof.sh); skipped without cc and in the
#                       sanitizer pass
#   jit.check           the sanitizer corpus and the case corpus's f16,
#                       texture and sampling cases under --check,
#                       observed interpreter against observed
#                       compiled code (an observer that does not
#                       summarise): the same findings, exit status and
#                       buffers (tools/jit_check.sh); skipped as jit.prof
#   jit.vm_control      the VM's control-flow unit tests, whose plain runs
#                       are then compiled: every budget's stopping point,
#                       count and outputs against the observed interpreter
#   jit.unit.NAME       the texture and f16 unit tests (loads, stores,
#                       queries, sampling, formats, multisampled and
#                       external textures, f16 memory and rounding) with
#                       every program compiled: texture operations call the
#                       library on rows (vm_jit_fns.tex), f16 memory the
#                       interpreter's row functions
#   jit.no_compiler     LOCKSTEP_JIT=on with a compiler that does not exist:
#                       the interpreter runs, the results are the same
add_test(NAME jit.corpus
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/tools/jit_corpus.sh $<TARGET_FILE:lockstep>
    ${CMAKE_CURRENT_LIST_DIR})
# COST: the longest tests start first (ctest -j runs by descending cost
# when it has no timings of its own, as on a fresh clone), so that no
# two-minute test begins when the others are done
set_tests_properties(jit.corpus PROPERTIES LABELS "jit;case-large" TIMEOUT 1200 SKIP_RETURN_CODE 77
  COST 110)
add_test(NAME jit.prof
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/tools/jit_prof.sh $<TARGET_FILE:lockstep>
    ${CMAKE_CURRENT_LIST_DIR})
# at -O1: what the profile depends on is the generated source, and the
# largest observed programs take 15 s each to build at -O2 (jit.corpus and
# jit.check build at -O2, the level dispatches use)
set_tests_properties(jit.prof PROPERTIES LABELS "jit;case-large" TIMEOUT 1200 SKIP_RETURN_CODE 77
  ENVIRONMENT "LOCKSTEP_JIT_CFLAGS=-O1" COST 90)
add_test(NAME jit.check
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/tools/jit_check.sh $<TARGET_FILE:lockstep>
    ${CMAKE_CURRENT_LIST_DIR})
set_tests_properties(jit.check PROPERTIES LABELS "jit;case-large" TIMEOUT 1200 SKIP_RETURN_CODE 77
  COST 70)
add_test(NAME jit.vm_control COMMAND test_vm_control)
set_tests_properties(jit.vm_control PROPERTIES LABELS "jit;unit" ENVIRONMENT
  "LOCKSTEP_JIT=on;LOCKSTEP_JIT_CACHE=${CMAKE_CURRENT_BINARY_DIR}/jit-cache")
add_test(NAME jit.no_compiler
  COMMAND $<TARGET_FILE:lockstep> run ${CMAKE_CURRENT_LIST_DIR}/cases/002_loop_longest_lane.json
    --expect ${CMAKE_CURRENT_LIST_DIR}/results/002_loop_longest_lane.json --quiet)
set_tests_properties(jit.no_compiler PROPERTIES LABELS jit ENVIRONMENT
  "LOCKSTEP_JIT=on;LOCKSTEP_CC=/nonexistent/cc;LOCKSTEP_JIT_CACHE=${CMAKE_CURRENT_BINARY_DIR}/jit-none")
foreach(t test_texture test_sampler test_formats test_multisample test_external test_f16
    test_observe test_observers)
  add_test(NAME jit.unit.${t} COMMAND ${t})
  set_tests_properties(jit.unit.${t} PROPERTIES LABELS "jit;unit" ENVIRONMENT
    "LOCKSTEP_JIT=on;LOCKSTEP_JIT_CACHE=${CMAKE_CURRENT_BINARY_DIR}/jit-cache")
endforeach()
