/* space.c - see space.h */
#include "search/space.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/children.h"
#include "base/ini.h"

/* Flags the compiler lists among its optimisers that change the ABI the
 * C library was built with, need profile data, only add debug output, or
 * harden rather than optimise: searching them wastes builds on programs
 * that cannot be right or cannot be faster.  A space file's `flags =`
 * brings any of them back. */
static const char *const excluded[] = {
	"-fpack-struct", "-fshort-enums", "-fshort-wchar", /* ABI */
	"-fnon-call-exceptions", "-fasynchronous-unwind-tables", "-funwind-tables",
	"-fdelete-dead-exceptions",
	"-fbranch-probabilities", "-fprofile-partial-training", "-fprofile-reorder-functions",
	"-fvpt", /* profile feedback */
	"-fopt-info", "-fsave-optimization-record", "-fvar-tracking",
	"-fvar-tracking-assignments", "-fvar-tracking-assignments-toggle",
	"-fvar-tracking-uninit", /* diagnostics and debug information */
	"-fstack-protector", "-fstack-protector-all", "-fstack-protector-explicit",
	"-fstack-protector-strong", "-fstack-clash-protection", "-fharden-compares",
	"-fharden-conditional-branches", "-ftrapv", /* hardening */
};

/* clang has no -Q --help=optimizers; these are the -f optimisation
 * switches it honours for C (others it accepts and ignores, which the
 * probe finds).  Their default depends on the level, so each is a
 * three-way choice: leave alone, -fX, -fno-X. */
static const char *const clang_flags[] = {
	"-funroll-loops", "-fvectorize", "-fslp-vectorize", "-fomit-frame-pointer",
	"-fstrict-aliasing", "-fmerge-all-constants", "-finline-functions",
	"-finline-hint-functions", "-fjump-tables", "-fplt", "-fsemantic-interposition",
	"-fdelete-null-pointer-checks", "-ffinite-loops", "-fzero-initialized-in-bss",
	"-fwrapv", "-fstrict-float-cast-overflow", "-fassociative-math", "-freciprocal-math",
	"-fsigned-zeros", "-ffp-contract=fast", "-fdata-sections", "-ffunction-sections",
};

static int in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

static struct dim *dim_new(struct space *sp, const char *name, enum dim_kind kind,
			   unsigned nvals)
{
	sp->dims = xrealloc(sp->dims, (sp->ndims + 1) * sizeof(*sp->dims));
	struct dim *d = &sp->dims[sp->ndims++];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->kind = kind;
	d->nvals = nvals;
	d->vals = xcalloc(nvals, sizeof(char *));
	return d;
}

static void dim_release(struct dim *d)
{
	for (unsigned v = 0; v < d->nvals; v++)
		free(d->vals[v]);
	free(d->vals);
	free(d->def);
	free(d->name);
}

static ssize_t find_dim(const struct space *sp, const char *name)
{
	for (size_t i = 0; i < sp->ndims; i++)
		if (!strcmp(sp->dims[i].name, name))
			return (ssize_t)i;
	return -1;
}

/* "-fno-foo" -> "-ffoo"; anything else is returned as is (heap). */
static char *positive(const char *flag)
{
	if (str_starts_with(flag, "-fno-"))
		return xasprintf("-f%s", flag + 5);
	return xstrdup(flag);
}

static struct dim *flag_dim(struct space *sp, const char *pos)
{
	ssize_t i = find_dim(sp, pos);
	if (i >= 0)
		return &sp->dims[i];
	struct dim *d = dim_new(sp, pos, DIM_FLAG, 2);
	d->vals[0] = xasprintf("-fno-%s", pos + 2);
	d->vals[1] = xstrdup(pos);
	d->def = xcalloc(sp->levels.n ? sp->levels.n : 1, 1);
	return d;
}

void space_parse_optimizers(struct space *sp, const char *text, unsigned li)
{
	char *copy = xstrdup(text);
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128], state[64];
		if (sscanf(l, " %127s %63s", name, state) != 2 || !str_starts_with(name, "-f") ||
		    strpbrk(name, "=<[") || name[2] == '\0')
			continue;
		int on = !strcmp(state, "[enabled]");
		if (!on && strcmp(state, "[disabled]"))
			continue; /* valued, or another language's */
		char *pos = positive(name);
		if (strcmp(pos, name))
			on = !on;
		flag_dim(sp, pos)->def[li] = (unsigned char)on;
		free(pos);
	}
	free(copy);
}

