/*
 * pivot.h - a stored study pivoted on one axis, as the published libc
 * comparisons print it: one row per workload (or workload/run section),
 * one column group per level of the axis (glibc, musl, ...), each with the
 * median of the study's metric, the ratio in the studies' form and the
 * memory ratios.  A size (size.*) is a fact of the build (results.h): its
 * rows are one per workload (run ""), without memory figures.
 *
 * Which level a configuration has.  Labels are the level names in axis
 * order (matrix.h) and level names are unique across a study's axes
 * (study.c), so a label word names its axis.  The axes are read from the
 * facts level.NAME = AXIS the pipeline stores with every study (so a
 * search batch, whose recorded study file is the user's, pivots on its
 * axis flagscope-search, and a database copied to another machine pivots
 * on every axis).  Results stored before those facts were: from the study
 * file the database recorded (studies.path); when that file is gone too,
 * the reserved axes still pivot: a libc level is a name libc_lookup()
 * knows, a link level is static or dynamic.
 *
 * Blocks.  When other axes vary too (link static|dynamic, opt), the pivot
 * is made within each combination of their levels: one block per
 * combination, in study order, so every ratio compares configurations
 * that differ in the pivot axis alone.
 *
 * Labels.  A level's flags are the words of the compile and link flags of
 * a configuration with it that its sibling's lack: the configuration whose
 * label differs in that level alone, the baseline's level there when it
 * exists ("" when there is no sibling).  A search batch's candidates are
 * named by a hash ("c527310a4a865") beside "base", which adds nothing, so
 * their flags come out exact: the table heads their columns (and blocks)
 * "c527310a4a865 (-fno-tree-vrp)"; a name its flags only repeat ("O3" for
 * -O3) stands alone.
 *
 * Ratios, against the reference level (the baseline configuration's level
 * of the axis; the first level when the baseline is not stored), within a
 * block and row.  A block without the reference level (the study excluded
 * it: the dietlibc preset has no glibc static) compares with the baseline
 * configuration instead and says so (ref_outside):
 *   time_pct   = 100 * (ref / this - 1) for a lower-is-better metric
 *                (glibc_time/musl_time - 1 with glibc the reference:
 *                positive when this level is faster), 100 * (this / ref - 1)
 *                for a higher-is-better one (positive: better again);
 *   mem_ratio  = ref / this for each memory metric (virtual, resident,
 *                dirty): above 1 when this level uses less;
 *   mem_pct    = 100 * (mem_ratio - 1), the memory in the published
 *                tables' "performance ratio" form (glibc/musl - 1):
 *                positive when this level uses less.
 * The metric's ratio and verdict are the one rule's (analysis/verdict_item.h:
 * the ratio report, compare and recommend show for the same pair): with
 * layouts = N the ratio of the means of each layout's medians, so pct is
 * not always REF/LEVEL - 1 of the medians shown beside it (medians of every
 * layout's runs pooled).  The memory ratios are of those pooled medians.
 * Values are medians over the good repetitions (results.h), and only an
 * item whose outcome is ok has them: a cell of a failed build, an
 * UNSUPPORTED combination, a wrong output, or a metric not measured has
 * NAN (and its outcome).
 *
 * The noise floor.  A study run with --noise-floor stores a copy of the
 * baseline, "LABEL (noise floor)" (flagsets/matrix.h): it is no level of
 * any axis but the baseline measured again, so it is no block of its own.
 * The rows of the baseline's block carry it as their noise cell, its pct
 * and memory ratios against the baseline in the same form: what noise
 * alone does to a ratio here.
 *
 * Published figures.  A row whose workload's recipe folder has a
 * published.ini (analysis/published.h; workloads/libcbench has the Eta
 * Labs libc-bench tables) carries the published row it stands for and, per
 * level with a published figure (and the reference with one), the
 * published ratio in the same form, REF/LEVEL - 1 of the published
 * figures, and whether the measured ratio has its sign: PUB_TIME against
 * the metric's pct when the metric is time (lower is better), PUB_DIRTY
 * against the dirty memory table's mem_pct (a memory metric whose name has
 * "dirty").  The pivot counts the cells compared and those of the same
 * sign, per kind (the "sign agreement: N of M rows" line).  A published.ini
 * with several sources (the Eta Labs table and the Raspberry Pi 4 study's)
 * gives each its columns, side by side, each source named with its
 * hardware and versions; more than PIVOT_NPUBSRC sources is an error.
 *
 * How to add a pivot format: a const struct pivot_ops in
 * analysis/report_pivot.c, listed in its pivot_formats_[]; its name is a row of analysis/formats.h.
 */
