/*
 * lint.c — static findings for `lockstep check` (placeholder, filled below).
 */
#include "check.h"
