/*
 * test_build.c - build keys, the flag probe, failure summaries, failed
 * builds told apart (a complaint about the configuration's own flag, or the
 * build's own failure), and the toolchain identity.
 */
#include <sys/wait.h>
#include <unistd.h>

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
	struct recipe r = {.name = "w", .hash = "r1"};
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
	struct recipe r2 = {.name = "w", .hash = "r2"};
	b = (struct build){.cfg = &c, .tc = &gcc, .recipe = &r2, .src_id = "bundled"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "the recipe does not change the key");
	build_release(&b);
	/* a copy of a recipe under another name is another build: one key
	 * for both had them built into one folder at once */
	struct recipe copy = {.name = "w-copy", .hash = "r1"};
	b = (struct build){.cfg = &c, .tc = &gcc, .recipe = &copy, .src_id = "bundled"};
	build_init(&b);
	T_CHECK(strcmp(key1, b.key), "the workload's name does not change the key");
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
	/* LTO's link-time step failing: said as such, with the first error */
	s = build_log_summary("m2.c:4:6: error: type of 'scale' does not match original "
			      "declaration [-Werror=lto-type-mismatch]\nlto1: some warnings being "
			      "treated as errors\nlto-wrapper: fatal error: gcc returned 1 exit "
			      "status\ncollect2: error: ld returned 1 exit status\n");
	T_CHECK(!strcmp(s, "LTO link failed: m2.c:4:6: error: type of 'scale' does not match "
			   "original declaration [-Werror=lto-type-mismatch]"), "'%s'", s);
	free(s);
}

/* A failed build's log decides between UNSUPPORTED_FLAG (a complaint that
 * names one of the configuration's flags) and BUILD_FAILED (anything else,
 * summarised).  Each case is a build whose script prints the log and fails. */
static const struct failure_case {
	const char *name, *cflags, *ldflags, *log;
	enum outcome outcome;
	const char *detail; /* exact; a build_failed one then says " | log: DIR/build.log" */
} failure_cases[] = {
	{"a source error", "-O2",
	 "", "x.c:3:1: error: unknown type name 'bool'\nmake: *** [x.o] Error 1\n",
	 OUTCOME_BUILD_FAILED, "x.c:3:1: error: unknown type name 'bool'"},
	{"dietlibc without cos/sin, an unrelated complaint earlier", "-Os", "-static",
	 "checking whether -fvisibility=hidden is supported... configure: WARNING: "
	 "-fvisibility=hidden is not supported\n"
	 "/usr/bin/ld: x.o: in function `f':\nx.c:(.text+0x1): undefined reference to `cos'\n"
	 "x.c:(.text+0x9): undefined reference to `sin'\n"
	 "collect2: error: ld returned 1 exit status\n",
	 OUTCOME_BUILD_FAILED, "undefined symbols: cos sin"},
	{"the project's own flag", "-O2", "",
	 "gcc: error: unrecognized command-line option '-mno-cygwin'\n",
	 OUTCOME_BUILD_FAILED, "gcc: error: unrecognized command-line option '-mno-cygwin'"},
	{"a flag of the configuration", "-O2 -fno-such-flag", "",
	 "cc -O2 -fno-such-flag -c x.c\n"
	 "gcc: error: unrecognized command-line option '-fno-such-flag'\n",
	 OUTCOME_UNSUPPORTED_FLAG, "gcc: error: unrecognized command-line option '-fno-such-flag'"},
	{"a -march value GCC rejects", "-O2 -march=foo", "",
	 "cc1: error: bad value ('foo') for '-march=' switch\n",
	 OUTCOME_UNSUPPORTED_FLAG, "cc1: error: bad value ('foo') for '-march=' switch"},
	{"a -mcpu value clang rejects", "-O2 -mcpu=bar", "",
	 "error: unknown target CPU 'bar'\n", OUTCOME_UNSUPPORTED_FLAG,
	 "error: unknown target CPU 'bar'"},
	{"an ldflag", "-O2", "-Wl,--no-such",
	 "/usr/bin/ld: unrecognized option '--no-such'\n/usr/bin/ld: use the --help option\n",
	 OUTCOME_UNSUPPORTED_FLAG, "/usr/bin/ld: unrecognized option '--no-such'"},
	{"-O2 is not -O2x", "-O2", "", "gcc: error: invalid argument '-O2x'\n", OUTCOME_BUILD_FAILED,
	 "gcc: error: invalid argument '-O2x'"},
	{"a stub configure's make (issue 28)", "-O2", "",
	 "use cmake instead\nmake: *** No targets specified and no makefile found.  Stop.\n",
	 OUTCOME_BUILD_FAILED, "make: *** No targets specified and no makefile found.  Stop."},
	{"CMake's error and its next line", "-O2", "",
	 "-- Configuring incomplete\nCMake Error at CMakeLists.txt:3 (add_executable):\n  Cannot find source file:\n\n    y.c\n",
	 OUTCOME_BUILD_FAILED, "CMake Error at CMakeLists.txt:3 (add_executable): Cannot find source file:"},
	{"a compile error before its excerpt and note (issue 28)", "-O2", "",
	 "b.c: In function 'main':\nb.c:5:24: error: 'x' undeclared (first use in this function)\n"
	 "    5 |  printf(\"%d\\n\", x + y);\n      |                        ^\n"
	 "b.c:5:24: note: each undeclared identifier is reported only once\nmake: *** [Makefile:2: b] Error 1\n",
	 OUTCOME_BUILD_FAILED, "b.c:5:24: error: 'x' undeclared (first use in this function)"},
};

