/*
 * commands.h - every subcommand's entry point.  Each lives in its own
 * explorer/cmd_<name>.c and returns the process exit status:
 * 0 success, 1 a finding the user asked about (mismatch, regression),
 * 2 bad input or usage.
 *
 * How to add a subcommand: write explorer/cmd_<name>.c with an option table
 * (explorer/options.h), its command_spec <name>_cmd and cmd_<name>(),
 * declare both here, add one line to commands[] in explorer/main.c (whose
 * start-up check then checks its options: options_check).
 */
#ifndef FLAGSCOPE_COMMANDS_H
#define FLAGSCOPE_COMMANDS_H

#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sysroot(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_recommend(int argc, char **argv);
int cmd_why(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_slurm(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_workload(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* Each command's option table and help (explorer/options.h). */
struct command_spec;
extern const struct command_spec run_cmd, report_cmd, list_cmd, verify_cmd, sysroot_cmd,
	compare_cmd, recommend_cmd, why_cmd, merge_cmd, slurm_cmd, search_cmd, workload_cmd,
	baseline_cmd, calibrate_cmd, help_cmd;

/* explorer/main.c's table: the command NAME's spec, or NULL; the list of
 * commands `flagscope --help` prints. */
const struct command_spec *command_find(const char *name);
void commands_usage(FILE *out);

#endif
