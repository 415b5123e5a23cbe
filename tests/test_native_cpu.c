/*
 * test_native_cpu.c - base/native_cpu: -march=native made explicit, on
 * recorded compiler outputs of three CPUs (tests/fixtures/native/) and
 * live with the compilers here.
 * Expected: PASS; the live part SKIPs a compiler that is not installed.
 *   Fixtures (each its README: where and how recorded): for each CPU and
 *   compiler, native_resolve gives an explicit form, and the recorded
 *   `-dM -E` of that form equals the recorded one of -march=native, every
 *   line.  AMD EPYC family 26 with clang 14 (a CPU clang cannot name:
 *   -target-cpu x86-64) is a fallback: x86-64 plus the switches, said in
 *   the note; the others are not.  A recorded output is looked up by its
 *   command in the fixture's index.txt; an explicit form's outputs do not
 *   depend on the CPU, so a missing one is recorded here with
 *   FLAGSCOPE_NATIVE_RECORD=1 when this machine's compiler is the
 *   fixture's version, and the test fails without it.  With clang of the
 *   fixture's version, the explicit form also gives the same assembly as
 *   native's recorded cc1 CPU and features (a vectorised loop, a copy).
 *   Refusals (a made-up clang): a switch the compiler refuses, or a form
 *   that does not predefine native's macros, gives no flags and a note
 *   "-march=native is kept: " with the reason.
 *   Live: every -mX=native word of a configuration, made explicit by the
 *   compilers here, is accepted and predefines what native does (never a
 *   particular spelling); no native word or no compiler: NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "base/native_cpu.h"
#include "tests/testlib.h"

/* A fixture: its folder and the compiler its files were recorded with */
struct recorded {
	char *dir;
	const char *cc;
};

static char *index_file(const struct recorded *r, const char *command)
{
	char *path = xasprintf("%s/index.txt", r->dir);
	char *text = file_read(path, NULL), *found = NULL;
	for (char *l = text; l && *l && !found; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *tab = strchr(l, '\t');
		size_t len = strcspn(l, "\n");
		if (tab && tab < l + len && (size_t)(l + len - tab - 1) == strlen(command) &&
		    !strncmp(tab + 1, command, strlen(command)))
			found = xasprintf("%s/%.*s", r->dir, (int)(tab - l), l);
	}
	free(text);
	free(path);
	return found;
}

/* Records command's output (an explicit form: the same on any CPU) when
 * FLAGSCOPE_NATIVE_RECORD is set and this machine's compiler is the one
 * the fixture names in CC-version.txt; the file's path, or NULL */
static char *record(const struct recorded *r, const char *command)
{
	if (!getenv("FLAGSCOPE_NATIVE_RECORD"))
		return NULL;
	char *vpath = xasprintf("%s/%s-version.txt", r->dir, r->cc);
	char *want = file_read(vpath, NULL), *have = NULL;
	char *argv[] = {(char *)r->cc, "--version", NULL};
	char *path = NULL;
	if (want && run_capture(argv, &have) == 0 && have &&
	    !strncmp(have, want, strcspn(want, "\n"))) {
		char hash[65];
		sha256_hex(command, strlen(command), hash);
		char *name = xasprintf("%s-explicit-%.8s.txt", r->cc, hash);
		char *out = NULL, *line = xasprintf("%s\t%s\n", name, command);
		path = xasprintf("%s/%s", r->dir, name);
		run_shell_capture(command, &out);
		file_write(path, out ? out : "", out ? strlen(out) : 0);
		char *ipath = xasprintf("%s/index.txt", r->dir);
		FILE *f = fopen(ipath, "a");
		if (f) {
			fputs(line, f);
			fclose(f);
		}
		printf("recorded: %s -> %s\n", command, path);
		free(ipath);
		free(out);
		free(line);
		free(name);
	}
	free(vpath);
	free(want);
	free(have);
	return path;
}

static int fixture_ask(void *ctx, const char *flags, enum native_job job, char **out)
{
	const struct recorded *r = ctx;
	char *command = xasprintf("%s %s %s", r->cc, flags, native_job_words(job));
	char *path = index_file(r, command);
	if (!path && !strstr(flags, "native"))
		path = record(r, command);
	if (!path && !strstr(flags, "native"))
		printf("not recorded in %s: %s (FLAGSCOPE_NATIVE_RECORD=1 records it)\n", r->dir,
		       command);
	*out = path ? file_read(path, NULL) : NULL;
	free(path);
	free(command);
	return *out ? 0 : -1;
}

/* clang only, when it is the fixture's version: the code the explicit
 * form gives equals the code of native's own cc1 features on that CPU
 * (-target-cpu and each recorded -target-feature passed with -Xclang),
 * for a loop that vectorises and a copy.  Code generation does not
 * depend on the CPU it runs on, so this holds here for another CPU. */
