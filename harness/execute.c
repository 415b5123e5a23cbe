/* execute.c - see execute.h */
#include "harness/execute.h"

#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/qemu.h"
#include "harness/qemu_diag.h"
#include "harness/runner_ssh.h"
#include "harness/validate.h"

const char *execute_run_name(const struct recipe_run *run)
{
	return run->name;
}

static char *substitute(const char *word, const char *in_dir, const char *build_dir)
{
	struct strbuf sb = {0};
	for (const char *p = word; *p;) {
		if (str_starts_with(p, "${IN}")) {
			sb_add(&sb, in_dir);
			p += 5;
		} else if (str_starts_with(p, "${BUILD}")) {
			sb_add(&sb, build_dir);
			p += 8;
		} else {
			sb_addc(&sb, *p++);
		}
	}
	return sb_detach(&sb);
}

static void set_failure(struct exec_result *res, enum outcome o, char *detail)
{
	res->outcome = o;
	free(res->detail);
	res->detail = detail;
}

static char *last_line(const char *path)
{
	char *text = file_read(path, NULL);
	if (!text)
		return xstrdup("");
	char *t = str_trim(text);
	char *nl = strrchr(t, '\n');
	char *line = xstrdup(nl ? nl + 1 : t);
	free(text);
	if (strlen(line) > 160)
		line[160] = '\0';
	return line;
}

static int parse_metrics(const struct recipe_run *run, const char *stdout_path,
			 const char *stderr_path, struct exec_result *res)
{
	char *out = file_read(stdout_path, NULL);
	char *err = file_read(stderr_path, NULL);
	int rc = 0;
	for (size_t i = 0; i < run->nmetrics && !rc; i++) {
		const struct recipe_metric *m = &run->metrics[i];
		regex_t re;
		regmatch_t g[2];
		if (!m->regex || regcomp(&re, m->regex, REG_EXTENDED | REG_NEWLINE))
			continue;
		const char *text = NULL;
		if (out && !regexec(&re, out, 2, g, 0))
			text = out;
		else if (err && !regexec(&re, err, 2, g, 0))
			text = err;
		if (text && g[1].rm_so >= 0) {
			char *num = xstrndup(text + g[1].rm_so, (size_t)(g[1].rm_eo - g[1].rm_so));
			char *end;
			double v = strtod(num, &end);
			if (end != num)
				measurements_add(&res->m, m->name, v, m->unit);
			else
				text = NULL;
			free(num);
		}
		if (!text && !m->optional) {
			set_failure(res, OUTCOME_RUN_FAILED,
				    xasprintf("metric '%s' not found in the output", m->name));
			rc = -1;
		}
		regfree(&re);
	}
	free(out);
	free(err);
	return rc;
}

static int recipe_has_metric(const struct recipe_run *run, const char *name)
{
	for (size_t i = 0; i < run->nmetrics; i++)
		if (!strcmp(run->metrics[i].name, name))
			return 1;
	return 0;
}

/* A recipe may accept outputs that differ in a way it can judge (LAME's
 * MP3 under FMA contraction: decoded PCM within a stated SNR).  The run
 * stays ok, and its detail says the output differs and why it passed. */
static void tolerate_difference(const struct recipe_run *run, const char *run_dir,
				const char *ref_dir, const char *build_dir, const char *in_dir,
				const char *emu, struct strbuf *why, struct exec_result *res)
{
	/* $EMU runs the build's own (guest) programs, uncounted: empty here.
	 * Everything goes through argv: board runs judge outputs on worker
	 * threads, and a script passed through the shared environment could
	 * reach another thread's shell empty (exit 0: a wrong output accepted). */
	char *const argv[] = {
		"/bin/sh", "-c",
		"cd \"$1\" || exit 1; export EMU=\"$2\" REF=\"$3\" RUN=\"$1\" BUILD=\"$4\" "
		"IN=\"$5\"; exec /bin/sh -e -c \"$6\" tolerate",
		"sh", (char *)run_dir, (char *)(emu ? emu : ""), (char *)ref_dir, (char *)build_dir,
		(char *)in_dir, run->tolerate, NULL,
	};
	char *out = NULL;
	int rc = run_capture(argv, &out);
	char *verdict = out ? str_trim(out) : "";
	char *nl = strrchr(verdict, '\n');
	if (nl)
		verdict = nl + 1;
	if (rc == 0)
		set_failure(res, OUTCOME_OK,
			    xasprintf("within tolerance: %s (%s)", verdict, sb_str(why)));
	else
		set_failure(res, OUTCOME_WRONG_OUTPUT,
			    xasprintf("%s; beyond tolerance: %s", sb_str(why), verdict));
	free(out);
}

