/*
 * fetch_internal.h - what the fetchers in fetch.c and fetch_debian.c share:
 * running a command with a one-line reason, staging folders and the cache.
 * Not for other modules: they use fetch.h.
 */
#ifndef FLAGSCOPE_FETCH_INTERNAL_H
#define FLAGSCOPE_FETCH_INTERNAL_H

#include "harness/fetch.h"

extern const struct source_ops source_debian;

char *fetch_lower_dup(const char *s);
/* Append ": <the last non-empty line of out>" (a command's reason). */
void fetch_add_last_line(struct strbuf *err, const char *out);
/* Run argv; 0, or -1 with "<what>: <the command's last line>" in err.
 * *out (may be NULL) gets the output on success. */
int fetch_run(char *const argv[], const char *what, struct strbuf *err, char **out);

/* A new empty staging folder in <cache>/sources (heap string), or NULL
 * with the reason in err.  Removes staging folders of dead processes. */
char *fetch_staging_begin(struct strbuf *err);
/* Remove the staging folder and free the string (NULL is fine). */
void fetch_staging_abort(char *staging);

/* Fill the staging folder st; *tree is the unpacked tree inside it. */
typedef int (*fetch_fill_fn)(const struct source_spec *s, void *ctx, const char *st, char **tree,
			     struct strbuf *err);
/* *src_dir = <cache>/sources/<id> if there, else fill() a staging folder and
 * rename its tree there.  0, or -1 with the reason in err (nothing cached). */
int fetch_cache_fill(const struct source_spec *s, void *ctx, const char *id, fetch_fill_fn fill,
		     char **src_dir, struct strbuf *err);

/* Unpack a tarball (any compression tar knows) into the new folder into;
 * *root is its tree: the only top-level folder, or into itself. */
int fetch_unpack_tarball(const char *tarball, const char *into, char **root, struct strbuf *err);

#endif
