/* main.c - flagscope's command dispatcher: one table, one file per command. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/parse_only.h"
#include "analysis/formats.h"
#include "base/util.h"
#include "flagsets/settings.h"
#include "harness/fetch.h"
#include "harness/libc.h"
#include "harness/meter.h"
#include "harness/runner.h"
#include "search/strategy.h"
#include "workloads/buildsys.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct command_spec *spec; /* its options, checked at start-up */
	const char *summary;
};

static const struct command commands[] = {
	{"run", cmd_run, &run_cmd, "build, verify, run, validate, store and rank a study"},
	{"report", cmd_report, &report_cmd, "print the ranking stored in a results database"},
	{"list", cmd_list, &list_cmd, "list toolchains, workloads or presets"},
	{"verify", cmd_verify, &verify_cmd, "prove from ELF files which flags, ABI and linkage they got"},
	{"sysroot", cmd_sysroot, &sysroot_cmd, "build or list C library sysroots made with target flags"},
	{"compare", cmd_compare, &compare_cmd, "IMPROVED / REGRESSED / UNCHANGED between two databases or configurations"},
	{"recommend", cmd_recommend, &recommend_cmd, "the best valid configuration as a make.conf fragment with its evidence"},
	{"why", cmd_why, &why_cmd, "instructions per function of two builds, side by side (cachegrind)"},
	{"merge", cmd_merge, &merge_cmd, "join the databases of one study's shards (run --shard, slurm)"},
	{"slurm", cmd_slurm, &slurm_cmd, "a Slurm job array that runs a study in shards, then merges them"},
	{"search", cmd_search, &search_cmd, "the best flag set under a budget: validated, minimal, confirmed (make.conf)"},
	{"calibrate", cmd_calibrate, &calibrate_cmd, "the smallest difference this machine tells from layout and noise, per workload"},
	{"baseline", cmd_baseline, &baseline_cmd, "keep a study's results as a named baseline for compare --against"},
	{"workload", cmd_workload, &workload_cmd, "write a recipe skeleton for a program or Debian package (workload new)"},
	{"help", cmd_help, &help_cmd, "this list, a command's help, or the study settings (help settings)"},
};

const struct command_spec *command_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].spec;
	return NULL;
}

/* Every command's option table: its --format's writers among them (the
 * writer families of explorer/, which analysis' formats_check cannot see) */
static int commands_check(struct strbuf *err)
{
	int bad = 0;
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		bad |= options_check(commands[i].spec, err);
	return bad;
}

/* Every registry of the program (STYLE.md §1), checked at start-up. */
static int (*const registry_checks[])(struct strbuf *err) = {
	runners_check, meters_check, libcs_check, source_kinds_check, build_systems_check,
	strategies_check, settings_check, formats_check, commands_check,
};

void commands_usage(FILE *out)
{
	fprintf(out, "usage: flagscope COMMAND [options]\n\n"
		     "Rebuild real programs across compiler, flag, ABI, libc and linkage\n"
		     "matrices, check they still work, and rank them.\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'flagscope COMMAND --help' (or 'flagscope help COMMAND') describes one\n"
		     "command; --version prints the version; 'flagscope --parse-only COMMAND\n"
		     "ARGS...' checks a command line (its options and arguments, as COMMAND\n"
		     "would) and does nothing.\n");
}

/* Output is a result too (perf's run_builtin): a command that printed
 * into a full disk or a closed descriptor failed, whatever it returned.
 * A pipe's reader that went away is not a failure of ours (SIGPIPE ends
 * us first when it is not ignored), so pipes and sockets are left out. */
static int output_written(int status)
{
	struct stat st;
	if (fstat(fileno(stdout), &st))
		return status; /* no stdout at all: nothing was written */
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return status;
	errno = 0;
	int flushed = !fflush(stdout), clean = !ferror(stdout);
	int e = errno;
	int closed = !fclose(stdout);
	if (!e)
		e = errno;
	if (flushed && clean && closed)
		return status;
	error_msg("standard output: cannot write%s%s (free space, or send it elsewhere)",
		  e ? ": " : "", e ? strerror_lc(e) : "");
	return status ? status : 2;
}

static int dispatch(int argc, char **argv)
{
	/* the plugin tables, once: a mistake there is the build's, not the user's */
	struct strbuf bad = {0};
	int broken = 0;
	for (size_t i = 0; i < ARRAY_SIZE(registry_checks); i++)
		broken |= registry_checks[i](&bad);
	if (broken) {
		error_msg("%s (a bug in this build of flagscope: please report it)", sb_str(&bad));
		sb_release(&bad);
		return 2;
	}
	if (argc < 2) {
		commands_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		commands_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("flagscope %s\n", FLAGSCOPE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--parse-only")) {
		options_after_parse = parse_only_check;
		argc--;
		argv++;
		if (argc < 2) {
			error_msg("--parse-only needs a command line: flagscope --parse-only COMMAND ARGS...");
			return 2;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	const char *names[ARRAY_SIZE(commands)];
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	const char *near = str_nearest(argv[1], names, ARRAY_SIZE(commands));
	if (near)
		error_msg("'%s' is not a command (did you mean '%s'? see flagscope --help)", argv[1],
			  near);
	else
		error_msg("'%s' is not a command (see flagscope --help)", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	return output_written(dispatch(argc, argv));
}
