/*
 * test_ssh_runner.c - runner_ssh.exec against a real sshd.  tests/it_ssh.sh
 * starts the sshd (and a second one for pools) and runs this program in
 * its modes; on its own (no FS_SSH_HOST) it reports SKIP.
 *
 *   test_ssh_runner basic   every kind of run, hostile values, copies once
 *   test_ssh_runner again   a new process finds everything on the board
 *   test_ssh_runner slow STARTED FINISHED
 *                           one slow run while the script breaks boards;
 *                           prints "ok BOARD", "fault REASON" (exec said
 *                           RUNNER_SSH_FAULT) or "error RC REASON"
 *   test_ssh_runner bench N  N native and N ssh runs of one small program,
 *                           prints "native S ssh S" (bench/remote.sh)
 *   test_ssh_runner options  per_board (two threads' runs on one board: one
 *                           after the other with 1, together with 2),
 *                           helper_cc (hostile words run nothing; another
 *                           compiler builds and copies another helper),
 *                           the described CPU in the facts
 *   test_ssh_runner study   the [run] keys of study files: what loads, and
 *                           each bad value's file:line message (no board;
 *                           also what runs with no FS_SSH_HOST, the board
 *                           modes then SKIP)
 * Environment: FS_SSH_HOST, FS_SSH_IDENTITY, FS_SSH_KNOWN_HOSTS,
 * FS_SSH_WORKDIR, FS_SSH_MARKER (a file nothing may create), FS_SSH_BAD_KNOWN
 * (a known_hosts file with another key), FLAGSCOPE_TEST_TMP.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flagsets/study.h"
#include "harness/meter.h"
#include "harness/runner_ssh.h"
#include "harness/runner_ssh_internal.h"
#include "tests/testlib.h"

static struct run_target target;
static char *dir;
static const char *marker;

static const char prog_src[] =
	"#include <signal.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"#include <sys/stat.h>\n#include <unistd.h>\n"
	"int main(int argc, char **argv) {\n"
	"  if (argc > 1 && !strcmp(argv[1], \"exit3\")) return 3;\n"
	"  if (argc > 1 && !strcmp(argv[1], \"segv\")) raise(SIGSEGV);\n"
	"  if (argc > 1 && !strcmp(argv[1], \"sleep\")) sleep(atoi(argv[2]));\n"
	"  if (argc > 1 && !strcmp(argv[1], \"write\")) {\n"
	"    FILE *f = fopen(\"out.txt\", \"w\"); fputs(\"output file\\n\", f); fclose(f);\n"
	"    mkdir(\"sub\", 0755); f = fopen(\"sub/deep.txt\", \"w\"); fputs(\"deep\\n\", f); fclose(f);\n"
	"  }\n"
	"  if (argc > 1 && !strcmp(argv[1], \"cat\")) {\n"
	"    FILE *f = fopen(argv[2], \"r\"); int c; if (!f) return 9;\n"
	"    while ((c = fgetc(f)) != EOF) putchar(c); fclose(f); return 0;\n"
	"  }\n"
	"  if (argc > 1 && !strcmp(argv[1], \"stdin\")) {\n"
	"    unsigned long n = 0, sum = 0; int c;\n"
	"    while ((c = getchar()) != EOF) { n++; sum = sum * 31 + (unsigned char)c; }\n"
	"    printf(\"stdin %lu %lu\\n\", n, sum); return 0;\n"
	"  }\n"
	"  for (int i = 1; i < argc; i++) printf(\"[%s]\", argv[i]);\n"
	"  fprintf(stderr, \"to stderr\\n\");\n"
	"  return 0;\n"
	"}\n";

static char *build_prog(void)
{
	char *src = test_write(dir, "prog.c", prog_src);
	char *bin = xasprintf("%s/bin/prog", dir);
	char *bindir = xasprintf("%s/bin", dir);
	mkdir_p(bindir, 0755);
	char *argv[] = {"cc", "-O1", "-o", bin, src, NULL};
	char *log = NULL;
	if (run_capture(argv, &log)) {
		fprintf(stderr, "cannot build the test program: %s\n", log ? log : "");
		exit(1);
	}
	free(log);
	free(src);
	free(bindir);
	return bin;
}

struct one_run {
	struct run_result r;
	struct strbuf err;
	char *out, *errtext;
	int rc;
};

/* what a wrapping meter asks the boards to count (meter_ops.remote), or NULL */
static const struct meter_remote *counting;

