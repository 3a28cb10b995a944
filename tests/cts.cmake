# The WebGPU CTS (included by tests/CMakeLists.txt; label "cts"):
# cts.subset runs tests/cts/ci.txt's queries on lockstep's Node binding with
# tests/cts/cts.sh, which builds the CTS from its snapshot into build/cts the
# first time (npm ci from the registry, a few minutes) and fails on any
# failure that tests/cts/expectations.txt does not list. Registered only
# when the binding is built and node, npm and the snapshot are there; the
# binding's directory comes after tests/ in the top-level CMakeLists, so
# the check waits until the top level is done (and, being registered there,
# it sets the bytecode verifier's LOCKSTEP_VERIFY_IR=1 itself, as
# tests/CMakeLists.txt does for its own tests). cts.results checks the
# runner's parsing and expected-failures matching without a CTS build.
set(LOCKSTEP_CTS_SNAPSHOT "" CACHE FILEPATH
  "WebGPU CTS source snapshot (default: ../shared/cts.tar.xz beside the repository)")
set(LS_CTS_SNAPSHOT "${LOCKSTEP_CTS_SNAPSHOT}")
if(NOT LS_CTS_SNAPSHOT)
  foreach(c ${CMAKE_SOURCE_DIR}/../shared/cts.tar.xz ${CMAKE_SOURCE_DIR}/../../shared/cts.tar.xz)
    if(EXISTS ${c})
      get_filename_component(LS_CTS_SNAPSHOT ${c} ABSOLUTE)
      break()
    endif()
  endforeach()
endif()
find_program(LS_CTS_NODE node)
find_program(LS_CTS_NPM npm)

# The runner's own bookkeeping (no CTS needed): cts.results.
if(LS_CTS_NODE)
  add_test(NAME cts.results COMMAND ${LS_CTS_NODE} --test ${CMAKE_CURRENT_LIST_DIR}/cts/results.test.mjs)
  set_tests_properties(cts.results PROPERTIES LABELS cts TIMEOUT 60)
endif()

function(ls_cts_register dir snapshot)
  # Not in a sanitizer build: node would need the sanitizer runtimes
  # preloaded, and the CTS a second build; the plain build runs the subset.
  if(CMAKE_C_FLAGS MATCHES "-fsanitize")
    return()
  endif()
  if(NOT TARGET lockstep_node OR NOT LS_CTS_NODE OR NOT LS_CTS_NPM OR NOT EXISTS "${snapshot}")
    message(STATUS "lockstep: the WebGPU CTS subset (ctest -L cts) needs the Node binding, node, "
      "npm and the CTS snapshot (-DLOCKSTEP_CTS_SNAPSHOT=FILE); not registered")
    return()
  endif()
  add_test(NAME cts.subset COMMAND bash ${dir}/cts/cts.sh --snapshot ${snapshot}
    --build-dir ${CMAKE_BINARY_DIR}/cts --queries ${dir}/cts/ci.txt
    --expect ${dir}/cts/expectations.txt --timeout 300
    --out ${CMAKE_BINARY_DIR}/cts/results/ci.tsv)
  # COST: the longest test of the run starts first (tests/jit.cmake says why)
  set_tests_properties(cts.subset PROPERTIES LABELS cts TIMEOUT 1500 COST 200
    ENVIRONMENT "LOCKSTEP_NODE_ADDON=$<TARGET_FILE:lockstep_node>;LOCKSTEP_VERIFY_IR=1")
endfunction()
cmake_language(EVAL CODE "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL ls_cts_register [[${CMAKE_CURRENT_LIST_DIR}]] [[${LS_CTS_SNAPSHOT}]])")