#ifndef FLAGSCOPE_PIVOT_H
#define FLAGSCOPE_PIVOT_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/rank.h"
#include "analysis/stats.h"
#include "analysis/store.h"
#include "base/outcome.h"

#define PIVOT_NMEM 3 /* virtual, resident, dirty */
/* Published figures: per source (at most PIVOT_NPUBSRC in one pivot), a
 * time and a dirty column; source s's kind k is column PUB_COL(s, k), so
 * the first source's are PUB_TIME and PUB_DIRTY. */
#define PIVOT_NPUBSRC 2
#define PIVOT_NPUBKIND 2
#define PIVOT_NPUB (PIVOT_NPUBSRC * PIVOT_NPUBKIND)
enum { PUB_TIME, PUB_DIRTY };
#define PUB_COL(s, k) ((s) * PIVOT_NPUBKIND + (k))

/* A published source as the pivot names it. */
struct pivot_pub_source {
	char *label;    /* its column head: [source LABEL], or "published" */
	char *heading;  /* "TITLE (URL)" */
	char *hardware; /* where it was measured, or NULL: not stated */
	char *versions; /* the libraries' and compiler's versions, or NULL */
};

/* The memory metrics stored by the memory meter (harness/meter.c). */
extern const char *const pivot_default_memory[PIVOT_NMEM];
/* Their short names in headers and keys: "virt", "res", "dirty". */
extern const char *const pivot_memory_keys[PIVOT_NMEM];

struct pivot_cell {
	int present;         /* the block has a configuration with this level */
	enum outcome status; /* of the item in that configuration */
	char *detail;        /* why, when not ok ("" when ok); heap */
	double value;        /* median of the metric; NAN when none */
	double mem[PIVOT_NMEM];
	double pct;                   /* NAN for the reference or without values */
	double mem_ratio[PIVOT_NMEM]; /* NAN likewise */
	double mem_pct[PIVOT_NMEM];   /* NAN likewise */
	double pub_pct[PIVOT_NPUB];   /* the published ratio; NAN when none */
	double ratio;         /* judged: the rule's ratio this / reference
				 (verdict_item.h), which pct shows; else NAN */
	int judged;           /* 1: verdict is the metric's against the row's
				 reference by analysis/verdict.h's part rule
				 (the rank table's, when the reference is the
				 baseline); 0: no verdict (the reference
				 itself, or no samples on a side) */
	enum verdict verdict; /* oriented: improved = better */
	int untested;         /* judged, but a noisy metric with fewer than two
				 runs on a side: never significant */
	int same_sign[PIVOT_NPUB];    /* 1 yes, 0 no, -1 not compared (no
					 published or no measured ratio) */
};

struct pivot_row {
	char *workload, *run; /* run "" for a workload without run sections */
	char *name;           /* "libcbench/malloc_big1", or "tcpsvd" */
	struct pivot_cell *cells; /* one per level */
	struct pivot_cell ref;    /* the reference the ratios are against */
	struct pivot_cell noise;  /* the baseline's noise floor (see The noise
				     floor); present only in its block */
	char *pub_row[PIVOT_NPUB]; /* the published row's title, or NULL */
};

struct pivot_block {
	char *others;       /* the other axes' levels, "dynamic O2"; "" if none */
	char *others_named; /* with their axes where known, "link=dynamic opt=O2" */
	char *others_labelled; /* likewise, each with its flags where they say more
				  than its name: "flagscope-search=c527310a4a865 (-fno-tree-vrp)" */
	char *ref_label;    /* the configuration ratios compare with; "" if none */
	int ref_outside;    /* 1 when it is not in this block (the baseline) */
	int has_noise;      /* 1: the baseline's block of a study with a noise floor */
	struct pivot_row *rows;
	size_t nrows;
};

