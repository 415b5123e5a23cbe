/*
 * test_run_capture.c - base/util.c's run_capture, the helper every fetch,
 * probe and sysroot step runs through:
 *   - a helper inherited every descriptor flagscope had open without
 *     close-on-exec (a database, a lock, a log): it sees 0, 1 and 2 only;
 *   - with a timeout (sysroot build steps) a command and the children it
 *     started are killed when it runs past it: timed_out set, status 137,
 *     what it wrote before kept; a background child that holds the output
 *     open does not keep the caller waiting;
 *   - without one, a command ends as before, with its status.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

static void test_only_std_fds(void)
{
	char *dir = test_tmpdir("test_run_capture");
	char *path = xasprintf("%s/held", dir);
	int held = open(path, O_WRONLY | O_CREAT, 0644); /* no O_CLOEXEC, as a leak */
	int p[2];
	T_CHECK(held > 2 && !pipe(p), "setup");
	/* ls lists the shell's descriptors (a glob or $(...) there would
	 * list one of the shell's own) */
	char *argv[] = {"sh", "-c", "ls /proc/$$/fd", NULL};
	char *out = NULL;
	int rc = run_capture(argv, &out);
	T_CHECK(rc == 0 && out && !strcmp(str_trim(out), "0\n1\n2"),
		"the helper's descriptors: '%s' (want 0 1 2; %d and %d were ours)", out ? out : "",
		held, p[0]);
	free(out);
	out = NULL;
	rc = run_capture_timeout(argv, &out, 30, NULL);
	T_CHECK(rc == 0 && out && !strcmp(str_trim(out), "0\n1\n2"),
		"with a timeout, the helper's descriptors: '%s'", out ? out : "");
	free(out);
	close(held);
	close(p[0]);
	close(p[1]);
	free(path);
	remove_tree(dir);
	free(dir);
}

/* 1 when pid is gone (reaped by init) within about 10 s */
static int gone(pid_t pid)
{
	for (int i = 0; i < 1000; i++) {
		if (kill(pid, 0) && errno == ESRCH)
			return 1;
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
	return 0;
}

static void test_timeout_kills_group(void)
{
	/* the background sleep keeps stdout open: only its group's kill ends
	 * the read before it does */
	char *argv[] = {"sh", "-c", "sleep 300 & echo $!; sleep 300; echo never", NULL};
	char *out = NULL;
	int timed_out = 0;
	int rc = run_capture_timeout(argv, &out, 0.5, &timed_out);
	T_CHECK(timed_out && rc == 128 + SIGKILL, "timed_out %d, rc %d", timed_out, rc);
	long bg = out ? strtol(out, NULL, 10) : 0;
	T_CHECK(bg > 0 && !strstr(out, "never"), "output before the kill: '%s'", out ? out : "");
	T_CHECK(bg <= 0 || gone((pid_t)bg), "the command's child %ld outlived the timeout", bg);
	free(out);

	char *ok[] = {"sh", "-c", "echo done; exit 3", NULL};
	out = NULL;
	rc = run_capture_timeout(ok, &out, 60, &timed_out);
	T_CHECK(rc == 3 && !timed_out && out && !strcmp(str_trim(out), "done"),
		"a command within its timeout: rc %d, timed_out %d, '%s'", rc, timed_out,
		out ? out : "");
	free(out);
}

int main(void)
{
	test_only_std_fds();
	test_timeout_kills_group();
	if (test_failures)
		fprintf(stderr, "test_run_capture: %d check(s) failed\n", test_failures);
	return test_failures ? 1 : 0;
}
