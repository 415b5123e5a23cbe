/*
 * test_sysroot.c - harness/sysroot.c without building: which flags a
 * sysroot adds and why (sysroot_plan, with the real cross compilers), and
 * reading a sysroot back (info file, wrapper, list).  The build itself is
 * tests/slow_sysroot.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/testlib.h"
#include "harness/sysroot.h"


#define MIPS "mips64el-linux-gnuabi64"

static const struct {
	const char *triple, *cflags;
	enum sysroot_float fl;
	int emulated;
	int ok;
	const char *added, *abi, *musl_target;
	const char *note; /* substring of notes */
} plan_cases[] = {
	{MIPS, "-march=loongson2f -mabi=64", SYSROOT_FLOAT_DEFAULT, 1, 1, "-ffp-contract=off", "n64",
	 "mips64el-linux-gnuabi64", "QEMU 7.2"},
	{MIPS, "-march=loongson2f -mabi=64", SYSROOT_FLOAT_DEFAULT, 0, 1, "", "n64",
	 "mips64el-linux-gnuabi64", ""},
	{MIPS, "-march=loongson2f -mabi=n32", SYSROOT_FLOAT_DEFAULT, 1, 1, "-ffp-contract=off", "n32",
	 "mips64el-linux-gnuabin32", "madd.s"},
	{MIPS, "-march=r4600 -mabi=n32", SYSROOT_FLOAT_DEFAULT, 1, 1, "", "n32",
	 "mips64el-linux-gnuabin32", ""},
	{MIPS, "-march=mips1 -mabi=32", SYSROOT_FLOAT_DEFAULT, 1, 1, "-mfp32", "o32", "mipsel-linux-gnu",
	 "-march=mips1 needs -mfp32"},
	{MIPS, "-march=mips1 -mabi=32 -mfp32", SYSROOT_FLOAT_DEFAULT, 1, 1, "", "o32",
	 "mipsel-linux-gnu", ""},
	{MIPS, "-march=r4600 -mabi=64", SYSROOT_FLOAT_SOFT, 1, 1, "-msoft-float", "n64",
	 "mips64el-linux-gnuabi64", "--float soft"},
	{"mipsel-linux-gnu", "-march=mips1", SYSROOT_FLOAT_DEFAULT, 1, 1, "-mfp32", "o32",
	 "mipsel-linux-gnu", "-mfp32"},
	{"aarch64-linux-gnu", "-mcpu=cortex-a72", SYSROOT_FLOAT_DEFAULT, 1, 1, "", "lp64",
	 "aarch64-linux-gnu", ""},
	{MIPS, "-march=mips1 -mabi=64", SYSROOT_FLOAT_DEFAULT, 1, 0, NULL, NULL, NULL, NULL},
	{MIPS, "-march=no-such-cpu", SYSROOT_FLOAT_DEFAULT, 1, 0, NULL, NULL, NULL, NULL},
	{MIPS, "-march='loongson2f'", SYSROOT_FLOAT_DEFAULT, 1, 0, NULL, NULL, NULL, NULL},
	{"no-such-triple", "", SYSROOT_FLOAT_DEFAULT, 1, 0, NULL, NULL, NULL, NULL},
};

static int have(const char *tool)
{
	char *argv[] = {"sh", "-c", "command -v \"$0\" >/dev/null", (char *)tool, NULL};
	return run_capture(argv, NULL) == 0;
}

static void test_plans(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(plan_cases); i++) {
		struct sysroot_spec spec = {
			.triple = plan_cases[i].triple,
			.cflags = plan_cases[i].cflags,
			.fl = plan_cases[i].fl,
			.emulated = plan_cases[i].emulated,
		};
		struct sysroot_plan p;
		struct strbuf err = {0};
		int rc = sysroot_plan(&spec, &p, &err);

		T_CHECK((rc == 0) == plan_cases[i].ok, "'%s' on %s: rc %d (%s)", spec.cflags, spec.triple,
		      rc, sb_str(&err));
		if (!rc && plan_cases[i].ok) {
			T_CHECK(!strcmp(p.added, plan_cases[i].added), "'%s': added '%s', want '%s'",
			      spec.cflags, p.added, plan_cases[i].added);
			T_CHECK(!strcmp(p.abi, plan_cases[i].abi), "'%s': abi %s", spec.cflags, p.abi);
			T_CHECK(!strcmp(p.musl_target, plan_cases[i].musl_target), "'%s': musl --target=%s",
			      spec.cflags, p.musl_target);
			T_CHECK(strstr(p.notes, plan_cases[i].note) && (*p.added != 0) == (*p.notes != 0),
			      "'%s': notes '%s'", spec.cflags, p.notes);
			T_CHECK(!strcmp(p.musl_cflags, strstr(p.added, "-ffp-contract=off")
							     ? "-U__FP_FAST_FMA -U__FP_FAST_FMAF" : ""),
			      "'%s': musl_cflags '%s'", spec.cflags, p.musl_cflags);
			T_CHECK(strstr(p.target_cflags, spec.cflags) == p.target_cflags,
			      "'%s': the flags asked for come first: '%s'", spec.cflags, p.target_cflags);
		}
		if (rc)
			T_CHECK(err.len > 0, "'%s': a failure says why", spec.cflags);
		sysroot_plan_release(&p);
		sb_release(&err);
	}
}

