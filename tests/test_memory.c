/*
 * test_memory.c - the memory meter: the program is stopped at its exit and
 * its peak virtual size, peak resident size and private dirty memory are
 * read from /proc.  workloads/memtouch touches a known amount; the figures
 * must match it within the tolerance stated below, and a traced run must
 * still report exit status, signals and timeouts like an untraced one.
 */
#include <pthread.h>
#include <signal.h>

#include "harness/runner.h"
#include "tests/testlib.h"

/* memtouch 64 256 dirties 64 MiB + 256 pages; libc, stack and the program
 * itself add a little: the meter must see the touched amount and at most
 * this much more. */
#define SLACK_KB (6 * 1024)

static int run(char *const argv[], const char *dir, int traced, double timeout,
	       struct run_result *r)
{
	struct run_spec spec = {.argv = argv, .cwd = dir, .timeout = timeout,
				.exit_memory = traced};
	struct strbuf err = {0};
	int rc = runner_native.exec(&spec, r, &err);
	if (rc)
		fprintf(stderr, "run: %s\n", sb_str(&err));
	sb_release(&err);
	return rc;
}

/* Another thread of the process that waits for SIGCHLD itself (a second
 * crew thread waiting on its own traced run) may take the signal of this
 * run's child.  Here a thread takes every SIGCHLD for the whole run: the
 * run must still end when its program does, not at its timeout. */
#define STOLEN_RUNS 20

static volatile int thief_stop;

static void *thief_main(void *arg)
{
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (arg)
		pthread_sigmask(SIG_UNBLOCK, &chld, NULL);
	while (!thief_stop) {
		struct timespec ts = {0, 5 * 1000 * 1000};
		if (arg)
			nanosleep(&ts, NULL);
		else
			sigtimedwait(&chld, NULL, &ts);
	}
	return NULL;
}

static void check_stolen_sigchld(const char *dir, int unblocked)
{
	sigset_t chld, old;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &old);
	pthread_t t;
	pthread_create(&t, NULL, thief_main, unblocked ? &t : NULL);
	char *argv[] = {"/bin/sh", "-c", "exit 5", NULL};
	struct run_result r;
	int late = 0;
	for (int i = 0; i < STOLEN_RUNS; i++)
		if (run(argv, dir, 1, 2, &r) || r.timed_out || !r.exited || r.status != 5)
			late++;
	thief_stop = 1;
	pthread_join(t, NULL);
	thief_stop = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	T_CHECK(late == 0, "%d of %d traced runs waited out their timeout while another thread took SIGCHLD",
		late, STOLEN_RUNS);
}

int main(void)
{
	char *dir = test_tmpdir("memory");
	char *bin = xasprintf("%s/memtouch", dir);
	char *cmd = xasprintf("gcc -O2 -o %s %s/workloads/memtouch/memtouch.c", bin, flagscope_home());
	if (run_shell_capture(cmd, NULL) != 0) {
		printf("SKIP: cannot build memtouch with gcc\n");
		return 77;
	}
	struct run_result r;
	char *argv[] = {bin, "64", "256", NULL};
	long want_kb = 64 * 1024 + 256 * 4;
	T_CHECK(!run(argv, dir, 1, 60, &r) && r.exited && r.status == 0, "memtouch ran");
	printf("memtouch 64 256: VmPeak %ld KiB, VmHWM %ld KiB, Private_Dirty %ld KiB, ru_maxrss %ld KiB (touched %ld KiB)\n",
	       r.vm_peak_kb, r.vm_hwm_kb, r.dirty_kb, r.maxrss_kb, want_kb);
	T_CHECK(r.dirty_kb >= want_kb && r.dirty_kb <= want_kb + SLACK_KB, "dirty %ld", r.dirty_kb);
	T_CHECK(r.vm_hwm_kb >= want_kb && r.vm_hwm_kb <= want_kb + SLACK_KB, "hwm %ld", r.vm_hwm_kb);
	T_CHECK(r.vm_peak_kb >= r.vm_hwm_kb, "peak %ld < hwm %ld", r.vm_peak_kb, r.vm_hwm_kb);
	/* rusage's peak RSS is the cross-check */
	T_CHECK(labs(r.maxrss_kb - r.vm_hwm_kb) <= r.vm_hwm_kb / 20, "rusage %ld vs hwm %ld",
		r.maxrss_kb, r.vm_hwm_kb);

	/* twice the memory, twice the figure */
	char *argv2[] = {bin, "128", "256", NULL};
	struct run_result r2;
	T_CHECK(!run(argv2, dir, 1, 60, &r2) && r2.exited && r2.status == 0, "memtouch 128 ran");
	T_CHECK(r2.dirty_kb - r.dirty_kb >= 64 * 1024 - 512 && r2.dirty_kb - r.dirty_kb <= 64 * 1024 + 512,
		"128 vs 64 MiB: dirty grew by %ld KiB", r2.dirty_kb - r.dirty_kb);

	/* untraced runs report no memory figures */
	T_CHECK(!run(argv, dir, 0, 60, &r) && r.vm_hwm_kb == -1 && r.dirty_kb == -1, "untraced");

	/* exit status, signals and timeouts survive tracing */
	char *ex[] = {"/bin/sh", "-c", "exit 3", NULL};
	T_CHECK(!run(ex, dir, 1, 10, &r) && r.exited && r.status == 3 && r.vm_hwm_kb > 0,
		"traced exit 3: exited %d status %d hwm %ld", r.exited, r.status, r.vm_hwm_kb);
	char *sg[] = {"/bin/sh", "-c", "kill -SEGV $$", NULL};
	T_CHECK(!run(sg, dir, 1, 10, &r) && !r.exited && r.signal == SIGSEGV,
		"traced segv: exited %d signal %d", r.exited, r.signal);
	char *hang[] = {"/bin/sleep", "30", NULL};
	T_CHECK(!run(hang, dir, 1, 0.3, &r) && r.timed_out && r.wall < 10, "traced timeout %d %.1f",
		r.timed_out, r.wall);
	/* a program that handles a signal still gets it while traced */
	char *trap[] = {"/bin/sh", "-c", "trap 'exit 7' USR1; kill -USR1 $$; sleep 5", NULL};
	T_CHECK(!run(trap, dir, 1, 10, &r) && r.exited && r.status == 7, "signal passed on: %d/%d",
		r.exited, r.status);
	/* a program that execs another keeps running while traced (execl
	 * benchmarks), and the figures are those of the last image */
	char *execs[] = {"/bin/sh", "-c", "exec /bin/sh -c 'exit 4'", NULL};
	T_CHECK(!run(execs, dir, 1, 10, &r) && r.exited && r.status == 4 && r.vm_hwm_kb > 0,
		"exec while traced: exited %d status %d signal %d", r.exited, r.status, r.signal);
	check_stolen_sigchld(dir, 0);
	check_stolen_sigchld(dir, 1);
	free(cmd);
	free(bin);
	free(dir);
	return test_summary("test_memory");
}
