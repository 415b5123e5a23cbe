/*
 * helper.c - flagscope's measuring helper on a board reached over ssh.
 *
 * Built by flagscope for the board's target, linked statically (cc -static)
 * so it needs nothing on the board; copied there once, content-addressed.
 * It only uses POSIX and Linux system calls, so glibc, musl and dietlibc
 * all build it.  Not part of flagscope_core: it has its own main().
 *
 *   fs-helper run -d RUNDIR [-t SECONDS] [-i STDIN] [-c CPU]... [-e EVENTS] [-p PAD] -- PROG ARG...
 *     Makes RUNDIR/cwd, runs PROG there with a fixed environment (the
 *     native runner's), pinned to the CPUs of the -c options (one each;
 *     a CPU this helper may not run on is an exec_error answer, so a
 *     run is never pinned to fewer CPUs than asked), stdout and stderr
 *     to RUNDIR, killed with its
 *     process group after SECONDS, under `perf stat -x, -e EVENTS` when
 *     -e is given and the board has perf.  Then writes on its stdout:
 *       flagscope-helper 1
 *       key=value lines: exited status signal timed_out wall user sys
 *                        maxrss_kb perf (no/yes/absent) exec_errno
 *                        exec_error, aslr (1, 0, -1 unknown) pad env
 *                        (the run's layout, harness/layout.h: with -p
 *                        PAD and ASLR off here, the environment padded
 *                        by PAD bytes; env the bytes of its strings)
 *       --
 *       frames "file SIZE NAMELEN\n" NAME DATA for stdout, stderr, perf
 *       and every regular file under cwd/ (named cwd/REL)
 *       end
 *     and removes RUNDIR.  When its stdin reaches end of file (the ssh
 *     connection went away) it kills the program and gives up, so a lost
 *     board never keeps running a study's program.
 *     An early failure on the board is an answer with "error=REASON" and
 *     no frames.
 *   fs-helper serve
 *     The same runs, requested one after another on stdin for the life of
 *     one ssh session (no shell start-up per run): each request is "N\n"
 *     then N words "LEN\n" BYTES, the words that follow "run" above; each
 *     answer is the one above.  Ends at the end of stdin.
 *   fs-helper perf-probe
 *     Whether the board's perf counts: runs `perf stat -x,` on this helper
 *     (`fs-helper true`) with hardware events, then with task-clock, and
 *     prints one line "perf=hardware", "perf=software" (no hardware
 *     counters), "perf=failed" (perf there but it counts nothing, e.g.
 *     kernel.perf_event_paranoid) or "perf=absent".
 *   fs-helper link WORKDIR SET NAME HEX [NAME HEX]...
 *     Makes WORKDIR/a/SET/NAME hard links to the objects WORKDIR/o/HEX,
 *     atomically (a temporary folder renamed).  Prints "ok", or one
 *     "missing HEX" line per object the board lacks (exit 3).
 *
 * perf is the first of /usr/local/bin, /usr/bin, /bin, /usr/sbin that has
 * one, or FLAGSCOPE_HELPER_PERF in the helper's environment on the board
 * (sshd's SetEnv, ~/.ssh/environment): a path, or "none" for no perf.
 *
 * Exit status: 0 done, 2 usage, 3 missing objects or a failure on the
 * board (the reason on stderr).
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* dietlibc's cpu_set_t is one word and has no CPU_SETSIZE */
#ifndef CPU_SETSIZE
#define CPU_SETSIZE ((int)(8 * sizeof(cpu_set_t)))
#endif

/* The native runner's environment (harness/runner.c), written again here
 * because the helper is built alone for the board and links nothing of
 * flagscope: a run sees the same environment on both. */
static char *const clean_env[] = {
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"LC_ALL=C",
	"TZ=UTC",
	"HOME=/nonexistent",
	NULL,
};

static int sigchld_pipe[2] = {-1, -1};
static const char *run_dir = ""; /* removed when the client leaves */

static void on_sigchld(int sig)
{
	int e = errno;
	(void)sig;
	if (write(sigchld_pipe[1], "c", 1) < 0) {
		/* the pipe is full: a wake-up is pending anyway */
	}
	errno = e;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);
	if (!p) {
		fputs("fs-helper: out of memory\n", stderr);
		exit(3);
	}
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

static int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *sub = path_join(path, e->d_name);
		remove_tree(sub);
		free(sub);
	}
	closedir(d);
	return rmdir(path);
}

