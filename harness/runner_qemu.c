/*
 * runner_qemu.c - a cross-built program run by qemu-user on the exact CPU
 * model, with flagscope's TCG plugin counting the instructions it executes
 * (the qemu-insn meter, this runner's own).  The emulator is chosen from
 * the program's ELF header (harness/qemu.c); timing and limits are the
 * native runner's.  A recipe's script (not an ELF for the target) runs
 * natively with $EMU, which starts its guest programs counted.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "harness/meter.h"
#include "harness/qemu.h"
#include "harness/qemu_diag.h"
#include "harness/runner.h"

/* job->priv */
struct qemu_job {
	struct qemu_plan plan;
	struct strlist argv; /* a script's: env EMU=... argv */
};

static int qemu_select(const struct run_job *job)
{
	return job->cross != NULL;
}

static int qemu_prepare(struct run_job *job, struct strbuf *why)
{
	struct qemu_job *q = xcalloc(1, sizeof(*q));
	int can = qemu_plan_init(&q->plan, job->spec.argv[0], job->guests, job->cpu, job->scratch,
				 why);
	if (can <= 0) {
		free(q);
		return can;
	}
	job->priv = q;
	job->spec.exit_memory = 0; /* it would measure QEMU or the shell */
	job->emu_plain = q->plan.emu_plain ? xstrdup(q->plan.emu_plain) : NULL;
	if (q->plan.stand_in)
		job->note = xasprintf("stand-in CPU model: %s", q->plan.stand_in);
	if (!q->plan.script) {
		job->spec.emu_cpu = q->plan.cpu;
		job->spec.emu_counts = q->plan.counts;
		return 1;
	}
	char *env = path_lookup("env");
	sl_push_owned(&q->argv, env ? env : xstrdup("/usr/bin/env"));
	sl_push_owned(&q->argv, xasprintf("EMU=%s", q->plan.emu));
	for (size_t i = 0; job->spec.argv[i]; i++)
		sl_push(&q->argv, job->spec.argv[i]);
	sl_push_owned(&q->argv, NULL);
	q->argv.n--;
	job->spec.argv = q->argv.v;
	job->spec.emu_native = 1;
	return 1;
}

static int qemu_exec(const struct run_spec *spec, struct run_result *res, struct strbuf *err)
{
	struct run_spec native = *spec;
	native.exit_memory = 0; /* it would measure QEMU, not the program */
	if (spec->emu_native)
		return runner_native.exec(&native, res, err);
	struct strlist argv = {0};
	if (qemu_command(spec->argv[0], spec->emu_cpu, spec->emu_counts, &argv, err))
		return -1;
	/* the runner execs without a shell: the emulator needs its full path */
	char *qemu = argv.n ? path_lookup(argv.v[0]) : NULL;
	if (!qemu) {
		sb_addf(err, "%s is not installed (apt-get install qemu-user)", argv.n ? argv.v[0] : "qemu");
		sl_release(&argv);
		return -1;
	}
	free(argv.v[0]);
	argv.v[0] = qemu;
	for (size_t i = 0; spec->argv[i]; i++)
		sl_push(&argv, spec->argv[i]);
	sl_push_owned(&argv, NULL);
	argv.n--;
	native.argv = argv.v;
	int rc = runner_native.exec(&native, res, err);
	sl_release(&argv);
	return rc;
}

/* which instruction the CPU model lacks, and where: once, on the warm-up */
static void qemu_diagnose(struct run_job *job, const struct run_result *rr)
{
	if (!rr || rr->exited || rr->signal != SIGILL || !job->warmup || job->spec.emu_native)
		return;
	char *why = NULL;
	qemu_diagnose_trap(job->spec.argv, job->spec.emu_cpu, job->spec.cwd, job->spec.stdin_path,
			   &why);
	job->crash = xasprintf("killed by SIGILL under emulation on %s: %s",
			       job->spec.emu_cpu ? job->spec.emu_cpu : "the default model", why);
	free(why);
}

static void qemu_release(struct run_job *job)
{
	struct qemu_job *q = job->priv;
	if (!q)
		return;
	qemu_plan_release(&q->plan);
	sl_release(&q->argv);
	free(q);
}

const struct runner_ops runner_qemu = {
	.name = "qemu",
	.help = "cross-built programs under qemu-user on the study's CPU model (configurations "
		"with a target)",
	.meter = &meter_qemu_insn,
	.select = qemu_select,
	.prepare = qemu_prepare,
	.exec = qemu_exec,
	.diagnose = qemu_diagnose,
	.release = qemu_release,
};

/* The qemu-insn meter: the plugin's counts of this runner's run. */

static int insn_probe(struct meter_state *st, struct strbuf *fact)
{
	(void)st;
	sb_add(fact, "qemu-insn: instructions executed, by class, counted by flagscope's QEMU "
		     "plugin on every emulated run");
	return 1;
}

/* summed over the run's guest processes; the counts files are removed */
static int insn_collect(const struct meter_run *mr, struct measurements *out,
			struct strbuf *note)
{
	const struct qemu_job *q = mr->job->priv;
	struct qemu_counts qc;
	int nproc = 0;
	if (!q)
		return -1;
	struct strbuf why = {0};
	int rc = qemu_plan_counts(&q->plan, &qc, &nproc, &why);
	if (rc) {
		/* -2, a threaded guest: no exact count can be had, in any
		 * configuration - a measurement this runner lacks */
		sb_addf(note, "no instruction counts: %s", sb_str(&why));
		sb_release(&why);
		return rc;
	}
	sb_release(&why);
	if (q->plan.script) {
		const char *argv0 = q->argv.v[2], *slash = strrchr(argv0, '/');
		sb_addf(note, "insns: the %d guest process%s %s started through $EMU (the script "
			      "and the native programs it runs are not counted)",
			nproc, nproc == 1 ? "" : "es", slash ? slash + 1 : argv0);
	}
	measurements_add(out, "insns", (double)qc.insns, "insn");
	for (int k = 0; k < INSN_NCLASSES; k++) {
		char *name = xasprintf("insns.%s", insn_class_names[k]);
		measurements_add(out, name, (double)qc.by_class[k], "insn");
		free(name);
	}
	return 0;
}

static void insn_metrics(struct strlist *out)
{
	sl_push(out, "insns");
	for (int k = 0; k < INSN_NCLASSES; k++)
		sl_push_owned(out, xasprintf("insns.%s", insn_class_names[k]));
}

static const struct meter_metric insn_table[] = {{"insns*", GRAIN_EXACT}, {NULL, 0}};

const struct meter_ops meter_qemu_insn = {
	.name = "qemu-insn",
	.help = "instructions by class from the QEMU plugin (emulated runs: the qemu runner's own)",
	.timed = 1,
	.required = 1,
	.own = 1,
	.probe = insn_probe,
	.collect = insn_collect,
	.table = insn_table,
	.metrics = insn_metrics,
};