static void run_it(char **argv, const char *stdin_path, double timeout, struct one_run *o)
{
	char *cwd = xasprintf("%s/run", dir);
	char *out = xasprintf("%s/run/stdout", dir);
	char *errp = xasprintf("%s/run/stderr", dir);
	remove_tree(cwd);
	mkdir_p(cwd, 0755);
	struct run_spec spec = {.argv = argv, .cwd = cwd, .stdin_path = stdin_path,
				.stdout_path = out, .stderr_path = errp, .timeout = timeout,
				.target = &target};
	if (counting) {
		spec.count_events = counting->events;
		spec.count_out = counting->out;
	}
	memset(o, 0, sizeof(*o));
	o->rc = runner_ssh.exec(&spec, &o->r, &o->err);
	o->out = file_read(out, NULL);
	o->errtext = file_read(errp, NULL);
	free(cwd);
	free(out);
	free(errp);
}

static void one_release(struct one_run *o)
{
	sb_release(&o->err);
	free(o->out);
	free(o->errtext);
}

static void check_hostile_args(char *prog)
{
	/* each value from a study reaches the program as one argument */
	const char *values[] = {
		"$(touch MARKER)", "`touch MARKER`", "; touch MARKER", "a'b\"c", "x\ntouch MARKER\n",
		"| touch MARKER", "$HOME", "", "*", "--", "'\\''",
	};
	char *argv[ARRAY_SIZE(values) + 2] = {prog};
	struct strbuf want = {0};
	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		struct strbuf v = {0};
		sb_add(&v, values[i]);
		char *m = strstr(v.buf ? v.buf : "", "MARKER");
		if (m) {
			struct strbuf w = {0};
			sb_addn(&w, v.buf, (size_t)(m - v.buf));
			sb_add(&w, marker);
			sb_add(&w, m + 6);
			sb_release(&v);
			v = w;
		}
		argv[i + 1] = v.buf ? sb_detach(&v) : xstrdup("");
		sb_addf(&want, "[%s]", argv[i + 1]);
	}
	struct one_run o;
	run_it(argv, NULL, 30, &o);
	T_CHECK(o.rc == 0 && o.r.exited && o.r.status == 0, "hostile args: rc %d status %d: %s",
		o.rc, o.r.status, sb_str(&o.err));
	T_CHECK(o.out && !strcmp(o.out, want.buf), "hostile args came back as\n%s\nnot\n%s",
		o.out ? o.out : "(none)", want.buf);
	T_CHECK(o.errtext && !strcmp(o.errtext, "to stderr\n"), "stderr: %s",
		o.errtext ? o.errtext : "(none)");
	T_CHECK(!file_exists(marker), "a hostile argument ran a command");
	one_release(&o);
	for (size_t i = 1; argv[i]; i++)
		free(argv[i]);
	sb_release(&want);
	/* longer than the board's kernel takes in one argument: the program
	 * cannot start there, as it could not here (not cut, not retried) */
	char *big = xmalloc(130 * 1024);
	memset(big, 'x', 130 * 1024 - 1);
	big[130 * 1024 - 1] = '\0';
	char *argv2[] = {prog, big, NULL};
	run_it(argv2, NULL, 30, &o);
	T_CHECK(o.rc == -1 && strstr(sb_str(&o.err), "cannot start") &&
			strstr(sb_str(&o.err), "too long") && !strstr(sb_str(&o.err), "attempts"),
		"long argument: %s", sb_str(&o.err));
	one_release(&o);
	/* a long value that fits comes back whole */
	big[60 * 1024] = '\0';
	memset(big, '\'', 100);
	run_it(argv2, NULL, 30, &o);
	T_CHECK(o.rc == 0 && o.out && strlen(o.out) == 60 * 1024 + 2, "60 KiB argument: %s (%zu)",
		sb_str(&o.err), o.out ? strlen(o.out) : 0);
	one_release(&o);
	free(big);
}

