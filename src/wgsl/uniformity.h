/*
 * uniformity.h — the WGSL uniformity analysis (uniformity.c), run by the
 * resolver after every function has been typed. Not used outside
 * src/wgsl/.
 */
#ifndef LS_WGSL_UNIFORMITY_H
#define LS_WGSL_UNIFORMITY_H

#include "sema_int.h"

/* Analyses every function of the module; reports uniformity errors,
 * warnings and infos (per the module's diagnostic filters) into c->d. */
void uni_analyse(sctx *c);

#endif
