/*
 * cmd_compare.c - flagscope compare: regression verdicts between two
 * databases of the same study (configurations paired by label), or
 * between two configurations of one database.  Exit 1 when something
 * regressed or is unsupported now, so CI can fail on it.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"

static struct {
	const char *db, *study, *alpha, *min_effect, *metrics, *baseline, *candidate, *format;
	const char *against, *output;
} opt;

static const struct option_spec compare_options[] = {
	RESULTS_OPTIONS(&opt.db, &opt.study, &opt.alpha, &opt.min_effect),
	{"baseline", 'b', OPT_STRING, &opt.baseline, "LEVELS",
	 "with --db: the old configuration, by its levels in any order (\"O2 gcc12\", or gcc12 "
	 "when one configuration has it)"},
	{"candidate", 'c', OPT_STRING, &opt.candidate, "LEVELS",
	 "with --db: the new configuration, likewise"},
	{"metric", 'm', OPT_STRING, &opt.metrics, "\"A B\"",
	 "metrics or selectors to compare, e.g. \"time size.text mem.res\" or "
	 "\"coremark/iterations_per_sec libcbench/malloc_big1\" (default: the study's)"},
	{"against", 'a', OPT_STRING, &opt.against, "NAME",
	 "test the study in --db (--study, else the latest) against the baseline NAME "
	 "(flagscope baseline save NAME); machine-state differences are listed first"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL, compare_formats,
	 .def = "table"},
	{"output", 'o', OPT_STRING, &opt.output, "FILE",
	 "write the verdicts to FILE instead of stdout (the exit status stays theirs; never "
	 "over a results database or a study file)"},
	{NULL},
};

const struct command_spec compare_cmd = {
	.name = "compare",
	.usage = "OLD.db NEW.db [options] | --db X --baseline LEVELS --candidate LEVELS |\n"
		 "       --against NAME [--db X] [--study S]",
	.summary = "Decide, per workload and metric, whether NEW is IMPROVED, REGRESSED or\n"
		   "UNCHANGED against OLD: the ratio of medians with its bootstrap interval, the\n"
		   "Mann-Whitney p and the sample counts.  Two databases of the same study (say\n"
		   "made with gcc-11 and gcc-12) are paired by configuration label.",
	.details = "A change counts only when p < alpha and the ratio is at least min-effect\n"
		   "from 1.  An item that worked and now fails is REGRESSED; one that worked\n"
		   "and now is unsupported (the new compiler has no such flag, or the\n"
		   "combination cannot exist there) is UNSUPPORTED (JSON: verdict\n"
		   "unsupported), counted apart: it is lost, not slower.  One that fails on\n"
		   "both sides, or has samples on one side only, is N/A (not comparable;\n"
		   "JSON: verdict n/a, comparable false), with the reason.  Exit status: 0\n"
		   "nothing regressed, 1 something regressed or is unsupported now, 2 bad\n"
		   "input.\n"
		   "Per configuration and metric a summary follows (JSON summaries): the\n"
		   "geometric mean with its interval, IMPROVED only when some workload is\n"
		   "better and none worse, MIXED when some are better and others worse: the\n"
		   "rule report's table uses (doc/statistics.md), so the same pair gets the\n"
		   "same verdict there.\n"
		   "\n"
		   "Each --metric word is what report --metric takes: METRIC, WORKLOAD,\n"
		   "WORKLOAD/RUN, WORKLOAD/METRIC or WORKLOAD/RUN/METRIC.  Items that have no\n"
		   "samples of the metric on either side are skipped and listed once.  One\n"
		   "run of a metric that is not deterministic (anything but insns* and\n"
		   "size.*) is shown but not tested.\n"
		   "\n"
		   "--baseline and --candidate name a configuration as a study's baseline =\n"
		   "does: its levels in any order; levels that several configurations have are\n"
		   "refused, naming them.\n"
		   "\n"
		   "--against NAME pairs the study with the baseline NAME saved from it\n"
		   "earlier (flagscope baseline --help) by label, as two databases are, and\n"
		   "lists first what changed in the machine state between the two (CPU,\n"
		   "cores, governor, boost, frequency range, kernel, VM, pin: \"governor:\n"
		   "performance -> powersave\"); two databases list them too.",
	.opts = compare_options,
};

/* 0 when the database holds baseline name, else -1 with why in err */
static int against_known(struct store *st, const char *name, struct strbuf *err)
{
	int found = store_baseline_exists(st, name);
	if (!found)
		sb_addf(err, "%s: no baseline '%s' (see flagscope baseline list; save one with "
			     "flagscope baseline save %s)", st->path, name, name);
	return found ? 0 : -1;
}

int cmd_compare(int argc, char **argv)
{
	struct strlist pos = {0}, metrics = {0};
	struct strbuf err = {0};
	struct rank_options ro;
	struct compare_result res = {0};
	int rc = options_parse(&compare_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	int by_label = opt.baseline || opt.candidate;
	if (opt.against ? (pos.n || by_label)
	    : by_label ? (pos.n || !opt.baseline || !opt.candidate) : pos.n != 2) {
		error_msg("compare: give OLD.db NEW.db, --baseline and --candidate labels, or --against NAME "
			  "(see flagscope compare --help)");
		sl_release(&pos);
		return 2;
	}
	if (results_stat_options("compare", opt.alpha, opt.min_effect, &ro)) {
		sl_release(&pos);
		return 2;
	}
	if (opt.metrics)
		sl_split_ws(&metrics, opt.metrics);
	struct store a, b;
	char *study = NULL, *other = NULL;
	rc = 2;
	if (opt.against) {
		if (!results_open(opt.db ? opt.db : "flagscope.db", opt.study, &a, &study)) {
			other = xasprintf(STORE_BASELINE_PREFIX "%s", opt.against);
			if (!against_known(&a, opt.against, &err) &&
			    !compare_studies(&a, other, &a, study, &metrics, &ro, &res, &err))
				rc = 0;
			store_close(&a);
		}
	} else if (by_label) {
		if (!results_open(opt.db ? opt.db : "flagscope.db", opt.study, &a, &study)) {
			if (!compare_labels(&a, study, opt.baseline, opt.candidate, &metrics, &ro, &res,
					    &err))
				rc = 0;
			store_close(&a);
		}
	} else if (!results_open(pos.v[0], opt.study, &a, &other)) {
		/* the study is the new database's latest unless named */
		if (!results_open(pos.v[1], opt.study, &b, &study)) {
			if (!compare_databases(&a, &b, study, &metrics, &ro, &res, &err))
				rc = 0;
			store_close(&b);
		}
		store_close(&a);
	}
	FILE *out = rc ? NULL : results_output_open(opt.output);
	if (out) {
		compare_print(out, &res, opt.format);
		int lost = res.regressed || res.unsupported;
		rc = results_output_close(out, opt.output) ? 2 : lost ? 1 : 0;
	} else {
		rc = 2;
		if (err.len)
			error_msg("%s", sb_str(&err));
	}
	compare_result_release(&res);
	free(study);
	free(other);
	sl_release(&pos);
	sl_release(&metrics);
	sb_release(&err);
	return rc;
}
