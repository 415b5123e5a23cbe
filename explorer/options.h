/*
 * options.h - one option table per subcommand: it parses argv and it
 * prints --help, so the two never disagree.
 */
#ifndef FLAGSCOPE_OPTIONS_H
#define FLAGSCOPE_OPTIONS_H

#include <stdio.h>

#include "analysis/formats.h"
#include "base/util.h"

enum opt_type {
	OPT_FLAG,   /* int *: set to 1 */
	OPT_STRING, /* const char **: the argument */
	OPT_INT,    /* int *: a decimal argument */
	OPT_COUNT,  /* int *: a decimal argument of at least 1 (jobs, repetitions) */
	OPT_CHOICE, /* const char **: one of .choices */
	OPT_LIST,   /* struct strlist *: each use adds its argument (caller releases) */
	OPT_FORMAT, /* const char **: a format of .formats(), named as analysis/formats.h names it */
};

struct option_spec {
	const char *long_name; /* without "--" */
	char short_name;       /* 0 if none */
	enum opt_type type;
	void *value;
	const char *argname; /* shown in help: "PATH" */
	const char *help;
	const char *const *choices; /* NULL-terminated, OPT_CHOICE only */
	/* OPT_FORMAT only: the formats the command writes (a writer family's
	 * set, analysis/formats.h); --help lists them, anything else is
	 * refused as "COMMAND: unknown format 'X' (formats: ...)" */
	format_set (*formats)(struct strbuf *err);
	/* The value before the command line, written as its argument would
	 * be ("table", "25"), set by options_parse and checked at start-up
	 * (options_check).  NULL: the value keeps what the command gave it
	 * (a static one starts at 0 or NULL; one only code can work out, such
	 * as the number of CPUs, is set by the command before parsing).  Not
	 * for OPT_FLAG or OPT_LIST. */
	const char *def;
};

struct command_spec {
	const char *name;    /* "run" */
	const char *usage;   /* "[STUDY] [options]" */
	const char *summary; /* one line */
	const char *details; /* optional paragraph after the options */
	/* optional: more help after details, made at run time (lists that come
	 * from a registry, such as the meters) */
	void (*more_help)(FILE *out);
	const struct option_spec *opts; /* ends with an entry whose long_name is NULL */
};

/* Set every option that has a default (.def) to it, then parse argv[1..]
 * (argv[0] is the command name).  Positional arguments go
 * to *positional.  Returns 0 to go on, 1 when --help was printed (exit 0),
 * -1 after printing a usage error (exit 2); on 1 and -1 *positional is
 * released, so callers can return at once. */
int options_parse(const struct command_spec *cmd, int argc, char **argv,
		  struct strlist *positional);
void options_help(const struct command_spec *cmd, FILE *out);

/* The start-up check of one command's table: every OPT_FORMAT option has
 * a writer family, which lists at least one format, each once
 * (format_family); every default is a value its option takes, and the
 * one its help names ("(default 8)") when the help names one.  0, or -1 with a "COMMAND options: ..." line per
 * problem in err. */
int options_check(const struct command_spec *cmd, struct strbuf *err);

/* After options_parse: 1 when the command line gave option o. */
int options_given(const struct option_spec *o);

/* Set by flagscope --parse-only (explorer/main.c): called after a parse
 * that succeeded, with its positional arguments; what it returns is what
 * options_parse returns (1: stop here, exit 0; -1: refused, exit 2). */
extern int (*options_after_parse)(const struct command_spec *cmd,
				  const struct strlist *positional);

/* Each line of text (a library's err buffer) as "flagscope: LINE". */
void print_error_lines(const char *text);

#endif
