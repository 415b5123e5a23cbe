/*
 * cmd_baseline.c - flagscope baseline save|list|delete: named copies of a
 * stored study, kept in the same database (analysis/store.h), for
 * `compare --against NAME` to test a later run against.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"

static format_set list_formats(struct strbuf *err); /* writers[], below */

static struct {
	const char *db, *study, *format;
	int keep;
} opt;

static const struct option_spec baseline_options[] = {
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database (default ./flagscope.db)",
	 .def = "flagscope.db"},
	{"study", 's', OPT_STRING, &opt.study, "NAME", "save: which study (default: the latest stored)"},
	{"keep", 0, OPT_FLAG, &opt.keep, NULL,
	 "save: leave the study's runs in place (the next run of it then measures nothing new)"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "list: output format", NULL, list_formats,
	 .def = "table"},
	{NULL},
};

const struct command_spec baseline_cmd = {
	.name = "baseline",
	.usage = "save NAME | list | delete NAME [options]",
	.summary = "Keep a study's results as a named baseline, to test a later run of it\n"
		   "against: flagscope compare --against NAME.  A baseline is a copy of every\n"
		   "row of the study (configurations, builds, runs, samples, facts and the\n"
		   "machine state) in the same database, stored as the study baseline:NAME\n"
		   "(report --study baseline:NAME shows it).",
	.details = "save NAME copies the study (replacing a baseline of that name), then\n"
		   "clears the study's runs and samples so that the next `flagscope run`\n"
		   "measures afresh (builds stay cached); --keep leaves them.  list shows\n"
		   "each baseline with its study, when it was saved and its runs; delete\n"
		   "removes one.  A NAME is letters, digits, '.', '_', '-' and '+' (no\n"
		   "space or '/', not opening with '-' or '.'), so it reads back as one word.\n"
		   "Exit status: 0 done, 1 no such baseline or nothing to save, 2 bad usage,\n"
		   "a name that cannot read back, or a database that cannot be read or\n"
		   "written.",
	.opts = baseline_options,
};

/* 1 after saying so when study is itself a saved baseline, else 0 */
static int is_baseline(struct store *st, const char *study)
{
	if (!str_starts_with(study, STORE_BASELINE_PREFIX))
		return 0;
	const char *name = study + strlen(STORE_BASELINE_PREFIX);
	size_t n;
	struct store_baseline *b = store_baselines(st, &n);
	const char *source = NULL;
	for (size_t i = 0; i < n && !source; i++)
		if (!strcmp(b[i].name, name))
			source = b[i].study;
	error_msg("%s: %s is the baseline %s of study %s (save %s itself, or keep this one: "
		  "flagscope baseline list)", st->path, study, name, source ? source : "?",
		  source ? source : "that study");
	store_baselines_free(b, n);
	return 1;
}

/* 1 when name reads back as one word wherever a baseline is named
 * (report --study baseline:NAME, compare --against NAME, the columns of
 * baseline list): letters, digits, '.', '_', '-', '+', not opening with
 * '-' (an option) or '.' */
static int name_reads_back(const char *name)
{
	if (!*name || *name == '-' || *name == '.')
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-+", *p))
			return 0;
	return 1;
}

static int baseline_save(struct store *st, const char *name)
{
	if (!name_reads_back(name)) {
		error_msg("baseline save: '%s' is no baseline name (use letters, digits, '.', '_', "
			  "'-' and '+', no space or '/': it must read back as baseline:NAME)", name);
		return 2;
	}
	char *study = opt.study ? xstrdup(opt.study) : store_latest_study(st);
	if (!study) {
		error_msg("%s: no study to save (run one first, or name it with --study)", st->path);
		return 1;
	}
	if (is_baseline(st, study)) {
		free(study);
		return 1;
	}
	int replaced;
	int rc = store_baseline_save(st, name, study, !opt.keep, &replaced);
	if (rc < 0)
		error_msg("%s: cannot save baseline '%s': %s (make the database writable, or free space)",
			  st->path, name, store_errmsg(st));
	else if (rc > 0)
		error_msg("%s: study '%s' has no runs to save (run it first, or name another with --study)",
			  st->path, study);
	else
		printf("%s baseline %s: study %s%s\n", replaced ? "replaced" : "saved", name, study,
		       opt.keep ? "" : " (its runs were cleared: the next run measures afresh)");
	free(study);
	return rc < 0 ? 2 : rc;
}

static void print_json(const struct store_baseline *b, size_t n)
{
	struct strbuf sb = {0};
	json_open(&sb, NULL, '[');
	for (size_t i = 0; i < n; i++) {
		json_open(&sb, NULL, '{');
		json_put_str(&sb, "name", b[i].name);
		json_put_str(&sb, "study", b[i].study);
		json_put_str(&sb, "saved", b[i].saved);
		json_put_fmt(&sb, "runs", "%d", b[i].runs);
		json_close(&sb, '}');
	}
	json_close(&sb, ']');
	printf("%s\n", sb_str(&sb));
	sb_release(&sb);
}

static void print_table(const struct store_baseline *b, size_t n)
{
	if (!n)
		printf("no baselines (save one with flagscope baseline save NAME)\n");
	for (size_t i = 0; i < n; i++)
		printf("%-20s study %-20s saved %s UTC, %d runs\n", b[i].name, b[i].study, b[i].saved,
		       b[i].runs);
}

static const struct baseline_writer {
	enum format format;
	void (*print)(const struct store_baseline *b, size_t n);
} writers[] = {
	{FORMAT_TABLE, print_table},
	{FORMAT_JSON, print_json},
};

static format_set list_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("baseline list formats", writers, err);
}

static void baseline_print(const struct store_baseline *b, size_t n)
{
	const struct baseline_writer *w = FORMAT_WRITER(writers, opt.format);
	if (w) /* the option parser took only writers' formats */
		w->print(b, n);
}

int cmd_baseline(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct store st;
	int rc = options_parse(&baseline_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	const char *verb = pos.n ? pos.v[0] : "";
	int named = !strcmp(verb, "save") || !strcmp(verb, "delete");
	if (!(named ? pos.n == 2 && *pos.v[1] : !strcmp(verb, "list") && pos.n == 1)) {
		error_msg("baseline: give save NAME, list or delete NAME (see flagscope baseline --help)");
		sl_release(&pos);
		return 2;
	}
	/* save and delete write: not while a run or search holds the
	 * database (they would wait on its transactions, then fail busy) */
	if (store_open(&st, opt.db, 0, &err) || (named && store_lock(&st, &err))) {
		error_msg("%s", sb_str(&err));
		sb_release(&err);
		store_close(&st);
		sl_release(&pos);
		return 2;
	}
	if (!strcmp(verb, "save")) {
		rc = baseline_save(&st, pos.v[1]);
	} else if (!strcmp(verb, "delete")) {
		rc = store_baseline_delete(&st, pos.v[1]);
		if (rc > 0)
			error_msg("%s: no baseline '%s' (see flagscope baseline list)", opt.db, pos.v[1]);
		else if (rc < 0)
			error_msg("%s: cannot delete baseline '%s': %s", opt.db, pos.v[1],
				  store_errmsg(&st));
		else
			printf("deleted baseline %s\n", pos.v[1]);
		rc = rc < 0 ? 2 : rc;
	} else {
		size_t n;
		struct store_baseline *b = store_baselines(&st, &n);
		baseline_print(b, n);
		store_baselines_free(b, n);
	}
	store_close(&st);
	sl_release(&pos);
	return rc;
}
