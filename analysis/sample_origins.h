/*
 * sample_origins.h - `report --samples`: every stored repetition of a
 * study with the build that made it, and whether its samples count
 * (analysis/store.h, "Provenance": only the current build's do).
 */
#ifndef FLAGSCOPE_SAMPLE_ORIGINS_H
#define FLAGSCOPE_SAMPLE_ORIGINS_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/store.h"

/* One line per stored run (warm-ups are rep 0) of the study's
 * configurations, in study order: config, workload[/run], rep, outcome,
 * metric's value (or "-"), build key and binary hash (12 hex digits each),
 * then "counted", "not counted: another build (now KEY)" or "not counted:
 * OUTCOME"/"warm-up"; format "table" or "csv" (full hashes).  Returns the
 * number of lines written (0: nothing stored), or -1 when format is
 * neither. */
int sample_origins_print(FILE *out, struct store *st, const char *study, const char *metric,
			 const char *format);
/* The formats sample_origins_print writes (formats.h: format_family; err
 * NULL but in the start-up check). */
format_set sample_origins_formats(struct strbuf *err);

#endif
