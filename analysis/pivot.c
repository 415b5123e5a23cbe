/* pivot.c - see pivot.h */
#include "analysis/pivot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise_floor.h"
#include "analysis/rank.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "analysis/verdict_item.h"
#include "base/ini.h"
#include "flagsets/libc_kind.h"

const char *const pivot_default_memory[PIVOT_NMEM] = {"mem.virt", "mem.res", "mem.dirty"};
const char *const pivot_memory_keys[PIVOT_NMEM] = {"virt", "res", "dirty"};

/* level name -> axis name, from the study file's [axis NAME] sections */
struct level_map {
	struct strlist levels, axes;
};

static int map_item(void *user, const char *section, const char *name, const char *value,
		    int line, int continued, struct strbuf *err)
{
	(void)value;
	(void)line;
	(void)err;
	struct level_map *m = user;
	/* "glibc.cc = ..." sets a key of a level; a continued line extends a value */
	if (continued || !str_starts_with(section, "axis ") || strchr(name, '.'))
		return 0;
	const char *axis = section + 5;
	while (*axis == ' ' || *axis == '\t')
		axis++;
	if (sl_find(&m->levels, name) < 0) {
		sl_push(&m->levels, name);
		sl_push(&m->axes, axis);
	}
	return 0;
}

/* The level.NAME = AXIS facts the pipeline stores with a study; 0 when
 * there are some. */
static int map_recorded(struct store *st, const char *study, struct level_map *m)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT substr(key, 7), value FROM facts WHERE study=? "
				       "AND substr(key, 1, 6)='level.' ORDER BY rowid",
			       -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		sl_push(&m->levels, (const char *)sqlite3_column_text(s, 0));
		sl_push(&m->axes, (const char *)sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	return m->levels.n ? 0 : -1;
}

/* The axes recorded with the study, else those of the study file the
 * database names: as recorded, else beside the database (results written
 * before the levels were recorded).  Sets *from to how the levels will be
 * told. */
static int map_load(struct store *st, const char *study, struct level_map *m, char **from)
{
	if (!map_recorded(st, study, m)) {
		*from = xstrdup("database");
		return 0;
	}
	char *path = results_study_path(st, study);
	struct strbuf err = {0};
	int rc = -1;
	if (path && *path) {
		rc = ini_load(path, map_item, m, &err);
		if (rc && path[0] != '/' && strrchr(st->path, '/')) {
			char *beside = xasprintf("%.*s/%s", (int)(strrchr(st->path, '/') - st->path),
						 st->path, path);
			sb_release(&err);
			if (!(rc = ini_load(beside, map_item, m, &err))) {
				free(path);
				path = beside;
			} else {
				free(beside);
			}
		}
	}
	if (!rc && m->levels.n)
		*from = xasprintf("study file %s", path);
	else
		*from = xasprintf("level names (the study file %s is not readable)",
				  path && *path ? path : "(none recorded)");
	sb_release(&err);
	free(path);
	return !rc && m->levels.n ? 0 : -1;
}

/* The axis a label word is a level of; NULL when it cannot be told. */
static const char *word_axis(const struct level_map *m, const char *word)
{
	int i = sl_find(&m->levels, word);
	if (i >= 0)
		return m->axes.v[i];
	/* the reserved axes' level names are fixed (flagsets/axis_kinds.c checks them) */
	if (libc_kind_known(word))
		return "libc";
	if (!strcmp(word, "static") || !strcmp(word, "dynamic"))
		return "link";
	return NULL;
}

/* What the pivot needs of one configuration. */
struct cfg_place {
	int level;  /* index into p->levels */
	int block;  /* index into p->blocks */
	size_t word; /* the level's word in the label */
};

static size_t add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = xstrdup(s);
	return (*n)++;
}