static void check_outcomes(char *prog)
{
	struct one_run o;
	char *exit3[] = {prog, "exit3", NULL};
	run_it(exit3, NULL, 30, &o);
	T_CHECK(o.rc == 0 && o.r.exited && o.r.status == 3, "exit 3: rc %d %d/%d %s", o.rc,
		o.r.exited, o.r.status, sb_str(&o.err));
	one_release(&o);
	char *segv[] = {prog, "segv", NULL};
	run_it(segv, NULL, 30, &o);
	T_CHECK(o.rc == 0 && !o.r.exited && o.r.signal == SIGSEGV, "segv: rc %d exited %d sig %d",
		o.rc, o.r.exited, o.r.signal);
	one_release(&o);
	char *sleep5[] = {prog, "sleep", "30", NULL};
	run_it(sleep5, NULL, 1, &o);
	T_CHECK(o.rc == 0 && o.r.timed_out && !o.r.exited && o.r.wall < 20,
		"timeout: rc %d timed_out %d wall %.1f %s", o.rc, o.r.timed_out, o.r.wall,
		sb_str(&o.err));
	one_release(&o);
	char *sleep1[] = {prog, "sleep", "1", NULL};
	run_it(sleep1, NULL, 30, &o);
	T_CHECK(o.rc == 0 && o.r.status == 0 && o.r.wall >= 1.0 && o.r.wall < 10 &&
			o.r.maxrss_kb > 0 && o.r.vm_hwm_kb == -1,
		"sleep 1: wall %.3f rss %ld", o.r.wall, o.r.maxrss_kb);
	one_release(&o);
	char *missing[] = {"/nonexistent/program", NULL};
	run_it(missing, NULL, 30, &o);
	T_CHECK(o.rc == -1 && strstr(sb_str(&o.err), "cannot start"), "missing program: %s",
		sb_str(&o.err));
	one_release(&o);
}

