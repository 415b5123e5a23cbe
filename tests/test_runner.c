/*
 * test_runner.c - the native runner and the validation of outputs: exit
 * status, signals, timeouts, the fixed environment, first differing byte.
 * Timeouts hold without pidfd_open too (a seccomp filter refuses it, as
 * older container profiles and kernels before 5.3 do).
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "harness/runner.h"
#include "harness/validate.h"
#include "tests/testlib.h"

static int run_sh(const char *dir, const char *script, double timeout, struct run_result *r)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	char *out = xasprintf("%s/stdout", dir);
	struct run_spec spec = {.argv = argv, .cwd = dir, .stdout_path = out, .timeout = timeout};
	struct strbuf err = {0};
	int rc = runner_native.exec(&spec, r, &err);
	sb_release(&err);
	free(out);
	return rc;
}

static void check_runner(const char *dir)
{
	struct run_result r;
	T_CHECK(!run_sh(dir, "exit 3", 10, &r) && r.exited && r.status == 3, "exit 3: %d/%d",
		r.exited, r.status);
	T_CHECK(!run_sh(dir, "kill -SEGV $$", 10, &r) && !r.exited && r.signal == 11 && !r.timed_out,
		"segv: exited=%d signal=%d", r.exited, r.signal);
	T_CHECK(!run_sh(dir, "sleep 30", 0.3, &r) && r.timed_out && !r.exited && r.signal == 9,
		"timeout: timed_out=%d signal=%d", r.timed_out, r.signal);
	T_CHECK(r.wall < 20, "the timeout did not stop the run (%.1f s)", r.wall);
	/* a child of the program that outlives it is killed with its group */
	T_CHECK(!run_sh(dir, "sleep 0.2; echo done", 10, &r) && r.exited && r.status == 0 &&
			r.wall >= 0.2,
		"sleep: wall %.3f", r.wall);
	char *out = xasprintf("%s/stdout", dir);
	char *text = file_read(out, NULL);
	T_CHECK(text && !strcmp(text, "done\n"), "stdout '%s'", text ? text : "(none)");
	free(text);
	/* the environment is fixed, so runs see the same stack layout */
	T_CHECK(!run_sh(dir, "env | sort", 10, &r) && r.status == 0, "env");
	text = file_read(out, NULL);
	T_CHECK(text && strstr(text, "LC_ALL=C\n") && strstr(text, "TZ=UTC\n") &&
			strstr(text, "HOME=/nonexistent\n") && !strstr(text, "FLAGSCOPE"),
		"env:\n%s", text ? text : "");
	free(text);
	/* user time and peak RSS come back from wait4 */
	T_CHECK(!run_sh(dir, "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", 60, &r) &&
			r.user + r.sys > 0 && r.maxrss_kb > 0,
		"rusage user %.3f sys %.3f rss %ld", r.user, r.sys, r.maxrss_kb);
	/* a program that cannot start is an error, not a run */
	char *argv[] = {"/nonexistent/program", NULL};
	struct run_spec spec = {.argv = argv, .cwd = dir, .timeout = 5};
	struct strbuf err = {0};
	T_CHECK(runner_native.exec(&spec, &r, &err) == -1 && strstr(sb_str(&err), "cannot start"),
		"missing program: %s", sb_str(&err));
	sb_release(&err);
	/* pinning to CPU 0 still runs */
	char *argv2[] = {"/bin/true", NULL};
	struct run_spec pinned = {.argv = argv2, .cwd = dir, .timeout = 5, .pin = "0"};
	T_CHECK(!runner_native.exec(&pinned, &r, &err) && r.exited && r.status == 0, "pinned");
	sb_release(&err);
	free(out);
}

/* In a child process: pidfd_open fails with ENOSYS from here on. */
static int refuse_pidfd_open(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = ARRAY_SIZE(code), .filter = code};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return -1;
	return syscall(SYS_pidfd_open, getpid(), 0) < 0 && errno == ENOSYS ? 0 : -1;
}