void space_synthetic(struct space *sp, size_t ndims, const char *prefix)
{
	memset(sp, 0, sizeof(*sp));
	sp->cc = xstrdup("synthetic");
	sl_push(&sp->levels, "-O2");
	sp->level_dim = -1;
	for (size_t i = 0; i < ndims; i++) {
		char *name = xasprintf("-f%s%zu", prefix, i);
		flag_dim(sp, name);
		free(name);
	}
}

void space_release(struct space *sp)
{
	for (size_t i = 0; i < sp->ndims; i++)
		dim_release(&sp->dims[i]);
	free(sp->dims);
	free(sp->cc);
	sl_release(&sp->levels);
	sl_release(&sp->dropped);
	memset(sp, 0, sizeof(*sp));
}

struct space_file {
	const char *path;
	char *level;
	struct strlist levels, flags, exclude, add, params;
	int have_flags;
	struct strlist param_names, param_values; /* parallel */
	struct strbuf *err;
};

static int space_item(void *user, const char *section, const char *name, const char *value,
		      int line, int continued, struct strbuf *err)
{
	struct space_file *f = user;
	(void)continued;
	if (!strcmp(section, "space")) {
		if (!strcmp(name, "level")) {
			free(f->level);
			f->level = xstrdup(value);
		} else if (!strcmp(name, "levels")) {
			sl_split_ws(&f->levels, value);
		} else if (!strcmp(name, "flags")) {
			struct strlist words = {0};
			sl_split_ws(&words, value);
			for (size_t i = 0; i < words.n; i++)
				sl_push_owned(&f->flags, positive(words.v[i]));
			sl_release(&words);
			f->have_flags = 1;
		} else if (!strcmp(name, "exclude")) {
			sl_split_ws(&f->exclude, value);
		} else if (!strcmp(name, "add")) {
			sl_split_ws(&f->add, value);
		} else if (!strcmp(name, "params")) {
			sl_split_ws(&f->params, value);
		} else {
			sb_addf(err, "%s:%d: unknown key '%s' in [space] (known: level levels flags exclude add params)",
				f->path, line, name);
			return -1;
		}
		return 0;
	}
	if (str_starts_with(section, "param ")) {
		if (strcmp(name, "values")) {
			sb_addf(err, "%s:%d: unknown key '%s' in [%s] (known: values)", f->path, line,
				name, section);
			return -1;
		}
		sl_push(&f->param_names, str_starts_with(section, "param ") ? section + 6 : section);
		sl_push(&f->param_values, value);
		sl_push(&f->params, section + 6);
		return 0;
	}
	sb_addf(err, "%s:%d: unknown section [%s] (use [space] or [param NAME])", f->path, line,
		section);
	return -1;
}

static void space_file_release(struct space_file *f)
{
	free(f->level);
	sl_release(&f->levels);
	sl_release(&f->flags);
	sl_release(&f->exclude);
	sl_release(&f->add);
	sl_release(&f->params);
	sl_release(&f->param_names);
	sl_release(&f->param_values);
}

static char *capture(const char *cc, const char *a, const char *b, const char *c)
{
	struct strlist argv = {0};
	sl_split_ws(&argv, cc); /* "clang --target=..." keeps its options */
	sl_push(&argv, a);
	sl_push(&argv, b);
	if (c)
		sl_push(&argv, c);
	argv.v = xrealloc(argv.v, (argv.n + 1) * sizeof(char *));
	argv.v[argv.n] = NULL;
	char *out = NULL;
	int rc = run_capture(argv.v, &out);
	sl_release(&argv);
	if (rc) {
		free(out);
		return NULL;
	}
	return out;
}

/* Values to try for a --param: the default's quarter, half, double and
 * quadruple, kept inside the range --help=params gives. */
static void param_values(const char *line, struct strlist *vals)
{
	long lo = 0, hi = -1, def = -1;
	const char *lt = strchr(line, '<');
	if (lt)
		sscanf(lt, "<%ld,%ld>", &lo, &hi);
	const char *sp = strrchr(line, ' '), *tab = strrchr(line, '\t');
	const char *last = sp > tab ? sp : tab;
	if (last)
		def = strtol(last + 1, NULL, 10);
	if (def < 0)
		return;
	long cand[] = {def / 4, def / 2, def * 2, def * 4};
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++) {
		long v = cand[i];
		if (v == def || v < lo || (hi >= lo && v > hi) || (i && v == cand[i - 1]))
			continue;
		sl_push_owned(vals, xasprintf("%ld", v));
	}
}