static void check_files(char *prog)
{
	struct one_run o;
	char *write[] = {prog, "write", NULL};
	run_it(write, NULL, 30, &o);
	char *f1 = xasprintf("%s/run/out.txt", dir), *f2 = xasprintf("%s/run/sub/deep.txt", dir);
	char *t1 = file_read(f1, NULL), *t2 = file_read(f2, NULL);
	T_CHECK(o.rc == 0 && t1 && !strcmp(t1, "output file\n") && t2 && !strcmp(t2, "deep\n"),
		"outputs: rc %d %s / %s", o.rc, t1 ? t1 : "(none)", t2 ? t2 : "(none)");
	free(t1);
	free(t2);
	free(f1);
	free(f2);
	one_release(&o);
	/* an input named in the arguments and one on stdin */
	char *in = test_write(dir, "input.txt", "the input\nsecond line\n");
	char *cat[] = {prog, "cat", in, NULL};
	run_it(cat, NULL, 30, &o);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, "the input\nsecond line\n"), "input: %s %s",
		o.out ? o.out : "(none)", sb_str(&o.err));
	one_release(&o);
	char *st[] = {prog, "stdin", NULL};
	run_it(st, in, 30, &o);
	T_CHECK(o.rc == 0 && o.out && str_starts_with(o.out, "stdin 22 "), "stdin: %s %s",
		o.out ? o.out : "(none)", sb_str(&o.err));
	one_release(&o);
	/* a script runs the program beside it */
	char *script = test_write(dir, "bin/wrap.sh", "#!/bin/sh\nexec \"$(dirname \"$0\")/prog\" \"$@\"\n");
	chmod(script, 0755);
	char *wrap[] = {script, "via", "script", NULL};
	run_it(wrap, NULL, 30, &o);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, "[via][script]"), "script: %s %s",
		o.out ? o.out : "(none)", sb_str(&o.err));
	one_release(&o);
	/* copies: the second identical run copies nothing, and goes over the
	 * served session without a new ssh call */
	struct runner_ssh_counts a, b;
	run_it(cat, NULL, 30, &o);
	one_release(&o);
	runner_ssh_get_counts(&a);
	run_it(cat, NULL, 30, &o);
	runner_ssh_get_counts(&b);
	T_CHECK(o.rc == 0 && b.uploads == a.uploads && b.commands == a.commands &&
			b.connects == a.connects,
		"second run: %ld uploads, %ld commands, %ld connects", b.uploads - a.uploads,
		b.commands - a.commands, b.connects - a.connects);
	one_release(&o);
	/* a changed input is copied again (content new to the board) */
	char *fresh = xasprintf("changed at %.9f by %d\n", now_seconds(), (int)getpid());
	free(test_write(dir, "input.txt", fresh));
	run_it(cat, NULL, 30, &o);
	runner_ssh_get_counts(&a);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, fresh) && a.uploads == b.uploads + 1,
		"changed input: %s, %ld uploads", o.out ? o.out : "(none)", a.uploads - b.uploads);
	free(fresh);
	one_release(&o);
	free(in);
	free(script);
}

static void check_perf(char *prog)
{
	char *probe[] = {"perf", "stat", "-x,", "-e", "task-clock", "--", "true", NULL};
	int perf_here = run_capture(probe, NULL) == 0;
	char *pout = xasprintf("%s/perf.out", dir);
	char *argv[] = {prog, "x", NULL};
	/* the perf meter says what to count through its ops, as execute.c asks it */
	struct meter_state ms = {.target = &target};
	snprintf(ms.events, sizeof(ms.events), "task-clock");
	struct meter_run mr = {.st = &ms, .scratch = pout};
	struct meter_remote want = {0};
	meter_perf.remote(&mr, &want);
	struct one_run o;
	counting = &want;
	run_it(argv, NULL, 30, &o);
	counting = NULL;
	char *text = file_read(pout, NULL);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, "[x]"), "under perf: %s %s",
		o.out ? o.out : "(none)", sb_str(&o.err));
	if (perf_here)
		T_CHECK(text && strstr(text, "task-clock"), "perf output: %s", text ? text : "(none)");
	else
		printf("note: perf does not work here; only checked the run without it\n");
	free(text);
	free(pout);
	one_release(&o);
}

static void check_refusals(char *prog)
{
	struct one_run o;
	char *argv[] = {prog, "x", NULL};
	struct run_target keep = target;
	/* a hostile host never reaches ssh */
	char *host = xasprintf("-oProxyCommand=touch %s", marker);
	target.host = host;
	run_it(argv, NULL, 30, &o);
	T_CHECK(o.rc == -1 && strstr(sb_str(&o.err), "not a [user@]host"), "hostile host: %s",
		sb_str(&o.err));
	one_release(&o);
	free(host);
	/* a host key that does not match the pinned one: refused, a fault of
	 * the board (not of the program: runs again once the key is right) */
	target = keep;
	target.known_hosts = getenv("FS_SSH_BAD_KNOWN");
	run_it(argv, NULL, 30, &o);
	T_CHECK(o.rc == RUNNER_SSH_FAULT && strstr(sb_str(&o.err), "erification failed"),
		"wrong host key: %d %s", o.rc, sb_str(&o.err));
	one_release(&o);
	/* a hostile work folder is made as named */
	target = keep;
	char *wd = xasprintf("%s/wd $(touch %s) `touch %s`; 'q", dir, marker, marker);
	target.workdir = wd;
	run_it(argv, NULL, 30, &o);
	char *helper_dir = xasprintf("%s/o", wd);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, "[x]") && is_dir(helper_dir),
		"hostile workdir: %s %s", o.out ? o.out : "(none)", sb_str(&o.err));
	one_release(&o);
	free(helper_dir);
	free(wd);
	target = keep;
	T_CHECK(!file_exists(marker), "a hostile value ran a command");
}

