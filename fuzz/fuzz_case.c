/*
 * fuzz_case.c — libFuzzer target for the command line program's readers of
 * JSON (src/cli/case.c, result.c): each input is read as a case file
 * (wgsl-compute-case/1: every field checked, every buffer's initial words
 * computed; the shader is not read) and as a result file
 * (wgsl-compute-result/1, what --expect reads). Nothing runs. A crash, a
 * sanitizer report (an undefined conversion, an overflow), a hang or an
 * unbounded allocation is a bug to fix; so is a parse that fails without
 * a message. fuzz/run.sh builds it with buffers capped at 2^16 words
 * (CASE_MAX_WORDS), so that the fuzzer spends its time on the format, not
 * on filling gigabytes. Built and run by fuzz/run.sh (FUZZ_TARGET=case).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/case.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[2048];
  case_file c;
  err[0] = 0;
  if (case_parse((const char *)data, size, "fuzz.json", 0, &c, err, sizeof err) && !err[0]) {
    fprintf(stderr, "fuzz_case: a case refused without a message\n");
    abort();
  }
  case_free(&c);
  result_file r;
  err[0] = 0;
  if (result_parse((const char *)data, size, "fuzz.json", &r, err, sizeof err) && !err[0]) {
    fprintf(stderr, "fuzz_case: a result refused without a message\n");
    abort();
  }
  result_free(&r);
  return 0;
}
