# The WGSL front end's rule tests (tests/wgsl/): invalid modules with their
# expected diagnostics, valid modules, and fuzzing regressions.
add_test(NAME wgsl.rules
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/wgsl/run.sh $<TARGET_FILE:lockstep> wgsl
  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
