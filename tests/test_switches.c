/*
 * test_switches.c - harness/switches: splitting recorded lines, producers,
 * the source a clang line compiles, override keys, and the expected-flag
 * check.  The recorded lines are copied from what Debian 12's gcc 12.2 and
 * clang 14 wrote into .GCC.command.line / DW_AT_producer.
 */
#include "harness/switches.h"

#include <string.h>

#include "base/util.h"
#include "tests/testlib.h"

#define GCC_X86 "GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O3 -O2 -finline -fasynchronous-unwind-tables"
#define GCC_LS2F "GNU C17 12.2.0 -mel -mabi=n32 -march=loongson2f -mllsc -mno-madd4 -mips3 -mloongson-mmi -O2"
#define CLANG_LINE "/usr/lib/llvm-14/bin/clang -O2 -frecord-command-line -c a.c -o ac.o"
#define CLANG_PRODUCER "Debian clang version 14.0.6 /usr/lib/llvm-14/bin/clang -O3 -g -grecord-command-line -c a.c -o ac2.o"

static void test_split(void)
{
	struct strlist w = {0};
	T_CHECK(switches_split("  -DX=a\\ b\t-O2  ", &w) == 2, "%zu words", w.n);
	T_CHECK(w.n == 2 && !strcmp(w.v[0], "-DX=a b") && !strcmp(w.v[1], "-O2"), "words");
	sl_release(&w);
	T_CHECK(switches_split("", &w) == 0 && w.n == 0, "empty");
	T_CHECK(switches_split("trailing\\", &w) == 1 && !strcmp(w.v[0], "trailing\\"), "%s",
		w.n ? w.v[0] : "");
	sl_release(&w);
}

static const struct producer_case {
	const char *recorded, *producer, *switches;
	int has;
} producer_cases[] = {
	{GCC_X86, "GNU C17 12.2.0",
	 "-mtune=generic -march=x86-64 -g -O3 -O2 -finline -fasynchronous-unwind-tables", 1},
	{CLANG_LINE, "/usr/lib/llvm-14/bin/clang", "-O2 -frecord-command-line -c a.c -o ac.o", 1},
	{CLANG_PRODUCER, "Debian clang version 14.0.6 /usr/lib/llvm-14/bin/clang",
	 "-O3 -g -grecord-command-line -c a.c -o ac2.o", 1},
	{"GNU AS 2.40", "GNU AS 2.40", NULL, 0},
	{"Debian clang version 14.0.6", "Debian clang version 14.0.6", NULL, 0},
	{"-O2 -g", NULL, "-O2 -g", 1},
	{"", NULL, NULL, 0},
};

static int same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static void test_producer(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(producer_cases); i++) {
		const struct producer_case *c = &producer_cases[i];
		char *p = NULL, *s = NULL;
		int has = switches_split_producer(c->recorded, &p, &s);
		T_CHECK(has == c->has, "'%s': %d", c->recorded, has);
		T_CHECK(same(p, c->producer), "'%s': producer '%s'", c->recorded, p ? p : "(null)");
		T_CHECK(same(s, c->switches), "'%s': switches '%s'", c->recorded, s ? s : "(null)");
		free(p);
		free(s);
	}
}

static const struct {
	const char *switches, *source;
} source_cases[] = {
	{"-O2 -frecord-command-line -c a.c -o ac.o", "a.c"},
	{"-o x.c -c src/y.cc", "src/y.cc"},
	{"-include pre.h -MF dep.c -c -O2 k.S", "k.S"},
	{"-mtune=generic -march=x86-64 -g -O2", NULL},
	{"-c -o out.o", NULL},
};

static void test_source_name(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(source_cases); i++) {
		char *s = switches_source_name(source_cases[i].switches);
		T_CHECK(same(s, source_cases[i].source), "'%s': '%s'", source_cases[i].switches,
			s ? s : "(null)");
		free(s);
	}
}

static const struct {
	const char *flag, *key;
} key_cases[] = {
	{"-O3", "O"},	      {"-Ofast", "O"},		 {"-O", "O"},
	{"-fno-inline", "finline"}, {"-finline", "finline"}, {"-flto=auto", "flto"},
	{"-march=mips3", "march"}, {"-mno-avx", "mavx"},     {"-mabi=n32", "mabi"},
	{"-mips3", "mips3"},	  {"-g", NULL},		 {"-DNDEBUG", NULL},
	{"-static", NULL},	  {"O3", NULL},		 {"-f", NULL},
	{"-fno-", NULL},	  {"-m=x", NULL},
};

static void test_key(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(key_cases); i++) {
		char key[64];
		int ok = switches_key(key_cases[i].flag, key, sizeof(key));
		T_CHECK(ok == (key_cases[i].key != NULL), "'%s': %d", key_cases[i].flag, ok);
		if (ok && key_cases[i].key)
			T_CHECK(!strcmp(key, key_cases[i].key), "'%s': key '%s'", key_cases[i].flag,
				key);
	}
}

