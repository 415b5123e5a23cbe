/* execute.c - see execute.h */
#include "harness/execute.h"

#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/strays.h"
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

/* The last line of a file, at most 160 bytes of it; only its end is read
 * (a program may print gigabytes on stderr). */
static char *last_line(const char *path)
{
	char tail[4096];
	size_t n = 0;
	FILE *f = fopen(path, "rb");
	if (f) {
		long size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
		long from = size > (long)sizeof(tail) - 1 ? size - (long)sizeof(tail) + 1 : 0;
		if (size >= 0 && !fseek(f, from, SEEK_SET))
			n = fread(tail, 1, sizeof(tail) - 1, f);
		fclose(f);
	}
	tail[n] = '\0';
	char *t = str_trim(tail);
	char *nl = strrchr(t, '\n');
	char *line = xstrdup(nl ? nl + 1 : t);
	if (strlen(line) > 160)
		line[160] = '\0';
	return line;
}

/* Outputs are scanned a chunk of whole lines at a time; a line longer
 * than a chunk is looked at by its first chunk only. */
#define SCAN_CHUNK (1 << 20)

/* fn(text, ctx) on path's lines, as many whole lines at a time as fit in
 * a chunk (joined by their newlines, NUL-terminated), until it returns
 * non-zero; a missing file has none.  Memory: one chunk, whatever the
 * file's size; one call per chunk, not per line (a regexec per line
 * allocated and freed per line: millions of times for a big output). */
static void scan_lines(const char *path, int (*fn)(char *text, void *ctx), void *ctx)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	char *buf = xmalloc(SCAN_CHUNK + 1);
	size_t len = 0;
	int stop = 0, skip = 0; /* skip: the rest of a line longer than a chunk */
	while (!stop) {
		size_t got = fread(buf + len, 1, SCAN_CHUNK - len, f);
		if (!got && !len)
			break;
		len += got;
		char *nl = len ? memrchr(buf, '\n', len) : NULL;
		size_t whole = nl ? (size_t)(nl - buf) + 1 : 0;
		if (!got || (!whole && len == SCAN_CHUNK))
			whole = len; /* the end, or a chunk of one line */
		if (!whole)
			continue;
		/* the rest of an over-long line goes first, unlooked at */
		char *from = buf;
		if (skip) {
			char *end = memchr(buf, '\n', whole);
			from = end ? end + 1 : buf + whole;
		}
		skip = (!nl || (size_t)(nl - buf) + 1 != whole) && got;
		buf[whole - (whole && buf[whole - 1] == '\n')] = '\0';
		if (from < buf + whole)
			stop = fn(from, ctx);
		memmove(buf, buf + whole, len - whole);
		len -= whole;
		if (!got)
			break;
	}
	free(buf);
	fclose(f);
}

/* The recipe's metrics being looked for in one output, lines at a time.
 * A metric's regex (REG_NEWLINE: it never spans lines) takes its first
 * matching line, as on the whole text. */
struct metric_scan {
	const struct recipe_run *run;
	regex_t *re;      /* per metric; compiled[i] says it is usable */
	char *compiled, *matched;
	double *value;
	char *has_value;
	size_t left;      /* compiled, not matched */
};

static int scan_metric_text(char *text, void *ctx)
{
	struct metric_scan *ms = ctx;
	for (size_t i = 0; i < ms->run->nmetrics; i++) {
		regmatch_t g[2];
		if (!ms->compiled[i] || ms->matched[i] || regexec(&ms->re[i], text, 2, g, 0))
			continue;
		ms->matched[i] = 1;
		ms->left--;
		if (g[1].rm_so < 0)
			continue;
		char *num = xstrndup(text + g[1].rm_so, (size_t)(g[1].rm_eo - g[1].rm_so));
		char *end;
		ms->value[i] = strtod(num, &end);
		ms->has_value[i] = end != num;
		if (end == num) /* the first match is no number: not found */
			ms->matched[i] = 2;
		free(num);
	}
	return ms->left == 0;
}

