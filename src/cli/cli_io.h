/*
 * cli_io.h — the files of the `lockstep` command (cli_io.c): every input
 * it reads (a case, a shader, an --expect result, a --profile-file) and
 * every output it writes (--out, --prof-json, --report).
 *
 * Inputs are read whole with a bound, CLI_MAX_INPUT_BYTES: a regular file
 * larger than that is refused before anything is allocated for it, and a
 * pipe or device is read no further than that. Inputs are text, so a pipe
 * or device is also read no further than its first NUL byte (the parser
 * then says where it is): /dev/zero is refused at once.
 *
 * Outputs go by what the path names: "-" is stdout; a regular file, or
 * none yet, is written as a temporary file in the same folder and renamed
 * into place when the whole text is written, so a failed write leaves the
 * old file as it was; a symbolic link is followed to its target, which is
 * then written by these rules (the link stays a link); a character device
 * (/dev/null, a terminal) or a FIFO is opened and written in place (never
 * replaced); anything else (a folder, a block device, a socket) is refused.
 */
#ifndef LS_CLI_IO_H
#define LS_CLI_IO_H

#include <stddef.h>
#include <stdio.h>

/* The largest input read: 1 GiB (a --out result of about 40 million words;
 * larger references are written in the compact form, docs/case-format.md). */
#define CLI_MAX_INPUT_BYTES ((size_t)1 << 30)

/* cli_read_file's failures: the file cannot be read or is too large (bad
 * input), or memory ran out (the run failed). */
enum { CLI_READ_BAD = -1, CLI_READ_NO_MEMORY = -2 };

/* The whole file, NUL-terminated, *len bytes (NUL bytes inside included);
 * NULL with a message naming the file in err, and *why (if not NULL) one of
 * the CLI_READ_ values. */
char *cli_read_file(const char *path, size_t *len, int *why, char *err, size_t errlen);

/* 0 when text (len bytes) holds no NUL byte; else -1 with "PATH:LINE:COL
 * error: a NUL byte (WHAT cannot contain one)" in err, the place of the
 * first one (the column counts characters). */
int cli_text_without_nul(const char *text, size_t len, const char *path, const char *what,
                         char *err, size_t errlen);

/* One output being written. */
typedef struct cli_out {
  FILE *f;
  char *tmp;   /* the temporary file, renamed to dest on close; NULL: written in place */
  char *dest;  /* the file the output ends up in (a link's target) */
  int is_stdout;
} cli_out;

/* Checks before a run that path can be written by the rules above (its
 * folder takes a new file, or the device or FIFO is writable); 0, or -1
 * with a message. */
int cli_out_check(const char *path, char *err, size_t errlen);
/* Opens path for writing; the stream to write to, or NULL with a message. */
FILE *cli_out_open(cli_out *o, const char *path, char *err, size_t errlen);
/* Finishes the output: flushes and closes it and renames a temporary file
 * into place; on a write error removes the temporary file. 0, or -1 with a
 * message. */
int cli_out_close(cli_out *o, char *err, size_t errlen);
/* The whole text to path (open, write, close). */
int cli_write_text(const char *path, const char *text, size_t len, char *err, size_t errlen);

#endif