static void check_failures(const char *dir)
{
	struct toolchain gcc;
	struct strbuf err = {0};

	if (toolchain_probe("gcc", &gcc, &err)) {
		printf("SKIP: failed builds: %s\n", sb_str(&err));
		sb_release(&err);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(failure_cases); i++) {
		const struct failure_case *c = &failure_cases[i];
		char *log = test_write(dir, "log.txt", c->log);
		char *script = xasprintf("cat '%s' >&2; exit 1", log);
		char hash[65];
		snprintf(hash, sizeof(hash), "failure-case-%zu", i);
		struct recipe r = {.name = "fail", .dir = (char *)dir, .build_script = script};
		memcpy(r.hash, hash, sizeof(hash));
		struct config cfg = {.cc = "gcc", .cflags = (char *)c->cflags,
				     .ldflags = (char *)c->ldflags, .link = -1};
		struct build b = {.cfg = &cfg, .tc = &gcc, .recipe = &r, .src_dir = dir,
				  .src_id = "bundled"};
		build_init(&b);
		build_all(&b, 1, 1, NULL, NULL, NULL);
		char *want = c->outcome == OUTCOME_BUILD_FAILED
			? xasprintf("%s | log: %s/build.log", c->detail, b.dir) : xstrdup(c->detail);
		T_CHECK(b.outcome == c->outcome && b.detail && !strcmp(b.detail, want),
			"%s: %s '%s'", c->name, outcome_name(b.outcome), b.detail ? b.detail : "");
		free(want);
		build_release(&b);
		free(script);
		free(log);
	}
	toolchain_release(&gcc);
}

/* The pool reaps only its own builds: a child the caller forked, which
 * ends while a build runs, is still there for the caller to wait for. */
static void check_own_children(const char *dir)
{
	struct toolchain gcc;
	struct strbuf err = {0};
	if (toolchain_probe("gcc", &gcc, &err)) {
		printf("SKIP: the pool's children: %s\n", sb_str(&err));
		sb_release(&err);
		return;
	}
	struct recipe r = {.name = "slow", .dir = (char *)dir, .build_script = "sleep 0.5",
			   .hash = "own-children"};
	struct config cfg = {.cc = "gcc", .cflags = "-O2", .ldflags = "", .link = -1};
	struct build b[2] = {
		{.cfg = &cfg, .tc = &gcc, .recipe = &r, .src_dir = dir, .src_id = "a"},
		{.cfg = &cfg, .tc = &gcc, .recipe = &r, .src_dir = dir, .src_id = "b"},
	};
	pid_t mine = fork();
	if (mine == 0)
		_exit(42);
	build_init(&b[0]);
	build_init(&b[1]);
	build_all(b, 2, 2, NULL, NULL, NULL);
	T_CHECK(b[0].outcome == OUTCOME_OK && b[1].outcome == OUTCOME_OK, "builds: %s %s",
		outcome_name(b[0].outcome), outcome_name(b[1].outcome));
	int status = 0;
	T_CHECK(waitpid(mine, &status, WNOHANG) == mine && WIFEXITED(status) &&
			WEXITSTATUS(status) == 42,
		"the caller's own child was reaped by build_all");
	build_release(&b[0]);
	build_release(&b[1]);
	toolchain_release(&gcc);
}

int main(void)
{
	char *dir = test_tmpdir("build");
	setenv("FLAGSCOPE_CACHE", dir, 1);
	check_keys();
	check_summaries();
	check_failures(dir);
	check_own_children(dir);
	free(dir);
	return test_summary("test_build");
}
