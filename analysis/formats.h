/*
 * formats.h - the one registry of output formats (STYLE.md §1, §6): every
 * name a --format option takes is a row of FORMATS below, and nowhere
 * else.  Writers are ops tables keyed by enum format (report_ops,
 * pivot_ops, compare's, recommend's, the distro table's, the sample
 * list's; verify's, why's, baseline's, search's, list's and calibrate's
 * in explorer/), found by FORMAT_WRITER(); a command offers a format_set,
 * the formats its
 * writers write (each writer family says which: report_formats(),
 * pivot_formats(), ...), so --help, the option parser and the refusal
 * of an unknown format all read the same table.
 *
 * How to add a format: add one X(...) row here; give the writer family
 * that writes it an ops entry with .format = FORMAT_<NAME>; the commands
 * whose option takes that family's set offer it at once (their --help
 * too).  formats_check() (run at start-up) finds a row without a name, a
 * name listed twice and a family of analysis/ that lists one format
 * twice; explorer's options_check() asks each command's --format option
 * for its family, so explorer's writers are checked the same way.
 */
#ifndef FLAGSCOPE_FORMATS_H
#define FLAGSCOPE_FORMATS_H

#include "base/util.h"

/* X(ENUM, name, what it is) */
#define FORMATS(X)                                                                 \
	X(TABLE, "table", "aligned columns for a terminal")                        \
	X(TEXT, "text", "plain lines")                                             \
	X(CSV, "csv", "comma-separated values, one header line")                   \
	X(JSON, "json", "one JSON document")                                       \
	X(HTML, "html", "one self-contained HTML page with SVG charts")            \
	X(LNT, "lnt", "LNT's JSON report format 2, one submission per line")       \
	X(MAKE_CONF, "make.conf", "a Gentoo make.conf fragment")                   \
	X(SHELL, "shell", "CFLAGS=... lines a shell can source")                   \
	X(PACKAGE_ENV, "package.env", "Gentoo's per-package environment files")    \
	X(DPKG_BUILDFLAGS, "dpkg-buildflags", "Debian's per-package buildflags files")   \
	X(MARKDOWN, "markdown", "a Markdown table, as doc/ pages hold them")

enum format {
#define FORMAT_ENUM(e, name, what) FORMAT_##e,
	FORMATS(FORMAT_ENUM)
#undef FORMAT_ENUM
	FORMAT_COUNT
};

/* A set of formats, one bit each: FORMAT_BIT(FORMAT_CSV) | ... */
typedef unsigned format_set;
#define FORMAT_BIT(f) (1u << (f))

/* "csv"; NULL when f is not a format */
const char *format_name(enum format f);
/* FORMAT_COUNT when name (or NULL) is no format's name */
enum format format_parse(const char *name);
/* 1 when name is the name of format f */
int format_is(const char *name, enum format f);
/* The names of set in the table's order, separated by sep ("a, b, c"). */
void format_set_names(format_set set, const char *sep, struct strbuf *out);

/* The one refusal of a format a command (or one of its outputs) does not
 * write: 0 when name is in set, else -1 after printing
 * "flagscope: WHO: unknown format 'NAME' (formats: a, b, c)". */
int format_offered(const char *who, const char *name, format_set set);

/* A writer family's formats: the n formats at first, first + stride bytes,
 * ... (the .format of each entry of an ops table).  Returns their set;
 * with err (the start-up check) adds a "WHAT: NAME: PROBLEM" line
 * (base/registry.h) per format listed twice or not a format. */
format_set format_family(const char *what, const enum format *first, size_t n, size_t stride,
			 struct strbuf *err);
/* The set of an array of writers whose entries have a .format */
#define FORMAT_WRITERS(what, table, err) \
	format_family(what, &(table)[0].format, ARRAY_SIZE(table), sizeof((table)[0]), err)

/* The writer of an ops table whose .format is name's format: a pointer
 * to the entry (table + i * stride), or NULL when no entry writes it (or
 * name is no format).  formats points at the first entry's .format. */
const void *format_writer(const char *name, const void *table, const enum format *formats,
			  size_t n, size_t stride);
/* format_writer over an array of writers, typed as the array's entries:
 *   const struct x_writer *w = FORMAT_WRITER(writers, "csv"); */
#define FORMAT_WRITER(table, name)                                                       \
	((const __typeof__((table)[0]) *)format_writer(name, (table), &(table)[0].format, \
						       ARRAY_SIZE(table), sizeof((table)[0])))

/* The start-up check (explorer/main.c): the table and every writer family
 * of analysis/ (report, pivot, distro table, compare, recommend, sample
 * list).  0, or -1 with one line per problem in err. */
int formats_check(struct strbuf *err);

#endif
