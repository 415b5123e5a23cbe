/* cmd_sysroot.c - flagscope sysroot: build and list C library sysroots made
 * with a configuration's own target flags (harness/sysroot.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "harness/sysroot.h"

static const char *target, *cflags = "", *cc, *float_abi = "default";
static int for_board;
static int timeout_s;

static const char *const float_choices[] = {"default", "hard", "soft", NULL};

static const struct option_spec sysroot_opts[] = {
	{"target", 't', OPT_STRING, &target, "TRIPLE",
	 "the cross compiler's triple, e.g. mips64el-linux-gnuabi64 (build)"},
	{"cflags", 0, OPT_STRING, &cflags, "FLAGS",
	 "target flags the C library is built with, e.g. \"-march=loongson2f -mabi=64\""},
	{"cc", 0, OPT_STRING, &cc, "CC", "compiler command (default: TRIPLE-gcc)"},
	{"float", 0, OPT_CHOICE, &float_abi, "ABI", "floating-point ABI", float_choices},
	{"timeout", 0, OPT_COUNT, &timeout_s, "SECONDS",
	 "kill a build step (and its children) that runs longer, failing the build (default 7200)"},
	{"for-board", 0, OPT_FLAG, &for_board, NULL,
	 "for a real board: skip the QEMU 7.2 workarounds (-ffp-contract=off for Loongson 2E/2F)"},
	{0},
};

const struct command_spec sysroot_cmd = {
	.name = "sysroot",
	.usage = "build --target TRIPLE [--cflags FLAGS] [--float hard|soft] | list",
	.summary = "build or list C library sysroots made with a configuration's target flags",
	.details = "build: musl (Debian's source package) plus the long-double and integer helpers\n"
		   "GCC calls, compiled with FLAGS, into the cache; prints the sysroot folder and\n"
		   "its compiler wrapper (bin/cc).  Flags flagscope adds are printed with why.\n"
		   "list: every built sysroot with its flags, ABI and build time.",
	.opts = sysroot_opts,
};

static void print_info(const struct sysroot_info *in)
{
	printf("%s\n  abi %s, musl --target=%s, built in %.0f s from %s\n  cflags %s\n", in->dir,
	       in->abi, in->musl_target, in->seconds, in->sources, in->target_cflags);
	if (*in->added)
		printf("  added %s: %s\n", in->added, in->notes);
	printf("  cc %s\n", in->wrapper);
}

static int sysroot_build_cmd(void)
{
	struct sysroot_spec spec = {
		.triple = target,
		.cc = cc,
		.cflags = cflags,
		.fl = !strcmp(float_abi, "hard") ? SYSROOT_FLOAT_HARD
		    : !strcmp(float_abi, "soft") ? SYSROOT_FLOAT_SOFT : SYSROOT_FLOAT_DEFAULT,
		.emulated = !for_board,
		.timeout = timeout_s,
	};
	struct sysroot_info info;
	struct strbuf err = {0};
	char *dir = NULL;
	int rc = 0;

	if (!target) {
		error_msg("sysroot build: --target is required (e.g. --target mips64el-linux-gnuabi64)");
		return 2;
	}
	if (sysroot_build(&spec, &dir, stderr, &err) || sysroot_info_read(dir, &info, &err)) {
		error_msg("sysroot: %s", sb_str(&err));
		rc = 1;
	} else {
		print_info(&info);
		sysroot_info_release(&info);
	}
	free(dir);
	sb_release(&err);
	return rc;
}

static int sysroot_list_cmd(void)
{
	struct strlist dirs = {0};

	sysroot_list(&dirs);
	if (!dirs.n)
		printf("no sysroots built in %s/sysroots (flagscope sysroot build --help)\n",
		       flagscope_cache_dir());
	for (size_t i = 0; i < dirs.n; i++) {
		struct sysroot_info info;
		struct strbuf err = {0};
		if (sysroot_info_read(dirs.v[i], &info, &err)) {
			warn_msg("%s", sb_str(&err));
		} else {
			print_info(&info);
			sysroot_info_release(&info);
		}
		sb_release(&err);
	}
	sl_release(&dirs);
	return 0;
}

int cmd_sysroot(int argc, char **argv)
{
	struct strlist words = {0};
	int rc = options_parse(&sysroot_cmd, argc, argv, &words);

	if (rc) {
		sl_release(&words);
		return rc > 0 ? 0 : 2;
	}
	if (words.n == 1 && !strcmp(words.v[0], "build"))
		rc = sysroot_build_cmd();
	else if (words.n == 1 && !strcmp(words.v[0], "list"))
		rc = sysroot_list_cmd();
	else {
		error_msg("sysroot: say 'build' or 'list' (see flagscope sysroot --help)");
		rc = 2;
	}
	sl_release(&words);
	return rc;
}