/* "perf" on the board's PATH, or NULL */
static char *find_perf(void)
{
	static const char *const dirs[] = {"/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin"};
	const char *env = getenv("FLAGSCOPE_HELPER_PERF");
	if (env && *env) {
		if (!strcmp(env, "none") || access(env, X_OK))
			return NULL;
		char *p = malloc(strlen(env) + 1);
		if (p)
			strcpy(p, env);
		return p;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = path_join(dirs[i], "perf");
		if (!access(p, X_OK))
			return p;
		free(p);
	}
	return NULL;
}

static void put_frame_header(const char *name, long long size)
{
	printf("file %lld %zu\n%s", size, strlen(name), name);
}

/* A frame of the file at path (missing files are skipped). */
static void send_file(const char *name, const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	put_frame_header(name, (long long)st.st_size);
	char buf[65536];
	long long left = st.st_size;
	while (left > 0) {
		ssize_t got = read(fd, buf, left < (long long)sizeof(buf) ? (size_t)left : sizeof(buf));
		if (got <= 0) {
			/* the file shrank: pad so the stream stays framed */
			memset(buf, 0, sizeof(buf));
			got = left < (long long)sizeof(buf) ? (ssize_t)left : (ssize_t)sizeof(buf);
		}
		fwrite(buf, 1, (size_t)got, stdout);
		left -= got;
	}
	close(fd);
}

/* Every regular file under dir, named prefix/REL; symbolic links are not
 * followed.  depth bounds hostile trees. */
static void send_tree(const char *prefix, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d || depth > 16) {
		if (d)
			closedir(d);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *path = path_join(dir, e->d_name);
		char *name = path_join(prefix, e->d_name);
		struct stat st;
		if (!lstat(path, &st)) {
			if (S_ISREG(st.st_mode))
				send_file(name, path);
			else if (S_ISDIR(st.st_mode))
				send_tree(name, path, depth + 1);
		}
		free(path);
		free(name);
	}
	closedir(d);
}

struct run_opts {
	const char *rundir, *stdin_path, *events;
	double timeout;
	cpu_set_t cpus; /* -c: the CPUs to pin to */
	int ncpus;
	size_t pad;     /* -p: environment padding where ASLR is off */
	char **argv;
	char **env;     /* the program's: clean_env, padded where ASLR is off */
};

/* flagscope's harness/layout.c, written again for the board: 1 when the
 * kernel randomises the programs this helper starts, 0 not, -1 unknown.
 * The personality from /proc (no personality(2) in every libc here). */