static int place_config(struct pivot *p, const struct level_map *m, const char *label,
			struct cfg_place *pl, struct strbuf *err)
{
	struct strlist words = {0}, others = {0}, named = {0};
	const char *level = NULL;
	sl_split_ws(&words, label);
	for (size_t i = 0; i < words.n; i++) {
		const char *axis = word_axis(m, words.v[i]);
		if (axis && !strcmp(axis, p->axis) && !level) {
			level = words.v[i];
			pl->word = i;
			continue;
		}
		sl_push(&others, words.v[i]);
		if (axis)
			sl_push_owned(&named, xasprintf("%s=%s", axis, words.v[i]));
		else
			sl_push(&named, words.v[i]);
	}
	int rc = 0;
	if (!level) {
		sb_addf(err, "configuration '%s' has no level of axis '%s' that can be told (%s)",
			label, p->axis, m->levels.n ? "pivot on an axis of the study" :
			"restore the study file it ran from, or pivot on libc or link");
		rc = -1;
	} else {
		pl->level = (int)add_unique(&p->levels, &p->nlevels, level);
		char *o = sl_join(&others, " ");
		size_t b = 0;
		while (b < p->nblocks && strcmp(p->blocks[b].others, o))
			b++;
		if (b == p->nblocks) {
			p->blocks = xrealloc(p->blocks, (b + 1) * sizeof(*p->blocks));
			p->blocks[b] = (struct pivot_block){.others = o, .others_named = sl_join(&named, " ")};
			p->nblocks++;
		} else {
			free(o);
		}
		pl->block = (int)b;
	}
	sl_release(&words);
	sl_release(&others);
	sl_release(&named);
	return rc;
}

/* 1 when labels a and b differ in word i alone */
static int siblings(const struct strlist *a, const struct strlist *b, size_t i)
{
	if (a->n != b->n || !strcmp(a->v[i], b->v[i]))
		return 0;
	for (size_t k = 0; k < a->n; k++)
		if (k != i && strcmp(a->v[k], b->v[k]))
			return 0;
	return 1;
}

static void flag_words(const struct result_config *c, struct strlist *w)
{
	sl_split_ws(w, c->cflags);
	sl_split_ws(w, c->ldflags);
}

/* The flags word i of c[x]'s label stands for: the words of c[x]'s compile
 * and link flags that its sibling's lack, the sibling being the
 * configuration whose label differs in that word alone, the one with
 * `prefer` there when it exists (the baseline's level: a search batch's
 * "base" adds nothing, so a candidate's flags come out exact).  "" when
 * there is no sibling. */
static char *word_flags(const struct result_config *c, size_t nc, size_t x, size_t i,
			const char *prefer)
{
	struct strlist wx = {0}, added = {0}, fx = {0}, fy = {0};
	sl_split_ws(&wx, c[x].label);
	int best = -1;
	for (size_t j = 0; j < nc && i < wx.n; j++) {
		struct strlist wj = {0};
		sl_split_ws(&wj, c[j].label);
		if (siblings(&wx, &wj, i) && (best < 0 || (prefer && !strcmp(wj.v[i], prefer))))
			best = (int)j;
		sl_release(&wj);
	}
	if (best >= 0) {
		flag_words(&c[x], &fx);
		flag_words(&c[best], &fy);
		for (size_t k = 0; k < fx.n; k++)
			if (sl_find(&fy, fx.v[k]) < 0)
				sl_push(&added, fx.v[k]);
	}
	char *s = sl_join(&added, " ");
	sl_release(&wx);
	sl_release(&added);
	sl_release(&fx);
	sl_release(&fy);
	return s;
}

/* Level word as a reader knows it: shown (its name, or "axis=name"), with
 * its flags when they say more than the name does ("c527310a4a865
 * (-fno-tree-vrp)", not "O3 (-O3)") */
static char *level_label(const char *shown, const char *word, const char *flags)
{
	if (!*flags || (flags[0] == '-' && !strcmp(flags + 1, word)))
		return xstrdup(shown);
	return xasprintf("%s (%s)", shown, flags);
}

/* The baseline's word i, or NULL */
static char *baseline_word(const struct result_config *c, size_t nc, size_t i)
{
	char *w = NULL;
	for (size_t j = 0; j < nc && !w; j++)
		if (c[j].is_baseline) {
			struct strlist b = {0};
			sl_split_ws(&b, c[j].label);
			w = i < b.n ? xstrdup(b.v[i]) : NULL;
			sl_release(&b);
		}
	return w;
}

