/*
 * synthdb.h - synthetic results databases for the analysis tests, written
 * through the store API (the same calls `flagscope run` makes), so the
 * schema is always the real one.  Samples are drawn from N(mu, mu * rel_sd)
 * with a seeded generator: every run of a test sees the same numbers.
 *
 * A configuration's id is derived from its label ("gcc O2" -> "id-gcc-O2").
 */
#ifndef FLAGSCOPE_SYNTHDB_H
#define FLAGSCOPE_SYNTHDB_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "analysis/stats.h"
#include "analysis/store.h"
#include "tests/testlib.h"

/* The number a query such as "SELECT count(*) ..." answers, or -1. */
static inline long synth_count(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	long n = -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			n = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	return n;
}

/* The id a label gets; static buffer. */
static inline const char *synth_id(const char *label)
{
	static char id[128];
	snprintf(id, sizeof(id), "id-%s", label);
	for (char *p = id; *p; p++)
		if (*p == ' ')
			*p = '-';
	return id;
}

/* A fresh database at dir/name (removed first); the study and its
 * configurations, labels[0] the baseline.  cflags[i] may be NULL. */
static inline void synth_open(struct store *st, const char *dir, const char *name,
			      const char *study, const char *metric, const char *const *labels,
			      const char *const *cflags, size_t n)
{
	char *path = xasprintf("%s/%s", dir, name);
	unlink(path);
	struct strbuf err = {0};
	if (store_open(st, path, 1, &err)) {
		fprintf(stderr, "synth_open: %s\n", sb_str(&err));
		exit(1);
	}
	store_put_study(st, &(struct store_study){.name = study, .path = "synthetic.study",
						   .metric = metric});
	for (size_t i = 0; i < n; i++) {
		struct store_config c = {
			.study = study, .id = synth_id(labels[i]), .label = labels[i], .cc = "gcc",
			.toolchain_id = "tc", .toolchain_version = "gcc version 12.2.0 (synthetic)",
			.cflags = cflags && cflags[i] ? cflags[i] : "-O2", .ldflags = "",
			.link = "default", .is_baseline = i == 0, .order = (int)i,
		};
		store_put_config(st, &c);
	}
	sb_release(&err);
	free(path);
}

static inline double synth_normal(struct rng *r, double mu, double sigma)
{
	double u1 = 1 - rng_uniform(r), u2 = rng_uniform(r);
	return mu + sigma * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* One run section of one item of one configuration: a build (ok, with a
 * .text size), a warm-up run with `status` (its outcome decides the
 * item's; detail NULL: "" when ok, a wrong-output message otherwise), and
 * n repetitions of `metric` drawn around mu (rel_sd 0: all exactly mu),
 * ok with that detail too.  Called again with another metric, it adds that
 * metric's samples to the same repetitions. */
static inline void synth_run(struct store *st, const char *study, const char *label,
			     const char *workload, const char *run, const char *status,
			     const char *detail, const char *metric, const char *unit, double mu,
			     double rel_sd, size_t n, double text_size, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	char id[128];
	snprintf(id, sizeof(id), "%s", synth_id(label));
	struct store_build b = {
		.study = study, .config_id = id, .workload = workload, .key = "synthetic-key",
		.status = "ok", .detail = "", .facts = "[]", .seconds = 1,
	};
	store_put_build(st, &b);
	struct store_metric size = {"size.text", text_size, "B"};
	store_put_build_sizes(st, study, id, workload, &size, 1);
	int ok = !strcmp(status, "ok");
	if (!detail)
		detail = ok ? "" : "output differs from the reference at byte 4";
	store_put_run(st, study, id, workload, run, 0, status, detail, NULL, 0);
	for (size_t i = 1; i <= n; i++) {
		struct store_metric m = {metric, rel_sd ? synth_normal(&r, mu, mu * rel_sd) : mu, unit};
		store_put_run(st, study, id, workload, run, (int)i, "ok", ok ? detail : "", &m, 1);
	}
}

/* synth_run for a workload without run sections. */
static inline void synth_item(struct store *st, const char *study, const char *label,
			      const char *workload, const char *status, const char *metric,
			      const char *unit, double mu, double rel_sd, size_t n, double text_size,
			      uint64_t seed)
{
	synth_run(st, study, label, workload, "", status, NULL, metric, unit, mu, rel_sd, n,
		  text_size, seed);
}

/* A workload whose build failed in one configuration: no runs. */
static inline void synth_build_failed(struct store *st, const char *study, const char *label,
				      const char *workload, const char *detail)
{
	struct store_build b = {
		.study = study, .config_id = synth_id(label), .workload = workload,
		.key = "synthetic-key", .status = "build_failed", .detail = detail, .facts = "[]",
		.seconds = 1,
	};
	store_put_build(st, &b);
}

#endif
