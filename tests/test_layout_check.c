/*
 * test_layout_check.c - harness/layout_check.h on real gcc builds of the
 * bundled workloads crc32 and alias4k: each built plain (-O2) and as the
 * layout variants `layouts = 3` makes (matrix_layout_flag: -O2
 * -falign-functions=32 and =64).
 *
 * Expected: all checks pass.  Every variant has the plain build's
 * functions, each of the same size, and some at other addresses: the
 * check passes.  A build of the same flags again (no function moved) and
 * an -O3 build (other code: sizes change) fail it, each with its reason.
 * SKIP (77) when gcc is not here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "flagsets/matrix.h"
#include "harness/layout_check.h"
#include "tests/testlib.h"

static char *dir;

/* gcc FLAGS workloads/NAME/NAME.c -o DIR/OUT; 0 when it built. */
static int build(const char *name, const char *flags, const char *out)
{
	char *cmd = xasprintf("gcc %s -o '%s/%s' '%s/workloads/%s/%s.c' 2>/dev/null", flags, dir,
			      out, FLAGSCOPE_SOURCE_DIR, name, name);
	int rc = system(cmd);
	free(cmd);
	return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 0 : -1;
}

static int compare(const char *a, const char *b, struct layout_diff *d, struct strbuf *why)
{
	char *pa = xasprintf("%s/%s", dir, a), *pb = xasprintf("%s/%s", dir, b);
	memset(d, 0, sizeof(*d));
	int rc = layout_compare_files(pa, pb, d, why);
	free(pa);
	free(pb);
	return rc;
}

static void check_workload(const char *name)
{
	char plain[64], again[64], o3[64], var[3][64];
	snprintf(plain, sizeof(plain), "%s-plain", name);
	snprintf(again, sizeof(again), "%s-again", name);
	snprintf(o3, sizeof(o3), "%s-o3", name);
	T_CHECK(!build(name, "-O2", plain) && !build(name, "-O2", again) && !build(name, "-O3", o3),
		"%s: gcc builds", name);
	for (int v = 1; v <= 2; v++) {
		snprintf(var[v], sizeof(var[v]), "%s-layout%d", name, v);
		char *flags = xasprintf("-O2 %s", matrix_layout_flag(v));
		T_CHECK(!build(name, flags, var[v]), "%s: gcc %s", name, flags);
		free(flags);
		struct layout_diff d;
		struct strbuf why = {0};
		int rc = compare(plain, var[v], &d, &why);
		int ok = !rc && layout_diff_ok(&d, &why);
		T_CHECK(ok && d.functions > 0 && !d.resized && !d.only_one && d.moved > 0,
			"%s variant %d (%s): %s; %zu functions, %zu resized, %zu moved", name, v,
			matrix_layout_flag(v), sb_str(&why), d.functions, d.resized, d.moved);
		printf("%s variant %d (%s): %zu functions, same sizes, %zu moved, %zu of %zu "
		       "bytes differ\n", name, v, matrix_layout_flag(v), d.functions, d.moved,
		       d.bytes_differ, d.code_bytes);
		sb_release(&why);
	}
	struct layout_diff d;
	struct strbuf why = {0};
	T_CHECK(!compare(plain, again, &d, &why) && !layout_diff_ok(&d, &why) && !d.moved &&
			strstr(sb_str(&why), "moved"),
		"%s: the same build again fails (%s)", name, sb_str(&why));
	printf("%s -O2 again: %s\n", name, sb_str(&why));
	sb_release(&why);
	T_CHECK(!compare(plain, o3, &d, &why) && !layout_diff_ok(&d, &why) &&
			(d.resized || d.only_one),
		"%s: -O3 against -O2 fails (%s)", name, sb_str(&why));
	printf("%s -O3: %s\n", name, sb_str(&why));
	sb_release(&why);
}

int main(void)
{
	if (system("gcc --version >/dev/null 2>&1")) {
		printf("SKIP: no gcc here\n");
		return 77;
	}
	dir = test_tmpdir("layout_check");
	check_workload("crc32");
	check_workload("alias4k");
	struct layout_diff d = {0};
	struct strbuf why = {0};
	T_CHECK(layout_compare_files("/nonexistent", "/nonexistent", &d, &why) == -1 &&
			strstr(sb_str(&why), "/nonexistent"),
		"a missing file: %s", sb_str(&why));
	sb_release(&why);
	return test_summary("test_layout_check");
}
