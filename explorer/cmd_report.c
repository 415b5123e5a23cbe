/* cmd_report.c - flagscope report: the ranking stored in a database */
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
#include "analysis/report.h"
#include "explorer/commands.h"
#include "explorer/options.h"

static const char *const format_choices[] = {"table", "csv", "json", NULL};

static struct {
	const char *db, *format, *study, *metric;
} opt;

static const struct option_spec report_options[] = {
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database (default ./flagscope.db)"},
	{"format", 'f', OPT_CHOICE, &opt.format, "FMT", "output format", format_choices},
	{"study", 's', OPT_STRING, &opt.study, "NAME", "which study (default: the latest stored)"},
	{"metric", 'm', OPT_STRING, &opt.metric, "NAME",
	 "rank by this metric: time, user, sys, maxrss, size.text, perf/task-clock, a recipe's metric"},
	{NULL},
};

static const struct command_spec report_cmd = {
	.name = "report",
	.usage = "[options]",
	.summary = "Print the ranking of a stored study: per configuration the geometric mean of\n"
		   "its ratios to the baseline with a 95% bootstrap interval, and per workload the\n"
		   "median, the ratio and the status.  Configurations whose intervals overlap\n"
		   "share a rank; failed or wrong ones are shown and never ranked.",
	.opts = report_options,
};

int cmd_report(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct store st;
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
	if (!file_exists(opt.db)) {
		error_msg("%s: no results database (run a study first, or pass --db PATH)", opt.db);
		return 2;
	}
	if (store_open(&st, opt.db, 0, &err)) {
		error_msg("%s", sb_str(&err));
		sb_release(&err);
		return 2;
	}
	char *study = opt.study ? xstrdup(opt.study) : store_latest_study(&st);
	struct ranking rk;
	rc = 2;
	if (!study) {
		error_msg("%s: holds no study (run one first)", opt.db);
	} else if (ranking_compute(&st, study, opt.metric, &rk, &err)) {
		error_msg("%s", sb_str(&err));
	} else {
		report_print(stdout, &rk, report_format(opt.format));
		ranking_release(&rk);
		rc = 0;
	}
	free(study);
	sb_release(&err);
	store_close(&st);
	return rc;
}
