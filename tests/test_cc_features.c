/*
 * test_cc_features.c - base/native_cpu's recorded half: which feature
 * words follow a -march=CPU in switches GCC recorded in a DWARF producer,
 * and which of them -march=CPU alone would not give (asked of this
 * machine's gcc, native_resolve_recorded).  Expected: the run of
 * -mX/-mno-X words up to --param, -mtune= or a word with '='; against
 * gcc -march=x86-64-v3, -mavx2 and -mno-avx512f are implied (dropped),
 * -mno-avx2 and -mavx512f are not (kept), an unknown switch is kept; a
 * compiler that does not answer keeps every switch.
 */
#include "base/native_cpu.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/util.h"
#include "tests/testlib.h"

static void test_after(void)
{
	static const struct {
		const char *switches;
		unsigned want;
	} cases[] = {
		{"-march=skylake -mtune=skylake -O3", 0},
		{"-march=rocketlake -mmmx -mno-sse4a --param=l1-cache-size=48 -mtune=rocketlake", 2},
		{"-march=x86-64-v3 -mavx2 -mfpmath=sse -mno-fma", 1},
		{"-march=znver3", 0},
		{"-mcpu=cortex-a72 -mno-outline-atomics -march=armv8-a", 1},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strlist w = {0};
		sl_split_ws(&w, cases[i].switches);
		unsigned n = native_switches_after(w.v, (unsigned)w.n);
		T_CHECK(n == cases[i].want, "'%s': %u feature words, want %u", cases[i].switches, n,
			cases[i].want);
		sl_release(&w);
	}
}

/* native_resolve_recorded of "-march=x86-64-v3 FEATURES" with cc here */
static char *beyond(const char *cc, const char *features)
{
	struct strlist w = {0};
	sl_push(&w, "-march=x86-64-v3");
	sl_split_ws(&w, features);
	struct native_oracle o = native_oracle_live(cc);
	char *got = native_resolve_recorded(&o, w.v, (unsigned)w.n);
	native_oracle_live_release(&o);
	sl_release(&w);
	return got;
}

static void test_beyond(void)
{
	char *none = beyond("flagscope-no-such-compiler", "-mavx2");
	T_CHECK(!strcmp(none, "-march=x86-64-v3 -mavx2"), "a compiler that is not there: all kept, got '%s'", none);
	free(none);
	struct utsname u;
	char *gcc = path_lookup("gcc");
	if (!gcc || uname(&u) || strcmp(u.machine, "x86_64")) {
		printf("SKIP: beyond -march=x86-64-v3: needs gcc on x86_64\n");
		free(gcc);
		return;
	}
	free(gcc);
	static const struct {
		const char *features, *want;
	} cases[] = {
		{"-mavx2 -mno-avx512f -mfma", ""},
		{"-mno-avx2 -mavx512f -mbmi2", "-mno-avx2 -mavx512f"},
		{"-mavx2 -mflagscope-unknown", "-mflagscope-unknown"},
		{"", ""},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = beyond("gcc", cases[i].features);
		char *want = *cases[i].want ? xasprintf("-march=x86-64-v3 %s", cases[i].want)
					    : xstrdup("-march=x86-64-v3");
		T_CHECK(!strcmp(got, want), "'%s' beyond x86-64-v3: '%s', want '%s'",
			cases[i].features, got, want);
		free(want);
		free(got);
	}
}

int main(void)
{
	test_after();
	test_beyond();
	return test_summary("test_cc_features");
}
