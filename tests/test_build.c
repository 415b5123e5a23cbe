/*
 * test_build.c - build keys, the flag probe, failure summaries, and the
 * toolchain identity.
 */
#include "harness/build.h"
#include "tests/testlib.h"

static void check_keys(void)
{
	struct toolchain gcc;
	struct strbuf err = {0};
	T_CHECK(!toolchain_probe("gcc", &gcc, &err), "gcc: %s", sb_str(&err));
	T_CHECK(gcc.kind == TC_GCC && strlen(gcc.id) == 16 && strstr(gcc.target, "linux"),
		"gcc facts: kind %d id %s target %s", gcc.kind, gcc.id, gcc.target);
	T_CHECK(!strcmp(toolchain_record_flag(&gcc), "-g -frecord-gcc-switches"), "record flag");
	struct recipe r = {.hash = "r1"};
	struct config c = {.cc = "gcc", .cflags = "-O2", .ldflags = "", .link = -1};
	struct build a = {.cfg = &c, .tc = &gcc, .recipe = &r, .src_id = "bundled"};
	build_init(&a);
	char key1[65];
	memcpy(key1, a.key, sizeof(key1));
	build_release(&a);
	build_init(&a);
	T_CHECK(!strcmp(key1, a.key), "the same inputs give another key");
	build_release(&a);
	struct config c2 = c;
	c2.cflags = "-O3";
	struct build b = {.cfg = &c2, .tc = &gcc, .recipe = &r, .src_id = "bundled"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "cflags do not change the key");
	build_release(&b);
	struct recipe r2 = {.hash = "r2"};
	b = (struct build){.cfg = &c, .tc = &gcc, .recipe = &r2, .src_id = "bundled"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "the recipe does not change the key");
	build_release(&b);
	b = (struct build){.cfg = &c, .tc = &gcc, .recipe = &r, .src_id = "other"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "the source does not change the key");
	build_release(&b);
	struct toolchain other = gcc;
	memcpy(other.id, "0000000000000000", 17);
	b = (struct build){.cfg = &c, .tc = &other, .recipe = &r, .src_id = "bundled"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "the toolchain identity does not change the key");
	build_release(&b);
	struct config c3 = c;
	c3.link = 1;
	c3.ldflags = "-static";
	b = (struct build){.cfg = &c3, .tc = &gcc, .recipe = &r, .src_id = "bundled"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "linkage does not change the key");
	build_release(&b);

	/* a flag the compiler rejects is UNSUPPORTED_FLAG, with its message */
	char *detail = NULL;
	struct config bad = {.cc = "gcc", .cflags = "-O2 -fno-such-flag-at-all", .ldflags = "",
			     .link = -1};
	T_CHECK(build_probe_flags(&bad, &gcc, &detail) == OUTCOME_UNSUPPORTED_FLAG &&
			detail && strstr(detail, "-fno-such-flag-at-all"),
		"rejected flag: %s", detail ? detail : "(none)");
	free(detail);
	T_CHECK(build_probe_flags(&c, &gcc, &detail) == OUTCOME_OK && !detail, "-O2 probe: %s",
		detail ? detail : "");
	free(detail);
	toolchain_release(&gcc);

	struct toolchain clang;
	if (toolchain_probe("clang", &clang, &err)) {
		printf("SKIP: clang cases: %s\n", sb_str(&err));
	} else {
		/* clang accepts but ignores some GCC optimisation flags: the
		 * configuration would silently equal another one */
		struct config ign = {.cc = "clang", .cflags = "-O2 -fipa-pta", .ldflags = "",
				     .link = -1};
		T_CHECK(build_probe_flags(&ign, &clang, &detail) == OUTCOME_UNSUPPORTED_FLAG && detail,
			"ignored flag: %s", detail ? detail : "(none)");
		free(detail);
		T_CHECK(clang.kind == TC_CLANG &&
				!strcmp(toolchain_record_flag(&clang), "-g -frecord-command-line"),
			"clang facts");
		toolchain_release(&clang);
	}
	T_CHECK(toolchain_probe("no-such-compiler-12", &clang, &err) == -1 &&
			strstr(sb_str(&err), "not found on PATH"),
		"missing compiler: %s", sb_str(&err));
	sb_release(&err);
}

static void check_summaries(void)
{
	char *s = build_log_summary("cc -o lame x.o -lm\n/usr/bin/ld: x.o: in function `f':\n"
				    "x.c:(.text+0x1): undefined reference to `cos'\n"
				    "x.c:(.text+0x9): undefined reference to `sin'\n"
				    "x.c:(.text+0xa): undefined reference to `cos'\n"
				    "collect2: error: ld returned 1 exit status\n");
	T_CHECK(!strcmp(s, "undefined symbols: cos sin"), "'%s'", s);
	free(s);
	s = build_log_summary("a\n\nb\nc\nd\ne: error\n");
	T_CHECK(!strcmp(s, "b | c | d | e: error"), "'%s'", s);
	free(s);
}

int main(void)
{
	char *dir = test_tmpdir("build");
	setenv("FLAGSCOPE_CACHE", dir, 1);
	check_keys();
	check_summaries();
	free(dir);
	return test_summary("test_build");
}
