/* native_cpu.c - -mX=native made explicit from what the compiler prints
 * (native_cpu.h); no process is run here: the oracle answers */
#include "base/native_cpu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *native_job_words(enum native_job job)
{
	static const char *const words[] = {
		[NATIVE_DRIVER] = "-### -c -x c /dev/null -o /dev/null",
		[NATIVE_MACROS] = "-dM -E -x c /dev/null",
		[NATIVE_TARGET_HELP] = "-Q --help=target",
	};
	return words[job];
}

/* Features clang lists for native that have no -mX switch: clang 14
 * refuses -m64bit, -mcx8 and -mcmov (checked by compiling).  Every x86-64
 * CPU has them, so the CPU word already says "+"; a "-" cannot be said. */
static const char *const no_switch[] = {"64bit", "cx8", "cmov"};

/* Features whose macro is not the feature's name in capitals (clang's
 * "+sahf" predefines __LAHF_SAHF__, "+cx16" the sync macro). */
static const struct {
	const char *feature, *macro;
} feature_macros[] = {
	{"sahf", "__LAHF_SAHF__"},
	{"cx16", "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16"},
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int asked(const struct native_oracle *o, const char *flags, enum native_job job,
		 char **out)
{
	*out = NULL;
	if (o->ask(o->ctx, flags, job, out) == 0 && *out)
		return 0;
	return -1;
}

/* text's words, quotes taken out (-### quotes every argument) */
static void words_of(const char *text, struct strlist *tok)
{
	char *t = xstrdup(text);
	for (char *c = t; *c; c++)
		if (*c == '"' || *c == '\'')
			*c = ' ';
	sl_split_ws(tok, t);
	free(t);
}

/* The CPU the driver's -### words give opt ("-march="): clang passes
 * -target-cpu NAME (-march, -mcpu) and -tune-cpu NAME (-mtune) to its
 * cc1; gcc passes -march=NAME on.  NULL if none. */
static const char *driver_cpu(const struct strlist *tok, const char *opt)
{
	const char *clang_key = strcmp(opt, "-mtune=") ? "-target-cpu" : "-tune-cpu";
	size_t n = strlen(opt);
	for (size_t i = 0; i < tok->n; i++) {
		if (!strcmp(tok->v[i], clang_key) && i + 1 < tok->n)
			return tok->v[i + 1];
		if (str_starts_with(tok->v[i], opt) && tok->v[i][n] && strcmp(tok->v[i] + n, "native"))
			return tok->v[i] + n;
	}
	return NULL;
}

/* The value `-Q --help=target` lists for opt: "  -march=   znver3" ->
 * "znver3", "  -mavx2   [enabled]" -> "[enabled]"; heap, or NULL */
static char *listed(const char *listing, const char *opt)
{
	size_t n = strlen(opt);
	for (const char *l = listing; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		l += strspn(l, " \t");
		if (strncmp(l, opt, n) || (l[n] != ' ' && l[n] != '\t'))
			continue;
		const char *v = l + n + strspn(l + n, " \t");
		return xstrndup(v, strcspn(v, " \t\n"));
	}
	return NULL;
}

/* "clang 14" or "gcc 12" from the driver's "... clang version 14.0.6" /
 * "gcc version 12.2.0"; heap, "the compiler" when it says neither */
static char *compiler_name(const char *driver)
{
	static const char *const names[] = {"clang", "gcc"};
	for (size_t i = 0; driver && i < ARRAY_SIZE(names); i++) {
		char *key = xasprintf("%s version ", names[i]);
		const char *v = strstr(driver, key);
		free(key);
		if (v) {
			v += strlen(names[i]) + strlen(" version ");
			return xasprintf("%s %.*s", names[i], (int)strspn(v, "0123456789"), v);
		}
	}
	return xstrdup("the compiler");
}

/* The "#define NAME VALUE" lines of a -dM -E text, sorted; *other counts
 * the lines that are not (a warning) */
static void define_lines(const char *text, struct strlist *out, size_t *other)
{
	*other = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		while (len && (l[len - 1] == ' ' || l[len - 1] == '\r'))
			len--;
		if (!len)
			continue;
		if (str_starts_with(l, "#define "))
			sl_push_owned(out, xstrndup(l, len));
		else
			(*other)++;
	}
	qsort(out->v, out->n, sizeof(*out->v), by_name);
}

