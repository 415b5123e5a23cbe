/* cmd_list.c - flagscope list toolchains|workloads|presets */
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "flagsets/study.h"
#include "harness/meter.h"
#include "harness/study_names.h"
#include "harness/toolchain.h"
#include "pipeline/parts.h"
#include "workloads/recipe.h"
#include "workloads/searchpath.h"

static format_set list_formats(struct strbuf *err); /* writers[], below */

static struct {
	const char *format;
} opt;

static const struct option_spec list_options[] = {
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL, list_formats,
	 .def = "text"},
	{NULL},
};

const struct command_spec list_cmd = {
	.name = "list",
	.usage = "toolchains|workloads [STUDY]|presets|metrics [--format FMT]",
	.summary = "List the C compilers on PATH (with version, target and identity), the\n"
		   "workloads (name, where each was found, description), or the preset\n"
		   "studies.  Workloads are found on the search path, first match wins: the\n"
		   "workloads/ folder beside STUDY (default: the current folder's), each\n"
		   "$FLAGSCOPE_PATH folder's workloads/, $XDG_DATA_HOME/flagscope/workloads,\n"
		   "then the bundled or installed ones; presets likewise in presets/.  Or the\n"
		   "metrics the meters give (for flagscope run --metric and a study's\n"
		   "metric =), each said usable here or not: perf/cycles on a machine\n"
		   "without hardware counters is not.",
	.opts = list_options,
};

/* One metric of the metrics listing. */
struct metric_row {
	const char *name, *meter, *set;
	int here;
	const char *why; /* "" when here */
};

/* One entry of the workloads or presets listing: what the walk and
 * describe_*() found of it. */
struct listed {
	const struct searchpath *sp;
	const struct sp_entry *e;
	int width;                 /* of the name column */
	int loaded;                /* its recipe or study loads */
	const char *description;   /* may be NULL */
	const char *error;         /* a workload's recipe that does not load: why */
	const struct recipe *recipe; /* a workload that loads: source, slow, runs */
};

/* One output format of every listing (STYLE.md §6): the walks are
 * shared, these write (each row after the listing's open, in one
 * strbuf: the JSON writer places its commas from what came before). */
struct list_writer {
	enum format format;
	const char *open, *close; /* around a toolchains, workloads or presets listing */
	const char *metrics_open, *metrics_close;
	void (*toolchain)(struct strbuf *sb, const struct toolchain *t);
	void (*metric)(struct strbuf *sb, const struct metric_row *m);
	void (*entry)(struct strbuf *sb, const struct listed *l);
};

static void toolchain_text(struct strbuf *sb, const struct toolchain *t)
{
	sb_addf(sb, "%-32s %-22s %s  [%s]  %s\n", t->command, t->target, t->id, t->path,
		t->version);
}

static void toolchain_json(struct strbuf *sb, const struct toolchain *t)
{
	json_open(sb, NULL, '{');
	json_put_str(sb, "command", t->command);
	json_put_str(sb, "path", t->path);
	json_put_str(sb, "kind", t->kind == TC_GCC ? "gcc" : "clang");
	json_put_str(sb, "version", t->version);
	json_put_str(sb, "target", t->target);
	json_put_str(sb, "id", t->id);
	json_close(sb, '}');
}

static void metric_text(struct strbuf *sb, const struct metric_row *m)
{
	sb_addf(sb, "%-22s %-10s %-8s %s%s\n", m->name, m->meter, m->set, m->here ? "yes" : "no: ",
		m->why);
}

static void metric_json(struct strbuf *sb, const struct metric_row *m)
{
	json_open(sb, NULL, '{');
	json_put_str(sb, "name", m->name);
	json_put_str(sb, "meter", m->meter);
	json_put_str(sb, "set", m->set);
	json_put_bool(sb, "here", m->here);
	json_put_str(sb, "why", m->why);
	json_close(sb, '}');
}

/* Where an entry came from, for the text listing: the level's name, and
 * the folder too when it is the user's (study, FLAGSCOPE_PATH, user). */
static void origin_text(struct strbuf *sb, const struct searchpath *sp, const struct sp_entry *e)
{
	const struct sp_level *lv = &sp->levels[e->level];
	if (lv->origin == SP_BUNDLED || lv->origin == SP_INSTALLED)
		sb_addf(sb, "%-10s", sp_origin_name(lv->origin));
	else
		sb_addf(sb, "%s %s", sp_origin_name(lv->origin), lv->dir);
}

