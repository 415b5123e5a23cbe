/*
 * test_pgo.c - the profile-guided build's pieces (harness/pgo.h): its
 * phase and profile hash are part of the build key, the flags of each
 * phase for gcc and clang, and the check that a measured binary is not the
 * instrumented one.
 */
#include "harness/pgo.h"
#include "tests/testlib.h"

static void check_keys(const struct toolchain *gcc)
{
	struct recipe r = {.name = "w", .hash = "r1"};
	struct config plain = {.cc = "gcc", .cflags = "-O2", .ldflags = "", .link = -1};
	struct config pgo = plain;
	pgo.pgo = 1;
	struct build a = {.cfg = &plain, .tc = gcc, .recipe = &r, .src_id = "bundled"};
	struct build u1 = {.cfg = &pgo, .tc = gcc, .recipe = &r, .src_id = "bundled",
			   .pgo_profile_hash = "aaaa"};
	struct build u2 = u1, u3 = u1;
	memcpy(u3.pgo_profile_hash, "bbbb", 5);
	struct build g = {.cfg = &pgo, .tc = gcc, .recipe = &r, .src_id = "bundled",
			  .pgo_phase = PGO_GENERATE};
	build_init(&a);
	build_init(&u1);
	build_init(&u2);
	build_init(&u3);
	build_init(&g);
	T_CHECK(a.pgo_phase == PGO_NONE && u1.pgo_phase == PGO_USE && g.pgo_phase == PGO_GENERATE,
		"phases %d %d %d", a.pgo_phase, u1.pgo_phase, g.pgo_phase);
	T_CHECK(!strcmp(u1.key, u2.key), "the same profile gives another key");
	T_CHECK(strcmp(u1.key, u3.key), "the profile's hash does not change the key");
	T_CHECK(strcmp(a.key, u1.key) && strcmp(a.key, g.key) && strcmp(g.key, u1.key),
		"none, instrumented and profile-guided builds share a key");
	build_release(&a);
	build_release(&u1);
	build_release(&u2);
	build_release(&u3);
	build_release(&g);
}

static void check_flags(const struct toolchain *gcc)
{
	struct toolchain clang = *gcc;
	clang.kind = TC_CLANG;
	struct config c = {.cc = "gcc", .cflags = "-O2", .ldflags = "", .link = -1, .pgo = 1};
	struct build b = {.cfg = &c, .tc = gcc, .dir = "/c/b/K", .out_dir = "/c/b/K/out"};
	struct {
		const struct toolchain *tc;
		enum pgo_phase phase;
		char *profile;
		const char *want;
	} cases[] = {
		{gcc, PGO_NONE, NULL, ""},
		{gcc, PGO_GENERATE, NULL, "-fprofile-generate=/c/b/K/profile -fprofile-prefix-path=/c/b/K/out"},
		{gcc, PGO_USE, "/c/b/G/profile",
		 "-fprofile-use=/c/b/G/profile -fprofile-prefix-path=/c/b/K/out -fprofile-correction"},
		{gcc, PGO_USE, NULL, ""},
		{&clang, PGO_GENERATE, NULL, "-fprofile-instr-generate=/c/b/K/profile/%p.profraw"},
		{&clang, PGO_USE, "/c/b/G/merged.profdata", "-fprofile-instr-use=/c/b/G/merged.profdata"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		b.tc = cases[i].tc;
		b.pgo_phase = cases[i].phase;
		b.pgo_profile = cases[i].profile;
		char *got = pgo_flags(&b);
		T_CHECK(!strcmp(got, cases[i].want), "case %zu: '%s', want '%s'", i, got,
			cases[i].want);
		free(got);
	}
}

/* an instrumented binary is refused as a profile-guided build's */
static void check_binary(const char *dir, const struct toolchain *gcc)
{
	char *src = test_write(dir, "p.c", "int main(void) { return 0; }\n");
	char *cmd = xasprintf("cd '%s' && gcc -O2 -fprofile-generate -o inst p.c && gcc -O2 -o plain p.c",
			      dir);
	T_CHECK(run_shell_capture(cmd, NULL) == 0, "cannot compile %s", src);
	struct config c = {.cc = "gcc", .cflags = "-O2", .ldflags = "", .link = -1, .pgo = 1};
	struct build b = {.cfg = &c, .tc = gcc, .pgo_phase = PGO_USE};
	char *inst = xasprintf("%s/inst", dir), *plain = xasprintf("%s/plain", dir);
	struct strbuf err = {0};
	T_CHECK(pgo_check_binary(&b, inst, &err) == -1 && strstr(sb_str(&err), "__gcov_init"),
		"instrumented binary accepted: '%s'", sb_str(&err));
	sb_release(&err);
	T_CHECK(pgo_check_binary(&b, plain, &err) == 0 && !err.len, "plain binary: '%s'",
		sb_str(&err));
	b.pgo_phase = PGO_GENERATE;
	T_CHECK(pgo_check_binary(&b, inst, &err) == 0, "the instrumented build's own binary refused");
	sb_release(&err);
	free(inst);
	free(plain);
	free(cmd);
	free(src);
}

int main(void)
{
	struct toolchain gcc;
	struct strbuf err = {0};
	if (toolchain_probe("gcc", &gcc, &err)) {
		printf("SKIP: gcc: %s\n", sb_str(&err));
		return 77;
	}
	char *dir = test_tmpdir("pgo");
	check_keys(&gcc);
	check_flags(&gcc);
	check_binary(dir, &gcc);
	toolchain_release(&gcc);
	free(dir);
	return test_summary("test_pgo");
}