static void check_code(const struct recorded *r, const char *flags)
{
	char *vpath = xasprintf("%s/clang-version.txt", r->dir), *hpath = NULL;
	char *want = file_read(vpath, NULL), *have = NULL, *driver = NULL;
	char *argv[] = {"clang", "--version", NULL};
	if (!want || run_capture(argv, &have) || !have || strncmp(have, want, strcspn(want, "\n"))) {
		printf("SKIP (code) %s: this clang is not the fixture's\n", r->dir);
		goto out;
	}
	hpath = xasprintf("%s/clang-native-hash.txt", r->dir);
	driver = file_read(hpath, NULL);
	struct strlist tok = {0}, nat = {0};
	char *t = xstrdup(driver ? driver : "");
	for (char *c = t; *c; c++)
		if (*c == '"')
			*c = ' ';
	sl_split_ws(&tok, t);
	free(t);
	for (size_t i = 0; i + 1 < tok.n; i++) {
		if (!strcmp(tok.v[i], "-target-cpu"))
			sl_push_owned(&nat, xasprintf("-march=%s", tok.v[i + 1]));
		if (!strcmp(tok.v[i], "-target-feature"))
			sl_push_owned(&nat, xasprintf("-Xclang -target-feature -Xclang %s", tok.v[++i]));
	}
	char *natf = sl_join(&nat, " ");
	static const char unit[] = "double a[1024], b[1024]; void f(void) { for (int i = 0; i < "
				   "1024; i++) a[i] += b[i] * 3; } void g(char *d, const char *s) "
				   "{ __builtin_memcpy(d, s, 200); }";
	char *s1 = xasprintf("echo '%s' | clang -O3 %s -S -x c - -o -", unit, natf);
	char *s2 = xasprintf("echo '%s' | clang -O3 %s -S -x c - -o -", unit, flags);
	char *a = NULL, *b = NULL;
	int ok = !run_shell_capture(s1, &a) && !run_shell_capture(s2, &b) && a && b && !strcmp(a, b);
	T_CHECK(ok, "%s: %s gives the code of native's cc1 features", r->dir, flags);
	free(s1);
	free(s2);
	free(a);
	free(b);
	free(natf);
	sl_release(&tok);
	sl_release(&nat);
out:
	free(vpath);
	free(hpath);
	free(want);
	free(have);
	free(driver);
}

static const struct {
	const char *dir, *cc;
	int fallback;
} fixtures[] = {
	{"amd-epyc-family26", "clang", 1},
	{"amd-epyc-family26", "gcc", 0},
	{"intel-xeon-amx", "clang", 0},
	{"intel-xeon-amx", "gcc", 0},
	{"amd-epyc-zen4-family25", "clang", 0},
	{"amd-epyc-zen4-family25", "gcc", 0},
};

static void check_fixtures(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(fixtures); i++) {
		struct recorded r = {
			.dir = xasprintf("%s/tests/fixtures/native/%s", FLAGSCOPE_SOURCE_DIR,
					 fixtures[i].dir),
			.cc = fixtures[i].cc,
		};
		struct native_oracle o = {.ask = fixture_ask, .ctx = &r};
		struct native_form f;
		int rc = native_resolve(&o, "-march=native", &f);
		T_CHECK(rc == 0 && f.flags && !strstr(f.flags, "native"), "%s %s: '%s' (%s)",
			fixtures[i].dir, r.cc, f.flags ? f.flags : "(refused)",
			f.note ? f.note : "no note");
		/* the check, again, apart from the resolver's own */
		char *nat = NULL, *mine = NULL, *first = NULL;
		int same = f.flags && !fixture_ask(&r, "-march=native", NATIVE_MACROS, &nat) &&
			   !fixture_ask(&r, f.flags, NATIVE_MACROS, &mine) &&
			   native_macros_equal(nat, mine, &first);
		T_CHECK(same, "%s %s: %s predefines what -march=native does (first difference: %s)",
			fixtures[i].dir, r.cc, f.flags ? f.flags : "(refused)",
			first ? first : "none");
		T_CHECK(f.fallback == fixtures[i].fallback && !f.fallback == !f.note,
			"%s %s: fallback %d, want %d, note '%s'", fixtures[i].dir, r.cc, f.fallback,
			fixtures[i].fallback, f.note ? f.note : "");
		if (f.flags && !strcmp(r.cc, "clang"))
			check_code(&r, f.flags);
		printf("%s %s: %s%s%s\n", fixtures[i].dir, r.cc, f.flags ? f.flags : "(refused)",
		       f.note ? "\n  note: " : "", f.note ? f.note : "");
		free(nat);
		free(mine);
		free(first);
		native_form_release(&f);
		free(r.dir);
	}
}

/* cc's `-dM -E` of an empty unit with flags, as run_capture gives it (a
 * warning included); heap, or NULL when it fails */
static char *macros(const char *cc, const char *flags)
{
	char *script = xasprintf("%s %s -dM -E -x c /dev/null", cc, flags);
	char *out = NULL;
	if (run_shell_capture(script, &out) != 0) {
		free(out);
		out = NULL;
	}
	free(script);
	return out;
}