static int add_param(struct space *sp, const char *name, const char *values,
		     const char *help, const char *path, struct strbuf *err)
{
	struct strlist vals = {0};
	if (values) {
		sl_split_ws(&vals, values);
	} else {
		char *key = xasprintf("--param=%s=", name);
		const char *at = help ? strstr(help, key) : NULL;
		free(key);
		if (at) {
			const char *end = strchr(at, '\n');
			char *line = end ? xstrndup(at, (size_t)(end - at)) : xstrdup(at);
			param_values(line, &vals);
			free(line);
		}
	}
	if (!vals.n) {
		sb_addf(err, "%s: --param %s: the compiler lists no such parameter with a numeric default (check `%s --help=params -Q`, or give [param %s] values = ...)",
			path, name, sp->cc, name);
		sl_release(&vals);
		return -1;
	}
	char *dname = xasprintf("--param=%s", name);
	struct dim *d = dim_new(sp, dname, DIM_CHOICE, (unsigned)vals.n + 1);
	free(dname);
	d->vals[0] = xstrdup("");
	for (size_t i = 0; i < vals.n; i++)
		d->vals[i + 1] = xasprintf("--param=%s=%s", name, vals.v[i]);
	sl_release(&vals);
	return 0;
}

static void normalise_level(char *buf, size_t cap, const char *level)
{
	snprintf(buf, cap, "%s%s", str_starts_with(level, "-") ? "" : "-", level);
}

static int load_levels(struct space *sp, const char *level, const struct space_file *f,
		       struct strbuf *err, const char *path)
{
	char lv[64];
	normalise_level(lv, sizeof(lv), f->level ? f->level : level);
	for (size_t i = 0; i < f->levels.n; i++) {
		char buf[64];
		normalise_level(buf, sizeof(buf), f->levels.v[i]);
		if (sl_find(&sp->levels, buf) < 0)
			sl_push(&sp->levels, buf);
	}
	int bi = sl_find(&sp->levels, lv);
	if (bi < 0) {
		sl_push(&sp->levels, lv);
		bi = (int)sp->levels.n - 1;
	}
	sp->base_level = (unsigned)bi;
	if (sp->clang)
		return 0;
	for (size_t li = 0; li < sp->levels.n; li++) {
		char *text = capture(sp->cc, "-Q", "--help=optimizers", sp->levels.v[li]);
		if (!text) {
			sb_addf(err, "%s: `%s -Q --help=optimizers %s` failed (is it a gcc, and is the level right?)",
				path, sp->cc, sp->levels.v[li]);
			return -1;
		}
		space_parse_optimizers(sp, text, (unsigned)li);
		free(text);
	}
	return 0;
}

static void keep_only(struct space *sp, const struct space_file *f, size_t nflag_dims)
{
	size_t w = 0;
	for (size_t i = 0; i < sp->ndims; i++) {
		struct dim *d = &sp->dims[i];
		int keep = 1;
		const char *why = NULL;
		if (i < nflag_dims) {
			for (size_t k = 0; k < f->exclude.n && keep; k++) {
				char *pos = positive(f->exclude.v[k]);
				if (!strcmp(pos, d->name))
					keep = 0, why = "excluded by the space file";
				free(pos);
			}
			if (keep && f->have_flags)
				keep = sl_find(&f->flags, d->name) >= 0, why = "not in the space file's flags";
			else if (keep && in_list(excluded, ARRAY_SIZE(excluded), d->name))
				keep = 0, why = "changes the ABI, needs a profile, or hardens";
		}
		if (keep) {
			sp->dims[w++] = *d;
		} else {
			if (!f->have_flags || sl_find(&f->exclude, d->name) >= 0)
				sl_push_owned(&sp->dropped, xasprintf("%s: %s", d->name, why));
			dim_release(d);
		}
	}
	sp->ndims = w;
}