/* Word i of c[x]'s label as level_label() shows it */
static char *word_label(const struct result_config *c, size_t nc, size_t x, size_t i,
			const char *shown, char **flags_out)
{
	char *prefer = baseline_word(c, nc, i);
	char *flags = word_flags(c, nc, x, i, prefer);
	struct strlist w = {0};
	sl_split_ws(&w, c[x].label);
	char *label = level_label(shown, w.v[i], flags);
	sl_release(&w);
	free(prefer);
	if (flags_out)
		*flags_out = flags;
	else
		free(flags);
	return label;
}

/* Each level's flags and label (from its first configuration), and each
 * block's other levels labelled likewise (from its first configuration). */
static void label_levels(struct pivot *p, const struct result_config *c, size_t nc,
			 const struct cfg_place *pl)
{
	p->level_flags = xcalloc(p->nlevels ? p->nlevels : 1, sizeof(char *));
	p->level_labels = xcalloc(p->nlevels ? p->nlevels : 1, sizeof(char *));
	for (size_t j = 0; j < nc; j++) {
		if (pl[j].level < 0) /* the noise floor */
			continue;
		size_t l = (size_t)pl[j].level;
		if (!p->level_labels[l])
			p->level_labels[l] = word_label(c, nc, j, pl[j].word, p->levels[l],
							&p->level_flags[l]);
		struct pivot_block *blk = &p->blocks[pl[j].block];
		if (blk->others_labelled)
			continue;
		struct strlist words = {0}, named = {0}, labelled = {0};
		sl_split_ws(&words, c[j].label);
		sl_split_ws(&named, blk->others_named);
		for (size_t i = 0, k = 0; i < words.n; i++) {
			if (i == pl[j].word)
				continue;
			/* names have no blanks (study.c), so the words line up */
			const char *shown = k < named.n ? named.v[k++] : words.v[i];
			char *lab = word_label(c, nc, j, i, shown, NULL);
			sl_push_owned(&labelled, lab);
		}
		blk->others_labelled = sl_join(&labelled, " ");
		sl_release(&words);
		sl_release(&named);
		sl_release(&labelled);
	}
}

double pivot_median(struct store *st, const char *study, const char *config_id,
		    const char *workload, const char *run, const char *metric)
{
	size_t n;
	double *v = results_samples(st, study, config_id, workload, run, metric, &n, NULL);
	double m = n ? stats_median(v, n) : NAN;
	free(v);
	return m;
}

static void fill_cell(struct store *st, const struct pivot *p, const struct result_config *c,
		      const struct pivot_row *r, struct pivot_cell *cell)
{
	cell->present = 1;
	cell->status = results_status(st, p->study, c->id, r->workload, r->run, &cell->detail);
	/* a failed or unsupported item has no figures to compare (the store
	 * may still hold a build's placeholder size of 0) */
	if (cell->status != OUTCOME_OK)
		return;
	cell->value = pivot_median(st, p->study, c->id, r->workload, r->run, p->metric);
	for (int k = 0; k < PIVOT_NMEM && !p->per_build; k++)
		cell->mem[k] = pivot_median(st, p->study, c->id, r->workload, r->run, p->memory[k]);
}

/* ref / this, NAN unless both are positive numbers */
static double ratio(double ref, double v)
{
	return ref > 0 && v > 0 ? ref / v : NAN;
}

/* c's ratios against ref; none when c is the reference itself */
static void cell_ratios(const struct pivot *p, const struct pivot_cell *ref, struct pivot_cell *c,
			int is_ref)
{
	double q = p->higher_better ? ratio(c->value, ref->value) : ratio(ref->value, c->value);
	/* judged: the rule's ratio (with layouts, of the layouts' medians),
	 * never one of its own beside the verdict */
	if (c->judged)
		q = p->higher_better ? c->ratio : 1 / c->ratio;
	c->pct = is_ref ? NAN : 100 * (q - 1);
	for (int k = 0; k < PIVOT_NMEM; k++) {
		c->mem_ratio[k] = is_ref ? NAN : ratio(ref->mem[k], c->mem[k]);
		c->mem_pct[k] = 100 * (c->mem_ratio[k] - 1);
	}
}

