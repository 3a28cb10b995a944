/*
 * cli_exit.h — the exit status of every `lockstep` command, in one table:
 * the commands return these names, `lockstep --help` prints the table, and
 * the README lists the same rows.
 */
#ifndef LS_CLI_EXIT_H
#define LS_CLI_EXIT_H

/* X(name, status, meaning) */
#define CLI_EXIT_LIST(X)                                                                   \
  X(CLI_OK, 0, "success")                                                                  \
  X(CLI_MISMATCH, 1, "the results differ from --expect, or --check found errors")          \
  X(CLI_BAD_INPUT, 2,                                                                      \
    "bad input: a malformed case, result or profile file, an input over 1 GiB, a shader "  \
    "or validation error, a bad option")                                                   \
  X(CLI_FAILED, 3,                                                                         \
    "the run failed: device lost (a runaway shader), out of memory, output not written "   \
    "(its path cannot be written, found before the run, or the write failed)")

enum cli_exit {
#define CLI_X_(name, status, text) name = status,
  CLI_EXIT_LIST(CLI_X_)
#undef CLI_X_
};

#endif
