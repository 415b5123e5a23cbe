/* cmd_list.c - flagscope list toolchains|workloads|presets */
#include <stdlib.h>
#include <string.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "flagsets/study.h"
#include "harness/meter.h"
#include "harness/study_names.h"
#include "harness/toolchain.h"
#include "pipeline/parts.h"
#include "workloads/recipe.h"
#include "workloads/searchpath.h"

/* each list writes text or json (its functions take a json flag) */
static format_set list_formats(struct strbuf *err)
{
	static const enum format writes[] = {FORMAT_TEXT, FORMAT_JSON};
	return format_family("list formats", writes, ARRAY_SIZE(writes), sizeof(writes[0]), err);
}

static struct {
	const char *format;
} opt;

static const struct option_spec list_options[] = {
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL, list_formats},
	{NULL},
};

static const struct command_spec list_cmd = {
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

static int list_toolchains(int json)
{
	struct toolchain *tcs;
	size_t n;
	toolchains_discover(&tcs, &n);
	struct strbuf sb = {0};
	if (json)
		sb_addc(&sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (json) {
			sb_add(&sb, i ? ",{\"command\":" : "{\"command\":");
			sb_add_json(&sb, tcs[i].command);
			sb_add(&sb, ",\"path\":");
			sb_add_json(&sb, tcs[i].path);
			sb_add(&sb, ",\"kind\":");
			sb_add_json(&sb, tcs[i].kind == TC_GCC ? "gcc" : "clang");
			sb_add(&sb, ",\"version\":");
			sb_add_json(&sb, tcs[i].version);
			sb_add(&sb, ",\"target\":");
			sb_add_json(&sb, tcs[i].target);
			sb_addf(&sb, ",\"id\":\"%s\"}", tcs[i].id);
		} else {
			sb_addf(&sb, "%-32s %-22s %s  [%s]  %s\n", tcs[i].command, tcs[i].target,
				tcs[i].id, tcs[i].path, tcs[i].version);
		}
	}
	if (json)
		sb_add(&sb, "]\n");
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
static int list_metrics(int json)
{
	struct strbuf sb = {0};
	size_t k = 0;
	if (json)
		sb_addc(&sb, '[');
	else
		sb_addf(&sb, "%-22s %-10s %-8s %s\n", "METRIC", "METER", "SET", "HERE");
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
			int here = usable && counts;
			/* a meter that is not usable: its probe's fact says why */
			const char *why = here ? "" : !usable ? sb_str(&fact)
				: "this machine does not count it (perf stat says <not supported>: "
				  "no hardware counters here)";
			if (json) {
				sb_add(&sb, k++ ? ",{\"name\":" : "{\"name\":");
				sb_add_json(&sb, names.v[j]);
				sb_add(&sb, ",\"meter\":");
				sb_add_json(&sb, m->name);
				sb_add(&sb, ",\"set\":");
				sb_add_json(&sb, set);
				sb_addf(&sb, ",\"here\":%s,\"why\":", here ? "true" : "false");
				sb_add_json(&sb, why);
				sb_addc(&sb, '}');
			} else {
				sb_addf(&sb, "%-22s %-10s %-8s %s%s\n", names.v[j], m->name, set,
					here ? "yes" : "no: ", why);
			}
		}
		sl_release(&names);
		sb_release(&fact);
	}
	if (json)
		sb_add(&sb, "]\n");
	else
		sb_add(&sb, "Also every build's section sizes (size.text, ...) and each recipe's own\n"
			    "metric.NAME (see its recipe.ini).\n");
	fputs(sb_str(&sb), stdout);
	sb_release(&sb);
	return 0;
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

static void origin_json(struct strbuf *sb, const struct searchpath *sp, const struct sp_entry *e)
{
	sb_add(sb, ",\"origin\":");
	sb_add_json(sb, sp_origin_name(sp->levels[e->level].origin));
	sb_add(sb, ",\"folder\":");
	sb_add_json(sb, sp->levels[e->level].dir);
	sb_add(sb, ",\"path\":");
	sb_add_json(sb, e->path);
	sb_add(sb, ",\"shadows\":[");
	for (size_t k = 0; k < e->shadows.n; k++) {
		if (k)
			sb_addc(sb, ',');
		sb_add_json(sb, e->shadows.v[k]);
	}
	sb_addc(sb, ']');
}

/* What the listing says of a workload after its name and origin: its
 * description (text), its description, source, slowness and runs (json),
 * or why its recipe does not load. */
static void describe_workload(const struct sp_entry *e, const char *study_file, int json,
			      struct strbuf *sb)
{
	struct recipe r;
	struct strbuf err = {0};
	int ok = !recipe_load(e->name, study_file, &r, &err) && !recipe_check_kinds(&r, &err);
	if (!json) {
		sb_add(sb, ok ? (r.description ? r.description : "") : sb_str(&err));
	} else if (ok) {
		sb_add(sb, ",\"description\":");
		sb_add_json(sb, r.description ? r.description : "");
		sb_add(sb, ",\"source\":");
		sb_add_json(sb, r.source);
		sb_addf(sb, ",\"slow\":%s,\"runs\":[", r.slow ? "true" : "false");
		for (size_t k = 0; k < r.nruns; k++) {
			if (k)
				sb_addc(sb, ',');
			sb_add_json(sb, r.runs[k].name);
		}
		sb_addc(sb, ']');
	} else {
		sb_add(sb, ",\"error\":");
		sb_add_json(sb, sb_str(&err));
	}
	recipe_release(&r); /* it keeps what it read before an error */
	sb_release(&err);
}

static void describe_preset(const struct sp_entry *e, const char *study_file, int json,
			    struct strbuf *sb)
{
	struct study s;
	struct strbuf err = {0};
	(void)study_file;
	int ok = !pipeline_study_load(e->path, &s, &err);
	if (json) {
		sb_add(sb, ",\"description\":");
		sb_add_json(sb, ok && s.description ? s.description : "");
	} else {
		sb_add(sb, ok ? (s.description ? s.description : "")
			      : "(does not load: see flagscope run --dry-run)");
	}
	study_release(&s);
	sb_release(&err);
}

/* Every entry of one kind on the search path, first match wins: its name,
 * where it came from, and what describe() says of it. */
static int list_entries(enum sp_kind kind, const char *study_file, int width,
			void (*describe)(const struct sp_entry *e, const char *study_file, int json,
					 struct strbuf *sb),
			int json)
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
	if (json)
		fputc('[', stdout);
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = {0};
		if (json) {
			sb_add(&sb, i ? ",{\"name\":" : "{\"name\":");
			sb_add_json(&sb, e[i].name);
			origin_json(&sb, &sp, &e[i]);
			describe(&e[i], study_file, 1, &sb);
			sb_addc(&sb, '}');
		} else {
			sb_addf(&sb, "%-*s ", width, e[i].name);
			origin_text(&sb, &sp, &e[i]);
			sb_add(&sb, "  ");
			describe(&e[i], study_file, 0, &sb);
			if (e[i].shadows.n)
				sb_addf(&sb, " (shadows %s)", e[i].shadows.v[0]);
			sb_addc(&sb, '\n');
		}
		fputs(sb_str(&sb), stdout);
		sb_release(&sb);
	}
	if (json)
		fputs("]\n", stdout);
	sp_entries_free(e, n);
	searchpath_release(&sp);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct strlist pos = {0};
	memset(&opt, 0, sizeof(opt));
	opt.format = "text";
	int rc = options_parse(&list_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	int json = format_is(opt.format, FORMAT_JSON);
	rc = 2;
	if (pos.n < 1 || pos.n > (pos.n && !strcmp(pos.v[0], "workloads") ? 2u : 1u))
		error_msg("list: say what to list: toolchains, workloads [STUDY], presets or metrics (see flagscope list --help)");
	else if (!strcmp(pos.v[0], "toolchains"))
		rc = list_toolchains(json);
	else if (!strcmp(pos.v[0], "workloads"))
		rc = list_entries(SP_WORKLOADS, pos.n > 1 ? pos.v[1] : ".", 14, describe_workload,
				  json);
	else if (!strcmp(pos.v[0], "presets"))
		rc = list_entries(SP_PRESETS, NULL, 20, describe_preset, json);
	else if (!strcmp(pos.v[0], "metrics"))
		rc = list_metrics(json);
	else
		error_msg("list: cannot list '%s' (toolchains, workloads, presets or metrics)", pos.v[0]);
	sl_release(&pos);
	return rc;
}
