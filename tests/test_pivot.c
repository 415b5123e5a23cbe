/*
 * test_pivot.c - analysis/pivot on databases written through the store
 * API with planted values: a libc x link x opt study (glibc dynamic the
 * baseline, dietlibc dynamic UNSUPPORTED), and a dietlibc-preset-like one
 * without glibc static.  Each repetition set is {0.9v, v, 5v}, so a right
 * figure is the median v, not the mean.
 * Expected: PASS.  Cases: levels, reference and blocks; the studies'
 * percentage and memory ratios recomputed from the planted values; an
 * UNSUPPORTED cell with its reason; a higher-is-better metric; pivoting
 * on link; a build property (size.file) once per workload, with an
 * unsupported cell's placeholder 0 left out; a block without the reference level compared
 * with the baseline; an unknown axis; a missing study file (libc still
 * pivots, a generic axis cannot); the three formats; selectors as
 * report --metric takes them (their metric, their items as rows).
 */
#include <math.h>
#include <unistd.h>

#include "analysis/pivot.h"
#include "tests/synthdb.h"

#define STUDY_TEXT                                                                 \
	"[study]\nworkloads = wl\nbaseline = glibc dynamic\n"                      \
	"[axis libc]\nglibc =\nmusl =\ndietlibc =\ndietlibc.cc = gcc\n"            \
	"[axis link]\ndynamic =\nstatic =\n[axis opt]\nO2 = -O2\n"

/* planted medians per configuration: time, virt, res, dirty (run "a");
 * run "b" has twice the time */
struct plant {
	const char *label;
	double time, virt, res, dirty;
	int unsupported;
};

static const struct plant full[] = {
	{"glibc dynamic O2", 2.0, 3000, 1500, 150, 0},
	{"glibc static O2", 1.5, 1800, 900, 90, 0},
	{"musl dynamic O2", 4.0, 1500, 600, 40, 0},
	{"musl static O2", 3.0, 900, 150, 20, 0},
	{"dietlibc dynamic O2", 0, 0, 0, 0, 1},
	{"dietlibc static O2", 1.0, 250, 90, 20, 0},
};

/* the dietlibc preset: no glibc static */
static const struct plant daemon_study[] = {
	{"glibc dynamic O2", 1.6, 2588, 1900, 180, 0},
	{"dietlibc dynamic O2", 0, 0, 0, 0, 1},
	{"dietlibc static O2", 1.2, 256, 90, 20, 0},
};

static void put_item(struct store *st, const char *study, const struct plant *p,
		     const char *run, double factor, const char *metric)
{
	char id[128];
	snprintf(id, sizeof(id), "%s", synth_id(p->label));
	struct store_build b = {
		.study = study, .config_id = id, .workload = "wl", .key = "k",
		.status = p->unsupported ? "unsupported" : "ok",
		.detail = p->unsupported ? "dietlibc has no shared library on this machine" : "",
		.facts = "[]", .seconds = 1,
	};
	store_put_build(st, &b);
	/* as the harness stores it: an unsupported build has a size of 0 */
	struct store_metric size = {"size.file", p->unsupported ? 0 : 1000 * p->virt, "B"};
	store_put_build_sizes(st, study, id, "wl", &size, 1);
	if (p->unsupported)
		return;
	store_put_run(st, study, id, "wl", run, 0, "ok", "", NULL, 0);
	const double spread[] = {0.9, 1.0, 5.0};
	for (int i = 0; i < 3; i++) {
		double s = spread[i];
		struct store_metric m[] = {
			{metric, p->time * factor * s, "s"},
			{"mem.virt", p->virt * s, "KiB"},
			{"mem.res", p->res * s, "KiB"},
			{"mem.dirty", p->dirty * s, "KiB"},
		};
		store_put_run(st, study, id, "wl", run, i + 1, "ok", "", m, ARRAY_SIZE(m));
	}
}

static char *make_db(struct store *st, const char *dir, const char *name,
		     const struct plant *p, size_t n, const char *metric)
{
	const char *labels[8];
	for (size_t i = 0; i < n; i++)
		labels[i] = p[i].label;
	synth_open(st, dir, name, "s", metric, labels, NULL, n);
	char *study = test_write(dir, "s.study", STUDY_TEXT);
	store_put_study(st, &(struct store_study){.name = "s", .path = study, .metric = metric});
	for (size_t i = 0; i < n; i++) {
		put_item(st, "s", &p[i], "a", 1, metric);
		put_item(st, "s", &p[i], "b", 2, metric);
	}
	return study;
}

/* p printed in format fmt; heap */
static char *print_pivot(const struct pivot *p, const char *fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	pivot_print(out, p, pivot_format(fmt));
	fclose(out);
	return text;
}

/* Every line of a table (its title row to the next empty line) is as
 * wide as its title row: the columns line up even when the row names are
 * shorter than a memory table's title ("VSZ: virt (KiB)"). */
