/* matrix.c - see matrix.h */
#include "flagsets/matrix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int excluded_by(const struct study *s, const size_t *levels, const struct exclude_rule *r)
{
	for (size_t i = 0; i < r->levels.n; i++) {
		size_t ai, li;
		if (study_find_level(s, r->levels.v[i], &ai, &li) || levels[ai] != li)
			return 0;
	}
	return 1;
}

void config_compute_id(struct config *c)
{
	struct strbuf sb = {0};
	char hex[65];
	sb_addf(&sb, "cc=%s\ncflags=%s\nldflags=%s\nlink=%s\n", c->cc, c->cflags, c->ldflags,
		c->link == 1 ? "static" : c->link == 0 ? "dynamic" : "default");
	/* without a libc axis the id stays what it was before the axis existed */
	if (c->libc)
		sb_addf(&sb, "libc=%s\n", c->libc);
	if (c->target)
		sb_addf(&sb, "target=%s\ncpu=%s\n", c->target, c->cpu ? c->cpu : "");
	if (c->pgo)
		sb_add(&sb, "pgo=gen-use\n");
	if (c->noise_floor)
		sb_add(&sb, "copy=noise-floor\n");
	if (c->layout)
		sb_addf(&sb, "layout=%d\n", c->layout);
	sha256_hex(sb.buf, sb.len, hex);
	memcpy(c->id, hex, 16);
	c->id[16] = '\0';
	sb_release(&sb);
}

/* every word of want is a word of label */
static int label_has_levels(const char *label, const struct strlist *want)
{
	struct strlist words = {0};
	sl_split_ws(&words, label);
	int all = 1;
	for (size_t i = 0; i < want->n && all; i++)
		all = sl_find(&words, want->v[i]) >= 0;
	sl_release(&words);
	return all;
}

/* The matches of want, in label order; an exact label is the only one. */
static size_t label_matches(const char *const *labels, size_t n, const char *want,
			    size_t *match)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(labels[i], want)) {
			match[0] = i;
			return 1;
		}
	struct strlist words = {0};
	sl_split_ws(&words, want);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (label_has_levels(labels[i], &words))
			match[m++] = i;
	sl_release(&words);
	return m;
}

size_t config_labels_matching(const char *const *labels, size_t n, const char *want,
			      size_t *first)
{
	size_t *match = xcalloc(n ? n : 1, sizeof(size_t));
	size_t m = label_matches(labels, n, want, match);
	if (m && first)
		*first = match[0];
	free(match);
	return m;
}

/* "'a', 'b', 'c' and 2 more" */
static void add_labels(struct strbuf *sb, const char *const *labels, const size_t *idx, size_t n)
{
	const size_t most = 6;
	for (size_t i = 0; i < n && i < most; i++)
		sb_addf(sb, "%s'%s'", i ? ", " : "", labels[idx[i]]);
	if (n > most)
		sb_addf(sb, " and %zu more", n - most);
}

int config_label_find(const char *const *labels, size_t n, const char *want,
		      struct strbuf *err)
{
	size_t *match = xcalloc(n ? n : 1, sizeof(size_t));
	size_t m = label_matches(labels, n, want, match);
	int found = m == 1 ? (int)match[0] : -1;
	if (!m) {
		for (size_t i = 0; i < n; i++)
			match[i] = i;
		sb_addf(err, "no configuration has the level%s '%s' (its configurations: ",
			strchr(want, ' ') ? "s" : "", want);
		add_labels(err, labels, match, n);
		sb_addc(err, ')');
	} else if (m > 1) {
		sb_addf(err, "'%s' matches %zu configurations: ", want, m);
		add_labels(err, labels, match, m);
		sb_add(err, " (name one more of its levels, in any order)");
	}
	free(match);
	return found;
}

static void config_release(struct config *c)
{
	free(c->label);
	free(c->cc);
	free(c->cflags);
	free(c->ldflags);
	free(c->levels);
	free(c->libc);
	free(c->target);
	free(c->sysroot);
	free(c->notes);
	free(c->cpu);
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->n; i++)
		config_release(&m->configs[i]);
	free(m->configs);
	memset(m, 0, sizeof(*m));
	m->baseline = -1;
}