static void check_facts(void)
{
	struct strlist lines = {0};
	struct strbuf err = {0};
	int rc = runner_ssh_facts(&target, &lines, NULL, &err);
	char *uname_r[] = {"uname", "-r", NULL};
	char *kernel = NULL;
	run_capture(uname_r, &kernel);
	struct strbuf want = {0};
	sb_addf(&want, "kernel=%s ", kernel ? str_trim(kernel) : "?");
	T_CHECK(rc == 0 && lines.n == 1 && strstr(lines.v[0], want.buf) &&
			strstr(lines.v[0], "machine=") && strstr(lines.v[0], " cpus=") &&
			strstr(lines.v[0], " perf="),
		"facts: %s %s", lines.n ? lines.v[0] : "(none)", sb_str(&err));
	if (lines.n)
		printf("board facts: %s\n", lines.v[0]);
	free(kernel);
	sb_release(&want);
	sb_release(&err);
	sl_release(&lines);
}

static int mode_basic(void)
{
	char *prog = build_prog();
	check_hostile_args(prog);
	const char *board = runner_ssh_last_board();
	T_CHECK(board && !strcmp(board, target.host), "last board: %s", board ? board : "(none)");
	check_outcomes(prog);
	check_files(prog);
	check_perf(prog);
	check_refusals(prog);
	check_facts();
	runner_ssh_release();
	free(prog);
	return test_summary("test_ssh_runner basic");
}

static int mode_again(void)
{
	char *prog = build_prog();
	/* the same program and input as basic's, from another folder */
	char *in = test_write(dir, "input.txt", "the input\nsecond line\n");
	char *cat[] = {prog, "cat", in, NULL};
	struct one_run o;
	run_it(cat, NULL, 30, &o);
	struct runner_ssh_counts c;
	runner_ssh_get_counts(&c);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, "the input\nsecond line\n") && c.uploads == 0,
		"a new process: %s, %ld uploads (want 0: all on the board already) %s",
		o.out ? o.out : "(none)", c.uploads, sb_str(&o.err));
	one_release(&o);
	runner_ssh_release();
	free(in);
	free(prog);
	return test_summary("test_ssh_runner again");
}

static int mode_slow(const char *started, const char *finished)
{
	char *script = test_write(dir, "slow.sh", "#!/bin/sh\necho start >>\"$1\"\nsleep 6\necho end >>\"$2\"\necho done\n");
	chmod(script, 0755);
	char *argv[] = {script, (char *)started, (char *)finished, NULL};
	struct one_run o;
	run_it(argv, NULL, 60, &o);
	/* "fault" only for a board fault (RUNNER_SSH_FAULT), never for -1 */
	if (o.rc == 0 && o.r.exited && o.r.status == 0 && o.out && !strcmp(o.out, "done\n"))
		printf("ok %s\n", runner_ssh_last_board());
	else if (o.rc == RUNNER_SSH_FAULT)
		printf("fault %s\n", sb_str(&o.err));
	else
		printf("error %d %s\n", o.rc, o.rc ? sb_str(&o.err) : "the run came back wrong");
	one_release(&o);
	runner_ssh_release();
	free(script);
	return 0;
}