static const struct check_case {
	const char *switches, *expect;
	int mismatches;
	const char *first; /* the first line, or NULL */
} check_cases[] = {
	/* The last -O wins, whatever came first. */
	{"-mtune=generic -march=x86-64 -g -O3 -O2 -finline", "-O3", 1,
	 "unit a.c: -O3 expected, -O2 given last"},
	{"-O2 -O3", "-O3", 0, NULL},
	{"-O", "-O1", 0, NULL},
	{"-O1", "-O", 0, NULL},
	{"-Os", "-Oz", 1, "unit a.c: -Oz expected, -Os given last"},
	{"-g", "-O2", 1, "unit a.c: -O2 expected, absent"},
	/* -fX / -fno-X and -mX / -mno-X: the last wins. */
	{"-fno-inline -finline", "-fno-inline", 1, "unit a.c: -fno-inline expected, -finline given last"},
	{"-finline -fno-inline", "-fno-inline", 0, NULL},
	{"-mavx -mno-avx", "-mno-avx", 0, NULL},
	{"-mno-avx -mavx", "-mno-avx", 1, "unit a.c: -mno-avx expected, -mavx given last"},
	/* an expected -fX without a value: any -fX=V (the profile's path) */
	{"-O2 -fprofile-use=/c/p -fprofile-correction", "-O2 -fprofile-use", 0, NULL},
	{"-O2 -fprofile-instr-use=/c/m.profdata", "-fprofile-instr-use", 0, NULL},
	{"-O2 -fprofile-generate=/c/p", "-fprofile-use", 1, "unit a.c: -fprofile-use expected, absent"},
	{"-O2 -fno-profile-use", "-fprofile-use", 1,
	 "unit a.c: -fprofile-use expected, -fno-profile-use given last"},
	/* LTO: GCC records -flto whatever its value; its link-time units
	 * (-fltrans) are LTO's output and carry no -flto; -fno-lto last is no
	 * LTO (switches.h) */
	{"-O2 -flto -fasynchronous-unwind-tables", "-O2 -flto=auto", 0, NULL},
	{"-flto=8", "-flto=auto", 0, NULL},
	{"-O2 -flto -fno-lto", "-O2 -flto=auto", 1,
	 "unit a.c: -flto=auto expected, -fno-lto given last"},
	{"-march=x86-64 -g -O2 -O2 -fno-openmp -fPIC -fltrans", "-O2 -flto=auto", 0, NULL},
	{"-O2", "-O2 -flto=auto", 1, "unit a.c: -flto=auto expected, absent"},
	/* GCC's implied -march= and its -mips3 after -march=loongson2f. */
	{"-march=x86-64-v3 -O3 -fasynchronous-unwind-tables", "-O3 -march=x86-64-v3", 0, NULL},
	{"-mtune=generic -march=x86-64 -O3", "-O3 -march=x86-64-v3", 1,
	 "unit a.c: -march=x86-64-v3 expected, -march=x86-64 given last"},
	{"-mel -mabi=n32 -march=loongson2f -mllsc -mno-madd4 -mips3 -mloongson-mmi -O2",
	 "-O2 -march=loongson2f -mabi=n32", 0, NULL},
	{"-mel -mabi=64 -march=mips3 -O2", "-march=loongson2f -mabi=n32", 2,
	 "unit a.c: -march=loongson2f expected, -march=mips3 given last"},
	{"-march=x86-64-v3", "-mavx2", 1, "unit a.c: -mavx2 expected, absent"},
	/* Flags that leave no per-unit trace are not checked; a later expected
	 * flag replaces an earlier one of the same key. */
	{"-O2", "-g -DNDEBUG -static -pipe -Wall -O2", 0, NULL},
	{"-O3", "-O2 -O3", 0, NULL},
	{"-O3", "", 0, NULL},
	/* An option's argument is not a flag. */
	{"-mllvm -O0 -O2 -c a.c -o -O1", "-O2", 0, NULL},
	{"-Xclang -fno-inline -finline", "-finline", 0, NULL},
};

static void test_check(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(check_cases); i++) {
		const struct check_case *c = &check_cases[i];
		struct strlist m = {0};
		int n = switches_check("unit a.c", c->switches, c->expect, &m);
		T_CHECK(n == c->mismatches && (size_t)n == m.n, "'%s' vs '%s': %d mismatches%s%s",
			c->switches, c->expect, n, m.n ? ", first: " : "", m.n ? m.v[0] : "");
		if (c->first && m.n)
			T_CHECK(!strcmp(m.v[0], c->first), "'%s' vs '%s': '%s'", c->switches,
				c->expect, m.v[0]);
		sl_release(&m);
	}
}

static void test_lto(void)
{
	static const struct {
		const char *flags;
		int want;
	} cases[] = {{"-O2 -flto=auto", 1}, {"-flto", 1}, {"-flto=8 -fno-lto", 0},
		     {"-fno-lto -flto=auto", 1}, {"-O2 -flto-partition=one", 0}, {"", 0}};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		T_CHECK(switches_want_lto(cases[i].flags) == cases[i].want, "'%s'", cases[i].flags);
	T_CHECK(switches_is_ltrans("-mtune=generic -O2 -fPIC -fltrans"), "ltrans unit");
	T_CHECK(!switches_is_ltrans("-O2 -flto -fasynchronous-unwind-tables"), "compile unit");
}

int main(void)
{
	test_lto();
	test_split();
	test_producer();
	test_source_name();
	test_key();
	test_check();
	return test_summary("test_switches");
}
