/*
 * culprit.h - which flags of a candidate the compiler rejects or crashes
 * on, found with the compiler alone: cheap compiles, no builds of the
 * workload and no runs.
 *
 * A candidate of several flags that the compiler refuses (unsupported
 * flag) or crashes on (internal compiler error) says nothing about which
 * flag is to blame.  culprit_find() narrows the set to the smallest subset
 * that still fails by itself: usually one flag (remembered as rejected, so
 * no later candidate carries it), sometimes several that fail only
 * together (remembered as a combination).  It assumes that adding flags to
 * a failing set keeps it failing, and checks at the end that the subset
 * found fails alone.
 */
#ifndef FLAGSCOPE_SEARCH_CULPRIT_H
#define FLAGSCOPE_SEARCH_CULPRIT_H

#include "base/util.h"

/* Does the compiler fail with these words?  1 yes, 0 no, -1 cannot tell. */
typedef int (*culprit_fails_fn)(void *user, const struct strlist *words);

/* The smallest failing subset of words, in their order, to *culprit:
 * grow a prefix by binary search until it fails, keep its last word, and
 * go on with the words before it.  At most max_checks calls of fails
 * (*checks gets how many were made).  0; or -1 when the whole set does
 * not fail (the failure does not reproduce this way), a check could not
 * tell, or max_checks ran out. */
int culprit_find(const struct strlist *words, culprit_fails_fn fails, void *user, int max_checks,
		 struct strlist *culprit, int *checks);

/* Does text (compiler output) say the compiler itself crashed? */
int culprit_is_crash(const char *text);

/* The source file a compiler crash names in a build log (gcc:
 * "x.c:12:1: internal compiler error"; clang: the preprocessed copy it
 * saves), found as given when absolute, else under dir.  Heap path, or
 * NULL. */
char *culprit_crash_file(const char *log_text, const char *dir);

/* One compile of one file: does `cc cflags words -c file` crash the
 * compiler?  The file's folder and root (may be NULL) are include paths,
 * and HAVE_CONFIG_H is defined when root has a config.h (autotools).  1,
 * 0, or -1 when cflags alone do not compile it cleanly enough to tell. */
struct culprit_compile {
	const char *cc, *cflags, *file, *root;
	int baseline; /* 0 before the first check, then 1: cflags alone do not
			 crash it, -1: they do (every check is then -1) */
};
int culprit_compile_crashes(void *user, const struct strlist *words);

#endif
