/*
 * published.h - published figures a workload's results are compared with:
 * the file published.ini in its recipe folder (workloads/libcbench/ holds
 * the Eta Labs libc-bench tables), read with the project's INI reader.
 *
 * The file: [source] or [source LABEL] with title, url, libcs (the
 * libraries it has figures for) and, to say where the figures come from,
 * hardware and versions (the libraries' and compiler's, as published); or
 * same_as = WORKLOAD (the figures of that workload's published.ini: the
 * sibling recipe folder's, else the one the search path finds; libc-bench's
 * upstream recipe shares libcbench's).  A file may hold several sources:
 * each [source LABEL] starts the next one (a LABEL each, a short word:
 * the column head), and the rows below a source are its own.
 * Then one section per published row, [KIND ID], KIND time or dirty:
 *   row  = its title as published
 *   runs = the run names it stands for; "*": every run no row names; empty:
 *          no run measures it
 *   link = static | dynamic, or absent: the link level it holds for
 *   LIBC = the figure for that library (a positive number; LIBC in libcs)
 *
 * How to give another workload published figures: write its published.ini
 * beside its recipe.ini; `report --pivot` finds it through the search path.
 */
#ifndef FLAGSCOPE_PUBLISHED_H
#define FLAGSCOPE_PUBLISHED_H

#include "base/util.h"

struct published_row {
	char *kind;  /* "time" or "dirty" */
	char *id;    /* the section's ID */
	char *title; /* row = */
	char *link;  /* "" for any */
	int line;    /* of its section's first key, for messages */
	struct strlist runs;
	double *values; /* per libcs entry; NAN where not given */
};

struct published {
	char *label;           /* [source LABEL]'s LABEL, or NULL for [source] */
	char *title, *url;
	char *hardware, *versions; /* where the figures were measured; NULL: not given */
	char *path; /* the file the rows came from */
	struct strlist libcs;
	struct published_row *rows;
	size_t n;
	struct published *next; /* the file's next source, or NULL (heap, owned) */
};

/* Read recipe_dir/published.ini (following same_as once).  Returns 0 with
 * pub filled (its first source; pub->next the others, in file order), 1
 * when the folder has no published.ini, or its same_as
 * names a workload that has none (pub empty), -1 with
 * "file:line: what is wrong (what to do)" in err.  Release with
 * published_release in every case. */
int published_load(const char *recipe_dir, struct published *pub, struct strbuf *err);
void published_release(struct published *pub);

/* The row of kind for run in a block of link level link (NULL: the block
 * has no link level): the first row naming run, else the first with runs
 * "*"; rows with a link hold only where it matches.  NULL when none. */
const struct published_row *published_find(const struct published *pub, const char *kind,
					   const char *run, const char *link);

/* Row r's figure for library libc, NAN when it has none. */
double published_value(const struct published *pub, const struct published_row *r,
		       const char *libc);

#endif
