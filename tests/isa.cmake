# The interpreter's instruction-set variants (src/vm/vm.c; included by
# tests/CMakeLists.txt):
#
#   isa.NAME   tests/tools/isa_corpus.sh under LOCKSTEP_ISA=NAME: the case
#              corpus against its expected results, and the sanitizer's and
#              the profiler's output byte for byte the baseline's (label
#              "isa"); skipped where the CPU does not run NAME. In a build
#              with AddressSanitizer, the case corpus only, without its
#              multi-million-element cases (as "case-large" is left out
#              there): what varies by build is memory safety, and the byte
#              comparisons are the plain build's.
#   isa.NAME.sampler  test_sampler under LOCKSTEP_ISA=NAME: sampling's lane
#              kernel (vm_sample.inc) is compiled per variant, and its unit
#              test compares it with the general path bit for bit (a
#              variant the CPU lacks falls back to the best below it).
#   isa.NAME.prof  test_prof under LOCKSTEP_ISA=sse2 and avx2: the profiler
#              counts a full texel request's keys with the variant's
#              vectors (prof.c), exactly as lane by lane.
set(LS_ISA_SIZE "")
if(CMAKE_C_FLAGS MATCHES "-fsanitize=[^ ]*address")
  set(LS_ISA_SIZE small)
endif()
foreach(isa sse2 avx2 avx512)
  add_test(NAME isa.${isa}
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/tools/isa_corpus.sh $<TARGET_FILE:lockstep> ${isa}
            ${CMAKE_CURRENT_LIST_DIR} ${LS_ISA_SIZE})
  set_tests_properties(isa.${isa} PROPERTIES LABELS isa TIMEOUT 900 SKIP_RETURN_CODE 77)
endforeach()
foreach(isa sse2 avx2 avx512)
  add_test(NAME isa.${isa}.sampler COMMAND test_sampler)
  set_tests_properties(isa.${isa}.sampler PROPERTIES LABELS isa ENVIRONMENT LOCKSTEP_ISA=${isa})
endforeach()
foreach(isa sse2 avx2)
  add_test(NAME isa.${isa}.prof COMMAND test_prof)
  set_tests_properties(isa.${isa}.prof PROPERTIES LABELS isa ENVIRONMENT LOCKSTEP_ISA=${isa})
endforeach()