static void check_no_pidfd(const char *dir)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (refuse_pidfd_open()) {
			printf("SKIP: no pidfd_open fallback case: cannot install a seccomp filter\n");
			_exit(77);
		}
		struct run_result r;
		T_CHECK(!run_sh(dir, "sleep 10", 0.3, &r) && r.timed_out && !r.exited && r.signal == 9,
			"no pidfd, timeout: timed_out=%d signal=%d", r.timed_out, r.signal);
		T_CHECK(r.wall < 5, "no pidfd: the timeout did not stop the run (%.1f s)", r.wall);
		T_CHECK(!run_sh(dir, "sleep 0.2; exit 3", 10, &r) && r.exited && r.status == 3 &&
				!r.timed_out && r.wall >= 0.2 && r.wall < 5,
			"no pidfd, exit 3: exited=%d status=%d wall %.3f", r.exited, r.status, r.wall);
		_exit(test_failures ? 1 : 0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	T_CHECK(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 77),
		"the checks without pidfd_open failed (status 0x%x)", status);
}

/* The registry: checked, asked in order, and the source of the names. */
static void check_registry(void)
{
	struct strbuf err = {0};
	T_CHECK(!runners_check(&err), "runners[]: %s", sb_str(&err));
	sb_release(&err);
	T_CHECK(!strcmp(runner_names(), "ssh qemu native"), "names '%s'", runner_names());
	struct run_target board = {.host = "pi@board"};
	const struct {
		const char *what, *want;
		struct run_job job;
	} cases[] = {
		{"a native build", "native", {.cross = NULL}},
		{"a cross build", "qemu", {.cross = "mips64el-linux-gnuabi64"}},
		{"a cross build on boards", "ssh", {.cross = "aarch64-linux-gnu", .board = &board}},
		{"a native build on boards", "ssh", {.board = &board}},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct runner_ops *r = runner_select(&cases[i].job);
		T_CHECK(!strcmp(r->name, cases[i].want), "%s: %s, not %s", cases[i].what, r->name,
			cases[i].want);
	}
	for (size_t i = 0; runner_at(i); i++)
		T_CHECK(runner_lookup(runner_at(i)->name) == runner_at(i), "lookup %s",
			runner_at(i)->name);
	T_CHECK(!runner_lookup("telnet"), "an unknown runner was found");
	/* a study's runs on boards: the ssh runner's study hooks (the
	 * pipeline's only way to the boards); here: none */
	T_CHECK(runner_for(&board) == &runner_ssh && runner_ssh.facts && runner_ssh.release_study,
		"study on boards: %s", runner_for(&board)->name);
	T_CHECK(runner_for(NULL) == &runner_native && !runner_native.open_study &&
			!runner_qemu.facts,
		"study here: %s", runner_for(NULL)->name);
	T_CHECK(runner_ssh.machines(&(struct run_target){.host = "pi@a pi@b:2222"}) == 2,
		"two boards");
}

static void check_validate(const char *dir)
{
	char *a = test_write(dir, "a", "hello world\n");
	char *b = test_write(dir, "b", "hello world\n");
	char *c = test_write(dir, "c", "hello wOrld\n");
	char *d = test_write(dir, "d", "hello");
	struct strbuf why = {0};
	T_CHECK(validate_files("stdout", a, b, &why) == 0, "equal files differ: %s", sb_str(&why));
	T_CHECK(validate_files("stdout", c, a, &why) == 1 &&
			strstr(sb_str(&why), "at byte 7: 0x4f 'O' instead of 0x6f 'o'"),
		"%s", sb_str(&why));
	sb_release(&why);
	T_CHECK(validate_files("stdout", d, a, &why) == 1 &&
			strstr(sb_str(&why), "at byte 5: end of file instead of 0x20 ' '"),
		"%s", sb_str(&why));
	sb_release(&why);
	T_CHECK(validate_files("stdout", a, "/nonexistent", &why) == -1, "missing file");
	sb_release(&why);
	free(a);
	free(b);
	free(c);
	free(d);
}

int main(void)
{
	char *dir = test_tmpdir("runner");
	check_runner(dir);
	check_no_pidfd(dir);
	check_registry();
	check_validate(dir);
	free(dir);
	return test_summary("test_runner");
}
