/*
 * fetch.h - make a recipe's source available: the `source =` line of
 * workloads/NAME/recipe.ini names where the source comes from, and a fetcher
 * unpacks it once into the cache, <cache>/sources/<source-id>/, shared by
 * every build (builds never write into it: they copy it or build out of
 * tree).
 *
 * Source specs (one line, words separated by blanks):
 *   bundled                         the recipe folder itself
 *   local:PATH                      a user's unpacked tree, used in place and
 *                                   never written; relative to the recipe folder (~/ is $HOME);
 *                                   PATH is the whole rest of the line, blanks
 *                                   and all, in "..." or '...' if the writer likes
 *   url:URL sha256=HEX              a tarball, downloaded with curl; a checksum
 *                                   mismatch is an error and nothing is cached
 *   git:URL commit=HASH             a full commit hash; git checks the content
 *   debian:NAME[=VERSION] [patched] `apt-get source` (the archive's signatures
 *                                   are checked by apt); by default the upstream
 *                                   .orig tarball(s) without Debian's patches,
 *                                   with `patched` the tree dpkg-source -x makes
 *
 * How to add a source kind: write its parse and fetch operations in fetch.c
 * (or in its own fetch_<kind>.c with the helpers of fetch_internal.h),
 * fill a `const struct source_ops`, list it in source_kinds[], and add a case
 * to tests/test_fetch.c.
 */
#ifndef FLAGSCOPE_FETCH_H
#define FLAGSCOPE_FETCH_H

#include "base/util.h"

struct source_ops;

/* A parsed spec.  Strings are owned; NULL when the kind has no such part. */
struct source_spec {
	const struct source_ops *ops;
	char *location; /* URL, PATH or package NAME */
	char *version;  /* debian: the =VERSION */
	char *hash;     /* url: sha256, git: commit (lower-case hex) */
	int patched;    /* debian: Debian's patches applied */
};

struct source_ops {
	const char *name; /* the spec's kind: "debian" in "debian:lame" */
	const char *form; /* the spec's form, for messages: "url:URL sha256=HEX" */
	int one_path;     /* the text after "name:" is one path, blanks and all
			     in one pair of quotes or none (str_unquote_dup);
			     parse gets no words */
	/* Fill s from the text after "name:" (NULL for a bare "name") and the
	 * remaining words.  0, or -1 with the reason in err. */
	int (*parse)(struct source_spec *s, const char *arg, const struct strlist *words,
		     struct strbuf *err);
	/* Make the source available; see source_fetch(). */
	int (*fetch)(const struct source_spec *s, const char *recipe_dir, char **src_dir,
		     char src_id[65], struct strbuf *err);
	/* Optional, before anything builds: what s names can be what its kind
	 * wants (debian: NAME is a source package, not a binary one), from
	 * local information only.  0 also when it cannot tell (the fetch
	 * says); -1 with "what is wrong (what to do)" in err. */
	int (*check)(const struct source_spec *s, struct strbuf *err);
};

/* Every source kind, NULL-terminated. */
extern const struct source_ops *const source_kinds[];
/* 0, or -1 with what is wrong with source_kinds[] (at start-up: a bug). */
int source_kinds_check(struct strbuf *err);

/* Check a spec (recipe loading).  s may be NULL to only validate.  Returns 0,
 * or -1 with a one-line "what is wrong (what to do)" in err. */
int source_parse(const char *spec, struct source_spec *s, struct strbuf *err);
void source_spec_release(struct source_spec *s);
/* source_parse(), then the kind's check (a study's plan, workload new):
 * 0, or -1 with the one-line reason in err. */
int source_check(const char *spec, struct strbuf *err);

/* Make the recipe's source available, fetching and unpacking it once into
 * flagscope_cache_dir()/sources/<source-id>/: it is unpacked into a
 * temporary folder beside it and renamed into place, so a failed or
 * interrupted fetch leaves nothing that looks like a source (stale
 * temporary folders of dead processes are removed by the next fetch).
 * A second fetch of the same content uses the cache without the network.
 *
 * On success returns 0, *src_dir is the source tree (heap string, caller
 * frees) and src_id a stable identifier of the content, for build keys:
 *   url      the tarball's sha256       git    the commit
 *   debian   sha256 of the source package's files and hashes as listed by
 *            apt, and whether patched
 *   local    sha256 of the tree's fingerprint (base/fingerprint.h: paths,
 *            modes, each file's sha256, each link's target and what it
 *            leads to; .git excluded): any edit, behind a link too,
 *            changes it, new times alone do not
 *   bundled  "bundled" (the recipe's own hash covers its folder, its
 *            subfolders and what its links lead to)
 * For bundled and local the tree is not copied: *src_dir is the recipe
 * folder or the user's folder.
 * Returns -1 with a one-line reason in err on failure. */
int source_fetch(const char *spec, const char *recipe_dir, char **src_dir, char src_id[65],
		 struct strbuf *err);

#endif