static void config_fill(const struct study *s, const size_t *levels, struct config *c)
{
	struct strbuf label = {0}, cflags = {0}, ldflags = {0};
	memset(c, 0, sizeof(*c));
	c->link = -1;
	c->levels = xcalloc(s->naxes ? s->naxes : 1, sizeof(size_t));
	memcpy(c->levels, levels, s->naxes * sizeof(size_t));
	for (size_t a = 0; a < s->naxes; a++) {
		const struct level *l = &s->axes[a].levels[levels[a]];
		struct strbuf *into = NULL;
		if (label.len)
			sb_addc(&label, ' ');
		sb_add(&label, l->name);
		switch (s->axes[a].kind->kind) {
		case AXIS_CC:
			free(c->cc);
			c->cc = xstrdup(l->value);
			break;
		case AXIS_LINK:
			c->link = !strcmp(l->name, "static");
			into = &ldflags;
			if (c->link == 1 && !strstr(l->value, "-static")) {
				if (ldflags.len)
					sb_addc(&ldflags, ' ');
				sb_add(&ldflags, "-static");
			}
			break;
		case AXIS_LDFLAGS:
			into = &ldflags;
			break;
		case AXIS_LIBC:
			free(c->libc);
			c->libc = xstrdup(l->name);
			into = &cflags;
			break;
		case AXIS_FLAGS:
			into = &cflags;
			break;
		case AXIS_TARGET:
			free(c->target);
			/* `native`: this machine */
			c->target = strcmp(l->value, "native") ? xstrdup(l->value) : NULL;
			break;
		case AXIS_CPU:
			free(c->cpu);
			c->cpu = xstrdup(l->value);
			break;
		case AXIS_PGO:
			c->pgo = !strcmp(l->name, "gen-use");
			break;
		}
		if (into && *l->value) {
			if (into->len)
				sb_addc(into, ' ');
			sb_add(into, l->value);
		}
		/* reserved keys tied to this level */
		if (l->keys[LKEY_TARGET]) {
			free(c->target);
			c->target = xstrdup(l->keys[LKEY_TARGET]);
		}
		if (l->keys[LKEY_CPU]) {
			free(c->cpu);
			c->cpu = xstrdup(l->keys[LKEY_CPU]);
		}
		if (l->keys[LKEY_CC]) {
			free(c->cc);
			c->cc = xstrdup(l->keys[LKEY_CC]);
		}
		if (l->keys[LKEY_LIBC]) {
			free(c->libc);
			c->libc = xstrdup(l->keys[LKEY_LIBC]);
		}
		if (l->keys[LKEY_LDFLAGS]) {
			if (ldflags.len)
				sb_addc(&ldflags, ' ');
			sb_add(&ldflags, l->keys[LKEY_LDFLAGS]);
		}
	}
	if (!c->cc)
		c->cc = xstrdup("gcc"); /* Debian's system compiler; musl-gcc and diet wrap it */
	c->label = label.len ? sb_detach(&label) : xstrdup("default");
	c->cflags = sb_detach(&cflags);
	c->ldflags = sb_detach(&ldflags);
	sb_release(&label);
	config_compute_id(c);
}

/* Why alignments cycle 32, 64, the default: a few small paddings on top
 * of the order give every variant other addresses mod 64 as well, where
 * 16 << v would make the binary grow to page-aligned functions by v = 8
 * and hide the order behind the padding. */
static int layout_align(int v)
{
	static const int align[] = {32, 64, 0};
	return v > 0 ? align[(v - 1) % 3] : 0;
}

/* a word "-static" in either */
static int links_static(const struct strbuf *cflags, const struct strbuf *ldflags)
{
	struct strlist words = {0};
	sl_split_ws(&words, sb_str(cflags));
	sl_split_ws(&words, sb_str(ldflags));
	int yes = sl_find(&words, "-static") >= 0;
	sl_release(&words);
	return yes;
}

void matrix_layout_flags(int v, struct strbuf *cflags, struct strbuf *ldflags)
{
	if (v <= 0)
		return;
	/* musl-gcc's specs name its dynamic linker in static links too: GNU
	 * ld drops it there, lld writes it as the interpreter of a static
	 * program, which then crashes at start */
	int no_interp = links_static(cflags, ldflags);
	sb_addf(cflags, "%s-ffunction-sections", cflags->len ? " " : "");
	if (layout_align(v))
		sb_addf(cflags, " -falign-functions=%d", layout_align(v));
	sb_addf(ldflags, "%s-fuse-ld=lld -Wl,--shuffle-sections=" LAYOUT_SHUFFLE_GLOB "=%d "
			 "-Wl,--emit-relocs%s",
		ldflags->len ? " " : "", v, no_interp ? " -Wl,--no-dynamic-linker" : "");
}

/* Why variant 0 has its functions in sections too: gas encodes a jump
 * (short or near) and pads inside a function by what it knows of the
 * distances, and it knows them differently for a function in a section of
 * its own; with -ffunction-sections in every variant each function is
 * assembled alike in all of them, and only the linker's addresses differ
 * (lz4, bzip2 and libcbench each had functions with other jump encodings
 * against a build without it). */
void matrix_layout_base(struct config *c)
{
	char *flags = xasprintf("%s%s-ffunction-sections", c->cflags, *c->cflags ? " " : "");
	free(c->cflags);
	c->cflags = flags;
	config_compute_id(c);
}

void matrix_layout_describe(int v, struct strbuf *out)
{
	sb_addf(out, "function order seed %d", v);
	if (layout_align(v))
		sb_addf(out, ", functions aligned to %d", layout_align(v));
}