/* Streamed: stdout first, then stderr for what stdout did not have, so a
 * program printing gigabytes costs no more memory than one printing a
 * line (the outputs were read whole: flagscope grew by their size). */
static int parse_metrics(const struct recipe_run *run, const char *stdout_path,
			 const char *stderr_path, struct exec_result *res)
{
	size_t n = run->nmetrics ? run->nmetrics : 1;
	struct metric_scan ms = {
		.run = run, .re = xcalloc(n, sizeof(regex_t)), .compiled = xcalloc(n, 1),
		.matched = xcalloc(n, 1), .value = xcalloc(n, sizeof(double)),
		.has_value = xcalloc(n, 1),
	};
	for (size_t i = 0; i < run->nmetrics; i++) {
		const struct recipe_metric *m = &run->metrics[i];
		ms.compiled[i] = m->regex && !regcomp(&ms.re[i], m->regex, REG_EXTENDED | REG_NEWLINE);
		ms.left += ms.compiled[i];
	}
	if (ms.left)
		scan_lines(stdout_path, scan_metric_text, &ms);
	if (ms.left)
		scan_lines(stderr_path, scan_metric_text, &ms);
	int rc = 0;
	for (size_t i = 0; i < run->nmetrics && !rc; i++) {
		const struct recipe_metric *m = &run->metrics[i];
		if (!ms.compiled[i])
			continue;
		if (ms.has_value[i])
			measurements_add(&res->m, m->name, ms.value[i], m->unit);
		if (ms.matched[i] != 1 && !m->optional) {
			set_failure(res, OUTCOME_RUN_FAILED,
				    xasprintf("metric '%s' not found in the output", m->name));
			rc = -1;
		}
	}
	for (size_t i = 0; i < run->nmetrics; i++)
		if (ms.compiled[i])
			regfree(&ms.re[i]);
	free(ms.re);
	free(ms.compiled);
	free(ms.matched);
	free(ms.value);
	free(ms.has_value);
	return rc;
}

int recipe_has_metric(const struct recipe_run *run, const char *name)
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

/* The baseline's own run differs from its warm-up, the reference: the
 * program's output is not reproducible (a time, an address, a seed), so
 * every other configuration's "wrong output" would be noise.  Said as such,
 * with the line and both texts, when the difference is in stdout. */
static char *not_reproducible(const char *run_dir, const char *ref_dir, const char *why)
{
	char *got = xasprintf("%s/stdout", run_dir), *want = xasprintf("%s/stdout", ref_dir);
	char *g = NULL, *w = NULL, *s;
	long line = 0;
	if (validate_line_difference(got, want, &line, &g, &w) == 0)
		s = xasprintf(OUTCOME_NOT_REPRODUCIBLE ": the baseline disagrees with itself at line %ld: '%.80s' here, '%.80s' in its warm-up (make the program print the same on every run, without times, addresses or random seeds, or give the recipe a tolerate = check)",
			      line, g, w);
	else
		s = xasprintf(OUTCOME_NOT_REPRODUCIBLE ": the baseline disagrees with itself: %s (make the program's outputs the same on every run, or give the recipe a tolerate = check)",
			      why);
	free(g);
	free(w);
	free(got);
	free(want);
	return s;
}

static void compare_outputs(const struct recipe_run *run, const char *run_dir,
			    const char *ref_dir, const char *build_dir, const char *in_dir,
			    const char *emu, int self, struct exec_result *res)
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
		rc = validate_tree(run->outputs.v[i], got, want, &why);
		free(got);
		free(want);
	}
	/* only a difference may be judged tolerable, never an unread output */
	if (rc > 0 && run->tolerate)
		tolerate_difference(run, run_dir, ref_dir, build_dir, in_dir, emu, &why, res);
	else if (rc > 0 && self)
		set_failure(res, OUTCOME_WRONG_OUTPUT, not_reproducible(run_dir, ref_dir, sb_str(&why)));
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

