/*
 * meter_cachegrind.h - instructions executed, in total and per function,
 * from one run under `valgrind --tool=cachegrind --cache-sim=no`
 * (natively).  As a study's meter it adds "insns" (cachegrind's Ir) from
 * one wrapped run after the warm-up, stored with the warm-up (rep 0),
 * where the ranking reads a metric no repetition has (store_get_samples in
 * analysis/store.h): `metric = insns` ranks on it.  `why` and the search's
 * insns objective use cachegrind_run() for the per-function counts.
 * Instruction counts are deterministic, so one run is enough.
 */
#ifndef FLAGSCOPE_METER_CACHEGRIND_H
#define FLAGSCOPE_METER_CACHEGRIND_H

#include "base/fn_counts.h"
#include "harness/meter.h"
#include "workloads/recipe.h"

/* Parse a cachegrind output file (format: events, fl=/fi=/fe=/fn= lines,
 * "LINE COUNT..." lines, summary).  The first event must be Ir.  0, or -1
 * with a reason in err. */
int cachegrind_parse(const char *path, struct fn_counts *out, struct strbuf *err);

/* The absolute path of valgrind on PATH (heap), or NULL. */
char *cachegrind_valgrind_path(void);

/* Run `run` of the build in build_dir (<cache>/builds/<key>, binaries in
 * out/) once plain and once under cachegrind, as execute_run runs it (the
 * same argv, input folder, clean environment and working directory as a
 * measured run), with the workload's inputs in in_dir.  Reentrant: the
 * counts go straight to out (the meter's exec_ctx.meter_out).  0, or -1
 * with a reason in err (valgrind missing, the build gone, the plain run
 * failed, the program failed under valgrind). */
int cachegrind_run(const char *build_dir, const struct recipe_run *run, const char *in_dir,
		   struct fn_counts *out, struct strbuf *err);

#endif