static void entry_text(struct strbuf *sb, const struct listed *l)
{
	sb_addf(sb, "%-*s ", l->width, l->e->name);
	origin_text(sb, l->sp, l->e);
	sb_add(sb, "  ");
	if (l->loaded)
		sb_add(sb, l->description ? l->description : "");
	else
		sb_add(sb, l->error ? l->error : "(does not load: see flagscope run --dry-run)");
	if (l->e->shadows.n)
		sb_addf(sb, " (shadows %s)", l->e->shadows.v[0]);
	sb_addc(sb, '\n');
}

static void origin_json(struct strbuf *sb, const struct searchpath *sp, const struct sp_entry *e)
{
	json_put_str(sb, "origin", sp_origin_name(sp->levels[e->level].origin));
	json_put_str(sb, "folder", sp->levels[e->level].dir);
	json_put_str(sb, "path", e->path);
	json_open(sb, "shadows", '[');
	for (size_t k = 0; k < e->shadows.n; k++)
		json_put_str(sb, NULL, e->shadows.v[k]);
	json_close(sb, ']');
}

/* a workload that loads: its description, source, slowness and runs; one
 * that does not: why; a preset: its description */
static void entry_json(struct strbuf *sb, const struct listed *l)
{
	json_open(sb, NULL, '{');
	json_put_str(sb, "name", l->e->name);
	origin_json(sb, l->sp, l->e);
	if (l->error)
		json_put_str(sb, "error", l->error);
	else
		json_put_str(sb, "description", l->loaded && l->description ? l->description : "");
	if (l->recipe) {
		json_put_str(sb, "source", l->recipe->source);
		json_put_bool(sb, "slow", l->recipe->slow);
		json_open(sb, "runs", '[');
		for (size_t k = 0; k < l->recipe->nruns; k++)
			json_put_str(sb, NULL, l->recipe->runs[k].name);
		json_close(sb, ']');
	}
	json_close(sb, '}');
}

static const struct list_writer writers[] = {
	{.format = FORMAT_TEXT, .open = "", .close = "",
	 .metrics_open = "METRIC                 METER      SET      HERE\n",
	 .metrics_close = "Also every build's section sizes (size.text, ...) and each recipe's own\n"
			  "metric.NAME (see its recipe.ini).\n",
	 .toolchain = toolchain_text, .metric = metric_text, .entry = entry_text},
	{.format = FORMAT_JSON, .open = "[", .close = "]\n", .metrics_open = "[",
	 .metrics_close = "]\n", .toolchain = toolchain_json, .metric = metric_json,
	 .entry = entry_json},
};

static format_set list_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("list formats", writers, err);
}

static int list_toolchains(const struct list_writer *w)
{
	struct toolchain *tcs;
	size_t n;
	toolchains_discover(&tcs, &n);
	struct strbuf sb = {0};
	sb_add(&sb, w->open);
	for (size_t i = 0; i < n; i++)
		w->toolchain(&sb, &tcs[i]);
	sb_add(&sb, w->close);
	fputs(sb_str(&sb), stdout);
	sb_release(&sb);
	toolchains_free(tcs, n);
	return 0;
}

/* 1 when metric (perf/cycles) of m can be measured where st was probed:
 * perf's hardware events need counters (st->events lists the ones that
 * count here) */
static int metric_here(const struct meter_ops *m, const struct meter_state *st,
		       const char *metric)
{
	size_t n = strlen(m->name);
	if (!st->events[0] || strncmp(metric, m->name, n) || metric[n] != '/')
		return 1;
	struct strlist ev = {0};
	char *events = xstrdup(st->events);
	for (char *c = events; *c; c++)
		*c = *c == ',' ? ' ' : *c;
	sl_split_ws(&ev, events);
	int here = sl_find(&ev, metric + n + 1) >= 0;
	sl_release(&ev);
	free(events);
	return here;
}

/* Every meter's metrics, whether the meter is in the default set, and
 * whether it measures here (its probe) */