/* cand's ratio and verdict against ref on r: the one rule's
 * (analysis/verdict_item.h), as report, compare and recommend show them */
static void cell_verdict(struct store *st, const struct pivot *p, const struct verdict_rule *rule,
			 const char *cand_id, const char *ref_id, const struct pivot_row *r,
			 struct pivot_cell *cell)
{
	struct verdict_item it;
	const struct verdict_side cand = {st, p->study, cand_id}, ref = {st, p->study, ref_id};
	cell->judged = !verdict_item_judge(rule, &cand, &ref, r->workload, r->run, p->metric, &it);
	cell->verdict = cell->judged ? it.c.verdict : VERDICT_UNCHANGED;
	cell->untested = cell->judged && it.c.untested;
	cell->ratio = cell->judged ? it.c.ratio : NAN;
	verdict_item_release(&it);
}

static void fill_ratios(const struct pivot *p, struct pivot_row *r)
{
	for (size_t l = 0; l < p->nlevels; l++)
		cell_ratios(p, &r->ref, &r->cells[l],
			    r->ref.present && r->cells[l].present && l == p->ref);
	if (r->noise.present)
		cell_ratios(p, &r->ref, &r->noise, 0);
}

static void cell_init(struct pivot_cell *cell)
{
	cell->value = cell->pct = cell->ratio = NAN;
	for (int k = 0; k < PIVOT_NMEM; k++)
		cell->mem[k] = cell->mem_ratio[k] = cell->mem_pct[k] = NAN;
	for (int k = 0; k < PIVOT_NPUB; k++) {
		cell->pub_pct[k] = NAN;
		cell->same_sign[k] = -1;
	}
	cell->status = OUTCOME_UNSUPPORTED;
}

/* run --noise-floor's copy of the baseline */
static int is_noise_floor(const struct result_config *c)
{
	return !c->is_baseline && noise_floor_label(c->label);
}

/* The configuration of block b with level l, or -1. */
static int find_config(const struct cfg_place *pl, size_t nc, size_t b, size_t l)
{
	for (size_t j = 0; j < nc; j++)
		if (pl[j].block == (int)b && pl[j].level == (int)l)
			return (int)j;
	return -1;
}

/* A block without the reference level (the study excluded it, as the
 * dietlibc preset excludes glibc static) compares with the baseline
 * configuration instead, and says so. */
static int block_reference(struct pivot *p, struct pivot_block *blk, size_t b,
			   const struct result_config *c, size_t nc, const struct cfg_place *pl)
{
	int j = find_config(pl, nc, b, p->ref);
	if (j < 0)
		for (size_t i = 0; i < nc && j < 0; i++)
			if (c[i].is_baseline)
				j = (int)i;
	blk->ref_label = xstrdup(j >= 0 ? c[j].label : "");
	blk->ref_outside = j >= 0 && pl[j].block != (int)b;
	return j;
}

/* The configuration with pl's level -1 (the noise floor), or -1; sets the
 * has_noise of the baseline's block. */
static int noise_config(struct pivot *p, const struct result_config *c, size_t nc,
			const struct cfg_place *pl)
{
	int nj = -1;
	for (size_t j = 0; j < nc; j++)
		if (pl[j].level < 0)
			nj = (int)j;
	for (size_t j = 0; j < nc && nj >= 0; j++)
		if (c[j].is_baseline && pl[j].block >= 0)
			p->blocks[pl[j].block].has_noise = 1;
	return nj;
}