/* Keeps what is there (a tolerance, a failure) and adds a note. */
static void add_detail(struct exec_result *res, char *note)
{
	if (res->detail) {
		char *d = xasprintf("%s; %s", res->detail, note);
		free(note);
		note = d;
	}
	free(res->detail);
	res->detail = note;
}

static void compare_outputs(const struct recipe_run *run, const char *run_dir,
			    const char *ref_dir, const char *build_dir, const char *in_dir,
			    const char *emu, struct exec_result *res)
{
	struct strbuf why = {0};
	if (!is_dir(ref_dir)) {
		set_failure(res, OUTCOME_NO_REFERENCE,
			    xstrdup("ran, but the baseline produced no good output to compare with"));
		return;
	}
	char *got = xasprintf("%s/stdout", run_dir);
	char *want = xasprintf("%s/stdout", ref_dir);
	int rc = validate_files("stdout", got, want, &why);
	free(got);
	free(want);
	for (size_t i = 0; i < run->outputs.n && rc == 0; i++) {
		got = xasprintf("%s/%s", run_dir, run->outputs.v[i]);
		want = xasprintf("%s/%s", ref_dir, run->outputs.v[i]);
		rc = validate_files(run->outputs.v[i], got, want, &why);
		free(got);
		free(want);
	}
	if (rc && run->tolerate)
		tolerate_difference(run, run_dir, ref_dir, build_dir, in_dir, emu, &why, res);
	else if (rc)
		set_failure(res, OUTCOME_WRONG_OUTPUT, sb_detach(&why));
	sb_release(&why);
}

/* Written beside and renamed into place, so another flagscope comparing
 * against the same reference never sees half of it, nor none of it. */
static void save_reference(const struct recipe_run *run, const char *run_dir, const char *ref)
{
	char *tmp = xasprintf("%s.tmp%d", ref, (int)getpid());
	remove_tree(tmp);
	mkdir_p(tmp, 0755);
	char *from = xasprintf("%s/stdout", run_dir);
	copy_tree(from, tmp);
	free(from);
	for (size_t i = 0; i < run->outputs.n; i++) {
		from = xasprintf("%s/%s", run_dir, run->outputs.v[i]);
		char *to = xasprintf("%s/%s", tmp, run->outputs.v[i]);
		copy_tree(from, to);
		free(from);
		free(to);
	}
	/* an existing reference of the same baseline build stays: it is the
	 * same program's output, and replacing it would leave a moment with
	 * none for another flagscope (a shard) to compare against */
	if (rename(tmp, ref))
		remove_tree(tmp);
	free(tmp);
}

int execute_run(const struct exec_ctx *ctx, const struct build *b, const struct recipe_run *run,
		const char *in_dir, int warmup, const char *ref_dir, const char *save_ref,
		struct exec_result *res)
{
	memset(res, 0, sizeof(*res));
	/* one folder per process: builds are shared between studies */
	char *run_dir = xasprintf("%s/run-%s.%d", b->dir, *run->name ? run->name : "main",
				  (int)getpid());
	char *out_path = xasprintf("%s/stdout", run_dir);
	char *err_path = xasprintf("%s/stderr", run_dir);
	char *scratch = xasprintf("%s.meter", run_dir);
	char *stdin_path = run->stdin_file ? xasprintf("%s/%s", in_dir, run->stdin_file) : NULL;
	remove_tree(run_dir);
	mkdir_p(run_dir, 0755);

	struct strlist argv = {0}, words = {0};
	sl_split_ws(&words, run->args);
	for (size_t i = 0; i < words.n; i++) {
		char *w = substitute(words.v[i], in_dir, b->out_dir);
		if (i == 0 && !strchr(w, '/')) {
			char *p = xasprintf("%s/%s", b->out_dir, w);
			free(w);
			w = p;
		}
		sl_push_owned(&argv, w);
	}
	sl_push_owned(&argv, NULL);
	argv.n--;