static int list_metrics(const struct list_writer *w)
{
	struct strbuf sb = {0};
	sb_add(&sb, w->metrics_open);
	for (size_t i = 0; meter_at(i); i++) {
		const struct meter_ops *m = meter_at(i);
		struct meter_state st = {0};
		struct strbuf fact = {0};
		struct strlist names = {0};
		int usable = m->probe(&st, &fact);
		const char *set = m->own ? "emulated" : m->by_default ? "default" : "--meters";
		meter_push_metrics(m, &names);
		for (size_t j = 0; j < names.n; j++) {
			int counts = metric_here(m, &st, names.v[j]);
			struct metric_row row = {names.v[j], m->name, set, usable && counts, ""};
			/* a meter that is not usable: its probe's fact says why */
			if (!row.here)
				row.why = !usable ? sb_str(&fact)
					: "this machine does not count it (perf stat says <not supported>: "
					  "no hardware counters here)";
			w->metric(&sb, &row);
		}
		sl_release(&names);
		sb_release(&fact);
	}
	sb_add(&sb, w->metrics_close);
	fputs(sb_str(&sb), stdout);
	sb_release(&sb);
	return 0;
}

/* A workload's entry: its recipe loaded (or why not), then written. */
static void describe_workload(struct listed *l, const char *study_file,
			      const struct list_writer *w, struct strbuf *sb)
{
	struct recipe r;
	struct strbuf err = {0};
	l->loaded = !recipe_load(l->e->name, study_file, &r, &err) && !recipe_check_kinds(&r, &err);
	l->description = l->loaded ? r.description : NULL;
	l->error = l->loaded ? NULL : sb_str(&err);
	l->recipe = l->loaded ? &r : NULL;
	w->entry(sb, l);
	recipe_release(&r); /* it keeps what it read before an error */
	sb_release(&err);
}

static void describe_preset(struct listed *l, const char *study_file,
			    const struct list_writer *w, struct strbuf *sb)
{
	struct study s;
	struct strbuf err = {0};
	(void)study_file;
	l->loaded = !pipeline_study_load(l->e->path, &s, &err);
	l->description = l->loaded ? s.description : NULL;
	w->entry(sb, l);
	study_release(&s);
	sb_release(&err);
}

/* Every entry of one kind on the search path, first match wins: its name,
 * where it came from, and what describe() found of it. */
static int list_entries(enum sp_kind kind, const char *study_file, int width,
			void (*describe)(struct listed *l, const char *study_file,
					 const struct list_writer *w, struct strbuf *sb),
			const struct list_writer *w)
{
	struct searchpath sp;
	struct sp_entry *e;
	size_t n;
	searchpath_init(&sp, kind, study_file);
	searchpath_list(&sp, &e, &n);
	/* the name column fits the longest name (musl-vs-glibc-upstream) */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(e[i].name) > width)
			width = (int)strlen(e[i].name);
	/* each entry printed as soon as it is described (a recipe loads
	 * slowly), from one strbuf the writer reads its commas from */
	struct strbuf sb = {0};
	size_t printed = 0;
	sb_add(&sb, w->open);
	for (size_t i = 0; i < n; i++) {
		struct listed l = {.sp = &sp, .e = &e[i], .width = width};
		describe(&l, study_file, w, &sb);
		fputs(sb_str(&sb) + printed, stdout);
		printed = sb.len;
	}
	sb_add(&sb, w->close);
	fputs(sb_str(&sb) + printed, stdout);
	sb_release(&sb);
	sp_entries_free(e, n);
	searchpath_release(&sp);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct strlist pos = {0};
	int rc = options_parse(&list_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	const struct list_writer *w = FORMAT_WRITER(writers, opt.format);
	rc = 2;
	if (pos.n < 1 || pos.n > (pos.n && !strcmp(pos.v[0], "workloads") ? 2u : 1u))
		error_msg("list: say what to list: toolchains, workloads [STUDY], presets or metrics (see flagscope list --help)");
	else if (!strcmp(pos.v[0], "toolchains"))
		rc = list_toolchains(w);
	else if (!strcmp(pos.v[0], "workloads"))
		rc = list_entries(SP_WORKLOADS, pos.n > 1 ? pos.v[1] : ".", 14, describe_workload, w);
	else if (!strcmp(pos.v[0], "presets"))
		rc = list_entries(SP_PRESETS, NULL, 20, describe_preset, w);
	else if (!strcmp(pos.v[0], "metrics"))
		rc = list_metrics(w);
	else
		error_msg("list: cannot list '%s' (toolchains, workloads, presets or metrics)", pos.v[0]);
	sl_release(&pos);
	return rc;
}