/* One run in flight: the job its runner sees, and what execute_run owns. */
struct run_step {
	const struct exec_ctx *ctx;
	const struct build *b;
	const struct recipe_run *run;
	const char *in_dir;
	const struct runner_ops *runner;
	struct run_job job;
	struct run_result rr;
	int interrupted; /* a run of this step was killed by ctx->stop */
	struct strlist argv, guests;
	char *run_dir, *out_path, *err_path, *scratch, *stdin_path;
};

/* The run's own folder, its argv from the recipe, and the spec a runner
 * gets before it prepares. */
static void step_init(struct run_step *st, int warmup)
{
	const struct build *b = st->b;
	const struct recipe_run *run = st->run;
	/* one folder per process: builds are shared between studies */
	st->run_dir = xasprintf("%s/run-%s.%d", b->dir, *run->name ? run->name : "main",
				(int)getpid());
	st->out_path = xasprintf("%s/stdout", st->run_dir);
	st->err_path = xasprintf("%s/stderr", st->run_dir);
	st->scratch = xasprintf("%s.meter", st->run_dir);
	if (run->stdin_file)
		st->stdin_path = xasprintf("%s/%s", st->in_dir, run->stdin_file);
	remove_tree(st->run_dir);
	mkdir_p(st->run_dir, 0755);

	struct strlist words = {0};
	sl_split_ws(&words, run->args);
	for (size_t i = 0; i < words.n; i++) {
		char *w = substitute(words.v[i], st->in_dir, b->out_dir);
		if (i == 0 && !strchr(w, '/')) {
			char *p = xasprintf("%s/%s", b->out_dir, w);
			free(w);
			w = p;
		}
		sl_push_owned(&st->argv, w);
	}
	sl_release(&words);
	sl_push_owned(&st->argv, NULL);
	st->argv.n--;
	for (size_t i = 0; b->recipe && i < b->recipe->binaries.n; i++)
		sl_push_owned(&st->guests, xasprintf("%s/%s", b->out_dir, b->recipe->binaries.v[i]));
	sl_push_owned(&st->guests, NULL);

	st->job = (struct run_job){
		.spec = {
			.argv = st->argv.v,
			.cwd = st->run_dir,
			.stdin_path = st->stdin_path,
			.stdout_path = st->out_path,
			.stderr_path = st->err_path,
			.timeout = st->ctx->timeout > 0 ? st->ctx->timeout : run->timeout,
			.pin = st->ctx->pin,
			.stop = st->ctx->stop,
		},
		.scratch = st->scratch,
		.guests = st->guests.v,
		.cross = b->cfg ? b->cfg->target : NULL,
		.cpu = b->cfg ? b->cfg->cpu : NULL,
		.board = st->ctx->target,
		.warmup = warmup,
	};
	for (size_t i = 0; i < st->ctx->nmeters; i++)
		if (st->ctx->meters[i]->exit_stop && !warmup)
			st->job.spec.exit_memory = 1;
}

/* A first word of args the build folder does not have is the recipe's
 * mistake, not the program's: said at the recipe's line with the programs
 * the build made, where exec's "No such file or directory" on a path in
 * the cache named neither.  1 when it is missing. */
static int program_missing(const struct run_step *st, struct exec_result *res)
{
	const char *prog = st->argv.v[0], *out = st->b->out_dir;
	size_t n = strlen(out);
	if (!prog || strncmp(prog, out, n) || prog[n] != '/' || !access(prog, F_OK))
		return 0;
	const struct recipe *r = st->b->recipe;
	struct strbuf made = {0};
	for (size_t i = 0; r && i < r->binaries.n; i++)
		sb_addf(&made, "%s%s", i ? ", " : "", r->binaries.v[i]);
	set_failure(res, OUTCOME_RUN_FAILED,
		    xasprintf("%s/recipe.ini:%d: [run%s%s] args starts with '%s', which the build "
			      "did not make (name one of its programs first: %s)",
			      r ? r->dir : "?", st->run->line, *st->run->name ? " " : "",
			      st->run->name, prog + n + 1, made.len ? made.buf : "binaries ="));
	sb_release(&made);
	return 1;
}

