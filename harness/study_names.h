/*
 * study_names.h - the names a study or a recipe uses that only the
 * harness's registries know: meters (meter.h) and source kinds (fetch.h).
 * The model layer (flagsets/, workloads/) is below the harness and cannot
 * check them when it loads a file, so it keeps the line each name came
 * from; whoever is about to build or run calls these right after
 * study_load() / recipe_load().
 */
#ifndef FLAGSCOPE_STUDY_NAMES_H
#define FLAGSCOPE_STUDY_NAMES_H

#include "base/util.h"
#include "flagsets/study.h"
#include "workloads/recipe.h"

/* Every meter of `meters =` is registered, and it names one at least.  0, or -1 with one line per
 * unknown name, "study-file:line: unknown meter 'x' (known: ...)", appended
 * to err (a newline first when err is not empty). */
int study_check_names(const struct study *s, struct strbuf *err);
/* The same for any list of meter names, written at where:line (line 0:
 * "where: unknown meter ..."; e.g. where "--meters"). */
int meter_names_check(const struct strlist *names, const char *where, int line,
		      struct strbuf *err);

/* The recipe's `source =` (and source.NAME =) parses as one of the source
 * kinds and passes its kind's check (source_check(): debian: names a
 * source package; asks apt, some 50 ms a debian: spec).  0, or -1 with
 * "dir/recipe.ini:line: what is wrong (what to do)" appended to err. */
int recipe_check_names(const struct recipe *r, struct strbuf *err);
/* The same with the parse alone, for listings of many recipes. */
int recipe_check_kinds(const struct recipe *r, struct strbuf *err);

#endif
