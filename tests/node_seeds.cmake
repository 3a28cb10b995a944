# The seed-lesson tests of the JavaScript front door (bindings/node/test/seeds,
# node --test, label "node"): node.seeds runs every code block of the three
# lessons on lockstep's binding at W = 32, 8, 64 and under `check`;
# node.seeds_dawn compares their bytes with Dawn's and skips, saying so, when
# Dawn (../shared/peers/setup.sh) is not installed. Registered at the end of
# the top-level directory, because bindings/node (the lockstep_node target)
# is added after tests/; nothing is registered when the binding is not built.
function(ls_node_seed_tests dir)
  find_program(LS_SEEDS_NODE node)
  if(NOT TARGET lockstep_node OR NOT LS_SEEDS_NODE OR NOT EXISTS ${dir})
    return()
  endif()
  set(env "LOCKSTEP_NODE_ADDON=$<TARGET_FILE:lockstep_node>" "LOCKSTEP_JS_PROVIDER=lockstep")
  file(GLOB lessons CONFIGURE_DEPENDS ${dir}/lesson*.test.mjs ${dir}/configs.test.mjs)
  add_test(NAME node.seeds COMMAND ${LS_SEEDS_NODE} --test ${lessons}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  add_test(NAME node.seeds_dawn COMMAND ${LS_SEEDS_NODE} --test ${dir}/dawn_compare.test.mjs
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(node.seeds node.seeds_dawn PROPERTIES LABELS node TIMEOUT 300
    ENVIRONMENT "${env}")
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
  CALL ls_node_seed_tests "${CMAKE_SOURCE_DIR}/bindings/node/test/seeds")