/* The runner that takes the run (boards, emulation, here) gets ready:
 * OUTCOME_OK, or why the run cannot go ahead. */
static void step_prepare(struct run_step *st, struct exec_result *res)
{
	if (program_missing(st, res))
		return;
	const struct runner_ops *forced = st->ctx->runner;
	st->runner = forced && forced != &runner_native ? forced : runner_select(&st->job);
	if (!st->runner->exit_stop)
		st->job.spec.exit_memory = 0;
	if (!st->runner->prepare)
		return;
	struct strbuf why = {0};
	int can = st->runner->prepare(&st->job, &why);
	if (can <= 0)
		set_failure(res, can == 0 ? OUTCOME_UNRUNNABLE : OUTCOME_RUN_FAILED, sb_detach(&why));
	sb_release(&why);
}

/* A newcomer's `args = prog data.txt`: the run starts in its own empty
 * folder, not in the tree where data.txt is.  When the program's last
 * error line names an argument that is a file of the build folder and
 * not of the run's, say how to name it; else "" (heap) */
static char *relative_arg_hint(const struct run_step *st, const char *line)
{
	for (size_t i = 1; i < st->argv.n; i++) {
		const char *w = st->argv.v[i];
		if (*w == '/' || *w == '-' || !*w || !strstr(line, w))
			continue;
		char *here = xasprintf("%s/%s", st->run_dir, w);
		char *built = xasprintf("%s/%s", st->b->out_dir, w);
		int hint = !file_exists(here) && file_exists(built);
		free(here);
		free(built);
		if (hint)
			return xasprintf(" (a run starts in an empty folder of its own: name the build "
					 "folder's file as ${BUILD}/%s in [run] args)", w);
	}
	return xstrdup("");
}

/* Run it and judge how it ended. */
static void step_exec(struct run_step *st, struct exec_result *res)
{
	const struct run_spec *spec = &st->job.spec;
	struct strbuf err = {0};
	int xrc = st->runner->exec(spec, &st->rr, &err);
	if (!xrc && st->rr.interrupted) {
		st->interrupted = 1;
		set_failure(res, OUTCOME_RUN_FAILED, xstrdup("interrupted"));
		sb_release(&err);
		return;
	}
	if (st->runner->diagnose)
		st->runner->diagnose(&st->job, xrc ? NULL : &st->rr);
	if (xrc) {
		/* a board lost after its retries is the board's fault, and
		 * a resumed study tries that run again */
		set_failure(res, xrc == RUNNER_FAULT ? OUTCOME_BOARD_FAULT : OUTCOME_RUN_FAILED,
			    sb_detach(&err));
	} else if (st->rr.timed_out) {
		set_failure(res, OUTCOME_TIMED_OUT,
			    xasprintf("killed after %.0f s (raise the timeout or shrink the input)",
				      spec->timeout));
	} else if (!st->rr.exited && st->job.crash) {
		set_failure(res, OUTCOME_CRASHED, xstrdup(st->job.crash));
	} else if (!st->rr.exited) {
		set_failure(res, OUTCOME_CRASHED, xasprintf("killed by signal %d (%s)", st->rr.signal,
							    strsignal(st->rr.signal)));
	} else if (st->rr.status != 0) {
		char *line = last_line(st->err_path);
		char *hint = relative_arg_hint(st, line);
		set_failure(res, OUTCOME_RUN_FAILED, xasprintf("exit status %d%s%s%s", st->rr.status,
							       *line ? ": " : "", line, hint));
		free(hint);
		free(line);
	}
	sb_release(&err);
}