int space_load(struct space *sp, const char *cc, const char *level, const char *space_file,
	       const struct strlist *rejected, struct strbuf *err)
{
	memset(sp, 0, sizeof(*sp));
	sp->cc = xstrdup(cc);
	sp->level_dim = -1;
	char *ver = capture(cc, "--version", "-E", NULL);
	sp->clang = ver && strstr(ver, "clang");
	free(ver);
	struct space_file f = {.path = space_file ? space_file : "(built-in space)", .err = err};
	int rc = -1;
	if (space_file && ini_load(space_file, space_item, &f, err))
		goto out;
	if (load_levels(sp, level, &f, err, f.path))
		goto out;
	if (sp->clang) {
		for (size_t i = 0; i < ARRAY_SIZE(clang_flags); i++) {
			/* -ffp-contract=fast has no -fno- form: two values */
			int valued = strchr(clang_flags[i], '=') != NULL;
			struct dim *d = dim_new(sp, clang_flags[i], DIM_CHOICE, valued ? 2 : 3);
			d->vals[0] = xstrdup("");
			d->vals[1] = xstrdup(clang_flags[i]);
			if (!valued)
				d->vals[2] = xasprintf("-fno-%s", clang_flags[i] + 2);
		}
	}
	size_t nflag = sp->ndims;
	keep_only(sp, &f, nflag);
	/* flags = names flags the compiler may not list: they are added too */
	for (size_t i = 0; i < f.flags.n; i++)
		sl_push(&f.add, f.flags.v[i]);
	for (size_t i = 0; i < f.add.n; i++) {
		char *pos = positive(f.add.v[i]);
		if (find_dim(sp, pos) < 0) {
			struct dim *d = flag_dim(sp, pos);
			/* the compiler does not say; an added flag is assumed off */
			memset(d->def, !strcmp(pos, f.add.v[i]) ? 0 : 1, sp->levels.n);
		}
		free(pos);
	}
	if (f.params.n) {
		char *help = capture(cc, "-Q", "--help=params", sp->levels.v[sp->base_level]);
		for (size_t i = 0; i < f.params.n; i++) {
			if (i && sl_find(&f.params, f.params.v[i]) < (int)i)
				continue;
			char *dname = xasprintf("--param=%s", f.params.v[i]);
			int have = find_dim(sp, dname) >= 0;
			free(dname);
			int vi = sl_find(&f.param_names, f.params.v[i]);
			if (!have && add_param(sp, f.params.v[i], vi >= 0 ? f.param_values.v[vi] : NULL,
					       help, f.path, err)) {
				free(help);
				goto out;
			}
		}
		free(help);
	}
	for (size_t i = 0; rejected && i < rejected->n; i++)
		space_drop(sp, rejected->v[i], "rejected or ignored by the compiler");
	if (sp->levels.n > 1) {
		struct dim *d = dim_new(sp, "-O", DIM_LEVEL, (unsigned)sp->levels.n);
		for (size_t li = 0; li < sp->levels.n; li++)
			d->vals[li] = xstrdup(sp->levels.v[li]);
		/* the level goes first: it decides what the flags' defaults are */
		struct dim tmp = *d;
		memmove(sp->dims + 1, sp->dims, (sp->ndims - 1) * sizeof(*sp->dims));
		sp->dims[0] = tmp;
		sp->level_dim = 0;
	}
	if (!sp->ndims) {
		sb_addf(err, "%s: the space has no flags left (check flags = and exclude =)", f.path);
		goto out;
	}
	rc = 0;
out:
	space_file_release(&f);
	if (rc)
		space_release(sp);
	return rc;
}

int space_drop(struct space *sp, const char *word, const char *why)
{
	for (size_t i = 0; i < sp->ndims; i++) {
		struct dim *d = &sp->dims[i];
		int hit = !strcmp(d->name, word);
		for (unsigned v = 0; v < d->nvals && !hit; v++)
			hit = *d->vals[v] && !strcmp(d->vals[v], word);
		if (!hit || d->kind == DIM_LEVEL)
			continue;
		sl_push_owned(&sp->dropped, xasprintf("%s: %s", d->name, why));
		dim_release(d);
		memmove(d, d + 1, (sp->ndims - i - 1) * sizeof(*d));
		sp->ndims--;
		if (sp->level_dim > (int)i)
			sp->level_dim--;
		return 1;
	}
	return 0;
}

static unsigned point_level(const struct space *sp, const unsigned char *pt)
{
	return sp->level_dim >= 0 ? pt[sp->level_dim] : sp->base_level;
}

void space_start(const struct space *sp, unsigned char *pt)
{
	for (size_t i = 0; i < sp->ndims; i++) {
		const struct dim *d = &sp->dims[i];
		pt[i] = d->kind == DIM_FLAG	? d->def[sp->base_level]
			: d->kind == DIM_LEVEL ? (unsigned char)sp->base_level
					       : 0;
	}
}

int space_is_default(const struct space *sp, const unsigned char *pt, size_t i)
{
	const struct dim *d = &sp->dims[i];
	switch (d->kind) {
	case DIM_FLAG:
		return pt[i] == d->def[point_level(sp, pt)];
	case DIM_LEVEL:
		return pt[i] == sp->base_level;
	default:
		return pt[i] == 0;
	}
}