/* layouts = N: the variants of every configuration after them (matrix.h) */
static void add_layouts(const struct study *s, struct matrix *m)
{
	if (s->layouts <= 1)
		return;
	size_t plain = m->n;
	m->configs = xrealloc(m->configs, (plain * (size_t)s->layouts + 1) * sizeof(*m->configs));
	for (size_t i = 0; i < plain; i++) {
		m->configs[i].layout_of = i;
		matrix_layout_base(&m->configs[i]);
		for (int v = 1; v < s->layouts; v++) {
			struct config *lv = &m->configs[m->n++];
			config_fill(s, m->configs[i].levels, lv);
			/* the noise floor's variants are copies too, of other seeds
			 * than the baseline's (N..2N-2): a pure A/A pair whose
			 * layouts differ as two configurations' do */
			lv->noise_floor = m->configs[i].noise_floor;
			int seed = lv->noise_floor ? v + s->layouts - 1 : v;
			char *label = xasprintf(LAYOUT_LABEL_FMT, m->configs[i].label, v);
			struct strbuf cflags = {0}, ldflags = {0};
			sb_add(&cflags, lv->cflags);
			sb_add(&ldflags, lv->ldflags);
			matrix_layout_flags(seed, &cflags, &ldflags);
			free(lv->label);
			free(lv->cflags);
			free(lv->ldflags);
			lv->label = label;
			lv->cflags = sb_detach(&cflags);
			lv->ldflags = sb_detach(&ldflags);
			lv->layout = v;
			lv->layout_of = i;
			config_compute_id(lv);
		}
	}
}

int matrix_expand(const struct study *s, struct matrix *m, struct strbuf *err)
{
	size_t *levels = xcalloc(s->naxes ? s->naxes : 1, sizeof(size_t));
	size_t *want = xcalloc(s->naxes ? s->naxes : 1, sizeof(size_t));
	memset(m, 0, sizeof(*m));
	m->baseline = -1;
	for (size_t i = 0; i < s->baseline.n; i++) {
		size_t ai, li;
		if (!study_find_level(s, s->baseline.v[i], &ai, &li))
			want[ai] = li;
	}
	for (;;) {
		const struct exclude_rule *rule = NULL;
		for (size_t r = 0; r < s->nexcludes && !rule; r++)
			if (excluded_by(s, levels, &s->excludes[r]))
				rule = &s->excludes[r];
		if (rule) {
			m->excluded++;
			if (!memcmp(levels, want, s->naxes * sizeof(size_t))) {
				struct config c;
				config_fill(s, levels, &c);
				sb_addf(err, "%s:%d: the baseline configuration (%s) is excluded by [exclude] rule '%s' (change the baseline or the rule)",
					s->path, rule->line, c.label, rule->name);
				config_release(&c);
				free(levels);
				free(want);
				matrix_release(m);
				return -1;
			}
		} else {
			m->configs = xrealloc(m->configs, (m->n + 1) * sizeof(*m->configs));
			config_fill(s, levels, &m->configs[m->n]);
			m->n++;
		}
		/* odometer: the last axis turns fastest */
		size_t a = s->naxes;
		while (a > 0 && ++levels[a - 1] == s->axes[a - 1].nlevels)
			levels[--a] = 0;
		if (a == 0)
			break;
	}
	free(levels);
	free(want);
	if (!m->n) {
		sb_addf(err, "%s: every configuration is excluded (loosen the [exclude] rules)", s->path);
		matrix_release(m);
		return -1;
	}
	/* the first match has the first level of every axis the baseline does
	 * not name (the odometer's order), and it is not excluded (above) */
	const char **labels = xcalloc(m->n, sizeof(*labels));
	for (size_t i = 0; i < m->n; i++)
		labels[i] = m->configs[i].label;
	char *named = sl_join(&s->baseline, " ");
	size_t first;
	if (config_labels_matching(labels, m->n, named, &first)) {
		m->baseline = (int)first;
		m->configs[first].is_baseline = 1;
	}
	free(named);
	free(labels);
	if (s->noise_floor && m->baseline >= 0) {
		/* the baseline again, as if it were another configuration */
		m->configs = xrealloc(m->configs, (m->n + 1) * sizeof(*m->configs));
		struct config *nf = &m->configs[m->n];
		config_fill(s, m->configs[m->baseline].levels, nf);
		char *label = xasprintf("%s" NOISE_FLOOR_SUFFIX, nf->label);
		free(nf->label);
		nf->label = label;
		nf->noise_floor = 1;
		config_compute_id(nf);
		m->n++;
	}
	add_layouts(s, m);
	/* two configurations that build identically are the same configuration */
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = i + 1; j < m->n; j++)
			if (!strcmp(m->configs[i].id, m->configs[j].id)) {
				sb_addf(err, "%s: configurations '%s' and '%s' build with the same compiler and flags (make their levels differ)",
					s->path, m->configs[i].label, m->configs[j].label);
				matrix_release(m);
				return -1;
			}
	return 0;
}

int shard_selects(const char *config_id, const char *workload, int i, int n)
{
	if (n < 1 || i < 0 || i >= n)
		return 0;
	struct strbuf key = {0};
	sb_addf(&key, "%s\n%s", config_id, workload);
	char hex[65];
	sha256_hex(key.buf, key.len, hex);
	sb_release(&key);
	hex[16] = '\0';
	uint64_t h = strtoull(hex, NULL, 16);
	return h % (uint64_t)n == (uint64_t)i;
}