static int board_aslr(void)
{
	char buf[32];
	int fd = open("/proc/self/personality", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0) {
		buf[n] = '\0';
		if (strtoul(buf, NULL, 16) & 0x0040000) /* ADDR_NO_RANDOMIZE */
			return 0;
	}
	fd = open("/proc/sys/kernel/randomize_va_space", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoi(buf) != 0;
}

#define PAD_NAME "FLAGSCOPE_LAYOUT_PAD="

/* clean_env, and with pad (ASLR off) an entry of exactly pad bytes with
 * its NUL, as the native runner pads (harness/layout.h); *bytes gets what
 * the strings take on the program's stack */
static char **run_env(size_t pad, size_t *bytes)
{
	size_t n = 0, name = strlen(PAD_NAME);
	while (clean_env[n])
		n++;
	char **env = calloc(n + 2, sizeof(char *));
	*bytes = 0;
	for (size_t i = 0; i < n; i++) {
		env[i] = clean_env[i];
		*bytes += strlen(clean_env[i]) + 1;
	}
	if (pad > name) {
		char *e = malloc(pad);
		memcpy(e, PAD_NAME, name);
		memset(e + name, 'x', pad - name - 1);
		e[pad - 1] = '\0';
		env[n] = e;
		*bytes += pad;
	}
	return env;
}

static void child(const struct run_opts *o, const char *cwd, const char *out, const char *err,
		  char **argv, int err_pipe)
{
	setpgid(0, 0);
	cpu_set_t cpus = o->cpus; /* dietlibc's prototype takes no const */
	if (o->ncpus && sched_setaffinity(0, sizeof(cpus), &cpus))
		goto fail;
	int in = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
	int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || fo < 0 || fe < 0 || chdir(cwd))
		goto fail;
	dup2(in, 0);
	dup2(fo, 1);
	dup2(fe, 2);
	execve(argv[0], argv, o->env);
fail:;
	int e = errno;
	if (write(err_pipe, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Wait for pid, the timeout, or the end of our stdin (the client left). */
static int wait_child(pid_t pid, double timeout, double t0, int *status, struct rusage *ru,
		      int *timed_out)
{
	for (;;) {
		pid_t got = wait4(pid, status, WNOHANG, ru);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -1;
		double left = timeout > 0 ? timeout - (now() - t0) : 3600;
		if (left <= 0 && !*timed_out) {
			*timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		struct pollfd p[2] = {{.fd = sigchld_pipe[0], .events = POLLIN},
				      {.fd = 0, .events = POLLIN}};
		int ms = left <= 0 ? 100 : left > 3600 ? 3600000 : (int)(left * 1000) + 1;
		if (poll(p, 2, ms) < 0 && errno != EINTR)
			return -1;
		if (p[0].revents & POLLIN) {
			char buf[64];
			if (read(sigchld_pipe[0], buf, sizeof(buf)) < 0) {
				/* nothing to drain */
			}
		}
		if ((p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			char c;
			ssize_t r = read(0, &c, 1);
			if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
				/* the ssh client is gone: nobody will read the result */
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				waitpid(pid, status, 0);
				remove_tree(run_dir);
				_exit(4);
			}
			/* stray input: ignored */
		}
	}
}

/* A failure on the board before the program ran: an answer all the same,
 * so a client waiting on a served session is never left hanging. */
static int answer_error(const char *what, const char *path)
{
	printf("flagscope-helper 1\nerror=%s %s: %s\n--\nend\n", what, path, strerror(errno));
	fflush(stdout);
	return 3;
}

/* Every CPU of -c is one this helper may run on (0), else an answer
 * that the program cannot start there, naming the first CPU that is not
 * (the request is wrong for this board: not a fault to retry). */
static int check_cpus(const struct run_opts *o)
{
	cpu_set_t allowed, want = o->cpus;
	if (!o->ncpus || sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &want) && !CPU_ISSET(c, &allowed)) {
			printf("flagscope-helper 1\nexec_errno=%d\nexec_error=pin: CPU %d is not one "
			       "this board lets the helper run on (%d CPUs allowed; pin fewer CPUs)"
			       "\n--\nend\n", EINVAL, c, CPU_COUNT(&allowed));
			fflush(stdout);
			return 3;
		}
	return 0;
}

static int cmd_run(struct run_opts *o)
{
	if (check_cpus(o))
		return 3;
	char *cwd = path_join(o->rundir, "cwd");
	char *out = path_join(o->rundir, "stdout");
	char *err = path_join(o->rundir, "stderr");
	char *perf_out = path_join(o->rundir, "perf");
	remove_tree(o->rundir);
	if (mkdir(o->rundir, 0755) || mkdir(cwd, 0755))
		return answer_error("cannot make", o->rundir);
	run_dir = o->rundir;
	size_t n = 0;
	while (o->argv[n])
		n++;
	char **argv = calloc(n + 10, sizeof(char *));
	char *perf = o->events ? find_perf() : NULL;
	size_t k = 0;
	if (perf) {
		argv[k++] = perf;
		argv[k++] = "stat";
		argv[k++] = "-x,";
		argv[k++] = "-o";
		argv[k++] = perf_out;
		argv[k++] = "-e";
		argv[k++] = (char *)o->events;
		argv[k++] = "--";
	}
	for (size_t i = 0; i < n; i++)
		argv[k++] = o->argv[i];
	argv[k] = NULL;

	int aslr = board_aslr();
	size_t env_bytes;
	o->env = run_env(aslr == 0 ? o->pad : 0, &env_bytes);

	int err_pipe[2];
	if (pipe(err_pipe) || pipe(sigchld_pipe))
		return answer_error("pipe", "");
	fcntl(err_pipe[0], F_SETFD, FD_CLOEXEC);
	fcntl(err_pipe[1], F_SETFD, FD_CLOEXEC);
	for (int i = 0; i < 2; i++) {
		fcntl(sigchld_pipe[i], F_SETFD, FD_CLOEXEC);
		fcntl(sigchld_pipe[i], F_SETFL, O_NONBLOCK);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	double t0 = now();
	pid_t pid = fork();
	if (pid < 0)
		return answer_error("fork", "");
	if (pid == 0) {
		close(err_pipe[0]);
		child(o, cwd, out, err, argv, err_pipe[1]);
	}
	close(err_pipe[1]);
	int status = 0, timed_out = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	if (wait_child(pid, o->timeout, t0, &status, &ru, &timed_out))
		return answer_error("wait4", "");
	double wall = now() - t0;
	kill(-pid, SIGKILL); /* stragglers the program forked */
	int exec_errno = 0;
	if (read(err_pipe[0], &exec_errno, sizeof(exec_errno)) != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;

	printf("flagscope-helper 1\n");
	printf("exited=%d\nstatus=%d\nsignal=%d\ntimed_out=%d\n", WIFEXITED(status) ? 1 : 0,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 0, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
	       timed_out);
	printf("wall=%.9f\nuser=%.6f\nsys=%.6f\nmaxrss_kb=%ld\n", wall,
	       (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6, (long)ru.ru_maxrss);
	printf("perf=%s\nexec_errno=%d\n", !o->events ? "no" : perf ? "yes" : "absent", exec_errno);
	printf("aslr=%d\npad=%zu\nenv=%zu\n", aslr, aslr == 0 && o->pad > strlen(PAD_NAME) ? o->pad : 0,
	       env_bytes);
	if (exec_errno)
		printf("exec_error=%s\n", strerror(exec_errno));
	printf("--\n");
	send_file("stdout", out);
	send_file("stderr", err);
	if (perf)
		send_file("perf", perf_out);
	send_tree("cwd", cwd, 0);
	printf("end\n");
	fflush(stdout);
	remove_tree(o->rundir);
	for (char **e = o->env; *e; e++) /* the padding is the one entry not clean_env's */
		if (!strncmp(*e, PAD_NAME, strlen(PAD_NAME)))
			free(*e);
	free(o->env);
	return 0;
}

static int valid_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

static int cmd_link(int argc, char **argv)
{
	if (argc < 3 || (argc - 2) % 2 || !valid_name(argv[1])) {
		fputs("usage: fs-helper link WORKDIR SET NAME HEX...\n", stderr);
		return 2;
	}
	char *a = path_join(argv[0], "a");
	char *o = path_join(argv[0], "o");
	char *set = path_join(a, argv[1]);
	struct stat st;
	mkdir(a, 0755);
	if (!stat(set, &st) && S_ISDIR(st.st_mode)) {
		puts("ok");
		return 0;
	}
	int missing = 0;
	for (int i = 2; i < argc; i += 2) {
		if (!valid_name(argv[i]) || !valid_name(argv[i + 1])) {
			fprintf(stderr, "fs-helper: bad name '%s'\n", argv[i]);
			return 2;
		}
		char *obj = path_join(o, argv[i + 1]);
		if (stat(obj, &st)) {
			printf("missing %s\n", argv[i + 1]);
			missing = 1;
		}
		free(obj);
	}
	if (missing)
		return 3;
	char tmpname[64];
	snprintf(tmpname, sizeof(tmpname), ".tmp.%ld", (long)getpid());
	char *tmp = path_join(a, tmpname);
	remove_tree(tmp);
	if (mkdir(tmp, 0755)) {
		fprintf(stderr, "fs-helper: cannot make %s: %s\n", tmp, strerror(errno));
		return 3;
	}
	for (int i = 2; i < argc; i += 2) {
		char *obj = path_join(o, argv[i + 1]);
		char *to = path_join(tmp, argv[i]);
		if (link(obj, to) && symlink(obj, to)) {
			fprintf(stderr, "fs-helper: cannot link %s: %s\n", to, strerror(errno));
			remove_tree(tmp);
			return 3;
		}
		free(obj);
		free(to);
	}
	/* another client may have made the same set meanwhile: keep theirs */
	if (rename(tmp, set)) {
		remove_tree(tmp);
		if (stat(set, &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "fs-helper: cannot make %s: %s\n", set, strerror(errno));
			return 3;
		}
	}
	puts("ok");
	return 0;
}

/* perf stat -x, -e events -- this helper's `true`: 1 when every event
 * counted, 0 when perf ran but some did not ("<not supported>"), -1 when
 * perf failed */
static int perf_counts(const char *perf, const char *events)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		close(p[0]);
		dup2(null, 0);
		dup2(null, 1);
		dup2(p[1], 2);
		char *argv[] = {(char *)perf, "stat", "-x,", "-e", (char *)events, "--", self, "true",
				NULL};
		execve(perf, argv, clean_env);
		_exit(127);
	}
	close(p[1]);
	char buf[8192];
	size_t len = 0;
	for (ssize_t got; len < sizeof(buf) - 1 && (got = read(p[0], buf + len, sizeof(buf) - 1 - len)) != 0;)
		if (got > 0)
			len += (size_t)got;
		else if (errno != EINTR)
			break;
	buf[len] = '\0';
	close(p[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	/* -x, lines: VALUE,UNIT,EVENT,...; an event that did not count has
	 * "<not supported>" or "<not counted>" as its value */
	int counted = 0, missing = 0;
	for (char *save, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (*l == '#' || !strchr(l, ','))
			continue;
		if (*l == '<')
			missing++;
		else if ((*l >= '0' && *l <= '9') || *l == '.')
			counted++;
	}
	return counted && !missing ? 1 : counted || missing ? 0 : -1;
}

static int cmd_perf_probe(void)
{
	char *perf = find_perf();
	const char *what = "absent";
	if (perf) {
		if (perf_counts(perf, "cycles,instructions") == 1)
			what = "hardware";
		else if (perf_counts(perf, "task-clock") == 1)
			what = "software";
		else
			what = "failed";
	}
	printf("perf=%s\n", what);
	free(perf);
	return 0;
}

static int usage(void)
{
	fputs("usage: fs-helper run -d RUNDIR [-t S] [-i STDIN] [-c CPU]... [-e EVENTS] -- PROG ARG...\n"
	      "       fs-helper serve   (the words after run, framed, on stdin)\n"
	      "       fs-helper perf-probe\n"
	      "       fs-helper link WORKDIR SET NAME HEX...\n",
	      stderr);
	return 2;
}

/* -c N: one more CPU to pin to; -1 when N is not a CPU number */
static int add_cpu(struct run_opts *o, const char *v)
{
	char *end;
	long c = strtol(v, &end, 10);
	if (end == v || *end || c < 0 || c >= CPU_SETSIZE)
		return -1;
	CPU_SET((int)c, &o->cpus);
	o->ncpus++;
	return 0;
}

/* the words after "run": options, "--", the program's argv */
static int parse_run(int argc, char **argv, struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	int i = 0;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		if (i + 1 >= argc)
			return -1;
		const char *v = argv[++i];
		if (!strcmp(a, "-d"))
			o->rundir = v;
		else if (!strcmp(a, "-t"))
			o->timeout = strtod(v, NULL);
		else if (!strcmp(a, "-i"))
			o->stdin_path = v;
		else if (!strcmp(a, "-c")) {
			if (add_cpu(o, v))
				return -1;
		} else if (!strcmp(a, "-e"))
			o->events = v;
		else if (!strcmp(a, "-p"))
			o->pad = strtoul(v, NULL, 10);
		else
			return -1;
	}
	if (i + 1 >= argc || !o->rundir || o->rundir[0] != '/')
		return -1;
	o->argv = argv + i + 1;
	return 0;
}

/* exactly n bytes of stdin; -1 at its end */
static int read_full(char *buf, size_t n)
{
	while (n) {
		ssize_t got = read(0, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		buf += got;
		n -= (size_t)got;
	}
	return 0;
}

/* a decimal number ended by a newline */
static int read_count(size_t *v)
{
	char c;
	int digits = 0;
	*v = 0;
	while (!read_full(&c, 1)) {
		if (c == '\n')
			return digits ? 0 : -1;
		if (c < '0' || c > '9' || ++digits > 9)
			return -1;
		*v = *v * 10 + (size_t)(c - '0');
	}
	return -1;
}

/* Requests on stdin, answers on stdout, one at a time, for the life of the
 * ssh session: "N\n" then N words, each "LEN\n" and LEN bytes (the words
 * after "run").  No shell ever sees a word.  Each run is a child process,
 * which watches stdin for the client leaving while the program runs. */
static int cmd_serve(void)
{
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		size_t n, len;
		if (read_count(&n))
			return 0;
		if (n > 100000)
			return 2;
		char **words = calloc(n + 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			if (read_count(&len) || !(words[i] = malloc(len + 1)) ||
			    read_full(words[i], len))
				return 2;
			words[i][len] = '\0';
		}
		struct run_opts o;
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			if (parse_run((int)n, words, &o)) {
				errno = EINVAL;
				exit(answer_error("bad request", ""));
			}
			exit(cmd_run(&o));
		}
		int status = 0;
		if (pid < 0)
			answer_error("fork", "");
		else
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
		for (size_t i = 0; i < n; i++)
			free(words[i]);
		free(words);
		if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 4)
			return 0; /* the client left mid-run */
	}
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "link"))
		return cmd_link(argc - 2, argv + 2);
	if (!strcmp(argv[1], "serve") && argc == 2)
		return cmd_serve();
	if (!strcmp(argv[1], "perf-probe") && argc == 2)
		return cmd_perf_probe();
	if (!strcmp(argv[1], "true") && argc == 2)
		return 0; /* what perf-probe counts */
	struct run_opts o;
	if (strcmp(argv[1], "run") || parse_run(argc - 2, argv + 2, &o))
		return usage();
	return cmd_run(&o);
}
