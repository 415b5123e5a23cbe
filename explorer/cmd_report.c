/* cmd_report.c - flagscope report: the ranking stored in a database */
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
#include "analysis/report.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"

static struct {
	const char *db, *format, *study, *metric, *alpha, *min_effect, *pareto;
} opt;

static const struct option_spec report_options[] = {
	RESULTS_OPTIONS(&opt.db, &opt.study, &opt.alpha, &opt.min_effect),
	{"format", 'f', OPT_CHOICE, &opt.format, "FMT", "output format", report_format_names},
	{"metric", 'm', OPT_STRING, &opt.metric, "NAME",
	 "rank by this metric: time, user, sys, maxrss, size.text, perf/task-clock, a recipe's metric"},
	{"pareto", 'p', OPT_STRING, &opt.pareto, "X,Y",
	 "Pareto front of two metrics (default: METRIC,size.text and METRIC,maxrss; 'none': no front)"},
	{NULL},
};

static const struct command_spec report_cmd = {
	.name = "report",
	.usage = "[options]",
	.summary = "Print the ranking of a stored study: per configuration the geometric mean of\n"
		   "its ratios to the baseline with a bootstrap interval, and per workload the\n"
		   "sample summary (n, median, MAD, outliers), the ratio with its interval, the\n"
		   "Mann-Whitney p and a verdict.  Configurations not significantly different\n"
		   "share a rank; failed, wrong or noisy ones are shown and never ranked.",
	.details = "Formats: table (coloured where a difference is significant, when stdout is\n"
		   "a terminal and NO_COLOR is unset), csv (one row per workload; no Pareto\n"
		   "front), json, html (one self-contained file with SVG charts:\n"
		   "flagscope report --format html > report.html).",
	.opts = report_options,
};

static int add_paretos(struct store *st, struct ranking *rk)
{
	if (opt.pareto && !strcmp(opt.pareto, "none"))
		return 0;
	if (!opt.pareto) {
		const char *other[] = {"size.text", "maxrss"};
		for (size_t i = 0; i < ARRAY_SIZE(other); i++)
			if (strcmp(rk->metric, other[i]))
				ranking_add_pareto(st, rk, rk->metric, other[i]);
		return 0;
	}
	const char *comma = strchr(opt.pareto, ',');
	if (!comma || comma == opt.pareto || !comma[1] || strchr(comma + 1, ',')) {
		error_msg("report: --pareto takes two metrics X,Y, not '%s' (e.g. --pareto "
			  "time,size.text)", opt.pareto);
		return -1;
	}
	char *x = xstrndup(opt.pareto, (size_t)(comma - opt.pareto));
	if (ranking_add_pareto(st, rk, x, comma + 1))
		warn_msg("report: fewer than two ranked configurations have both %s and %s: no "
			 "Pareto front", x, comma + 1);
	free(x);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct store st;
	struct rank_options ro;
	memset(&opt, 0, sizeof(opt));
	opt.db = "flagscope.db";
	opt.format = "table";
	int rc = options_parse(&report_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (pos.n) {
		error_msg("report: unexpected argument '%s' (see flagscope report --help)", pos.v[0]);
		sl_release(&pos);
		return 2;
	}
	if (results_stat_options("report", opt.alpha, opt.min_effect, &ro))
		return 2;
	char *study;
	if (results_open(opt.db, opt.study, &st, &study))
		return 2;
	struct ranking rk;
	rc = 2;
	if (ranking_compute_opts(&st, study, opt.metric, &ro, &rk, &err)) {
		error_msg("%s", sb_str(&err));
	} else {
		const struct report_ops *ops = report_format(opt.format);
		if (!strcmp(opt.format, "csv") || !add_paretos(&st, &rk)) {
			report_print(stdout, &rk, ops);
			rc = 0;
		}
	}
	ranking_release(&rk);
	free(study);
	sb_release(&err);
	store_close(&st);
	return rc;
}
