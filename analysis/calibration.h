/*
 * calibration.h - the smallest difference this machine can tell from
 * layout and noise, per item (workload, or workload/run section) and
 * metric: what `flagscope calibrate` measures and stores, and what
 * `--min-effect auto` reads (doc/layout.md says why the floor is what it
 * is).
 *
 * A calibration is a study of one configuration (the baseline) built
 * several times in ways that change only addresses: the baseline, its
 * copy (the same flags built again, run --noise-floor), and
 * alignment-only variants (-falign-functions=N, ...).  Per item:
 *   noise   the run-to-run noise of one binary at `runs` runs a side: the
 *           95th percentile, over CALIB_SPLITS random splits of the
 *           baseline's and its copy's runs pooled into two halves of
 *           `runs` each, of |log(median(half 1) / median(half 2))|;
 *   layout  the largest |log(median(i) / median(j))| over every two builds
 *           of the set (baseline, copy, variants): what layout alone did;
 *   floor   exp(max(noise, layout)) - 1, as a relative difference: an A/A
 *           pair within it is what this machine does to one program;
 *   aslr    log(median(ASLR off) / median(ASLR on)) of the baseline and
 *           its copy (NAN when not measured: setarch -R refused);
 *   env     the relative interquartile range of the baseline's runs
 *           with ASLR off and the environment padded per run (NAN when
 *           not measured), beside `spread`, the same of its runs with
 *           ASLR on: how much stack placement moves one binary.
 * The environment and ASLR are reported, not part of the floor: every
 * configuration of a study runs in the same environment, interleaved.
 *
 * Stored in the table calibrations (analysis/store.c), keyed by the
 * machine (calibration_machine_id: CPU model, cores, virtual or not),
 * item and metric; a new calibration replaces the old rows.
 */
#ifndef FLAGSCOPE_CALIBRATION_H
#define FLAGSCOPE_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/store.h"
#include "base/util.h"

#define CALIB_SPLITS 2000 /* random half splits for the noise percentile */
#define CALIB_QUANTILE 0.95

/* One build's samples of one item. */
struct calib_samples {
	const double *v;
	size_t n;
};

/* What one item's floor is computed from (nothing owned). */
struct calib_input {
	struct calib_samples base, copy;   /* the baseline and its copy */
	const struct calib_samples *variants; /* alignment-only builds */
	size_t nvariants;
	struct calib_samples aslr_off;     /* the baseline, ASLR off; n 0: none */
};

struct calib_row {
	char *item, *metric;                /* heap */
	double noise, layout, floor;        /* see above; floor relative */
	double aslr, env, spread;           /* NAN when not measured */
	int runs, builds;                   /* runs a side; builds compared */
};

/* Compute row's figures from in (item and metric are left alone).  The
 * splits draw from a generator seeded with seed.  0, or -1 when the
 * baseline or its copy has fewer than 2 runs (nothing to split). */
int calibration_compute(const struct calib_input *in, uint64_t seed, struct calib_row *row);
void calib_row_release(struct calib_row *row);

/* The machine a study ran on, from its stored machine state
 * (store_get_machine): 16 hex digits of the sha256 of its cpu, cores
 * and vm values, and its cpu as a label (heap).  -1 when the study has
 * no machine state. */
int calibration_machine_id(struct store *st, const char *study, char id[17], char **label);

/* Replace the calibration of machine id (label: its CPU) with rows,
 * measured by study.  One transaction; 0, or -1 with the store's error
 * in st->why. */
int calibration_store(struct store *st, const char *id, const char *label, const char *study,
		      const struct calib_row *rows, size_t n);

/* The floors of one machine and metric, per item. */
struct calib_floors {
	char id[17];          /* the machine; "" when the study has none */
	char *label;          /* its CPU, or NULL */
	struct strlist items; /* item names */
	double *floor;        /* per item, relative */
	size_t n;
};
/* The floors stored for the machine `study` ran on and metric (none when
 * the database has no calibration of it: f->n 0).  Never fails. */
void calibration_floors_load(struct store *st, const char *study, const char *metric,
			     struct calib_floors *f);
/* The floor of item; NAN when none is stored. */
double calib_floors_get(const struct calib_floors *f, const char *item);
void calib_floors_release(struct calib_floors *f);

#endif