static int mode_bench(int n)
{
	char *prog = build_prog();
	char *argv[] = {prog, "x", NULL};
	char *cwd = xasprintf("%s/run", dir), *out = xasprintf("%s/run/stdout", dir);
	mkdir_p(cwd, 0755);
	struct run_spec spec = {.argv = argv, .cwd = cwd, .stdout_path = out, .timeout = 30,
				.target = &target};
	struct run_result r;
	struct strbuf err = {0};
	double t0 = now_seconds();
	for (int i = 0; i < n; i++)
		runner_native.exec(&spec, &r, &err);
	double native = (now_seconds() - t0) / n;
	/* the first ssh run connects and copies: not counted */
	int bad = runner_ssh.exec(&spec, &r, &err);
	t0 = now_seconds();
	for (int i = 0; i < n && !bad; i++)
		bad = runner_ssh.exec(&spec, &r, &err);
	double ssh = (now_seconds() - t0) / n;
	if (bad)
		fprintf(stderr, "ssh run failed: %s\n", sb_str(&err));
	printf("native %.6f ssh %.6f\n", native, ssh);
	runner_ssh_release();
	sb_release(&err);
	free(cwd);
	free(out);
	free(prog);
	return bad ? 1 : 0;
}

/* ---- options: per_board, helper_cc, cpu ---- */

struct par_run {
	char *prog;
	int index, rc, ok;
	char board[256];
	pthread_barrier_t *done;
};

/* one run in its own folder; the thread lives until every run is done,
 * as the runner asks (its sessions end with the thread that opened them) */
static void *par_thread(void *arg)
{
	struct par_run *p = arg;
	char *cwd = xasprintf("%s/par%d", dir, p->index);
	char *out = xasprintf("%s/stdout", cwd);
	remove_tree(cwd);
	mkdir_p(cwd, 0755);
	char *argv[] = {p->prog, "sleep", "3", NULL};
	struct run_spec spec = {.argv = argv, .cwd = cwd, .stdout_path = out, .timeout = 60,
				.target = &target};
	struct run_result r;
	struct strbuf err = {0};
	p->rc = runner_ssh.exec(&spec, &r, &err);
	p->ok = p->rc == 0 && r.exited && r.status == 0;
	if (!p->ok)
		fprintf(stderr, "parallel run %d: %s\n", p->index, sb_str(&err));
	snprintf(p->board, sizeof(p->board), "%s",
		 runner_ssh_last_board() ? runner_ssh_last_board() : "");
	pthread_barrier_wait(p->done);
	sb_release(&err);
	free(cwd);
	free(out);
	return NULL;
}

