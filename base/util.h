/*
 * util.h - small helpers every module uses: allocation that cannot fail
 * silently, growable strings, hashing for cache keys, files and commands.
 *
 * Library code never exits: functions return 0 or a negative errno-style
 * code.  The only exception is xmalloc() and friends, which abort with a
 * message on out-of-memory because no caller could do better.
 */
#ifndef FLAGSCOPE_UTIL_H
#define FLAGSCOPE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "base/paths.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new heap string */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "flagscope: <message>" on stderr; the message has no trailing full
 * stop and, where it helps, ends with "(what to do)". */
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* strerror(e) lowercased as those messages are ("permission denied"); a
 * buffer of the calling thread's, valid until its next call */
const char *strerror_lc(int e);

/* A growable NUL-terminated string.  init to {0}; release frees buf. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void sb_addc(struct strbuf *sb, char c);
/* Append s as a JSON string literal, quotes included. */
void sb_add_json(struct strbuf *sb, const char *s);
/* Append word as exactly one POSIX shell word: single-quoted, with each
 * ' written as '\''.  Any byte string (newlines, $(...), backticks, ;)
 * comes back unchanged from sh, dash, bash and busybox ash.  For the few
 * commands that must go through a shell: the ssh runner's remote side,
 * job scripts (cmd_slurm), the $EMU wrapper (qemu.c). */
void sh_quote(struct strbuf *sb, const char *word);
/* Append the words of a NULL-terminated argv, each quoted, blank-separated. */
void sh_quote_argv(struct strbuf *sb, char *const *argv);
const char *sb_str(const struct strbuf *sb); /* "" when empty */
char *sb_detach(struct strbuf *sb);          /* caller frees; sb is reset */
void sb_release(struct strbuf *sb);

/* A growable list of heap strings (owned). */
struct strlist {
	char **v;
	size_t n;
	size_t cap;
};
void sl_push(struct strlist *sl, const char *s);      /* copies s */
void sl_push_owned(struct strlist *sl, char *s);      /* takes s */
int sl_find(const struct strlist *sl, const char *s); /* index or -1 */
/* The name of names[0..n) a mistyped word most likely meant: the closest
 * by edit distance (a swap counts one), when it is at most 2 and less
 * than half the word, else NULL ("reprot" -> "report", "wcc" -> "wc",
 * "o2" -> "O2": case differences count nothing).  For a "did you mean" */
const char *str_nearest(const char *word, const char *const *names, size_t n);
/* Split on blanks (no quoting); appends to sl; returns count added. */
size_t sl_split_ws(struct strlist *sl, const char *s);
char *sl_join(const struct strlist *sl, const char *sep);
void sl_release(struct strlist *sl);

/* Trim leading and trailing blanks in place; returns s. */
char *str_trim(char *s);
/* A copy of s without the blanks around it and then without one pair of
 * quotes ("..." or '...') around the rest: a path written with or without
 * them.  Nothing inside is unescaped.  Heap string. */
char *str_unquote_dup(const char *s);
/* A copy of path with a leading "~" or "~/" made $HOME, as a shell would
 * (a local: source written in a study or on the command line); any other
 * path, or no $HOME, as it is.  Heap string. */
char *path_home_dup(const char *path);
int str_starts_with(const char *s, const char *prefix);

/* SHA-256 of a buffer as 64 lower-case hex digits plus NUL (out[65]). */
void sha256_hex(const void *data, size_t len, char out[65]);
/* SHA-256 of a file's content; 0 or -errno. */
int sha256_file_hex(const char *path, char out[65]);
/* sha256 over the lines "NAME HASH" of the plain files of a folder (not
 * its subfolders), in name order: a folder's contents, whatever its path */
void sha256_dir_hex(const char *dir, char out[65]);

/* Whole file into a NUL-terminated heap buffer (len optional); NULL on error
 * with errno set. */
char *file_read(const char *path, size_t *len);
int file_write(const char *path, const void *data, size_t len);
int file_exists(const char *path);
int is_dir(const char *path);
/* mkdir -p; 0 or -errno */
int mkdir_p(const char *path, int mode);
/* rm -rf; 0 or -errno */
int remove_tree(const char *path);
/* Copy a tree (cp -a); 0 or -errno. */
int copy_tree(const char *from, const char *to);

/* Run argv (no shell) and capture stdout+stderr into *out (may be NULL).
 * Its stdin is /dev/null and it inherits no other descriptor of ours.
 * Returns the exit status (0..255), 128+signal, or -errno when it could
 * not start. */
int run_capture(char *const argv[], char **out);
/* run_capture, and with timeout > 0 (seconds) the command runs in its own
 * process group, killed whole (SIGKILL) when it is still writing or
 * running after timeout: *timed_out (may be NULL) is then 1 and the
 * return 128+9; *out holds what it wrote until then. */
int run_capture_timeout(char *const argv[], char **out, double timeout, int *timed_out);
/* In a freshly forked child, before exec (async-signal-safe): every
 * descriptor above 2 is closed at exec (close_range, or one by one where
 * the kernel lacks it), so the program inherits only 0, 1 and 2. */
void child_close_fds(void);
/* Same through /bin/sh -c script. */
int run_shell_capture(const char *script, char **out);

/* The absolute path of an executable found on $PATH (or name itself when
 * it has a '/'); heap string, or NULL when there is none. */
char *path_lookup(const char *name);

/* The number of online CPUs (at least 1). */
int cpu_count(void);
/* Monotonic seconds. */
double now_seconds(void);

/* flagscope_home() and the other data folders: base/paths.h */
/* $XDG_CACHE_HOME/flagscope, or ~/.cache/flagscope; created on demand by
 * callers. Overridden by $FLAGSCOPE_CACHE.  Without a home, a folder of
 * /tmp private to the user (defined in base/paths.c, see paths.h). */
const char *flagscope_cache_dir(void);

#endif
