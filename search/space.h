/*
 * space.h - the flag space a search walks: what the compiler itself says
 * it can turn on and off at an -O level, narrowed or widened by a space
 * file.
 *
 * A point of the space is one byte per dimension (unsigned char v[ndims]).
 * Rendering a point gives the flags it adds to the baseline's CFLAGS; the
 * space's start point (every flag as the level sets it) renders as "",
 * i.e. the baseline itself.  Two points render alike only when they are
 * the same point, so the rendered string is the point's name in the
 * evaluation cache.
 *
 * Space file (INI, read with inih through base/ini.h):
 *   [space]
 *   level   = -O2                  the level the flags are relative to
 *                                  (default: the baseline's last -O)
 *   levels  = -O1 -O2 -O3 -Os      also search the -O level itself
 *   flags   = -funroll-loops ...   only these flags
 *   exclude = -fwrapv ...          never these (added to the built-in
 *                                  list of ABI-changing flags)
 *   add     = -fno-plt ...         flags the compiler does not list
 *   params  = max-unroll-times ... --param dimensions (gcc)
 *   [param NAME]
 *   values  = 2 4 8 16             the values to try (default: chosen in
 *                                  the range --help=params gives)
 */
#ifndef FLAGSCOPE_SEARCH_SPACE_H
#define FLAGSCOPE_SEARCH_SPACE_H

#include "base/util.h"

enum dim_kind {
	DIM_FLAG,   /* on/off; value 0 = -fno-X, 1 = -fX; the level sets a default */
	DIM_CHOICE, /* value 0 leaves it alone (""), others add vals[v] */
	DIM_LEVEL,  /* the -O level: vals[v] = "-O2" */
};

struct dim {
	char *name; /* "-funroll-loops", "--param=max-unroll-times", "-O" */
	enum dim_kind kind;
	unsigned nvals;
	char **vals; /* what value v adds ("" for nothing) */
	unsigned char *def; /* DIM_FLAG: the state at each level (space.levels) */
};

struct space {
	char *cc;
	int clang; /* the compiler is clang: flags are three-way choices */
	struct strlist levels; /* "-O2", ...; one entry when the level is fixed */
	unsigned base_level;   /* index in levels: the baseline's */
	int level_dim;         /* index of the DIM_LEVEL dimension, or -1 */
	struct dim *dims;
	size_t ndims;
	struct strlist dropped; /* "FLAG: why" for flags left out */
};

/* Read the on/off flags (and, if asked, the params) of compiler cc at
 * level (e.g. "-O2") from `cc -Q --help=optimizers`, apply the space file
 * (NULL: none) and the built-in exclusions.  rejected (may be NULL) names
 * flags known to be rejected or ignored by this compiler: they are
 * dropped.  0, or -1 with "file:line: what (what to do)" in err. */
int space_load(struct space *sp, const char *cc, const char *level, const char *space_file,
	       const struct strlist *rejected, struct strbuf *err);

/* Parse `gcc -Q --help=optimizers` text into DIM_FLAG dimensions for one
 * level (appends; defaults of level index li).  Exposed for tests. */
void space_parse_optimizers(struct space *sp, const char *text, unsigned li);

/* A space from explicit dimensions, for synthetic objectives: ndims
 * DIM_FLAG dimensions named "-f<prefix><i>" all defaulting to off. */
void space_synthetic(struct space *sp, size_t ndims, const char *prefix);

void space_release(struct space *sp);

/* Remove the dimension named word, or having word as one of its values,
 * noting why in sp->dropped.  1 when one was removed, 0 if none matched.
 * The level dimension is never removed. */
int space_drop(struct space *sp, const char *word, const char *why);

/* The start point: the baseline (every flag at the level's default). */
void space_start(const struct space *sp, unsigned char *pt);
/* Is dimension d of pt at the start point's state for pt's level? */
int space_is_default(const struct space *sp, const unsigned char *pt, size_t d);
/* The flags pt adds to the baseline, separated by single blanks; "" for
 * the start point.  Heap string. */
char *space_render(const struct space *sp, const unsigned char *pt);
/* The point whose rendering is flags; 0, or -1 when a word is not in the
 * space. */
int space_parse_point(const struct space *sp, const char *flags, unsigned char *pt);
/* log2 of the number of points. */
double space_log2_size(const struct space *sp);

/* The candidate's words that the compiler rejects or ignores when
 * compiling an empty C program with each of flags alone, each appended to
 * out as "FLAG: the compiler's message".  jobs compiles at a time.  Used
 * once per toolchain; callers remember the answer. */
void space_probe_flags(const char *cc, const struct strlist *flags, int jobs,
		       struct strlist *out);

#endif