/* two runs of 3 s from two threads at once: seconds from start to both done */
static double two_at_once(char *prog, int per_board, int *ok)
{
	runner_ssh_release();
	runner_ssh_set_options(&(struct runner_ssh_options){.per_board = per_board});
	/* connected and copied first: only the runs are timed */
	struct one_run o;
	char *argv[] = {prog, "x", NULL};
	run_it(argv, NULL, 30, &o);
	*ok = o.rc == 0;
	one_release(&o);
	pthread_barrier_t done;
	pthread_barrier_init(&done, NULL, 2);
	struct par_run runs[2];
	pthread_t th[2];
	double t0 = now_seconds();
	for (int i = 0; i < 2; i++) {
		runs[i] = (struct par_run){.prog = prog, .index = i, .done = &done};
		pthread_create(&th[i], NULL, par_thread, &runs[i]);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	double took = now_seconds() - t0;
	pthread_barrier_destroy(&done);
	for (int i = 0; i < 2; i++) {
		*ok &= runs[i].ok && !strcmp(runs[i].board, target.host);
	}
	return took;
}

static void check_helper_cc(char *prog)
{
	struct one_run o;
	char *argv[] = {prog, "x", NULL};
	/* words, never a shell: these reach cc as they are, and cc fails */
	char *hostile = xasprintf("cc -O1 -DQ=$(touch %s) `touch %s` ;touch %s |touch %s", marker,
				  marker, marker, marker);
	runner_ssh_release();
	runner_ssh_set_options(&(struct runner_ssh_options){.helper_cc = hostile});
	run_it(argv, NULL, 30, &o);
	T_CHECK(o.rc == -1 && strstr(sb_str(&o.err), "cannot build the measuring helper") &&
			strstr(sb_str(&o.err), hostile),
		"hostile helper_cc: rc %d %s", o.rc, sb_str(&o.err));
	T_CHECK(!file_exists(marker), "helper_cc ran a command");
	one_release(&o);
	free(hostile);
	/* another compiler command (debug sections: another binary): another
	 * helper, copied once */
	char *cc = xstrdup("cc -g");
	runner_ssh_release();
	runner_ssh_set_options(&(struct runner_ssh_options){.helper_cc = cc,
							     .cpu = "loopback 'board' $(x)"});
	struct runner_ssh_counts a, b;
	runner_ssh_get_counts(&a);
	run_it(argv, NULL, 30, &o);
	runner_ssh_get_counts(&b);
	T_CHECK(o.rc == 0 && o.out && !strcmp(o.out, "[x]") && b.uploads == a.uploads + 1,
		"helper_cc '%s': %s, %ld uploads (want the new helper only)", cc, sb_str(&o.err),
		b.uploads - a.uploads);
	one_release(&o);
	free(cc);
	struct strlist lines = {0};
	struct strbuf err = {0};
	int rc = runner_ssh_facts(&target, &lines, NULL, &err);
	const char *want = " described=loopback 'board' $(x)";
	T_CHECK(rc == 0 && lines.n == 1 && strlen(lines.v[0]) > strlen(want) &&
			!strcmp(lines.v[0] + strlen(lines.v[0]) - strlen(want), want),
		"described cpu: %s %s", lines.n ? lines.v[0] : "(none)", sb_str(&err));
	sl_release(&lines);
	sb_release(&err);
	runner_ssh_release();
	runner_ssh_set_options(&(struct runner_ssh_options){0});
}

static int mode_options(void)
{
	char *prog = build_prog();
	int ok1, ok2;
	double one = two_at_once(prog, 1, &ok1);
	double two = two_at_once(prog, 2, &ok2);
	printf("two runs of 3 s on one board: %.2f s with per_board 1, %.2f s with per_board 2\n",
	       one, two);
	T_CHECK(ok1 && one >= 6.0, "per_board 1: %.2f s (want one after the other, >= 6), ok %d", one,
		ok1);
	/* side by side: overlapped, the pair saves most of one 3 s run, whatever
	 * a loaded machine adds to both (a fixed bound of 5 s was the machine's) */
	T_CHECK(ok2 && two < one - 1.5,
		"per_board 2: %.2f s against %.2f s one at a time (want both at once, 1.5 s less), ok %d",
		two, one, ok2);
	check_helper_cc(prog);
	runner_ssh_release();
	free(prog);
	return test_summary("test_ssh_runner options");
}

/* ---- study: the [run] keys ---- */

struct run_case {
	const char *name;
	const char *run; /* the [run] section's lines */
	const char *want; /* NULL: loads; else a substring of the error */
	int line;         /* of the error (the [run] header is line 3) */
};

static const struct run_case run_cases[] = {
	{"all keys", "host = pi@a pi@b\nper_board = 2\nhelper_cc = mips64el-linux-gnuabi64-gcc "
		     "-march=loongson2f -mabi=64\ncpu = Loongson 2F, 800 MHz\n", NULL, 0},
	{"per_board 0", "host = a\nper_board = 0\n", "per_board must be a whole number from 1 to 64, not '0'", 5},
	{"per_board word", "host = a\nper_board = two\n", "(the runs one board takes at a time", 5},
	{"per_board too many", "host = a\nper_board = 65\n", "per_board must be", 5},
	{"helper_cc empty", "host = a\nhelper_cc =\n", "'helper_cc' in [run] has no value (write e.g.", 5},
	{"helper_cc flags only", "host = a\nhelper_cc = -march=loongson2f\n",
	 "does not start with a compiler", 5},
	{"cpu empty", "host = a\ncpu =\n", "'cpu' in [run] has no value", 5},
	{"host empty", "host =\n", "'host' in [run] has no value (write e.g. 'host = user@board')", 4},
	{"workdir empty", "host = a\nworkdir =\n", "leave it out for the default", 5},
	{"no host", "cpu = Loongson 2F\nper_board = 2\n", "[run] names no board (add 'host = ", 5},
	{"unknown key", "host = a\nmhz = 800\n", "unknown key 'mhz' in [run] (known: host, hosts, port, "
						  "identity, workdir, known_hosts, per_board, helper_cc, cpu)", 5},
};

static int mode_study(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_cases); i++) {
		const struct run_case *c = &run_cases[i];
		char *text = xasprintf("[study]\nworkloads = crc32\n[run]\n%s", c->run);
		char *path = test_write(dir, "run.study", text);
		struct study s;
		struct strbuf err = {0};
		int rc = study_load(path, &s, &err);
		if (!c->want) {
			T_CHECK(rc == 0, "%s: should load: %s", c->name, sb_str(&err));
		} else {
			char *where = xasprintf("%s:%d: ", path, c->line);
			T_CHECK(rc == -1 && strstr(sb_str(&err), c->want) &&
					str_starts_with(sb_str(&err), where) && !strchr(sb_str(&err), '\n'),
				"%s: '%s' (want one line '%s...%s')", c->name, sb_str(&err), where, c->want);
			free(where);
		}
		if (!rc && i == 0)
			T_CHECK(s.run_per_board == 2 && !strcmp(s.run_host, "pi@a pi@b") &&
					!strcmp(s.run_helper_cc, "mips64el-linux-gnuabi64-gcc -march=loongson2f -mabi=64") &&
					!strcmp(s.run_cpu, "Loongson 2F, 800 MHz"),
				"all keys: per_board %d helper_cc '%s' cpu '%s'", s.run_per_board,
				s.run_helper_cc ? s.run_helper_cc : "", s.run_cpu ? s.run_cpu : "");
		study_release(&s);
		sb_release(&err);
		free(path);
		free(text);
	}
	return test_summary("test_ssh_runner study");
}

