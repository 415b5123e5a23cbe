/*
 * matrix.h - a study's axes expanded into configurations.
 *
 * A configuration is one level per axis.  Its flags are the concatenation
 * of its levels' values in axis order; its label is its level names in
 * axis order ("gcc O3"); its id is a hash of what it builds with (compiler
 * command, CFLAGS, LDFLAGS, linkage) so renaming a level keeps results.
 */
#ifndef FLAGSCOPE_MATRIX_H
#define FLAGSCOPE_MATRIX_H

#include "flagsets/study.h"

struct config {
	char id[17];  /* 16 hex digits */
	char *label;  /* level names joined by spaces */
	char *cc;     /* compiler command, default "gcc" */
	char *cflags; /* levels of generic axes */
	char *ldflags;
	int link;        /* 1 static, 0 dynamic, -1 the study does not say */
	char *libc;      /* "glibc", "musl", ... or NULL when the study does not say */
	char *target;    /* target triple, or NULL for native */
	char *cpu;       /* emulator CPU model, or NULL */
	/* set by the harness when it prepares a cross configuration */
	char *sysroot;   /* the sysroot built for it, or NULL */
	char *notes;     /* flags the harness had to add and why, or NULL */
	size_t *levels;  /* level index per axis */
	int is_baseline;
};

struct matrix {
	struct config *configs;
	size_t n;
	size_t excluded; /* how many combinations [exclude] removed */
	int baseline;    /* index into configs */
};

/* Expand.  The baseline is the configuration whose levels include every
 * level named by the study's baseline (unnamed axes take their first
 * level).  Returns 0, or -1 with "file:line: ..." in err (the baseline is
 * excluded, or everything is excluded). */
int matrix_expand(const struct study *s, struct matrix *m, struct strbuf *err);
void matrix_release(struct matrix *m);

/* 16 hex digits of sha256 over cc, cflags, ldflags and linkage. */
void config_compute_id(struct config *c);

#endif
