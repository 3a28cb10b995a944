# The WGSL front end's rule tests (tests/wgsl/): invalid modules with their
# expected diagnostics, valid modules, and fuzzing regressions.
add_test(NAME wgsl.rules
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wgsl/run.sh $<TARGET_FILE:lockstep> wgsl
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
# Hostile input (tests/wgsl/hostile.sh): generated at test time — deep
# nesting, huge literals, invalid UTF-8, NUL bytes, a 10 MB module, many
# declarations — each checked for its exit status and diagnostic under a
# 1 GiB address-space limit.
add_test(NAME wgsl.hostile
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/wgsl/hostile.sh $<TARGET_FILE:lockstep>)
set_tests_properties(wgsl.hostile PROPERTIES TIMEOUT 600)
# Hostile input for pipeline creation (tests/wgsl/hostile_pipeline.sh):
# chains of lets, a million statements, a 100,000-line listing, nesting
# through calls, override chains, private and function memory at and past
# lockstep's limits, the interpreter's memory per dispatch; each checked for
# its exit status, its diagnostic or the words it computes.
add_test(NAME wgsl.hostile_pipeline
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/wgsl/hostile_pipeline.sh $<TARGET_FILE:lockstep>)
set_tests_properties(wgsl.hostile_pipeline PROPERTIES TIMEOUT 600)
# Features the front end gained, executed (tests/wgsl/exec/: case, shader,
# expected words from the arithmetic in the shader's comment).
add_test(NAME wgsl.exec
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/wgsl/exec.sh $<TARGET_FILE:lockstep> wgsl
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