static void fill_rows(struct store *st, struct pivot *p, const struct result_config *c,
		      size_t nc, const struct cfg_place *pl, const struct result_select *sel,
		      const struct verdict_rule *rule)
{
	int nj = noise_config(p, c, nc, pl);
	struct strlist all_w = {0}, all_r = {0}, workloads = {0}, runs = {0};
	results_items(st, p->study, &all_w, &all_r);
	/* items come sorted: a size's rows are one per workload (run "") */
	for (size_t i = 0; i < all_w.n; i++) {
		if (!results_select_match(sel, all_w.v[i], all_r.v[i]) ||
		    (p->per_build && workloads.n &&
		     !strcmp(workloads.v[workloads.n - 1], all_w.v[i])))
			continue;
		sl_push(&workloads, all_w.v[i]);
		sl_push(&runs, p->per_build ? "" : all_r.v[i]);
	}
	sl_release(&all_w);
	sl_release(&all_r);
	for (size_t b = 0; b < p->nblocks; b++) {
		struct pivot_block *blk = &p->blocks[b];
		int rj = block_reference(p, blk, b, c, nc, pl);
		blk->rows = xcalloc(workloads.n ? workloads.n : 1, sizeof(*blk->rows));
		for (size_t i = 0; i < workloads.n; i++) {
			struct pivot_row *r = &blk->rows[blk->nrows++];
			r->workload = xstrdup(workloads.v[i]);
			r->run = xstrdup(runs.v[i]);
			r->name = *r->run ? xasprintf("%s/%s", r->workload, r->run) : xstrdup(r->workload);
			r->cells = xcalloc(p->nlevels, sizeof(*r->cells));
			for (size_t l = 0; l < p->nlevels; l++) {
				struct pivot_cell *cell = &r->cells[l];
				int j = find_config(pl, nc, b, l);
				cell_init(cell);
				if (j >= 0)
					fill_cell(st, p, &c[j], r, cell);
				else
					cell->detail = xstrdup("not in the study");
				if (j >= 0 && rj >= 0 && j != rj && cell->status == OUTCOME_OK)
					cell_verdict(st, p, rule, c[j].id, c[rj].id, r, cell);
			}
			cell_init(&r->ref);
			if (rj >= 0)
				fill_cell(st, p, &c[rj], r, &r->ref);
			else
				r->ref.detail = xstrdup("no reference");
			cell_init(&r->noise);
			if (blk->has_noise)
				fill_cell(st, p, &c[nj], r, &r->noise);
			if (blk->has_noise && rj >= 0 && r->noise.status == OUTCOME_OK)
				cell_verdict(st, p, rule, c[nj].id, c[rj].id, r, &r->noise);
			fill_ratios(p, r);
		}
	}
	sl_release(&workloads);
	sl_release(&runs);
}

int pivot_compute(struct store *st, const char *study, const char *axis, const char *metric,
		  const char *const memory[PIVOT_NMEM], const struct rank_options *o,
		  struct pivot *p, struct strbuf *err)
{
	memset(p, 0, sizeof(*p));
	p->study = xstrdup(study);
	p->axis = xstrdup(axis);
	struct result_select sel;
	if (results_select(st, study, metric, NULL, &sel, err)) {
		sb_add(err, " (see flagscope report --help: --metric)");
		results_select_release(&sel);
		return -1;
	}
	p->metric = xstrdup(sel.metric);
	p->scope = results_select_scope(&sel);
	p->unit = results_metric_unit(st, study, p->metric);
	p->higher_better = results_higher_better(st, study, p->metric);
	/* a size is a fact of the build (results.h): one row per workload */
	p->per_build = str_starts_with(p->metric, "size.");
	for (int k = 0; k < PIVOT_NMEM; k++)
		p->memory[k] = xstrdup(memory ? memory[k] : pivot_default_memory[k]);
	/* the defaults may be missing (a study without the memory meter);
	 * metrics the user named must exist: a typo is no empty table */
	for (int k = 0; memory && k < PIVOT_NMEM; k++)
		if (!results_has_metric(st, study, memory[k])) {
			sb_addf(err, "--memory: study '%s' stored no metric '%s' (name metrics it "
				     "stored; the memory meter's are mem.virt,mem.res,mem.dirty)",
				study, memory[k]);
			results_select_release(&sel);
			return -1;
		}

