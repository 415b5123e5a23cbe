/*
 * report_lnt.h - a study as LNT submissions (LNT's JSON report format,
 * format_version "2"), so its results can be imported into an LNT server.
 *
 * One submission per configuration, one per line (JSON Lines; split them
 * with `split -l 1` to submit each file).  LNT uniques a machine by its
 * name and its whole info, and compares runs of one machine along its run
 * order, so:
 *   machine.name   "STUDY__LABEL" (blanks as '_'): a configuration is a
 *                  machine, as LNT names its configurations
 *                  ("<hardware>-<arch>-<opt level>-<branch>"); a saved
 *                  baseline (study "baseline:NAME") carries the name of
 *                  the study it was saved from, so LNT orders its runs
 *                  with that study's later ones
 *   machine info   what stays the same from one run of it to the next: the
 *                  configuration (cc, toolchain, cflags, ldflags, link, id)
 *                  and the machine state's cpu, cores, governor, boost,
 *                  freq, kernel, vm, pin; and the NTS schema's machine
 *                  fields hardware (the CPU) and os ("Linux KERNEL")
 *   run            start_time and end_time (the machine state's started and
 *                  finished, else when the study was stored), the order
 *                  llvm_project_revision (the start time's digits,
 *                  YYYYMMDDHHMMSS: later runs sort later), the study (and
 *                  for a baseline its name as "baseline"), the
 *                  configuration's label and the load averages
 *   tests          one per item, named "flagscope/WORKLOAD[/RUN]", with the
 *                  NTS test suite's metrics: execution_time (every good
 *                  repetition's `time`, s), compile_time (the build's
 *                  seconds, when it was built, not taken from the cache),
 *                  code_size (size.text, bytes), mem_bytes (every
 *                  repetition's mem.res, bytes); an item that failed has
 *                  execution_status 1 (LNT's FAIL) and no samples.
 */
#ifndef FLAGSCOPE_REPORT_LNT_H
#define FLAGSCOPE_REPORT_LNT_H

#include <stdio.h>

#include "analysis/store.h"

/* Write study's submissions to out; 0, or -1 when the study has no
 * configurations. */
int report_lnt(FILE *out, struct store *st, const char *study);

#endif
