/*
 * test_toolchain.c - harness/toolchain: what -mX=native resolves to with
 * the real compilers here (toolchain_native_cpus).
 * Expected: PASS, or SKIP when neither clang nor gcc is installed.  Cases:
 * flags without a native word run nothing (NULL); clang -march=native
 * names its -target-cpu, a CPU clang then accepts as -march=; clang
 * -mtune=native its -tune-cpu; gcc -march=native -mtune=native both, as
 * its -Q --help=target says; a command that is no compiler gives NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/toolchain.h"
#include "tests/testlib.h"

/* 1 when cc compiles an empty unit with flag */
static int accepts(const char *cc, const char *flag)
{
	char *const argv[] = {(char *)cc, (char *)flag, "-c", "-x", "c", "/dev/null", "-o",
			      "/dev/null", NULL};
	char *out = NULL;
	int rc = run_capture(argv, &out);
	free(out);
	return rc == 0;
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
	char *m = toolchain_native_cpus("clang", "-O2 -march=native");
	T_CHECK(m && str_starts_with(m, "-march=") && strlen(m) > 7 && !strstr(m, "native") &&
			!strchr(m, ' '),
		"clang -march=native: '%s'", m ? m : "(null)");
	T_CHECK(m && accepts("clang", m), "clang accepts %s", m ? m : "(null)");
	free(m);
	char *t = toolchain_native_cpus("clang", "-mtune=native -O2");
	T_CHECK(t && str_starts_with(t, "-mtune=") && !strstr(t, "native"), "clang -mtune=native: '%s'",
		t ? t : "(null)");
	free(t);
}

static void check_gcc(void)
{
	char *both = toolchain_native_cpus("gcc", "-march=native -O2 -mtune=native");
	char *march = gcc_says("-march="), *mtune = gcc_says("-mtune=");
	char *want = march && mtune ? xasprintf("-march=%s -mtune=%s", march, mtune) : NULL;
	T_CHECK(both && want && !strcmp(both, want), "gcc: '%s', -Q --help=target says '%s'",
		both ? both : "(null)", want ? want : "(null)");
	free(both);
	free(march);
	free(mtune);
	free(want);
}

int main(void)
{
	char *cl = path_lookup("clang"), *gc = path_lookup("gcc");
	if (!cl && !gc) {
		printf("SKIP: neither clang nor gcc is installed\n");
		return 77;
	}
	T_CHECK(!toolchain_native_cpus("clang", "-O2 -march=x86-64-v2"), "no native word: NULL");
	T_CHECK(!toolchain_native_cpus("clang", NULL), "no flags: NULL");
	T_CHECK(!toolchain_native_cpus("false", "-march=native"), "no compiler: NULL");
	if (cl)
		check_clang();
	else
		printf("clang cases skipped: clang is not installed\n");
	if (gc)
		check_gcc();
	free(cl);
	free(gc);
	return test_summary("test_toolchain");
}