int native_macros_equal(const char *native, const char *other, char **first)
{
	struct strlist a = {0}, b = {0};
	size_t ao, bo;
	define_lines(native, &a, &ao);
	define_lines(other, &b, &bo);
	size_t i = 0, j = 0;
	char *diff = NULL;
	while (!diff && (i < a.n || j < b.n)) {
		int c = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.v[i], b.v[j]);
		if (c < 0)
			diff = xasprintf("+%s", a.v[i]);
		else if (c > 0)
			diff = xasprintf("-%s", b.v[j]);
		i += c <= 0;
		j += c >= 0;
	}
	if (!diff && (ao || bo))
		diff = xstrdup("a line that is no #define (a warning)");
	int same = !diff;
	if (first)
		*first = diff;
	else
		free(diff);
	sl_release(&a);
	sl_release(&b);
	return same;
}

/* name without case, '-', '.' and '_': amx-tile and __AMXTILE__ are both
 * "amxtile", sse4.1 and __SSE4_1__ "sse41" */
static char *squashed(const char *name)
{
	char *o = xstrdup(name), *d = o;
	for (const char *c = name; *c; c++)
		if (!strchr("-._", *c))
			*d++ = (char)tolower((unsigned char)*c);
	*d = 0;
	return o;
}

/* The macro a -dM -E text predefines for feature f ("avx512f" ->
 * "__AVX512F__"; *defined 1), or the one feature_macros[] knows for it
 * (*defined 0); NULL when neither names one */
static char *macro_in(const char *text, const char *f, int *defined)
{
	const char *fixed = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(feature_macros); i++)
		if (!strcmp(f, feature_macros[i].feature))
			fixed = feature_macros[i].macro;
	char *want = squashed(f), *found = NULL;
	for (const char *l = text; l && *l && !found;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[128];
		if (sscanf(l, "#define %127s", name) != 1)
			continue;
		size_t n = strlen(name);
		char *have = squashed(name);
		if (fixed ? !strcmp(name, fixed)
			  : n > 4 && str_starts_with(name, "__") && !strcmp(name + n - 2, "__") &&
				    !strcmp(have, want))
			found = xstrdup(name);
		free(have);
	}
	free(want);
	*defined = found != NULL;
	return found ? found : fixed ? xstrdup(fixed) : NULL;
}

/* Whether base (the CPU word alone) has feature f, as its macros say: 1
 * yes, 0 no, -1 neither text predefines a macro for f (nothing to tell by) */
static int base_has(const char *base_macros, const char *native_macros, const char *f)
{
	int in_base, in_native;
	char *m = macro_in(base_macros, f, &in_base);
	char *n = macro_in(native_macros, f, &in_native);
	int has = in_base ? 1 : m || n ? 0 : -1;
	free(m);
	free(n);
	return has;
}

static int no_switch_feature(const char *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(no_switch); i++)
		if (!strcmp(f, no_switch[i]))
			return 1;
	return 0;
}

/* clang: a switch for each entry of native's -target-feature list ("+avx2"
 * -> -mavx2, "-mwaitx" -> -mno-mwaitx) that the CPU word alone does not
 * already give, as the two macro texts tell.  -1 with *why when native
 * lacks a feature that has no switch. */
static int clang_switches(const struct strlist *tok, const char *base_macros,
			  const char *native_macros, struct strlist *out, unsigned *nlisted,
			  char **why)
{
	*nlisted = 0;
	for (size_t i = 0; i + 1 < tok->n; i++) {
		if (strcmp(tok->v[i], "-target-feature") || !strchr("+-", tok->v[i + 1][0]))
			continue;
		const char *f = tok->v[++i] + 1;
		int on = tok->v[i][0] == '+';
		(*nlisted)++;
		if (no_switch_feature(f)) {
			if (on)
				continue;
			*why = xasprintf("native lacks %s, which no switch turns off", f);
			return -1;
		}
		int has = base_has(base_macros, native_macros, f);
		/* a feature off in both predefines no macro in either: nothing
		 * to switch off; one on with no macro anywhere is said anyway */
		if ((on && has == 1) || (!on && has != 1))
			continue;
		sl_push_owned(out, xasprintf("-m%s%s", on ? "" : "no-", f));
	}
	return 0;
}