	size_t nc;
	struct result_config *c = results_configs(st, study, &nc);
	if (!nc) {
		sb_addf(err, "study '%s' is not in %s (run it first, or pass --study)", study,
			st->path);
		results_select_release(&sel);
		return -1;
	}
	struct level_map m = {0};
	int have_map = !map_load(st, study, &m, &p->levels_from);
	int rc = 0;
	if (have_map && sl_find(&m.axes, axis) < 0) {
		struct strlist axes = {0};
		for (size_t i = 0; i < m.axes.n; i++)
			if (sl_find(&axes, m.axes.v[i]) < 0)
				sl_push(&axes, m.axes.v[i]);
		char *names = sl_join(&axes, ", ");
		sb_addf(err, "study '%s' has no axis '%s' (its axes: %s)", study, axis, names);
		free(names);
		sl_release(&axes);
		rc = -1;
	}
	struct cfg_place *pl = xcalloc(nc, sizeof(*pl));
	for (size_t i = 0; i < nc && !rc; i++)
		if (is_noise_floor(&c[i]) && !p->noise_label) {
			p->noise_label = xstrdup(c[i].label);
			pl[i] = (struct cfg_place){.level = -1, .block = -1};
		} else {
			rc = place_config(p, &m, c[i].label, &pl[i], err);
		}
	if (!rc) {
		for (size_t i = 0; i < nc; i++)
			if (c[i].is_baseline)
				p->ref = (size_t)pl[i].level;
		label_levels(p, c, nc, pl);
		struct verdict_rule rule;
		struct calib_floors floors;
		verdict_rule_load(o, st, study, p->metric, &rule, &floors);
		fill_rows(st, p, c, nc, pl, &sel, &rule);
		calib_floors_release(&floors);
		rc = pivot_published(st, p, err);
	}
	free(pl);
	sl_release(&m.levels);
	sl_release(&m.axes);
	result_configs_free(c, nc);
	results_select_release(&sel);
	return rc;
}

void pivot_release(struct pivot *p)
{
	for (size_t b = 0; b < p->nblocks; b++) {
		struct pivot_block *blk = &p->blocks[b];
		for (size_t i = 0; i < blk->nrows; i++) {
			struct pivot_row *r = &blk->rows[i];
			for (size_t l = 0; l < p->nlevels; l++)
				free(r->cells[l].detail);
			free(r->ref.detail);
			free(r->noise.detail);
			for (int k = 0; k < PIVOT_NPUB; k++)
				free(r->pub_row[k]);
			free(r->cells);
			free(r->workload);
			free(r->run);
			free(r->name);
		}
		free(blk->rows);
		free(blk->others);
		free(blk->others_named);
		free(blk->others_labelled);
		free(blk->ref_label);
	}
	free(p->blocks);
	for (size_t l = 0; l < p->nlevels; l++) {
		free(p->levels[l]);
		if (p->level_flags)
			free(p->level_flags[l]);
		if (p->level_labels)
			free(p->level_labels[l]);
	}
	free(p->levels);
	free(p->level_flags);
	free(p->level_labels);
	for (int k = 0; k < PIVOT_NMEM; k++)
		free(p->memory[k]);
	free(p->study);
	free(p->axis);
	free(p->metric);
	free(p->scope);
	free(p->unit);
	free(p->levels_from);
	free(p->noise_label);
	free(p->published);
	for (size_t s = 0; s < p->npub_src; s++) {
		free(p->pub_src[s].label);
		free(p->pub_src[s].heading);
		free(p->pub_src[s].hardware);
		free(p->pub_src[s].versions);
	}
	memset(p, 0, sizeof(*p));
}

void pivot_print(FILE *out, const struct pivot *p, const struct pivot_ops *ops)
{
	if (ops->begin)
		ops->begin(out, p);
	for (size_t b = 0; b < p->nblocks; b++) {
		const struct pivot_block *blk = &p->blocks[b];
		if (ops->block)
			ops->block(out, p, blk, b);
		for (size_t i = 0; i < blk->nrows && ops->row; i++)
			ops->row(out, p, blk, &blk->rows[i], i);
		if (ops->block_end)
			ops->block_end(out, p, blk, b);
	}
	if (ops->end)
		ops->end(out, p);
}