	struct run_spec spec = {
		.argv = argv.v,
		.cwd = run_dir,
		.stdin_path = stdin_path,
		.stdout_path = out_path,
		.stderr_path = err_path,
		.timeout = ctx->timeout > 0 ? ctx->timeout : run->timeout,
		.pin_cpu = ctx->pin_cpu,
	};
	for (size_t i = 0; i < ctx->nmeters; i++)
		if (ctx->meters[i]->exit_stop && !warmup)
			spec.exit_memory = 1;
	struct run_result rr;
	struct strbuf err = {0};
	const struct runner_ops *runner = ctx->runner;
	int xrc;
	const char *counts = NULL;
	struct qemu_plan emu = {0};
	struct strlist script_argv = {0};
	res->outcome = OUTCOME_OK;
	if (ctx->target) {
		/* on a board: the real CPU, whatever the target */
		runner = &runner_ssh;
		spec.target = ctx->target;
		spec.exit_memory = 0;
	} else if (b->cfg && b->cfg->target) {
		/* cross-built: qemu on the CPU model, counting instructions; a
		 * script runs here and starts the guest programs through $EMU */
		struct strlist guests = {0};
		for (size_t i = 0; i < b->recipe->binaries.n; i++)
			sl_push_owned(&guests, xasprintf("%s/%s", b->out_dir, b->recipe->binaries.v[i]));
		sl_push_owned(&guests, NULL);
		int can = qemu_plan_init(&emu, argv.v[0], guests.v, b->cfg->cpu, scratch, &err);
		sl_release(&guests);
		if (can <= 0) {
			set_failure(res, can == 0 ? OUTCOME_UNRUNNABLE : OUTCOME_RUN_FAILED,
				    sb_detach(&err));
		} else if (emu.script) {
			char *env = path_lookup("env");
			sl_push_owned(&script_argv, env ? env : xstrdup("/usr/bin/env"));
			sl_push_owned(&script_argv, xasprintf("EMU=%s", emu.emu));
			for (size_t i = 0; i < argv.n; i++)
				sl_push(&script_argv, argv.v[i]);
			sl_push_owned(&script_argv, NULL);
			script_argv.n--;
			spec.argv = script_argv.v;
			counts = emu.counts;
			spec.exit_memory = 0; /* it would measure the shell */
		} else {
			runner = &runner_qemu;
			counts = emu.counts;
			spec.emu_cpu = emu.cpu;
			spec.emu_counts = counts;
			spec.exit_memory = 0;
		}
	}
	if (res->outcome != OUTCOME_OK) {
		/* decided before running */
	} else if ((xrc = runner->exec(&spec, &rr, &err)) != 0) {
		/* a board lost after its retries is the board's fault, and
		 * a resumed study tries that run again */
		set_failure(res, xrc == RUNNER_SSH_FAULT ? OUTCOME_BOARD_FAULT : OUTCOME_RUN_FAILED,
			    sb_detach(&err));
	} else if (rr.timed_out) {
		set_failure(res, OUTCOME_TIMED_OUT,
			    xasprintf("killed after %.0f s (raise the timeout or shrink the input)",
				      spec.timeout));
	} else if (!rr.exited && counts && !emu.script && rr.signal == SIGILL && warmup) {
		/* which instruction the CPU model lacks, and where */
		char *why = NULL;
		qemu_diagnose_trap(argv.v, spec.emu_cpu, run_dir, stdin_path, &why);
		set_failure(res, OUTCOME_CRASHED,
			    xasprintf("killed by SIGILL under emulation on %s: %s",
				      spec.emu_cpu ? spec.emu_cpu : "the default model", why));
		free(why);
	} else if (!rr.exited) {
		set_failure(res, OUTCOME_CRASHED,
			    xasprintf("killed by signal %d (%s)", rr.signal, strsignal(rr.signal)));
	} else if (rr.status != 0) {
		char *line = last_line(err_path);
		set_failure(res, OUTCOME_RUN_FAILED, xasprintf("exit status %d%s%s", rr.status,
							       *line ? ": " : "", line));
		free(line);
	}
	sb_release(&err);