/* gcc: a switch for each "-mX [enabled]/[disabled]" line of native's
 * listing whose state the CPU word's listing does not share */
static void gcc_switches(const char *native_help, const char *base_help, struct strlist *out)
{
	for (const char *l = native_help; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		l += strspn(l, " \t");
		if (!str_starts_with(l, "-m"))
			continue;
		char *opt = xstrndup(l, strcspn(l, " \t\n"));
		char *mine = listed(native_help, opt), *theirs = listed(base_help, opt);
		int on = mine && !strcmp(mine, "[enabled]");
		if (mine && theirs && (on || !strcmp(mine, "[disabled]")) && strcmp(mine, theirs)) {
			if (on)
				sl_push(out, opt);
			else if (str_starts_with(opt, "-mno-"))
				sl_push_owned(out, xasprintf("-m%s", opt + 5));
			else
				sl_push_owned(out, xasprintf("-mno-%s", opt + 2));
		}
		free(opt);
		free(mine);
		free(theirs);
	}
}

/* The first line of a refusal that says why ("clang: error: unknown
 * argument: '-mfoo'"); heap */
static char *error_line(const char *text)
{
	const char *e = text ? strstr(text, "error") : NULL;
	if (!e)
		return xstrdup("it failed");
	while (e > text && e[-1] != '\n')
		e--;
	return xstrndup(e, strcspn(e, "\n"));
}

/* What the resolver holds while it works on one word */
struct resolve {
	const struct native_oracle *o;
	const char *word;        /* "-march=native" */
	char *opt;               /* "-march=" */
	char *driver, *native_macros, *base_macros;
	struct strlist tok;      /* the driver's words */
	int clang;               /* the driver passes -target-cpu (clang) */
	char *name;              /* "clang 14" */
};

static void resolve_release(struct resolve *r)
{
	free(r->opt);
	free(r->driver);
	free(r->native_macros);
	free(r->base_macros);
	free(r->name);
	sl_release(&r->tok);
}

static int refuse(struct native_form *out, char *note)
{
	free(out->flags);
	out->flags = NULL;
	free(out->note);
	out->note = note;
	return -1;
}

/* The CPU: the driver's, else (gcc) the one its listing names */
static int find_cpu(struct resolve *r, struct native_form *out)
{
	if (asked(r->o, r->word, NATIVE_DRIVER, &r->driver) == 0) {
		words_of(r->driver, &r->tok);
		r->clang = sl_find(&r->tok, "-target-cpu") >= 0 || sl_find(&r->tok, "-cc1") >= 0;
		const char *cpu = driver_cpu(&r->tok, r->opt);
		if (cpu)
			out->cpu = xstrdup(cpu);
	}
	r->name = compiler_name(r->driver);
	if (!out->cpu && !r->clang) {
		char *help = NULL;
		if (asked(r->o, r->word, NATIVE_TARGET_HELP, &help) == 0) {
			out->cpu = listed(help, r->opt);
			if (out->cpu && !strcmp(out->cpu, "native")) {
				free(out->cpu);
				out->cpu = NULL;
			}
		}
		free(help);
	}
	if (out->cpu)
		return 0;
	return refuse(out, xasprintf("%s is kept: %s names no CPU for it", r->word, r->name));
}

/* clang's -march=native on a CPU it cannot name keeps a generic CPU */
static int generic_cpu(const char *cpu)
{
	return str_starts_with(cpu, "x86-64") || !strcmp(cpu, "generic") || !strcmp(cpu, "i686");
}

/* The switches the CPU word needs; 0, or -1 with the refusal in out */
static int find_switches(struct resolve *r, const char *base, struct native_form *out,
			 struct strlist *sw, unsigned *nlisted)
{
	char *why = NULL;
	*nlisted = 0;
	if (r->clang) {
		if (clang_switches(&r->tok, r->base_macros, r->native_macros, sw, nlisted, &why))
			return refuse(out, xasprintf("%s is kept: %s", r->word, why));
		return 0;
	}
	char *nh = NULL, *bh = NULL;
	int rc = 0;
	if (asked(r->o, r->word, NATIVE_TARGET_HELP, &nh) || asked(r->o, base, NATIVE_TARGET_HELP, &bh))
		rc = refuse(out, xasprintf("%s is kept: %s -Q --help=target lists no switches for it",
					   r->word, r->name));
	else
		gcc_switches(nh, bh, sw);
	free(nh);
	free(bh);
	return rc;
}