struct pivot {
	char *study, *axis, *metric, *unit;
	char *scope; /* the selector's items ("libcbench/malloc_big1"), or NULL: every row */
	int higher_better;
	int per_build; /* a size: rows per workload, no memory figures */
	char *memory[PIVOT_NMEM]; /* the memory metrics shown */
	char **levels;            /* in study order */
	char **level_flags;       /* per level: the flags it adds (see Labels) */
	char **level_labels;      /* per level: "NAME", or "NAME (FLAGS)" */
	size_t nlevels;
	size_t ref; /* index of the reference level */
	char *noise_label; /* "O2 (noise floor)", or NULL: the study has none */
	char *levels_from; /* "database (...)", "study file PATH", or "level names (PATH not readable)" */
	struct pivot_block *blocks;
	size_t nblocks;
	char *published;            /* "TITLE (URL)" of the first published source,
				       or NULL: no row has any */
	struct pivot_pub_source pub_src[PIVOT_NPUBSRC]; /* the sources, in the
							   order rows met them */
	size_t npub_src;
	int pub_any[PIVOT_NPUB];    /* some cell has a published ratio of the kind */
	size_t pub_rows[PIVOT_NPUB];  /* cells compared (a published and a measured ratio) */
	size_t pub_agree[PIVOT_NPUB]; /* of those, the same sign */
};

/* The median of metric's values for one item (results_samples); NAN when
 * there is none. */
double pivot_median(struct store *st, const char *study, const char *config_id,
		    const char *workload, const char *run, const char *metric);

/* Pivot study on axis.  metric: a selector as report --metric takes it
 * (results.h: METRIC, WORKLOAD, WORKLOAD/RUN, WORKLOAD/METRIC,
 * WORKLOAD/RUN/METRIC): its metric is pivoted, over its items only (the
 * other rows are left out); NULL: the study's primary metric, every row.
 * memory NULL: pivot_default_memory.  o: the options of the verdicts
 * and ratios (report's --alpha, --min-effect; NULL: rank_options_default).
 * Returns 0, or -1 with one line "what
 * is wrong (what to do)" in err: no such study or axis, a selector that
 * names nothing, a memory metric given that the study never stored, a
 * configuration whose level of the axis cannot be told. */
int pivot_compute(struct store *st, const char *study, const char *axis, const char *metric,
		  const char *const memory[PIVOT_NMEM], const struct rank_options *o,
		  struct pivot *p, struct strbuf *err);
void pivot_release(struct pivot *p);

/* Fill the rows' published figures (see Published figures) from the
 * published.ini of each row's workload as the search path finds it for
 * the study's file; pivot_compute calls it.  0, or -1 with a published.ini's
 * error in err. */
int pivot_published(struct store *st, struct pivot *p, struct strbuf *err);

/* A format: the walk calls begin, then per block block(), row() per row
 * and block_end(), then end.  Any may be NULL. */
struct pivot_ops {
	enum format format;
	void (*begin)(FILE *out, const struct pivot *p);
	void (*block)(FILE *out, const struct pivot *p, const struct pivot_block *b, size_t index);
	void (*row)(FILE *out, const struct pivot *p, const struct pivot_block *b,
		    const struct pivot_row *r, size_t index);
	void (*block_end)(FILE *out, const struct pivot *p, const struct pivot_block *b,
			  size_t index);
	void (*end)(FILE *out, const struct pivot *p);
};

/* "table", "csv", "json"; NULL for any other name. */
const struct pivot_ops *pivot_format(const char *name);
/* The formats pivot_print writes (formats.h: format_family; err NULL but
 * in the start-up check). */
format_set pivot_formats(struct strbuf *err);
void pivot_print(FILE *out, const struct pivot *p, const struct pivot_ops *ops);

#endif