static void check_table_aligned(const char *text)
{
	const char *titles[] = {"time (s) ", "VSZ: virt (KiB) ", "RSS: res (KiB) ", "dirty (KiB) "};
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l), width = 0;
		for (size_t t = 0; t < ARRAY_SIZE(titles); t++)
			if (!strncmp(l, titles[t], strlen(titles[t])))
				width = len;
		for (l += len + (e != NULL); width && *l && *l != '\n' && strncmp(l, "  ", 2);) {
			e = strchr(l, '\n');
			len = e ? (size_t)(e - l) : strlen(l);
			T_CHECK(len == width, "a table line %zu wide under a title row %zu wide: %.*s",
				len, width, (int)len, l);
			l += len + (e != NULL);
		}
	}
}

static const struct pivot_cell *cell(const struct pivot *p, const char *others, const char *run,
				     const char *level)
{
	for (size_t b = 0; b < p->nblocks; b++)
		for (size_t i = 0; i < p->blocks[b].nrows && !strcmp(p->blocks[b].others, others); i++)
			for (size_t l = 0; l < p->nlevels; l++)
				if (!strcmp(p->blocks[b].rows[i].run, run) && !strcmp(p->levels[l], level))
					return &p->blocks[b].rows[i].cells[l];
	return NULL;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

static void check_libc_pivot(struct store *st)
{
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(p.nlevels == 3 && !strcmp(p.levels[0], "glibc") && !strcmp(p.levels[1], "musl") &&
			!strcmp(p.levels[2], "dietlibc"),
		"levels in study order");
	T_CHECK(p.ref == 0, "reference is the baseline's level, got %zu", p.ref);
	T_CHECK(p.nblocks == 2, "one block per link level, got %zu", p.nblocks);
	T_CHECK(p.nblocks == 2 && !strcmp(p.blocks[0].others_named, "link=dynamic opt=O2") &&
			!strcmp(p.blocks[1].others, "static O2"),
		"blocks named by the other axes");
	T_CHECK(strstr(p.levels_from, "study file"), "levels from %s", p.levels_from);
	T_CHECK(p.blocks[0].nrows == 2 && !strcmp(p.blocks[0].rows[1].name, "wl/b"), "rows");

	/* the studies' form, from the planted medians */
	for (size_t i = 0; i < 2; i++) {
		const struct plant *g = &full[i], *m = &full[i + 2];
		const char *others = i ? "static O2" : "dynamic O2";
		const struct pivot_cell *mc = cell(&p, others, "b", "musl");
		const struct pivot_cell *gc = cell(&p, others, "b", "glibc");
		T_CHECK(mc && gc, "cells of %s", others);
		if (!mc || !gc)
			continue;
		T_CHECK(near(gc->value, 2 * g->time) && near(mc->value, 2 * m->time),
			"medians %g %g", gc->value, mc->value);
		T_CHECK(near(mc->pct, 100 * (g->time / m->time - 1)), "pct %g", mc->pct);
		T_CHECK(isnan(gc->pct) && isnan(gc->mem_ratio[0]), "no ratio for the reference");
		const double planted[][2] = {{g->virt, m->virt}, {g->res, m->res},
					     {g->dirty, m->dirty}};
		for (int k = 0; k < PIVOT_NMEM; k++)
			T_CHECK(near(mc->mem_ratio[k], planted[k][0] / planted[k][1]) &&
					near(mc->mem_pct[k], 100 * (planted[k][0] / planted[k][1] - 1)) &&
					near(gc->mem[k], planted[k][0]) && isnan(gc->mem_pct[k]),
				"%s ratio %g pct %g", pivot_memory_keys[k], mc->mem_ratio[k],
				mc->mem_pct[k]);
	}
	const struct pivot_cell *dd = cell(&p, "dynamic O2", "a", "dietlibc");
	T_CHECK(dd && dd->present && dd->status == OUTCOME_UNSUPPORTED &&
			strstr(dd->detail, "no shared library") && isnan(dd->value) && isnan(dd->pct),
		"dietlibc dynamic is unsupported with its reason");
	const struct pivot_cell *ds = cell(&p, "static O2", "a", "dietlibc");
	T_CHECK(ds && near(ds->pct, 100 * (1.5 / 1.0 - 1)) && near(ds->mem_ratio[1], 900.0 / 90),
		"dietlibc static against glibc static");
	T_CHECK(!p.blocks[1].ref_outside && !strcmp(p.blocks[1].ref_label, "glibc static O2"),
		"reference inside the block");

	/* formats: every row and level reaches every format */
	const char *fmts[] = {"table", "csv", "json"};
	for (size_t f = 0; f < ARRAY_SIZE(fmts); f++) {
		char *text = print_pivot(&p, fmts[f]);
		T_CHECK(strstr(text, "wl/b") || strstr(text, "\"b\""), "%s has the rows", fmts[f]);
		T_CHECK(strstr(text, "unsupported"), "%s shows unsupported", fmts[f]);
		T_CHECK(strstr(text, "dietlibc"), "%s has every level", fmts[f]);
		if (!strcmp(fmts[f], "csv")) {
			size_t lines = 0;
			for (char *c = text; *c; c++)
				lines += *c == '\n';
			T_CHECK(lines == 1 + 2 * 2, "csv: header + 2 blocks x 2 rows, got %zu", lines);
			T_CHECK(strstr(text, "musl.time,musl.pct,musl.virt"), "csv columns");
			T_CHECK(strstr(text, "musl.virt_pct,musl.res_pct,musl.dirty_pct"),
				"csv memory ratio columns");
		}
		if (!strcmp(fmts[f], "table"))
			check_table_aligned(text);
		if (!strcmp(fmts[f], "table")) {
			/* the published shape: time per level with a ratio after each
			 * non-reference level, then VSZ, RSS and dirty alike */
			const char *tables[] = {"\ntime (s) ", "\nVSZ: virt (KiB) ", "\nRSS: res (KiB) ",
						"\ndirty (KiB) "};
			const char *at = text;
			for (size_t t = 0; t < ARRAY_SIZE(tables); t++) {
				const char *h = strstr(at, tables[t]);
				T_CHECK(h, "table %s in order", tables[t] + 1);
				if (!h)
					break;
				const char *eol = strchr(h + 1, '\n');
				char *line = strndup(h + 1, (size_t)(eol - h - 1));
				T_CHECK(strstr(line, " glibc ") && strstr(line, " musl    ratio ") &&
						strstr(line, " dietlibc    ratio"),
					"columns of %s", line);
				free(line);
				at = h + 1;
			}
			T_CHECK(strstr(text, "performance ratio glibc_time/LEVEL_time - 1"),
				"the ratio's form is stated");
		}
		if (!strcmp(fmts[f], "json"))
			T_CHECK(strstr(text, "\"reference\":\"glibc\"") &&
					strstr(text, "\"virt_ratio\":2") &&
					strstr(text, "\"virt_pct\":100"),
				"json keys (musl dynamic virt ratio 3000/1500 = 2, +100%%)");
		free(text);
	}
	T_CHECK(!pivot_format("html"), "no html pivot");
	pivot_release(&p);

	/* a build property pivots too, once per workload (not once per run:
	 * a size is a fact of the build); an unsupported cell has no figure */
	T_CHECK(!pivot_compute(st, "s", "libc", "size.file", NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(p.nblocks && p.blocks[0].nrows == 1 && !strcmp(p.blocks[0].rows[0].name, "wl"),
		"size.file: one row 'wl' per block, got %zu ('%s')", p.nblocks ? p.blocks[0].nrows : 0,
		p.nblocks && p.blocks[0].nrows ? p.blocks[0].rows[0].name : "");
	dd = cell(&p, "dynamic O2", "", "dietlibc");
	ds = cell(&p, "static O2", "", "dietlibc");
	char *text = print_pivot(&p, "table");
	T_CHECK(!strstr(text, "VSZ: virt"), "a size pivot has no memory tables:\n%s", text);
	free(text);
	T_CHECK(dd && isnan(dd->value) && ds && near(ds->value, 250000) &&
			near(ds->pct, 100 * (1800.0 / 250 - 1)),
		"size.file: unsupported %g, dietlibc static %g", dd ? dd->value : -1,
		ds ? ds->value : -1);
	pivot_release(&p);
	sb_release(&err);
}

static void check_other_axes(struct store *st, const char *study_path)
{
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(st, "s", "link", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(p.nlevels == 2 && p.ref == 0 && !strcmp(p.levels[0], "dynamic"), "link levels");
	T_CHECK(p.nblocks == 3, "one block per libc, got %zu", p.nblocks);
	const struct pivot_cell *ms = cell(&p, "musl O2", "a", "static");
	T_CHECK(ms && near(ms->pct, 100 * (4.0 / 3.0 - 1)), "musl static vs musl dynamic");
	const struct pivot_cell *ds = cell(&p, "dietlibc O2", "a", "static");
	T_CHECK(ds && ds->status == OUTCOME_OK && isnan(ds->pct),
		"no ratio against an unsupported reference");
	pivot_release(&p);

	sb_release(&err);
	T_CHECK(pivot_compute(st, "s", "cc", NULL, NULL, NULL, &p, &err) == -1 &&
			strstr(sb_str(&err), "has no axis 'cc' (its axes: libc, link, opt)"),
		"unknown axis: %s", sb_str(&err));
	pivot_release(&p);

	/* without the study file: the reserved axes still pivot */
	char *moved = xasprintf("%s.gone", study_path);
	T_CHECK(!rename(study_path, moved), "move the study file");
	sb_release(&err);
	T_CHECK(!pivot_compute(st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(strstr(p.levels_from, "not readable") && p.nlevels == 3 && p.nblocks == 2,
		"libc from level names: %s", p.levels_from);
	T_CHECK(!strcmp(p.blocks[0].others_named, "link=dynamic O2"), "named where known: %s",
		p.blocks[0].others_named);
	pivot_release(&p);
	sb_release(&err);
	T_CHECK(pivot_compute(st, "s", "opt", NULL, NULL, NULL, &p, &err) == -1 &&
			strstr(sb_str(&err), "restore the study file"),
		"a generic axis needs the study file: %s", sb_str(&err));
	pivot_release(&p);
	rename(moved, study_path);
	free(moved);
	sb_release(&err);
}

static void check_outside_reference(const char *dir)
{
	struct store st;
	char *study = make_db(&st, dir, "daemon.db", daemon_study, ARRAY_SIZE(daemon_study), "server_cpu");
	const char *mem[PIVOT_NMEM] = {"mem.virt", "mem.res", "mem.dirty"};
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(&st, "s", "libc", NULL, mem, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(p.metric, "server_cpu"), "the study's metric, got %s", p.metric);
	T_CHECK(p.nlevels == 2 && p.nblocks == 2, "2 levels, 2 blocks");
	T_CHECK(p.nblocks == 2 && p.blocks[1].ref_outside &&
			!strcmp(p.blocks[1].ref_label, "glibc dynamic O2"),
		"static block compares with the baseline");
	const struct pivot_cell *g = cell(&p, "static O2", "a", "glibc");
	const struct pivot_cell *d = cell(&p, "static O2", "a", "dietlibc");
	T_CHECK(g && !g->present, "no glibc static in the study");
	T_CHECK(d && near(d->pct, 100 * (1.6 / 1.2 - 1)) && near(d->mem_ratio[1], 1900.0 / 90),
		"static dietlibc against dynamic glibc");
	pivot_release(&p);
	sb_release(&err);

	/* a higher-is-better metric turns the fraction over */
	store_put_fact(&st, "s", "higher_better.server_cpu", "1");
	T_CHECK(!pivot_compute(&st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	d = cell(&p, "static O2", "a", "dietlibc");
	T_CHECK(p.higher_better && d && near(d->pct, 100 * (1.2 / 1.6 - 1)), "higher is better");
	pivot_release(&p);
	sb_release(&err);
	store_close(&st);
	free(study);
}

/* --pivot with a selector, as report --metric takes it: its metric, and
 * only its items as rows */
struct select_case {
	const char *sel;
	const char *metric; /* NULL: refused */
	const char *rows;   /* the first block's row names, blank-separated */
	const char *why;    /* refused: a substring of the message */
};

static const struct select_case select_cases[] = {
	{NULL, "time", "wl/a wl/b", NULL},
	{"mem.res", "mem.res", "wl/a wl/b", NULL},
	{"wl/b", "time", "wl/b", NULL},
	{"wl/a/mem.res", "mem.res", "wl/a", NULL},
	{"wl/mem.dirty", "mem.dirty", "wl/a wl/b", NULL},
	{"wl/c", NULL, NULL, "(see flagscope report --help: --metric)"},
	{"nosuch", NULL, NULL, "nosuch"},
};

static void check_selectors(struct store *st)
{
	for (size_t i = 0; i < ARRAY_SIZE(select_cases); i++) {
		const struct select_case *c = &select_cases[i];
		struct pivot p;
		struct strbuf err = {0}, rows = {0};
		int rc = pivot_compute(st, "s", "libc", c->sel, NULL, NULL, &p, &err);
		const char *name = c->sel ? c->sel : "(none)";
		if (!c->metric) {
			T_CHECK(rc == -1 && strstr(sb_str(&err), c->why), "%s: must be refused: %s", name,
				sb_str(&err));
		} else if (rc) {
			T_CHECK(0, "%s: %s", name, sb_str(&err));
		} else {
			for (size_t r = 0; p.nblocks && r < p.blocks[0].nrows; r++)
				sb_addf(&rows, "%s%s", r ? " " : "", p.blocks[0].rows[r].name);
			T_CHECK(!strcmp(p.metric, c->metric), "%s: metric %s, want %s", name, p.metric,
				c->metric);
			T_CHECK(!strcmp(sb_str(&rows), c->rows), "%s: rows '%s', want '%s'", name,
				sb_str(&rows), c->rows);
			T_CHECK(c->sel && strchr(c->sel, '/') ? p.scope != NULL : p.scope == NULL,
				"%s: scope %s", name, p.scope ? p.scope : "(none)");
		}
		pivot_release(&p);
		sb_release(&err);
		sb_release(&rows);
	}
	/* the selected run's median, not the other's (run b has twice the time) */
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(st, "s", "libc", "wl/b", NULL, NULL, &p, &err), "%s", sb_str(&err));
	const struct pivot_cell *g = cell(&p, "dynamic O2", "b", "glibc");
	T_CHECK(g && near(g->value, 4.0), "wl/b glibc dynamic median %g, want 4",
		g ? g->value : NAN);
	pivot_release(&p);
	/* a memory metric asked for that the study never stored (a typo) is
	 * refused, not shown as empty tables */
	const char *typo[PIVOT_NMEM] = {"mem.virt", "mem.rss", "mem.dirty"};
	T_CHECK(pivot_compute(st, "s", "libc", NULL, typo, NULL, &p, &err) == -1 &&
			strstr(sb_str(&err), "--memory: study 's' stored no metric 'mem.rss'"),
		"unknown memory metric: '%s'", sb_str(&err));
	pivot_release(&p);
	sb_release(&err);
}

/* A search batch's shape: hash-named candidates beside "base"; two share
 * a flag, and a level its flags only repeat (O3) */
static void check_search_labels(const char *dir)
{
	static const struct plant batch[] = {
		{"O2 base", 1.0, 1000, 500, 50, 0},
		{"O2 c1a2b3c4d5e6", 0.9, 1000, 500, 50, 0},
		{"O2 c6e5d4c3b2a1", 0.8, 1000, 500, 50, 0},
		{"O2 O3", 0.7, 1000, 500, 50, 0},
	};
	const char *labels[] = {"O2 base", "O2 c1a2b3c4d5e6", "O2 c6e5d4c3b2a1", "O2 O3"};
	const char *cflags[] = {"-O2", "-O2 -funroll-loops", "-O2 -funroll-loops -fno-tree-vrp",
				"-O2 -O3"};
	struct store st;
	synth_open(&st, dir, "batch.db", "b", "time", labels, cflags, ARRAY_SIZE(labels));
	store_put_fact(&st, "b", "level.O2", "opt");
	for (size_t i = 0; i < ARRAY_SIZE(labels); i++) {
		char *key = xasprintf("level.%s", labels[i] + 3);
		store_put_fact(&st, "b", key, "flagscope-search");
		free(key);
		put_item(&st, "b", &batch[i], "", 1, "time");
	}
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(&st, "b", "flagscope-search", NULL, NULL, NULL, &p, &err), "%s",
		sb_str(&err));
	const char *flags[] = {"", "-funroll-loops", "-funroll-loops -fno-tree-vrp", "-O3"};
	const char *shown[] = {"base", "c1a2b3c4d5e6 (-funroll-loops)",
			       "c6e5d4c3b2a1 (-funroll-loops -fno-tree-vrp)", "O3"};
	for (size_t l = 0; l < p.nlevels && l < ARRAY_SIZE(flags); l++)
		T_CHECK(!strcmp(p.level_flags[l], flags[l]) && !strcmp(p.level_labels[l], shown[l]),
			"level %s: flags '%s', label '%s'", p.levels[l], p.level_flags[l],
			p.level_labels[l]);
	T_CHECK(p.nlevels == 4 && p.nblocks == 1 && !strcmp(p.blocks[0].others_labelled, "opt=O2"),
		"one block opt=O2, got %zu levels %zu blocks", p.nlevels, p.nblocks);
	/* the CSV says them too: a LEVEL.flags column beside LEVEL.status */
	char *csv = print_pivot(&p, "csv");
	T_CHECK(strstr(csv, ",c6e5d4c3b2a1.status,c6e5d4c3b2a1.flags,c6e5d4c3b2a1.time,"),
		"csv header with the flags column: %.300s", csv);
	T_CHECK(strstr(csv, ",\"-funroll-loops -fno-tree-vrp\","), "csv row with the flags: %s", csv);
	free(csv);
	pivot_release(&p);
	T_CHECK(!pivot_compute(&st, "b", "opt", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	csv = print_pivot(&p, "csv");
	T_CHECK(strstr(csv, "block,block_labelled,workload") &&
			strstr(csv, ",\"flagscope-search=c6e5d4c3b2a1\","
				    "\"flagscope-search=c6e5d4c3b2a1 (-funroll-loops -fno-tree-vrp)\","),
		"csv blocks labelled with their flags: %s", csv);
	free(csv);
	T_CHECK(p.nblocks == 4 && !strcmp(p.blocks[2].others_labelled,
					   "flagscope-search=c6e5d4c3b2a1 (-funroll-loops -fno-tree-vrp)") &&
			!strcmp(p.blocks[3].others_labelled, "flagscope-search=O3"),
		"blocks labelled with their flags: '%s', '%s'",
		p.nblocks == 4 ? p.blocks[2].others_labelled : "?",
		p.nblocks == 4 ? p.blocks[3].others_labelled : "?");
	pivot_release(&p);
	sb_release(&err);
	store_close(&st);
}

/* fields of one CSV line (quotes respected) */
static size_t csv_fields(const char *line)
{
	size_t n = 1;
	int quoted = 0;
	for (const char *c = line; *c && (*c != '\n' || quoted); c++) {
		if (*c == '"')
			quoted = !quoted;
		n += *c == ',' && !quoted;
	}
	return n;
}

/* A level name with a comma (the study file allows it) is quoted in the
 * CSV header, so the header has as many fields as the rows */
static void check_csv_header_quoting(const char *dir)
{
	static const struct plant two[] = {
		{"O2", 1.0, 1000, 500, 50, 0},
		{"O2,x", 0.9, 1000, 500, 50, 0},
	};
	const char *labels[] = {"O2", "O2,x"};
	struct store st;
	synth_open(&st, dir, "comma.db", "q", "time", labels, NULL, 2);
	for (size_t i = 0; i < 2; i++) {
		char *key = xasprintf("level.%s", labels[i]);
		store_put_fact(&st, "q", key, "opt");
		free(key);
		put_item(&st, "q", &two[i], "", 1, "time");
	}
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(&st, "q", "opt", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	char *csv = print_pivot(&p, "csv");
	const char *row = strchr(csv, '\n');
	T_CHECK(row && csv_fields(csv) == csv_fields(row + 1) && strstr(csv, ",\"O2,x.status\","),
		"header %zu fields, row %zu:\n%s", csv_fields(csv), row ? csv_fields(row + 1) : 0,
		csv);
	free(csv);
	pivot_release(&p);
	sb_release(&err);
	store_close(&st);
}

/* run --noise-floor's copy of the baseline is no block "[(noise floor)]"
 * but the noise cell of the baseline's rows, its ratio against the
 * baseline: O2 2.0 s, its noise floor 2.5 s, so 2.0/2.5 - 1 = -20% */
static void check_noise_floor(const char *dir)
{
	static const struct plant nf[] = {
		{"O2", 2.0, 1000, 500, 50, 0},
		{"O3", 1.0, 1000, 500, 50, 0},
		{"O2 (noise floor)", 2.5, 1000, 500, 50, 0},
	};
	const char *labels[] = {"O2", "O3", "O2 (noise floor)"};
	struct store st;
	synth_open(&st, dir, "noise.db", "n", "time", labels, NULL, 3);
	store_put_fact(&st, "n", "level.O2", "opt");
	store_put_fact(&st, "n", "level.O3", "opt");
	for (size_t i = 0; i < 3; i++)
		put_item(&st, "n", &nf[i], "", 1, "time");
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(&st, "n", "opt", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(p.nblocks == 1 && p.nlevels == 2 && p.noise_label &&
			!strcmp(p.noise_label, "O2 (noise floor)"),
		"one block of O2, O3 and the noise floor, got %zu blocks '%s'", p.nblocks,
		p.nblocks > 1 ? p.blocks[1].others : "");
	const struct pivot_row *r = p.nblocks ? &p.blocks[0].rows[0] : NULL;
	T_CHECK(r && p.blocks[0].has_noise && r->noise.present &&
			fabs(r->noise.value - 2.5) < 1e-9 && fabs(r->noise.pct + 20) < 1e-9,
		"noise floor 2.5 s at -20%% of the baseline, got %g s %g%%", r ? r->noise.value : NAN,
		r ? r->noise.pct : NAN);
	char *table = print_pivot(&p, "table");
	T_CHECK(!strstr(table, "[(noise floor)]") &&
			strstr(table, "noise floor: O2 (noise floor) is O2 built and run again") &&
			strstr(table, "-20.0%"),
		"the table's noise floor:\n%s", table);
	free(table);
	char *csv = print_pivot(&p, "csv");
	const char *row = strchr(csv, '\n');
	T_CHECK(strstr(csv, ",noise_floor.status,noise_floor.time,noise_floor.pct\n") && row &&
			csv_fields(csv) == csv_fields(row + 1) && strstr(row, ",ok,2.5,-20"),
		"csv noise floor columns:\n%s", csv);
	free(csv);
	char *json = print_pivot(&p, "json");
	T_CHECK(strstr(json, "\"noise_floor\":\"O2 (noise floor)\"") &&
			strstr(json, "\"noise_floor\":{\"present\":true,\"status\":\"ok\""),
		"json noise floor: %s", json);
	free(json);
	pivot_release(&p);
	sb_release(&err);
	store_close(&st);
}

/* Published figures (pivot.h): a published.ini beside the workload's
 * recipe, found through the study's search path.  Planted: run a's row
 * says musl twice as fast as glibc (+100%) and dietlibc slower (-33%), run
 * b's musl slower (-50%); measured musl is -50% on both, dietlibc static
 * +50%.  Dirty: one row per link level for every run ("*"); measured musl
 * and dietlibc use less everywhere, as published. */
#define PUBLISHED_TEXT                                                             \
	"[source]\ntitle = planted\nurl = http://example.invalid/t\nlibcs = musl glibc dietlibc\n" \
	"[time fast]\nrow = Fast row\nruns = a\nmusl = 1\nglibc = 2\ndietlibc = 3\n"       \
	"[time slow]\nrow = Slow row\nruns = b\nmusl = 4\nglibc = 2\n"                    \
	"[time unmeasured]\nrow = No run\nruns =\nmusl = 1\nglibc = 9\n"                   \
	"[dirty dyn]\nrow = Dyn dirty\nruns = *\nlink = dynamic\nmusl = 20\nglibc = 48\n"  \
	"dietlibc = 40\n"                                                                  \
	"[dirty stat]\nrow = Static dirty\nruns = *\nlink = static\nmusl = 8\nglibc = 28\n" \
	"dietlibc = 8\n"

/* Two sources in one published.ini (the Eta Labs and Raspberry Pi 4
 * tables): each its own columns, each named with its hardware and
 * versions; run a's second row has musl slower (glibc 1, musl 4: -75%),
 * the sign the first source's +100% has not */
static void check_two_sources(struct store *st, const char *wl)
{
	free(test_write(wl, "published.ini",
			"[source old]\ntitle = older table\nlibcs = musl glibc\n"
			"[time fast]\nrow = Fast row\nruns = a\nmusl = 1\nglibc = 2\n"
			"[source pi]\ntitle = newer study\nhardware = a small board\n"
			"versions = glibc 9.9\nlibcs = glibc musl\n"
			"[time a]\nrow = b_a\nruns = a\nglibc = 1\nmusl = 4\n"));
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	const struct pivot_cell *ma = cell(&p, "dynamic O2", "a", "musl");
	T_CHECK(p.npub_src == 2 && ma && near(ma->pub_pct[PUB_COL(0, PUB_TIME)], 100) &&
			near(ma->pub_pct[PUB_COL(1, PUB_TIME)], -75) &&
			ma->same_sign[PUB_COL(1, PUB_TIME)] == 1 && ma->same_sign[PUB_TIME] == 0,
		"musl a: +100%% by the first source (not the measured sign), -75%% by the second");
	char *table = print_pivot(&p, "table");
	T_CHECK(strstr(table, "published (old): older table; hardware: not stated; versions: "
			      "not stated\n") &&
			strstr(table, "published (pi): newer study; hardware: a small board; "
				      "versions: glibc 9.9\n") &&
			strstr(table, " musl    ratio       old same        pi same") &&
			strstr(table, "  +100.0%   no    -75.0%  yes") &&
			strstr(table, "sign agreement: 2 of 2 rows (pi: the metric's ratio"),
		"both sources, side by side:\n%s", table);
	check_table_aligned(table);
	free(table);
	char *csv = print_pivot(&p, "csv");
	const char *row = strchr(csv, '\n');
	T_CHECK(strstr(csv, ",pi.published_row,pi.published_dirty_row,") &&
			strstr(csv, ",musl.pi.published_pct,musl.pi.same_sign,") && row &&
			csv_fields(csv) == csv_fields(row + 1),
		"csv: the second source's columns:\n%s", csv);
	free(csv);
	char *json = print_pivot(&p, "json");
	T_CHECK(strstr(json, "\"published_sources\":[{\"label\":\"old\",\"source\":\"older "
			     "table\",\"hardware\":null") &&
			strstr(json, "{\"label\":\"pi\",\"source\":\"newer study\",\"hardware\":\"a "
				     "small board\",\"versions\":\"glibc 9.9\"") &&
			strstr(json, "\"pi\":{\"published_pct\":-75,\"same_sign\":true"),
		"json: both sources: %s", json);
	free(json);
	pivot_release(&p);
	sb_release(&err);
}

static void check_published(struct store *st, const char *dir)
{
	char *wl = xasprintf("%s/workloads/wl", dir);
	mkdir_p(wl, 0755);
	free(test_write(wl, "recipe.ini", "[workload]\nsource = bundled\n"));
	char *ini = test_write(wl, "published.ini", PUBLISHED_TEXT);
	struct pivot p;
	struct strbuf err = {0};
	char *table;
	T_CHECK(!pivot_compute(st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(p.published && strstr(p.published, "planted (http://example.invalid/t)"),
		"the source named: %s", p.published ? p.published : "(none)");
	const struct pivot_cell *ma = cell(&p, "dynamic O2", "a", "musl");
	const struct pivot_cell *mb = cell(&p, "static O2", "b", "musl");
	const struct pivot_cell *da = cell(&p, "static O2", "a", "dietlibc");
	const struct pivot_cell *db = cell(&p, "static O2", "b", "dietlibc");
	const struct pivot_cell *ga = cell(&p, "dynamic O2", "a", "glibc");
	const struct pivot_cell *dd = cell(&p, "dynamic O2", "a", "dietlibc");
	T_CHECK(ma && near(ma->pub_pct[PUB_TIME], 100) && ma->same_sign[PUB_TIME] == 0 &&
			near(ma->pct, -50),
		"musl a: published +100%% against measured -50%%: not the same sign");
	T_CHECK(mb && near(mb->pub_pct[PUB_TIME], -50) && mb->same_sign[PUB_TIME] == 1,
		"musl b: the same sign");
	T_CHECK(da && near(da->pub_pct[PUB_TIME], 100 * (2.0 / 3 - 1)) && near(da->pct, 50) &&
			da->same_sign[PUB_TIME] == 0,
		"dietlibc a: glibc/dietlibc - 1 of the published figures");
	T_CHECK(db && isnan(db->pub_pct[PUB_TIME]) && db->same_sign[PUB_TIME] < 0,
		"dietlibc b: no published figure, not compared");
	T_CHECK(ga && isnan(ga->pub_pct[PUB_TIME]) && ga->same_sign[PUB_TIME] < 0,
		"the reference has no ratio of its own");
	T_CHECK(dd && dd->status == OUTCOME_UNSUPPORTED && near(dd->pub_pct[PUB_DIRTY], 20) &&
			dd->same_sign[PUB_DIRTY] < 0,
		"an unsupported cell shows the published ratio but is not counted");
	T_CHECK(ma && near(ma->pub_pct[PUB_DIRTY], 140) && ma->same_sign[PUB_DIRTY] == 1 &&
			mb && near(mb->pub_pct[PUB_DIRTY], 250),
		"dirty: the block's link level picks the row");
	/* time: musl a, b in both blocks and dietlibc static a (5), 2 agree;
	 * dirty: musl a, b twice and dietlibc static a, b (6), all agree */
	T_CHECK(p.pub_rows[PUB_TIME] == 5 && p.pub_agree[PUB_TIME] == 2, "time %zu of %zu",
		p.pub_agree[PUB_TIME], p.pub_rows[PUB_TIME]);
	T_CHECK(p.pub_rows[PUB_DIRTY] == 6 && p.pub_agree[PUB_DIRTY] == 6, "dirty %zu of %zu",
		p.pub_agree[PUB_DIRTY], p.pub_rows[PUB_DIRTY]);
	T_CHECK(p.nblocks && p.blocks[0].rows[0].pub_row[PUB_TIME] &&
			!strcmp(p.blocks[0].rows[0].pub_row[PUB_TIME], "Fast row") &&
			!strcmp(p.blocks[1].rows[1].pub_row[PUB_DIRTY], "Static dirty"),
		"rows name their published row");

	table = print_pivot(&p, "table");
	T_CHECK(strstr(table, "sign agreement: 2 of 5 rows (the metric's ratio") &&
			strstr(table, "sign agreement: 6 of 6 rows (the dirty memory ratio") &&
			strstr(table, " musl    ratio published same ") &&
			strstr(table, "  +100.0%   no ") && strstr(table, "   -50.0%  yes "),
		"table: published and same columns, the closing lines:\n%s", table);
	check_table_aligned(table);
	free(table);
	char *csv = print_pivot(&p, "csv");
	const char *row = strchr(csv, '\n');
	T_CHECK(strstr(csv, ",published_row,published_dirty_row,glibc.published_pct,") &&
			strstr(csv, ",musl.published_pct,musl.same_sign,musl.dirty_published_pct,"
				    "musl.dirty_same_sign,") &&
			row && csv_fields(csv) == csv_fields(row + 1) &&
			strstr(row, ",\"Fast row\",\"Dyn dirty\",,,,,100,no,140,yes,"),
		"csv published columns:\n%s", csv);
	free(csv);
	char *json = print_pivot(&p, "json");
	T_CHECK(strstr(json, "\"sign_agreement\":{\"time\":{\"agree\":2,\"rows\":5},"
			     "\"dirty\":{\"agree\":6,\"rows\":6}}") &&
			strstr(json, "\"published_row\":\"Fast row\"") &&
			strstr(json, "\"published_pct\":100,\"same_sign\":false,"
				     "\"dirty_published_pct\":140,\"dirty_same_sign\":true"),
		"json published keys: %s", json);
	free(json);
	pivot_release(&p);

	/* levels the file has no figures for (link): nothing published */
	T_CHECK(!pivot_compute(st, "s", "link", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	table = print_pivot(&p, "table");
	T_CHECK(!p.published && !p.pub_any[PUB_TIME] && !strstr(table, "published:"),
		"link: no published figures, no source line:\n%s", table);
	free(table);
	pivot_release(&p);

	/* another metric than time: no published time, the dirty table still */
	T_CHECK(!pivot_compute(st, "s", "libc", "mem.res", NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(!p.pub_any[PUB_TIME] && p.pub_rows[PUB_DIRTY] == 6, "mem.res: dirty only");
	pivot_release(&p);

	check_two_sources(st, wl);

	/* a bad figure is said at its line; the pivot is refused */
	free(test_write(wl, "published.ini", "[source]\nlibcs = musl glibc\n[time x]\nruns = a\n"
						  "musl = fast\n"));
	T_CHECK(pivot_compute(st, "s", "libc", NULL, NULL, NULL, &p, &err) == -1 &&
			strstr(sb_str(&err), "published.ini:5: musl = 'fast' is not a positive number"),
		"bad figure: %s", sb_str(&err));
	pivot_release(&p);
	sb_release(&err);

	/* without published.ini nothing changes: no published columns */
	unlink(ini);
	T_CHECK(!pivot_compute(st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	T_CHECK(!p.published && !p.pub_any[PUB_TIME] && !p.pub_any[PUB_DIRTY], "no published");
	table = print_pivot(&p, "table");
	csv = print_pivot(&p, "csv");
	T_CHECK(!strstr(table, "published:") && !strstr(table, " same") &&
			!strstr(table, "sign agreement") &&
			!strstr(csv, "published"),
		"no published columns without figures:\n%s\n%s", table, csv);
	free(table);
	free(csv);
	pivot_release(&p);
	sb_release(&err);
	remove_tree(wl);
	free(ini);
	free(wl);
}

/* A ratio wider than the column (a thread stack's VSZ against musl's:
 * +11822.5% here) widens the column: the table still lines up */
static void check_wide_ratio(const char *dir)
{
	static const struct plant wide[] = {
		{"glibc dynamic O2", 2.0, 3000000, 1500, 150, 0},
		{"musl dynamic O2", 4.0, 25, 600, 40, 0},
	};
	struct store st;
	char *study = make_db(&st, dir, "wide.db", wide, ARRAY_SIZE(wide), "time");
	struct pivot p;
	struct strbuf err = {0};
	T_CHECK(!pivot_compute(&st, "s", "libc", NULL, NULL, NULL, &p, &err), "%s", sb_str(&err));
	char *table = print_pivot(&p, "table");
	T_CHECK(strstr(table, "+11999900.0%"), "the wide ratio:\n%s", table);
	check_table_aligned(table);
	free(table);
	pivot_release(&p);
	sb_release(&err);
	store_close(&st);
	free(study);
}

int main(void)
{
	char *dir = test_tmpdir("test_pivot");
	struct store st;
	char *study = make_db(&st, dir, "full.db", full, ARRAY_SIZE(full), "time");
	check_libc_pivot(&st);
	check_selectors(&st);
	check_other_axes(&st, study);
	check_published(&st, dir);
	store_close(&st);
	check_outside_reference(dir);
	check_search_labels(dir);
	check_csv_header_quoting(dir);
	check_noise_floor(dir);
	check_wide_ratio(dir);
	free(study);
	free(dir);
	return test_summary("test_pivot");
}