/* The candidate compiled: every switch accepted, native's macros */
static int verify(struct resolve *r, const char *cand, unsigned nsw, struct native_form *out)
{
	char *m = NULL, *first = NULL;
	int rc = 0;
	if (asked(r->o, cand, NATIVE_MACROS, &m)) {
		char *e = error_line(m);
		rc = refuse(out, xasprintf("%s is kept: %s refuses %s (%s)", r->word, r->name, cand, e));
		free(e);
	} else if (!native_macros_equal(r->native_macros, m, &first)) {
		rc = refuse(out, xasprintf("%s is kept: %s%s%u feature switches does not predefine "
					   "what it does (%s %s)", r->word, out->cpu,
					   nsw ? " with " : " without ", nsw,
					   first[0] == '+' ? "native has" : "it has", first + 1));
	}
	free(m);
	free(first);
	return rc;
}

int native_resolve(const struct native_oracle *o, const char *word, struct native_form *out)
{
	memset(out, 0, sizeof(*out));
	struct resolve r = {.o = o, .word = word};
	const char *eq = strchr(word, '=');
	r.opt = xstrndup(word, eq ? (size_t)(eq + 1 - word) : strlen(word));
	int rc = find_cpu(&r, out);
	if (rc == 0 && !strcmp(r.opt, "-mtune=")) {
		out->flags = xasprintf("%s%s", r.opt, out->cpu);
		resolve_release(&r);
		return 0;
	}
	char *base = rc ? NULL : xasprintf("%s%s", r.opt, out->cpu);
	if (rc == 0 && (asked(o, word, NATIVE_MACROS, &r.native_macros) ||
			asked(o, base, NATIVE_MACROS, &r.base_macros)))
		rc = refuse(out, xasprintf("%s is kept: %s does not say which macros it predefines",
					   word, r.name));
	struct strlist sw = {0};
	unsigned nlisted = 0;
	if (rc == 0)
		rc = find_switches(&r, base, out, &sw, &nlisted);
	if (rc == 0) {
		char *tail = sl_join(&sw, " ");
		char *cand = sw.n ? xasprintf("%s %s", base, tail) : xstrdup(base);
		free(tail);
		out->nswitches = (unsigned)sw.n;
		rc = verify(&r, cand, out->nswitches, out);
		if (rc == 0)
			out->flags = cand;
		else
			free(cand);
	}
	if (rc == 0 && r.clang && generic_cpu(out->cpu) && nlisted) {
		out->fallback = 1;
		out->note = xasprintf("%s: %s does not name this CPU (%s is -target-cpu %s with %u "
				      "-target-feature entries), so %s plus %u feature switches, the "
				      "same predefined macros as native",
				      word, r.name, word, out->cpu, nlisted, out->cpu, out->nswitches);
	}
	sl_release(&sw);
	free(base);
	resolve_release(&r);
	return rc;
}

unsigned native_switches_after(char *const *words, unsigned nwords)
{
	unsigned n = 0;
	while (1 + n < nwords && str_starts_with(words[1 + n], "-m") && !strchr(words[1 + n], '='))
		n++;
	return n;
}

char *native_resolve_recorded(const struct native_oracle *o, char *const *words, unsigned nwords)
{
	struct strlist keep = {0};
	char *help = NULL;
	sl_push(&keep, words[0]);
	/* clang has no -Q --help=target: it fails, or lists no switch state */
	int listing = asked(o, words[0], NATIVE_TARGET_HELP, &help) == 0 && strstr(help, "[enabled]");
	for (unsigned i = 1; i < nwords; i++) {
		const char *w = words[i];
		int no = str_starts_with(w, "-mno-");
		char *opt = no ? xasprintf("-m%s", w + 5) : xstrdup(w);
		char *st = listing ? listed(help, opt) : NULL;
		int implied = st && !strcmp(st, no ? "[disabled]" : "[enabled]");
		if (!implied)
			sl_push(&keep, w);
		free(opt);
		free(st);
	}
	char *res = sl_join(&keep, " ");
	free(help);
	sl_release(&keep);
	return res;
}

void native_form_release(struct native_form *f)
{
	free(f->flags);
	free(f->cpu);
	free(f->note);
	memset(f, 0, sizeof(*f));
}