/* native_cpu_flags for word: accepted, and native's macros */
static void check_live(const char *cc, const char *word)
{
	char *note = NULL;
	char *x = native_cpu_flags(cc, word, &note);
	char *nat = macros(cc, word), *mine = x ? macros(cc, x) : NULL, *first = NULL;
	int tune = str_starts_with(word, "-mtune=");
	T_CHECK(x && !strstr(x, "native") && (tune || (mine && native_macros_equal(nat, mine, &first))),
		"%s %s: '%s' accepted and predefines what native does (first difference: %s; %s)",
		cc, word, x ? x : "(refused)", first ? first : "none", note ? note : "no note");
	printf("live %s %s: %s%s%s\n", cc, word, x ? x : "(refused)", note ? "\n  note: " : "",
	       note ? note : "");
	free(x);
	free(note);
	free(nat);
	free(mine);
	free(first);
}

static void check_equal(void)
{
	char *first = NULL;
	T_CHECK(native_macros_equal("#define B 1\n#define A 1\n", "#define A 1\n#define B 1", NULL),
		"the same lines in another order are equal");
	T_CHECK(!native_macros_equal("#define A 1\n#define C 1\n", "#define A 1\n", &first) &&
			first && !strcmp(first, "+#define C 1"),
		"native has C: '%s'", first ? first : "");
	free(first);
	T_CHECK(!native_macros_equal("#define A 1\n", "clang: warning: x\n#define A 1\n", NULL),
		"a warning makes them differ");
}

/* A made-up clang for the refusals: its answers by flags, first match */
static const struct {
	const char *flags;
	enum native_job job;
	const char *text;
} made_up[] = {
	{"-march=native", NATIVE_DRIVER, "clang version 14.0.6\n \"-cc1\" \"-target-cpu\" "
					 "\"x86-64\" \"-target-feature\" \"+avx2\" "
					 "\"-target-feature\" \"+flagscope-odd\"\n"},
	{"-march=native", NATIVE_MACROS, "#define __AVX2__ 1\n#define __ODD__ 1\n"},
	{"-march=x86-64", NATIVE_MACROS, "#define __SSE2__ 1\n"},
	{"-march=x86-64 -mavx2 -mflagscope-odd", NATIVE_MACROS, NULL},
};

/* What the made-up clang says for the candidate: refuses it (status
 * -1) or predefines other macros than native (0) */
struct candidate_says {
	int status;
	const char *text;
};

static int made_up_ask(void *ctx, const char *flags, enum native_job job, char **out)
{
	const struct candidate_says *c = ctx;
	*out = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(made_up); i++)
		if (!strcmp(flags, made_up[i].flags) && job == made_up[i].job) {
			*out = xstrdup(made_up[i].text ? made_up[i].text : c->text);
			return made_up[i].text ? 0 : c->status;
		}
	return -1;
}

/* No exact explicit form: a refusal that says why, never a guess */
static void check_refusals(void)
{
	static const struct {
		struct candidate_says c;
		const char *why;
	} cases[] = {
		{{-1, "clang: error: unknown argument: '-mflagscope-odd'\n"},
		 "refuses -march=x86-64 -mavx2 -mflagscope-odd (clang: error: unknown argument: "
		 "'-mflagscope-odd')"},
		{{0, "#define __AVX2__ 1\n#define __SSE2__ 1\n"},
		 "x86-64 with 2 feature switches does not predefine what it does (native has "
		 "#define __ODD__ 1)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct native_oracle o = {.ask = made_up_ask, .ctx = (void *)&cases[i].c};
		struct native_form f;
		int rc = native_resolve(&o, "-march=native", &f);
		T_CHECK(rc < 0 && !f.flags && f.note && str_starts_with(f.note, "-march=native is kept: ") &&
				strstr(f.note, cases[i].why),
			"refusal %zu: '%s', want '...%s'", i, f.note ? f.note : "", cases[i].why);
		native_form_release(&f);
	}
}

int main(void)
{
	check_equal();
	check_refusals();
	check_fixtures();
	T_CHECK(!native_cpu_flags("clang", "-O2 -march=x86-64-v2", NULL), "no native word: NULL");
	T_CHECK(!native_cpu_flags("clang", NULL, NULL), "no flags: NULL");
	T_CHECK(!native_cpu_flags("false", "-march=native", NULL), "no compiler: NULL");
	static const char *const ccs[] = {"clang", "gcc"};
	static const char *const words[] = {"-march=native", "-mtune=native"};
	for (size_t c = 0; c < ARRAY_SIZE(ccs); c++) {
		char *path = path_lookup(ccs[c]);
		if (!path) {
			printf("SKIP (live %s): %s is not installed\n", ccs[c], ccs[c]);
			continue;
		}
		for (size_t w = 0; w < ARRAY_SIZE(words); w++)
			check_live(ccs[c], words[w]);
		free(path);
	}
	return test_summary("test_native_cpu");
}