/* A sysroot folder as a build leaves it, written by hand: reading it back,
 * the toolchain and the list. */
static void test_read_back(const char *cache)
{
	char *dir = xasprintf("%s/sysroots/0123456789abcdef", cache);
	char *bin = xasprintf("%s/bin", dir), *cc = xasprintf("%s/bin/cc", dir);
	char *info_path = xasprintf("%s/sysroot.info", dir);
	char *text = xasprintf("# comment\nkey=0123456789abcdef\ntriple=" MIPS "\ncc=/usr/bin/gcc\n"
			       "cflags=-march=mips1 -mabi=32\ntarget_cflags=-march=mips1 -mabi=32 -mfp32\n"
			       "added=-mfp32\nnotes=why\nmusl_cflags=\nabi=o32\nmusl_target=mipsel-linux-gnu\n"
			       "sources=musl_1.2.3-1.dsc  llvm.dsc\nseconds=81.5\n");
	struct sysroot_info info;
	struct strbuf err = {0};
	struct strlist dirs = {0};
	char *tc_cc = NULL, *tc_cflags = NULL, *tc_ldflags = NULL;

	T_CHECK(sysroot_info_read(dir, &info, &err) == -1 && strstr(sb_str(&err), "not a built sysroot"),
	      "a missing folder is refused: %s", sb_str(&err));
	mkdir_p(bin, 0755);
	file_write(info_path, "key=x\n", 6);
	sb_release(&err);
	T_CHECK(sysroot_info_read(dir, &info, &err) == -1 && strstr(sb_str(&err), "has no triple"),
	      "an incomplete info file is refused: %s", sb_str(&err));
	file_write(info_path, text, strlen(text));
	sb_release(&err);
	T_CHECK(sysroot_toolchain(dir, &tc_cc, &tc_cflags, &tc_ldflags, &err) == -1,
	      "no wrapper, no toolchain");
	file_write(cc, "#!/bin/sh\n", 10);
	chmod(cc, 0755);
	sb_release(&err);
	T_CHECK(!sysroot_info_read(dir, &info, &err), "info read: %s", sb_str(&err));
	if (!err.len) {
		T_CHECK(!strcmp(info.abi, "o32") && !strcmp(info.added, "-mfp32") && info.seconds == 81.5 &&
			      !strcmp(info.musl_cflags, "") && !strcmp(info.wrapper, cc),
		      "info fields");
		sysroot_info_release(&info);
	}
	T_CHECK(!sysroot_toolchain(dir, &tc_cc, &tc_cflags, &tc_ldflags, &err) && !strcmp(tc_cc, cc) &&
		      !strcmp(tc_cflags, "-march=mips1 -mabi=32 -mfp32") && !strcmp(tc_ldflags, "-static"),
	      "toolchain: %s", sb_str(&err));
	sysroot_list(&dirs);
	T_CHECK(dirs.n == 1 && !strcmp(dirs.v[0], dir), "list: %zu entries", dirs.n);
	free(tc_cc);
	free(tc_cflags);
	free(tc_ldflags);
	sl_release(&dirs);
	sb_release(&err);
	free(dir);
	free(bin);
	free(cc);
	free(info_path);
	free(text);
}

int main(void)
{
	const char *base = getenv("FLAGSCOPE_TEST_TMP");
	char *tmp = xasprintf("%s/test_sysroot", base && *base ? base : "/tmp");

	setvbuf(stdout, NULL, _IOLBF, 0);
	remove_tree(tmp);
	mkdir_p(tmp, 0755);
	setenv("FLAGSCOPE_CACHE", tmp, 1); /* the list must see this folder only */
	test_read_back(tmp);
	if (!have(MIPS "-gcc") || !have("mipsel-linux-gnu-gcc") || !have("aarch64-linux-gnu-gcc")) {
		printf("SKIP: the cross compilers are not installed (scripts/packages.txt)\n");
		return test_failures ? 1 : 77;
	}
	test_plans();
	remove_tree(tmp);
	free(tmp);
	return test_summary("test_sysroot");
}