	if (res->outcome == OUTCOME_OK && run->expect) {
		struct strbuf why = {0};
		if (validate_files("stdout", out_path, run->expect, &why))
			set_failure(res, OUTCOME_WRONG_OUTPUT,
				    xasprintf("%s (expected: %s)", sb_str(&why), run->expect));
		sb_release(&why);
	}
	if (res->outcome == OUTCOME_OK && ref_dir)
		compare_outputs(run, run_dir, ref_dir, b->out_dir, in_dir, emu.emu_plain, res);
	if (res->outcome == OUTCOME_OK)
		parse_metrics(run, out_path, err_path, res);
	if (res->outcome == OUTCOME_OK) {
		/* repetitions: the timed meters.  Warm-up: after it proved good,
		 * one more run under the wrapping meters (perf), whose outcome
		 * is the tool's business, not the program's. */
		struct measurements mm = {0};
		for (size_t i = 0; i < ctx->nmeters; i++) {
			const struct meter_ops *m = ctx->meters[i];
			if (!warmup && m->timed)
				m->collect(&ctx->mstate, &rr, scratch, &mm);
			if (!warmup || !m->wrap || counts)
				continue;
			struct strlist wrapped = {0};
			m->wrap(&ctx->mstate, scratch, &wrapped);
			for (size_t k = 0; k < argv.n; k++)
				sl_push(&wrapped, argv.v[k]);
			sl_push_owned(&wrapped, NULL);
			wrapped.n--;
			char *wout = xasprintf("%s.stdout", scratch);
			struct run_spec ws = spec;
			ws.exit_memory = 0;
			ws.argv = wrapped.v;
			ws.stdout_path = wout;
			ws.stderr_path = NULL;
			struct run_result wr;
			struct strbuf werr = {0};
			/* the selected runner: on a board, the board's perf */
			if (!runner->exec(&ws, &wr, &werr) && wr.exited && wr.status == 0)
				m->collect(&ctx->mstate, &wr, scratch, &mm);
			sb_release(&werr);
			unlink(wout);
			free(wout);
			sl_release(&wrapped);
		}
		/* a program that times itself reports its own "time"; the
		 * process's wall time stays available as "wall" */
		if (counts && res->outcome == OUTCOME_OK) {
			struct qemu_counts qc;
			struct strbuf cerr = {0};
			int nproc = 0, crc = qemu_plan_counts(&emu, &qc, &nproc, &cerr);
			if (!crc) {
				if (emu.script)
					add_detail(res, xasprintf("insns: the %d guest process%s %s started "
								  "through $EMU (the script and the native "
								  "programs it runs are not counted)",
								  nproc, nproc == 1 ? "" : "es",
								  strrchr(argv.v[0], '/') + 1));
				measurements_add(&mm, "insns", (double)qc.insns, "insn");
				for (int k = 0; k < INSN_NCLASSES; k++) {
					char *name = xasprintf("insns.%s", insn_class_names[k]);
					measurements_add(&mm, name, (double)qc.by_class[k], "insn");
					free(name);
				}
			} else {
				/* a threaded guest: no exact count can be had, in any
				 * configuration - a measurement this runner lacks */
				set_failure(res, crc == -2 ? OUTCOME_UNSUPPORTED : OUTCOME_RUN_FAILED,
					    xasprintf("no instruction counts: %s", sb_str(&cerr)));
			}
			sb_release(&cerr);
		}
		int own_time = recipe_has_metric(run, "time");
		for (size_t i = 0; i < mm.n; i++)
			if (!(own_time && !strcmp(mm.v[i].name, "time")))
				measurements_add(&res->m, mm.v[i].name, mm.v[i].value, mm.v[i].unit);
		measurements_release(&mm);
		if (save_ref)
			save_reference(run, run_dir, save_ref);
	}
	/* an o32 program on a stand-in model: the report must say so */
	if (emu.stand_in && res->outcome != OUTCOME_UNRUNNABLE)
		add_detail(res, xasprintf("stand-in CPU model: %s", emu.stand_in));
	/* which board measured it: kept with the sample */
	if (ctx->target && runner_ssh_last_board()) {
		char *d = xasprintf("on %s%s%s", runner_ssh_last_board(), res->detail ? ": " : "",
				    res->detail ? res->detail : "");
		free(res->detail);
		res->detail = d;
	}
	/* a failed run's folder stays for a look until the next run */
	if (res->outcome == OUTCOME_OK)
		remove_tree(run_dir);
	unlink(scratch);
	qemu_plan_release(&emu);
	sl_release(&script_argv);
	sl_release(&argv);
	sl_release(&words);
	free(run_dir);
	free(out_path);
	free(err_path);
	free(scratch);
	free(stdin_path);
	return 0;
}

void exec_result_release(struct exec_result *res)
{
	free(res->detail);
	res->detail = NULL;
	measurements_release(&res->m);
}
