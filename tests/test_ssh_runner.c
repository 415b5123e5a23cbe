/*
 * test_ssh_runner.c - runner_ssh.exec against a real sshd.  tests/it_ssh.sh
 * starts the sshd (and a second one for pools) and runs this program in
 * its modes; on its own (no FS_SSH_HOST) it reports SKIP.
 *
 *   test_ssh_runner basic   every kind of run, hostile values, copies once
 *   test_ssh_runner again   a new process finds everything on the board
 *   test_ssh_runner slow STARTED FINISHED
 *                           one slow run while the script breaks boards;
 *                           prints "ok BOARD" or "fault REASON"
 *   test_ssh_runner bench N  N native and N ssh runs of one small program,
 *                           prints "native S ssh S" (bench/remote.sh)
 * Environment: FS_SSH_HOST, FS_SSH_IDENTITY, FS_SSH_KNOWN_HOSTS,
 * FS_SSH_WORKDIR, FS_SSH_MARKER (a file nothing may create), FS_SSH_BAD_KNOWN
 * (a known_hosts file with another key), FLAGSCOPE_TEST_TMP.
 */
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

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

static void run_it(char **argv, const char *stdin_path, double timeout, struct one_run *o)
{
	char *cwd = xasprintf("%s/run", dir);
	char *out = xasprintf("%s/run/stdout", dir);
	char *errp = xasprintf("%s/run/stderr", dir);
	remove_tree(cwd);
	mkdir_p(cwd, 0755);
	struct run_spec spec = {.argv = argv, .cwd = cwd, .stdin_path = stdin_path,
				.stdout_path = out, .stderr_path = errp, .timeout = timeout,
				.pin_cpu = -1, .target = &target};
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
	char *argv[] = {"/usr/bin/perf", "stat", "-x,", "-o", pout, "-e", "task-clock", "--",
			prog, "x", NULL};
	struct one_run o;
	run_it(argv, NULL, 30, &o);
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
	/* a host key that does not match the pinned one: refused */
	target = keep;
	target.known_hosts = getenv("FS_SSH_BAD_KNOWN");
	run_it(argv, NULL, 30, &o);
	T_CHECK(o.rc == -1 && strstr(sb_str(&o.err), "erification failed"), "wrong host key: %s",
		sb_str(&o.err));
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
	int rc = runner_ssh_facts(&target, &lines, &err);
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
	if (o.rc == 0 && o.r.exited && o.r.status == 0 && o.out && !strcmp(o.out, "done\n"))
		printf("ok %s\n", runner_ssh_last_board());
	else
		printf("fault %s\n", o.rc ? sb_str(&o.err) : "the run came back wrong");
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
				.pin_cpu = -1, .target = &target};
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

int main(int argc, char **argv)
{
	target.host = getenv("FS_SSH_HOST");
	if (!target.host) {
		printf("SKIP: needs the sshd that tests/it_ssh.sh starts (FS_SSH_HOST)\n");
		return 77;
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
	else {
		fprintf(stderr, "usage: test_ssh_runner basic|again|slow STARTED FINISHED|bench N\n");
		rc = 2;
	}
	free(dir);
	return rc;
}
