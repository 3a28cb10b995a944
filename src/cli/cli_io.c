/*
 * cli_io.c — reading the `lockstep` command's inputs with a bound and
 * writing its outputs without replacing what is not a regular file; the
 * rules are in cli_io.h. Every file the command touches goes through here
 * (case.c, result.c, main.c, cli_prof.c), so the rules hold for every
 * option alike.
 */
#include "cli_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ----------------------------------------------------------------- inputs */

static char *cli_read_fail(int *why, int code, char *buf, int fd) {
  free(buf);
  if (fd >= 0) close(fd);
  if (why) *why = code;
  return NULL;
}

char *cli_read_file(const char *path, size_t *len, int *why, char *err, size_t errlen) {
  const size_t max = CLI_MAX_INPUT_BYTES;
  int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return cli_read_fail(why, CLI_READ_BAD, NULL, fd);
  }
  if (S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "%s: is a folder, not a file", path);
    return cli_read_fail(why, CLI_READ_BAD, NULL, fd);
  }
  const int regular = S_ISREG(st.st_mode);
  /* a regular file says its size: refused before anything is allocated */
  if (regular && (uint64_t)st.st_size > max) {
    snprintf(err, errlen, "%s: %llu bytes is too large: lockstep reads input files of at most "
                          "%zu bytes (1 GiB)", path, (unsigned long long)st.st_size, max);
    return cli_read_fail(why, CLI_READ_BAD, NULL, fd);
  }
  /* + 2: room for the NUL and for the read that finds the end */
  size_t cap = regular ? (size_t)st.st_size + 2 : (size_t)1 << 16, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    snprintf(err, errlen, "%s: out of memory for %zu bytes", path, cap);
    return cli_read_fail(why, CLI_READ_NO_MEMORY, NULL, fd);
  }
  for (;;) {
    if (n + 1 == cap) { /* full: a pipe, a device or a file that grew */
      if (n > max) {
        snprintf(err, errlen, "%s: more than %zu bytes (1 GiB) to read: lockstep reads at most "
                              "that much of an input (an endless device or pipe?)", path, max);
        return cli_read_fail(why, CLI_READ_BAD, buf, fd);
      }
      size_t nc = cap * 2 > max + 2 ? max + 2 : cap * 2;
      char *nb = realloc(buf, nc);
      if (!nb) {
        snprintf(err, errlen, "%s: out of memory after %zu bytes", path, n);
        return cli_read_fail(why, CLI_READ_NO_MEMORY, buf, fd);
      }
      buf = nb;
      cap = nc;
    }
    ssize_t k = read(fd, buf + n, cap - 1 - n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
      return cli_read_fail(why, CLI_READ_BAD, buf, fd);
    }
    if (k == 0) break;
    /* text has no NUL: whatever follows one in a stream is not read (the
     * caller's parser names the NUL's place) */
    const int nul = !regular && memchr(buf + n, 0, (size_t)k) != NULL;
    n += (size_t)k;
    if (nul) break;
  }
  if (n > max) {
    snprintf(err, errlen, "%s: more than %zu bytes (1 GiB): lockstep reads input files of at "
                          "most that size", path, max);
    return cli_read_fail(why, CLI_READ_BAD, buf, fd);
  }
  close(fd);
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

int cli_text_without_nul(const char *text, size_t len, const char *path, const char *what,
                         char *err, size_t errlen) {
  const char *nul = memchr(text, 0, len);
  if (!nul) return 0;
  size_t line = 1, col = 1;
  for (const char *p = text; p < nul; p++) {
    if (*p == '\n') line++, col = 1;
    else if (((unsigned char)*p & 0xC0) != 0x80) col++;
  }
  snprintf(err, errlen, "%s:%zu:%zu error: a NUL byte (%s cannot contain one)", path, line, col,
           what);
  return -1;
}

/* ---------------------------------------------------------------- outputs */

static char *cli_dup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* The folder part of a path ("." when it has none). */
static char *cli_dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return cli_dup(".");
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, path, n);
    d[n] = 0;
  }
  return d;
}

/* Follows symbolic links from path to the file they end at (which need not
 * exist yet): the path of that file, malloc'd; *exists and *st say what is
 * there. NULL with a message on a loop, a bad link or no memory. */
static char *cli_resolve(const char *path, struct stat *st, int *exists, char *err,
                         size_t errlen) {
  char *cur = cli_dup(path);
  for (int hops = 0; cur; hops++) {
    if (lstat(cur, st) != 0) {
      if (errno != ENOENT) break;
      *exists = 0;
      return cur;
    }
    if (!S_ISLNK(st->st_mode)) {
      *exists = 1;
      return cur;
    }
    char target[PATH_MAX];
    ssize_t n = hops < 40 ? readlink(cur, target, sizeof target - 1) : -1;
    if (n <= 0) {
      if (hops >= 40) errno = ELOOP;
      break;
    }
    target[n] = 0;
    /* a relative target is relative to the link's folder */
    char *dir = target[0] == '/' ? NULL : cli_dir_of(cur);
    size_t len = (dir ? strlen(dir) + 1 : 0) + (size_t)n + 1;
    char *next = (target[0] == '/' || dir) ? malloc(len) : NULL;
    if (next) snprintf(next, len, "%s%s%s", dir ? dir : "", dir ? "/" : "", target);
    free(dir);
    free(cur);
    cur = next;
    if (!cur) errno = ENOMEM;
  }
  snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
  free(cur);
  return NULL;
}