char *space_render(const struct space *sp, const unsigned char *pt)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < sp->ndims; i++) {
		if (space_is_default(sp, pt, i) || !*sp->dims[i].vals[pt[i]])
			continue;
		if (sb.len)
			sb_addc(&sb, ' ');
		sb_add(&sb, sp->dims[i].vals[pt[i]]);
	}
	return sb.len ? sb_detach(&sb) : xstrdup("");
}

int space_parse_point(const struct space *sp, const char *flags, unsigned char *pt)
{
	struct strlist words = {0};
	sl_split_ws(&words, flags);
	int rc = 0;
	unsigned char *tmp = xcalloc(sp->ndims ? sp->ndims : 1, 1);
	space_start(sp, tmp);
	/* the level first: unnamed flags take its defaults */
	if (sp->level_dim >= 0) {
		const struct dim *ld = &sp->dims[sp->level_dim];
		for (size_t w = 0; w < words.n; w++)
			for (unsigned v = 0; v < ld->nvals; v++)
				if (!strcmp(words.v[w], ld->vals[v]))
					tmp[sp->level_dim] = (unsigned char)v;
		for (size_t i = 0; i < sp->ndims; i++)
			if (sp->dims[i].kind == DIM_FLAG)
				tmp[i] = sp->dims[i].def[tmp[sp->level_dim]];
	}
	for (size_t w = 0; w < words.n && !rc; w++) {
		int found = 0;
		for (size_t i = 0; i < sp->ndims && !found; i++)
			for (unsigned v = 0; v < sp->dims[i].nvals && !found; v++)
				if (*sp->dims[i].vals[v] && !strcmp(words.v[w], sp->dims[i].vals[v])) {
					tmp[i] = (unsigned char)v;
					found = 1;
				}
		if (!found)
			rc = -1;
	}
	if (!rc)
		memcpy(pt, tmp, sp->ndims);
	free(tmp);
	sl_release(&words);
	return rc;
}

double space_log2_size(const struct space *sp)
{
	double bits = 0;
	for (size_t i = 0; i < sp->ndims; i++)
		bits += log2((double)sp->dims[i].nvals);
	return bits;
}

/* One compile of an empty program with one flag: the compiler's own words
 * about that flag, or NULL when it said nothing. */
static char *probe_one(const char *cc, const char *flag, const char *src, const char *obj)
{
	struct strlist argv = {0};
	sl_split_ws(&argv, cc);
	const char *tail[] = {"-O2", flag, "-c", src, "-o", obj};
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		sl_push(&argv, tail[i]);
	argv.v = xrealloc(argv.v, (argv.n + 1) * sizeof(char *));
	argv.v[argv.n] = NULL;
	char *out = NULL;
	int rc = run_capture(argv.v, &out);
	sl_release(&argv);
	if (!rc && out && !*str_trim(out)) {
		free(out);
		return NULL;
	}
	char *msg = out && *str_trim(out) ? xstrdup(str_trim(out)) : xasprintf("exit status %d", rc);
	free(out);
	char *nl = strchr(msg, '\n');
	if (nl)
		*nl = '\0';
	return msg;
}

struct probe_ctx {
	const char *cc;
	const struct strlist *flags;
	const char *src, *dir;
};

static void probe_child(size_t i, void *user, struct strbuf *out)
{
	const struct probe_ctx *p = user;
	char *obj = xasprintf("%s/o%zu.o", p->dir, i);
	char *msg = probe_one(p->cc, p->flags->v[i], p->src, obj);
	if (msg)
		sb_add(out, msg);
	free(msg);
	free(obj);
}

void space_probe_flags(const char *cc, const struct strlist *flags, int jobs,
		       struct strlist *out)
{
	char dir[] = "/tmp/flagscope-probe-XXXXXX";
	if (!mkdtemp(dir))
		return;
	char *src = xasprintf("%s/empty.c", dir);
	file_write(src, "int main(void) { return 0; }\n", 29);
	struct probe_ctx ctx = {.cc = cc, .flags = flags, .src = src, .dir = dir};
	char **said = xcalloc(flags->n ? flags->n : 1, sizeof(char *));
	children_run(flags->n, jobs, probe_child, &ctx, said);
	for (size_t i = 0; i < flags->n; i++) {
		if (*said[i])
			sl_push_owned(out, xasprintf("%s: %s", flags->v[i], said[i]));
		free(said[i]);
	}
	free(said);
	remove_tree(dir);
	free(src);
}
