/*
 * commands.h - every subcommand's entry point.  Each lives in its own
 * explorer/cmd_<name>.c and returns the process exit status:
 * 0 success, 1 a finding the user asked about (mismatch, regression),
 * 2 bad input or usage.
 *
 * How to add a subcommand: write explorer/cmd_<name>.c with an option table
 * (explorer/options.h) and cmd_<name>(), declare it here, add one line to
 * commands[] in explorer/main.c.
 */
#ifndef FLAGSCOPE_COMMANDS_H
#define FLAGSCOPE_COMMANDS_H

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

#endif
