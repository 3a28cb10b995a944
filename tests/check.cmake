# The sanitizer and lint corpus (tests/check/), as ctest tests (included by
# tests/CMakeLists.txt):
#
#   check.NAME.W<w>.t<t>   tests/check/run_check.sh on NAME.expect: `lockstep
#                          run NAME.json --check` at subgroup widths 8 and 64
#                          on 1 and 3 threads (findings must not depend on
#                          either), or `lockstep check NAME.wgsl` for the
#                          lint's shaders (no NAME.json)   (label "check")
#   check.kernels.NAME     `lockstep check` on every seed kernel: no lint
#                          finding on the lessons' correct examples
set(LS_CHECK_DIR ${CMAKE_CURRENT_LIST_DIR}/check)
file(GLOB LS_CHECK_EXPECTS CONFIGURE_DEPENDS ${LS_CHECK_DIR}/*.expect)
foreach(expect ${LS_CHECK_EXPECTS})
  get_filename_component(name ${expect} NAME_WE)
  if(EXISTS ${LS_CHECK_DIR}/${name}.json)
    foreach(w 8 64)
      foreach(t 1 3)
        add_test(NAME check.${name}.W${w}.t${t}
          COMMAND ${LS_CHECK_DIR}/run_check.sh $<TARGET_FILE:lockstep> ${expect} -W ${w} --threads ${t})
        set_tests_properties(check.${name}.W${w}.t${t} PROPERTIES LABELS check TIMEOUT 120)
      endforeach()
    endforeach()
  else()
    add_test(NAME check.${name} COMMAND ${LS_CHECK_DIR}/run_check.sh $<TARGET_FILE:lockstep> ${expect})
    set_tests_properties(check.${name} PROPERTIES LABELS check)
  endif()
endforeach()

# The seed kernels: the lint's findings on each are exactly those recorded in
# check/kernels/NAME.expect (the lessons' correct examples have none).
file(GLOB LS_CHECK_KERNELS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/kernels/*.wgsl)
foreach(kernel ${LS_CHECK_KERNELS})
  get_filename_component(name ${kernel} NAME_WE)
  if(EXISTS ${LS_CHECK_DIR}/kernels/${name}.expect)
    add_test(NAME check.kernels.${name}
      COMMAND ${CMAKE_COMMAND} -E env CHECK_INPUT=${kernel}
              ${LS_CHECK_DIR}/run_check.sh $<TARGET_FILE:lockstep> ${LS_CHECK_DIR}/kernels/${name}.expect)
    set_tests_properties(check.kernels.${name} PROPERTIES LABELS check)
  endif()
endforeach()
