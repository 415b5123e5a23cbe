/*
 * cmd_recommend.c - flagscope recommend: the configuration to use, among
 * those valid on every workload, as a make.conf fragment with its
 * evidence (the rule is in analysis/recommend.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/recommend.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"

static struct {
	struct results_opts r;
	const char *metric, *format;
} opt;

static const struct option_spec recommend_options[] = {
	RESULTS_OPTIONS(&opt.r.db, &opt.r.study, &opt.r.alpha, &opt.r.min_effect),
	{"metric", 'm', OPT_STRING, &opt.metric, "WHAT",
	 "optimise for time (wall time), size (.text), rss (mem.res: peak resident memory at "
	 "exit), insns (instructions), or a metric selector such as libcbench/malloc_big1 "
	 "(default: the metric the study ranks by)"},
	{"format", 'f', OPT_CHOICE, &opt.format, "FMT", "output format",
	 recommend_format_names},
	{NULL},
};

static const struct command_spec recommend_cmd = {
	.name = "recommend",
	.usage = "[--db X] [--metric time|size|rss|insns|SELECTOR] [--format make.conf|shell|json]",
	.summary = "Recommend the best configuration of a stored study as a Gentoo-style\n"
		   "make.conf fragment (COMMON_FLAGS, CFLAGS, CXXFLAGS, LDFLAGS, CHOST for cross\n"
		   "targets) whose comments give the evidence.",
	.details = "Only configurations valid on every workload are eligible: builds ok with\n"
		   "their flags verified, right output, no failure, not noisy.  Among them the\n"
		   "best significant improvement over the baseline wins; when none improves\n"
		   "significantly, the baseline is recommended and the output says so.\n"
		   "\n"
		   "--metric takes what report --metric takes: METRIC, WORKLOAD, WORKLOAD/RUN,\n"
		   "WORKLOAD/METRIC or WORKLOAD/RUN/METRIC; rss falls back to maxrss (wait4,\n"
		   "which counts the forking parent too) when the study has no mem.res.",
	.opts = recommend_options,
};

int cmd_recommend(int argc, char **argv)
{
	struct strbuf err = {0};
	struct rank_options ro;
	struct store st;
	char *study;
	memset(&opt, 0, sizeof(opt));
	opt.format = "make.conf";
	int rc = results_command_start(&recommend_cmd, argc, argv, &opt.r, &ro, &st, &study);
	if (rc)
		return rc == 1 ? 0 : 2;
	struct recommendation rec;
	rc = 2;
	const char *metric = opt.metric && recommend_metric(opt.metric) ? recommend_metric(opt.metric)
								       : opt.metric;
	if (recommend_compute(&st, study, metric, &ro, &rec, &err)) {
		error_msg("%s", sb_str(&err));
	} else {
		recommend_print(stdout, &rec, opt.format);
		rc = 0;
	}
	recommend_release(&rec);
	free(study);
	sb_release(&err);
	store_close(&st);
	return rc;
}