int main(int argc, char **argv)
{
	target.host = getenv("FS_SSH_HOST");
	if (!target.host || (argc > 1 && !strcmp(argv[1], "study"))) {
		dir = test_tmpdir("test_ssh_runner.study");
		int rc = mode_study();
		free(dir);
		if (!target.host)
			printf("SKIP (board modes): they need the sshd that tests/it_ssh.sh starts "
			       "(FS_SSH_HOST); the [run] keys were checked\n");
		return rc;
	}
	target.identity = getenv("FS_SSH_IDENTITY");
	target.known_hosts = getenv("FS_SSH_KNOWN_HOSTS");
	target.workdir = getenv("FS_SSH_WORKDIR");
	marker = getenv("FS_SSH_MARKER") ? getenv("FS_SSH_MARKER") : "/nonexistent/marker";
	const char *mode = argc > 1 ? argv[1] : "basic";
	char *name = xasprintf("test_ssh_runner.%s", mode);
	dir = test_tmpdir(name);
	free(name);
	int rc;
	if (!strcmp(mode, "basic"))
		rc = mode_basic();
	else if (!strcmp(mode, "again"))
		rc = mode_again();
	else if (!strcmp(mode, "slow") && argc == 4)
		rc = mode_slow(argv[2], argv[3]);
	else if (!strcmp(mode, "bench") && argc == 3)
		rc = mode_bench(atoi(argv[2]));
	else if (!strcmp(mode, "options"))
		rc = mode_options();
	else {
		fprintf(stderr, "usage: test_ssh_runner basic|again|slow STARTED FINISHED|bench N|"
				"options|study\n");
		rc = 2;
	}
	free(dir);
	return rc;
}
