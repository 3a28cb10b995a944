/*
 * cli_check.h — the sanitizer and lint parts of the `lockstep` command
 * (cli_check.c), called from main.c.
 */
#ifndef LS_CLI_CHECK_H
#define LS_CLI_CHECK_H

#include "lockstep.h"
#include "case.h"

/* Takes --check, --json, --allow-same-value, --max-findings N out of the
 * arguments of `run` (--json becomes --quiet: stdout is then JSON alone).
 * Returns the new argc, or -1 after a message. */
int cli_check_take_args(int argc, char **argv);
/* With --check: the sanitizer's options for the case runner; NULL
 * without. */
const ls_check_options *cli_check_options(void);
/* With --check: prints the findings (diagnostics on stderr, or JSON on
 * stdout) and returns the exit status: 1 when rc was 0 and errors were
 * found, rc otherwise. */
int cli_check_report(ls_device *dev, int rc);
/* `lockstep check`: the static findings of a valid module on stdout; returns
 * their number. */
int cli_check_lint(const ls_shader_module *m, const char *path);

#endif
