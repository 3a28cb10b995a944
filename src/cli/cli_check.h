/*
 * cli_check.h — the sanitizer and lint parts of the `lockstep` command
 * (cli_check.c), called from main.c.
 */
#ifndef LS_CLI_CHECK_H
#define LS_CLI_CHECK_H

#include "../../include/lockstep.h"
#include "case.h"

/* Takes --check, --json, --allow-same-value, --max-findings N out of the
 * arguments of `run` (--json becomes --quiet: stdout is then JSON alone).
 * Returns the new argc, or -1 after a message. */
int cli_check_take_args(int argc, char **argv);
/* With --check: turns the sanitizer on and gives buffers with a
 * "logicalCount" their logical size. Returns 0 when it could not. */
int cli_check_attach(ls_device *dev, const case_file *c, ls_buffer **bufs);
/* With --check: prints the findings (diagnostics on stderr, or JSON on
 * stdout) and returns the exit status: 1 when rc was 0 and errors were
 * found, rc otherwise. */
int cli_check_report(ls_device *dev, int rc);
/* `lockstep check`: the static findings of a valid module on stdout; returns
 * their number. */
int cli_check_lint(const ls_shader_module *m, const char *path);

#endif
