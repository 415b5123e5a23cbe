/*
 * ini.h - study and recipe files are read with Debian's inih; this wrapper
 * adds what inih's handler does not give: the line number of every item,
 * whether a line continues the previous value, and a clear error for lines
 * inih would truncate.
 */
#ifndef FLAGSCOPE_INI_H
#define FLAGSCOPE_INI_H

#include "base/util.h"

/* One item.  continued is 1 when the line was an indented continuation of
 * the previous key (inih's multi-line values); section is "" before the
 * first [section].  Return 0 to go on; non-zero stops with that error
 * (the callback has already put a message in err). */
typedef int (*ini_item_fn)(void *user, const char *section, const char *name,
			   const char *value, int line, int continued, struct strbuf *err);

/* Read path.  Returns 0; -1 with "path:line: what is wrong (what to do)"
 * in err on a syntax error, an unreadable file, an over-long line or a
 * callback error. */
int ini_load(const char *path, ini_item_fn fn, void *user, struct strbuf *err);

/* A "[name]" header line (inih reports sections only through their keys,
 * so an empty section would go unseen). */
typedef void (*ini_section_fn)(void *user, const char *section, int line);

/* ini_load, and section_fn (may be NULL) for every section header. */
int ini_load_sections(const char *path, ini_item_fn fn, ini_section_fn section_fn, void *user,
		      struct strbuf *err);

#endif