/* Refuses what an output must not be: 0, or -1 with a message. */
static int cli_out_kind(const char *path, const struct stat *st, char *err, size_t errlen) {
  const char *what = S_ISDIR(st->st_mode)   ? "a folder"
                     : S_ISBLK(st->st_mode)  ? "a block device"
                     : S_ISSOCK(st->st_mode) ? "a socket"
                                             : NULL;
  if (!what) return 0;
  snprintf(err, errlen, "cannot write '%s': it is %s (an output is a regular file, a character "
                        "device such as /dev/null, or a FIFO)", path, what);
  return -1;
}

/* A temporary file beside dest; its descriptor, or -1 (errno set). */
static int cli_temp_beside(const char *dest, char **tmp) {
  char *dir = cli_dir_of(dest);
  size_t n = dir ? strlen(dir) + 32 : 0;
  *tmp = dir ? malloc(n) : NULL;
  if (!*tmp) {
    free(dir);
    errno = ENOMEM;
    return -1;
  }
  snprintf(*tmp, n, "%s/.lockstep-XXXXXX", dir);
  free(dir);
  int fd = mkstemp(*tmp);
  if (fd < 0) {
    int e = errno;
    free(*tmp);
    *tmp = NULL;
    errno = e;
  }
  return fd;
}

static int cli_in_place(const struct stat *st) {
  return S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode);
}

/* A file that is there must let us write it, even though a rename would
 * replace it anyway (as the shell's > would refuse). */
static int cli_writable(const char *path, const char *dest, char *err, size_t errlen) {
  if (access(dest, W_OK) == 0) return 0;
  snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
  return -1;
}

int cli_out_check(const char *path, char *err, size_t errlen) {
  if (!strcmp(path, "-")) return 0;
  struct stat st;
  int exists = 0;
  char *dest = cli_resolve(path, &st, &exists, err, errlen);
  if (!dest) return -1;
  int rc = exists ? cli_out_kind(path, &st, err, errlen) : 0;
  /* a device or FIFO is not opened here (a FIFO would wait for its
   * reader): the permission is enough */
  if (rc == 0 && exists) rc = cli_writable(path, dest, err, errlen);
  if (rc == 0 && !(exists && cli_in_place(&st))) {
    char *tmp;
    int fd = cli_temp_beside(dest, &tmp);
    if (fd < 0) {
      snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
      rc = -1;
    } else {
      close(fd);
      unlink(tmp);
      free(tmp);
    }
  }
  free(dest);
  return rc;
}

FILE *cli_out_open(cli_out *o, const char *path, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  if (!strcmp(path, "-")) {
    o->is_stdout = 1;
    return o->f = stdout;
  }
  struct stat st;
  int exists = 0;
  o->dest = cli_resolve(path, &st, &exists, err, errlen);
  if (!o->dest) return NULL;
  if (exists && (cli_out_kind(path, &st, err, errlen) || cli_writable(path, o->dest, err, errlen)))
    goto fail;
  int fd;
  if (exists && cli_in_place(&st)) {
    fd = open(o->dest, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  } else {
    fd = cli_temp_beside(o->dest, &o->tmp);
    /* mkstemp makes the file private: give it the mode the file it
     * replaces had, or what the umask leaves of 0666 for a new one */
    mode_t mask = umask(0);
    umask(mask);
    if (fd >= 0) (void)fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~mask));
  }
  if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
    snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    goto fail;
  }
  return o->f;
fail:
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->dest);
  memset(o, 0, sizeof *o);
  return NULL;
}

int cli_out_close(cli_out *o, char *err, size_t errlen) {
  if (!o->f) return -1;
  int e = ferror(o->f) ? (errno ? errno : EIO) : 0;
  if (o->is_stdout) {
    if (fflush(o->f) != 0 && !e) e = errno;
  } else if (fclose(o->f) != 0 && !e) {
    e = errno;
  }
  if (!e && o->tmp && rename(o->tmp, o->dest) != 0) e = errno;
  if (e) {
    snprintf(err, errlen, "cannot write '%s': %s", o->is_stdout ? "(stdout)" : o->dest,
             strerror(e));
    if (o->tmp) unlink(o->tmp);
  }
  free(o->tmp);
  free(o->dest);
  memset(o, 0, sizeof *o);
  return e ? -1 : 0;
}

int cli_write_text(const char *path, const char *text, size_t len, char *err, size_t errlen) {
  cli_out o;
  FILE *f = cli_out_open(&o, path, err, errlen);
  if (!f) return -1;
  (void)fwrite(text, 1, len, f); /* an error stays in the stream for close */
  return cli_out_close(&o, err, errlen);
}