/* The output: the recipe's expected stdout, the reference (or the
 * recipe's tolerance of a difference), the metrics it prints. */
static void step_check(struct run_step *st, const char *ref_dir, struct exec_result *res)
{
	if (res->outcome == OUTCOME_OK && st->run->expect) {
		struct strbuf why = {0};
		if (validate_files("stdout", st->out_path, st->run->expect, &why))
			set_failure(res, OUTCOME_WRONG_OUTPUT,
				    xasprintf("%s (expected: %s)", sb_str(&why), st->run->expect));
		sb_release(&why);
	}
	if (res->outcome == OUTCOME_OK && ref_dir)
		compare_outputs(st->run, st->run_dir, ref_dir, st->b->out_dir, st->in_dir,
				st->job.emu_plain,
				st->b->cfg && (st->b->cfg->is_baseline || st->b->cfg->noise_floor), res);
	if (res->outcome == OUTCOME_OK)
		parse_metrics(st->run, st->out_path, st->err_path, res);
}

/* 1 when m can measure a run of this runner once, with its tool: in front
 * of the program here, or as what the runner counts where it runs */
static int wrap_fits(const struct runner_ops *r, const struct meter_ops *m)
{
	return r->counts ? m->remote != NULL : r->wraps && m->wrap;
}

/* One more run with m's tool in front, on the same runner (on a board:
 * what the board's helper counts, as m's remote op asks); its outcome is
 * the tool's business, not the program's. */
static void step_wrapped(struct run_step *st, const struct meter_ops *m, struct measurements *mm)
{
	struct meter_run mr = {.st = &st->ctx->mstate, .job = &st->job, .scratch = st->scratch,
			       .out = st->ctx->meter_out};
	struct run_spec ws = st->job.spec;
	struct strlist wrapped = {0};
	if (st->runner->counts) {
		struct meter_remote want = {0};
		m->remote(&mr, &want);
		ws.count_events = want.events;
		ws.count_out = want.out;
	} else {
		m->wrap(&mr, &wrapped);
		for (size_t k = 0; k < st->argv.n; k++)
			sl_push(&wrapped, st->argv.v[k]);
		sl_push_owned(&wrapped, NULL);
		wrapped.n--;
		ws.argv = wrapped.v;
	}
	char *wout = xasprintf("%s.stdout", st->scratch);
	ws.exit_memory = 0;
	ws.stdout_path = wout;
	ws.stderr_path = NULL;
	struct run_result wr;
	struct strbuf werr = {0};
	if (!st->runner->exec(&ws, &wr, &werr) && wr.exited && wr.status == 0) {
		mr.rr = &wr;
		m->collect(&mr, mm, &werr);
	}
	st->interrupted |= wr.interrupted;
	sb_release(&werr);
	unlink(wout);
	free(wout);
	sl_release(&wrapped);
}

