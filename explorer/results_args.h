/*
 * results_args.h - what the commands that read a results database share
 * (report, compare, recommend, why): opening it, picking the study, and
 * the significance options.  Each prints its own error in the house form
 * and returns non-zero; the caller exits 2.
 */
#ifndef FLAGSCOPE_RESULTS_ARGS_H
#define FLAGSCOPE_RESULTS_ARGS_H

#include <stdio.h>

#include "analysis/rank.h"
#include "analysis/store.h"
#include "explorer/options.h"

/* Open an existing database at path and pick the study: `study` if not
 * NULL, else the latest stored.  0 with st open and *name (heap) set. */
int results_open(const char *path, const char *study, struct store *st, char **name);

/* Fill o from the defaults and the --alpha / --min-effect arguments (NULL:
 * keep the default).  alpha must lie in (0, 0.5], min_effect in [0, 1);
 * min_effect may be written as a percentage ("2%"), or "auto" (the
 * default, rank.h's min_effect_auto: this machine's calibrated floor per
 * item for a noisy metric where one is stored, else 1%). */
int results_stat_options(const char *cmd, const char *alpha, const char *min_effect,
			 struct rank_options *o);

/* Where a command's output goes: stdout when path is NULL, else path,
 * opened (truncated) only once there is something to write, so a failed
 * command leaves no empty file behind; never an SQLite database (a slip
 * of -o for --db) nor a study file (named *.study, or an existing file
 * with a [study] section).  NULL after saying why. */
FILE *results_output_open(const char *path);
/* 1 after saying why when results_output_open would refuse path, else 0:
 * for a command that works long before it writes (search). */
int results_output_refused(const char *path);
/* Close what results_output_open gave (stdout is left open): 0, or -1
 * after saying the file could not be written. */
int results_output_close(FILE *f, const char *path);

/* The options every such command has (RESULTS_OPTIONS fills them). */
struct results_opts {
	const char *db; /* NULL: ./flagscope.db */
	const char *study, *alpha, *min_effect;
};

/* The start of a command that reads one study and takes no positional
 * argument (report, recommend): parse argv with cmd's table (whose
 * RESULTS_OPTIONS lines fill *r), refuse a positional argument, then
 * results_stat_options and results_open as *r says.  0: go on, with *ro
 * set, st open and *study (heap); else the exit status is 0 (--help was
 * printed) for 1 and 2 (an error was printed) for 2. */
int results_command_start(const struct command_spec *cmd, int argc, char **argv,
			  const struct results_opts *r, struct rank_options *ro, struct store *st,
			  char **study);

/* The option table lines every such command has, to paste into its own:
 * --db, --study, --alpha, --min-effect. */
#define RESULTS_OPTIONS(db, study, alpha, min_effect)                                      \
	{"db", 0, OPT_STRING, (db), "PATH", "results database (default ./flagscope.db)"},   \
	{"study", 's', OPT_STRING, (study), "NAME", "which study (default: the latest stored)"}, \
	{"alpha", 0, OPT_STRING, (alpha), "P",                                              \
	 "significance level of the Mann-Whitney test (default 0.05)"},                     \
	{"min-effect", 0, OPT_STRING, (min_effect), "X",                                    \
	 "smallest difference that counts: 0.01, 1% or auto (default auto: for time metrics "   \
	 "the floor flagscope calibrate stored for this machine and workload, else 1%)"}

#endif
