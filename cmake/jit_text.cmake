# The compiled tier's prelude (src/vm/jit.c): the source files embedded as
# C strings (LS_JIT_ITEMS, name=path) and the further files its build id
# covers (LS_JIT_HASH). Read by CMakeLists.txt, and by embed.cmake when a
# script outside the CMake build (fuzz/) calls it without ITEMS.
get_filename_component(LS_JIT_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(LS_JIT_ITEMS
  vm_jit_text_abi=${LS_JIT_ROOT}/src/vm/vm_jit_abi.h
  vm_jit_text_bitfn=${LS_JIT_ROOT}/src/util/bitfn.h
  vm_jit_text_lane=${LS_JIT_ROOT}/src/vm/vm_lane.h
  vm_jit_text_lanes=${LS_JIT_ROOT}/src/vm/vm_lanes.inc
  vm_jit_text_rt=${LS_JIT_ROOT}/src/vm/vm_jit_rt.inc)
set(LS_JIT_HASH ${LS_JIT_ROOT}/src/vm/jit_emit.c)