static const struct measurement *measured(const struct measurements *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

/* ratio.NAME = A / B: from what the run printed and the meters measured
 * (insns per request: the count under QEMU over the requests made).  A
 * ratio whose A or B is absent (no insns natively) is left out. */
static void add_ratios(const struct recipe_run *run, struct measurements *m)
{
	for (size_t i = 0; i < run->nmetrics; i++) {
		const struct recipe_metric *r = &run->metrics[i];
		const struct measurement *a = r->ratio_of ? measured(m, r->ratio_of) : NULL;
		const struct measurement *b = r->ratio_by ? measured(m, r->ratio_by) : NULL;
		if (a && b && b->value > 0)
			measurements_add(m, r->name, a->value / b->value, r->unit);
	}
}

/* The meters of a good run: timed ones on the repetitions, wrapping ones
 * once after the warm-up, the runner's own on every run.  A program that
 * times itself reports its own "time"; the process's wall time stays
 * available as "wall". */
static void step_measure(struct run_step *st, int warmup, struct exec_result *res)
{
	struct measurements mm = {0};
	struct meter_run mr = {.st = &st->ctx->mstate, .job = &st->job, .rr = &st->rr,
			       .scratch = st->scratch, .out = st->ctx->meter_out};
	struct strbuf note = {0};
	for (size_t i = 0; i < st->ctx->nmeters; i++) {
		const struct meter_ops *m = st->ctx->meters[i];
		if (m->own)
			continue;
		if (!warmup && m->timed)
			m->collect(&mr, &mm, &note);
		if (warmup && wrap_fits(st->runner, m))
			step_wrapped(st, m, &mm);
		sb_release(&note);
	}
	const struct meter_ops *own = st->runner->meter;
	int rc = own ? own->collect(&mr, &mm, &note) : 0;
	if (rc && own->required)
		set_failure(res, rc == -2 ? OUTCOME_UNSUPPORTED : OUTCOME_RUN_FAILED,
			    note.len ? sb_detach(&note) : xasprintf("no %s figures", own->name));
	else if (!rc && note.len)
		add_detail(res, sb_detach(&note));
	sb_release(&note);
	int own_time = recipe_has_metric(st->run, "time");
	for (size_t i = 0; i < mm.n; i++)
		if (!(own_time && !strcmp(mm.v[i].name, "time")))
			measurements_add(&res->m, mm.v[i].name, mm.v[i].value, mm.v[i].unit);
	measurements_release(&mm);
	add_ratios(st->run, &res->m);
}

/* The notes every outcome carries, and the run's files. */
static void step_finish(struct run_step *st, struct exec_result *res)
{
	/* an o32 program on a stand-in model: the report must say so */
	if (st->job.note)
		add_detail(res, xstrdup(st->job.note));
	/* which board measured it: kept with the sample */
	if (st->job.where) {
		char *d = xasprintf("on %s%s%s", st->job.where, res->detail ? ": " : "",
				    res->detail ? res->detail : "");
		free(res->detail);
		res->detail = d;
	}
	/* a failed run's folder stays for a look until the next run */
	if (res->outcome == OUTCOME_OK)
		remove_tree(st->run_dir);
	unlink(st->scratch);
	runner_job_release(st->runner, &st->job);
	sl_release(&st->argv);
	sl_release(&st->guests);
	free(st->run_dir);
	free(st->out_path);
	free(st->err_path);
	free(st->scratch);
	free(st->stdin_path);
}

/* A run of a flagscope killed before (SIGKILL, a lost session) may have
 * left processes running: stopped before this process measures anything */
static void kill_orphans(void)
{
	strays_kill_orphans();
}

int execute_run(const struct exec_ctx *ctx, const struct build *b, const struct recipe_run *run,
		const char *in_dir, int warmup, const char *ref_dir, const char *save_ref,
		struct exec_result *res)
{
	static pthread_once_t orphans_once = PTHREAD_ONCE_INIT;
	pthread_once(&orphans_once, kill_orphans);
	memset(res, 0, sizeof(*res));
	res->outcome = OUTCOME_OK;
	struct run_step st = {.ctx = ctx, .b = b, .run = run, .in_dir = in_dir};
	step_init(&st, warmup);
	step_prepare(&st, res);
	if (res->outcome == OUTCOME_OK)
		step_exec(&st, res);
	res->layout = st.rr.layout;
	step_check(&st, ref_dir, res);
	if (res->outcome == OUTCOME_OK)
		step_measure(&st, warmup, res);
	/* an interrupted run (or its wrapped run) is no result, nor a reference */
	res->interrupted = st.interrupted;
	if (res->outcome == OUTCOME_OK && save_ref && !res->interrupted)
		save_reference(run, st.run_dir, save_ref);
	step_finish(&st, res);
	return 0;
}

void exec_result_release(struct exec_result *res)
{
	free(res->detail);
	res->detail = NULL;
	measurements_release(&res->m);
}
