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
	int pgo;         /* 1: gen-use (harness/pgo.h), 0: none or no pgo axis */
	/* set by the harness when it prepares a cross configuration */
	char *sysroot;   /* the sysroot built for it, or NULL */
	char *notes;     /* flags the harness had to add and why, or NULL */
	size_t *levels;  /* level index per axis */
	int is_baseline;
	int noise_floor; /* run --noise-floor's copy of the baseline: its own
			    id and build, never sharing another's runs */
	int layout;        /* layouts = N: 0 the plain build, 1..N-1 a layout
			      variant of configs[layout_of] (matrix_layout_flags) */
	size_t layout_of;  /* a variant's plain configuration (its own index
			      when layout is 0) */
};

struct matrix {
	struct config *configs;
	size_t n;
	size_t excluded; /* how many combinations [exclude] removed */
	int baseline;    /* index into configs */
};

/* What a layout variant's label ends with: "gcc O2 [layout 2]" */
#define LAYOUT_LABEL_FMT "%s [layout %d]"
/* What makes layout variant v (1..) out of its plain build (doc/layout.md,
 * "Layout variants"): the functions in sections of their own
 * (-ffunction-sections), linked by lld in an order shuffled by seed v
 * (--shuffle-sections=.text.*=v: the same order for the same objects and
 * seed, so a variant rebuilds byte for byte), every other variant's
 * functions aligned to 32 or 64 bytes (v = 1, 4, 7: 32; v = 2, 5: 64; v =
 * 3, 6: the compiler's default), and the link's relocations kept
 * (--emit-relocs) so that harness/layout_check.h can tell address fields
 * from other code; where cflags or ldflags hold the word -static, also
 * -Wl,--no-dynamic-linker (a static program has no interpreter: lld would
 * write the one musl-gcc's specs name).  matrix_layout_flags appends them
 * to cflags and ldflags (a blank first where they are not empty); nothing
 * for v <= 0.
 * matrix_layout_describe appends the words the dry run's cost line says
 * ("function order seed 2, functions aligned to 64"). */
#define LAYOUT_SHUFFLE_GLOB ".text.*"
/* Variant 0 of layouts = N > 1: the configuration's own build with
 * -ffunction-sections added (and its id recomputed), linked as the
 * configuration links, in the compiler's order: its functions assembled
 * as in every other variant (matrix.c says why). */
void matrix_layout_base(struct config *c);
void matrix_layout_flags(int v, struct strbuf *cflags, struct strbuf *ldflags);
void matrix_layout_describe(int v, struct strbuf *out);

/* What a noise floor's label ends with (analysis/noise_floor.h reads it) */
#define NOISE_FLOOR_SUFFIX " (noise floor)"

/* Expand.  With s->layouts = N > 1, after the study's configurations (and
 * the noise floor) come N - 1 layout variants of each of them (the noise
 * floor's are noise-floor copies too, of seeds N..2N-2), configuration-major, and every configuration (the noise
 * floor too) becomes variant 0 (matrix_layout_base): the same levels, its
 * flags plus matrix_layout_flags(v), the label LAYOUT_LABEL_FMT, layout = v,
 * layout_of its index, and an id of its own ("layout=v" hashed in).
 * With s->noise_floor a copy of the baseline comes last,
 * labelled "LABEL (noise floor)", with its own id (and build key).  The baseline is the configuration whose levels include every
 * level named by the study's baseline (unnamed axes take their first
 * level).  Returns 0, or -1 with "file:line: ..." in err (the baseline is
 * excluded, or everything is excluded). */
int matrix_expand(const struct study *s, struct matrix *m, struct strbuf *err);
void matrix_release(struct matrix *m);

/* Configurations by their levels, in any order, as a study's `baseline =`
 * names one: want is level names separated by blanks ("O2 gcc12"), and a
 * label (level names joined by blanks, above) matches when every one of
 * them is among its words.  A label equal to want is the only match (a
 * level name holding a blank).  The same matcher picks the baseline of a
 * matrix (the first match: unnamed axes take their first level) and the
 * configurations compare and why are given.
 *
 * config_labels_matching: how many labels match; *first (may be NULL) the
 * index of the first.  config_label_find: the index of the one label that
 * matches, or -1 with why in err ("no configuration has level 'x' (its
 * configurations: ...)", or "'O2' matches 2 configurations: 'gcc O2',
 * 'clang O2' (name one more of its levels)"). */
size_t config_labels_matching(const char *const *labels, size_t n, const char *want,
			      size_t *first);
int config_label_find(const char *const *labels, size_t n, const char *want,
		      struct strbuf *err);

/* 16 hex digits of sha256 over cc, cflags, ldflags and linkage. */
void config_compute_id(struct config *c);

/* Sharding: `flagscope run STUDY --shard I/N` runs the (configuration,
 * workload) pairs for which this is 1, into its own database (joined by
 * flagscope merge, analysis/merge.h).  Every pair belongs to exactly one
 * shard of N, the same on every machine (a hash, not an order), so N
 * shards together run the whole study.  0 also for i outside [0, n) or
 * n < 1. */
int shard_selects(const char *config_id, const char *workload, int i, int n);

#endif
