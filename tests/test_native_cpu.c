/*
 * test_native_cpu.c - harness/native_cpu: what -mX=native stands for with
 * the real compilers here (native_cpu_flags).
 * Expected: PASS, or SKIP when neither clang nor gcc is installed.  Cases:
 * flags without a native word run nothing (NULL); clang -march=native
 * names its -target-cpu and the features native differs in: the flags
 * predefine exactly the macros -march=native does (`-dM -E`, every macro);
 * clang -mtune=native its -tune-cpu; gcc -march=native -mtune=native the
 * CPUs its -Q --help=target says, and the same macros; a command that is
 * no compiler gives NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/native_cpu.h"
#include "tests/testlib.h"

static int by_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* cc's `-dM -E` of an empty unit with flags (blank-separated), its lines
 * sorted; heap, or NULL when it fails */
static char *macros(const char *cc, const char *flags)
{
	struct strlist argv = {0}, lines = {0};
	sl_push(&argv, cc);
	sl_split_ws(&argv, flags);
	const char *const job[] = {"-dM", "-E", "-x", "c", "/dev/null"};
	for (size_t i = 0; i < ARRAY_SIZE(job); i++)
		sl_push(&argv, job[i]);
	char **v = xcalloc(argv.n + 1, sizeof(char *));
	memcpy(v, argv.v, argv.n * sizeof(char *));
	char *out = NULL, *res = NULL;
	if (run_capture(v, &out) == 0 && out) {
		char *save = NULL;
		for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			sl_push(&lines, l);
		qsort(lines.v, lines.n, sizeof(char *), by_line);
		res = sl_join(&lines, "\n");
	}
	free(out);
	free(v);
	sl_release(&argv);
	sl_release(&lines);
	return res;
}

/* flags (-march=CPU and its features) predefine what -march=native does */
static int same_as_native(const char *cc, const char *flags)
{
	char *a = macros(cc, "-march=native"), *b = macros(cc, flags);
	int same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

/* "  -march=  znver3" in gcc -Q --help=target; heap, or NULL */
static char *gcc_says(const char *opt)
{
	char *const argv[] = {"gcc", "-march=native", "-mtune=native", "-Q", "--help=target", NULL};
	char *out = NULL, *found = NULL;
	if (run_capture(argv, &out) == 0)
		for (char *l = out; l && *l && !found; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			l += strspn(l, " \t");
			if (!strncmp(l, opt, strlen(opt)) && strchr(" \t", l[strlen(opt)])) {
				char *v = l + strlen(opt) + strspn(l + strlen(opt), " \t");
				found = xstrndup(v, strcspn(v, " \t\n"));
			}
		}
	free(out);
	return found;
}

static void check_clang(void)
{
	char *m = native_cpu_flags("clang", "-O2 -march=native");
	T_CHECK(m && str_starts_with(m, "-march=") && strlen(m) > 7 && !strstr(m, "native"),
		"clang -march=native: '%s'", m ? m : "(null)");
	T_CHECK(m && same_as_native("clang", m), "clang: %s predefines what -march=native does",
		m ? m : "(null)");
	free(m);
	char *t = native_cpu_flags("clang", "-mtune=native -O2");
	T_CHECK(t && str_starts_with(t, "-mtune=") && !strstr(t, "native") && !strchr(t, ' '),
		"clang -mtune=native: '%s'", t ? t : "(null)");
	free(t);
}

static void check_gcc(void)
{
	char *both = native_cpu_flags("gcc", "-march=native -O2 -mtune=native");
	char *march = gcc_says("-march="), *mtune = gcc_says("-mtune=");
	char *head = march ? xasprintf("-march=%s", march) : NULL;
	char *tail = mtune ? xasprintf(" -mtune=%s", mtune) : NULL;
	size_t n = both ? strlen(both) : 0;
	T_CHECK(both && head && tail && str_starts_with(both, head) && n > strlen(tail) &&
			!strcmp(both + n - strlen(tail), tail),
		"gcc: '%s', -Q --help=target says -march=%s -mtune=%s", both ? both : "(null)",
		march ? march : "?", mtune ? mtune : "?");
	if (both && tail && n > strlen(tail)) {
		char *arch = xstrndup(both, n - strlen(tail));
		T_CHECK(same_as_native("gcc", arch), "gcc: %s predefines what -march=native does",
			arch);
		free(arch);
	}
	free(both);
	free(march);
	free(mtune);
	free(head);
	free(tail);
}

int main(void)
{
	char *cl = path_lookup("clang"), *gc = path_lookup("gcc");
	if (!cl && !gc) {
		printf("SKIP: neither clang nor gcc is installed\n");
		return 77;
	}
	T_CHECK(!native_cpu_flags("clang", "-O2 -march=x86-64-v2"), "no native word: NULL");
	T_CHECK(!native_cpu_flags("clang", NULL), "no flags: NULL");
	T_CHECK(!native_cpu_flags("false", "-march=native"), "no compiler: NULL");
	if (cl)
		check_clang();
	else
		printf("clang cases skipped: clang is not installed\n");
	if (gc)
		check_gcc();
	free(cl);
	free(gc);
	return test_summary("test_native_cpu");
}
