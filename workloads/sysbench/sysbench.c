/*
 * sysbench - flagscope's UnixBench-style system tests: exec, fork, pipes,
 * context switches, system calls, file copy, shell scripts.  Each test does
 * a fixed number of iterations (never a fixed duration), so every
 * configuration does the same work and the time is what differs.
 *
 * Usage: sysbench NAME [PERCENT]     run one test
 *        sysbench list               print the test names
 *
 * PERCENT scales the iteration count (default 100; the tests use less).
 * stdout: "NAME iters N check V", deterministic for a given NAME and PERCENT
 * (counts, bytes copied, a hash of the shell scripts' output).
 * stderr: "time: SECONDS", CLOCK_MONOTONIC around the measured part.
 * Files are made in the current directory (the run's own directory).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef unsigned long long check_t;
#define FAILED ((check_t)-1)

static struct timespec t_start;
static double t_total;

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void timer_on(void)
{
	clock_gettime(CLOCK_MONOTONIC, &t_start);
}

static void timer_off(void)
{
	t_total += since(&t_start);
}

static check_t fail(const char *what)
{
	fprintf(stderr, "sysbench: %s: %s\n", what, strerror(errno));
	return FAILED;
}

/* FNV-1a, for hashing file contents into a check value */
static check_t fnv(check_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static check_t hash_file(const char *path)
{
	unsigned char buf[4096];
	check_t h = 14695981039346656037ull;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail(path);
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		h = fnv(h, buf, (size_t)n);
	close(fd);
	return n < 0 ? fail(path) : h;
}

/* Moves all n bytes (a pipe may take or give fewer at a time). */
static int io_all(int fd, void *p, size_t n, int writing)
{
	char *c = p;
	while (n > 0) {
		ssize_t k = writing ? write(fd, c, n) : read(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
	return io_all(fd, (void *)p, n, 1);
}

static int read_all(int fd, void *p, size_t n)
{
	return io_all(fd, p, n, 0);
}

/* ---- execl: the program replaces itself iters times ---- */

static char self_path[4096];

static void find_self(const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
	if (n > 0)
		self_path[n] = 0;
	else
		snprintf(self_path, sizeof self_path, "%s", argv0);
}

/* argv: sysbench execl-chain LEFT ITERS T0SEC T0NSEC */
static int execl_chain(char **argv)
{
	long left = atol(argv[2]), iters = atol(argv[3]);
	if (left > 0) {
		char next[32];
		snprintf(next, sizeof next, "%ld", left - 1);
		execl(self_path, "sysbench", "execl-chain", next, argv[3], argv[4], argv[5],
		      (char *)NULL);
		fail(self_path);
		return 1;
	}
	struct timespec t0 = { .tv_sec = (time_t)atoll(argv[4]), .tv_nsec = atol(argv[5]) };
	printf("execl iters %ld check %ld\n", iters, iters);
	fprintf(stderr, "time: %.6f\n", since(&t0));
	return 0;
}

static check_t t_execl(long iters)
{
	char left[32], n[32], sec[32], nsec[32];
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	snprintf(left, sizeof left, "%ld", iters);
	snprintf(n, sizeof n, "%ld", iters);
	snprintf(sec, sizeof sec, "%lld", (long long)t0.tv_sec);
	snprintf(nsec, sizeof nsec, "%ld", (long)t0.tv_nsec);
	fflush(NULL);
	execl(self_path, "sysbench", "execl-chain", left, n, sec, nsec, (char *)NULL);
	return fail(self_path);
}

/* ---- spawn: fork, the child exits at once, the parent waits ---- */

static check_t t_spawn(long iters)
{
	check_t ok = 0;
	timer_on();
	for (long i = 0; i < iters; i++) {
		pid_t p = fork();
		if (p < 0)
			return fail("fork");
		if (p == 0)
			_exit((int)(i & 63));
		int st;
		if (waitpid(p, &st, 0) != p)
			return fail("waitpid");
		if (WIFEXITED(st) && WEXITSTATUS(st) == (int)(i & 63))
			ok++;
	}
	timer_off();
	return ok;
}

/* ---- pipe: 512 bytes written to a pipe and read back, one process ---- */

static check_t t_pipe(long iters)
{
	int fd[2];
	unsigned char buf[512];
	check_t sum = 0;
	if (pipe(fd) < 0)
		return fail("pipe");
	memset(buf, 0, sizeof buf);
	timer_on();
	for (long i = 0; i < iters; i++) {
		buf[i % 512] = (unsigned char)i;
		if (write_all(fd[1], buf, sizeof buf) < 0 || read_all(fd[0], buf, sizeof buf) < 0)
			return fail("pipe i/o");
		sum += buf[(i * 7) % 512];
	}
	timer_off();
	close(fd[0]);
	close(fd[1]);
	return sum + (check_t)iters * sizeof buf;
}

/* ---- context1: a counter passed back and forth between two processes ---- */

static check_t t_context1(long iters)
{
	int down[2], up[2];
	if (pipe(down) < 0 || pipe(up) < 0)
		return fail("pipe");
	timer_on();
	pid_t p = fork();
	if (p < 0)
		return fail("fork");
	if (p == 0) {
		unsigned long v;
		close(down[1]);
		close(up[0]);
		while (read_all(down[0], &v, sizeof v) == 0) {
			v++;
			if (write_all(up[1], &v, sizeof v) < 0)
				_exit(1);
		}
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	unsigned long v = 0;
	check_t ok = 0;
	for (long i = 0; i < iters; i++) {
		unsigned long sent = v;
		if (write_all(down[1], &v, sizeof v) < 0 || read_all(up[0], &v, sizeof v) < 0)
			return fail("pipe i/o");
		ok += v == sent + 1;
	}
	close(down[1]);
	int st;
	waitpid(p, &st, 0);
	timer_off();
	close(up[0]);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? ok + v : FAILED;
}

/* ---- syscall: getppid and close(dup(fd)), the cheapest real calls ---- */

static check_t t_syscall(long iters)
{
	int fd = open("/dev/null", O_RDONLY);
	if (fd < 0)
		return fail("/dev/null");
	pid_t parent = getppid();
	check_t ok = 0;
	timer_on();
	for (long i = 0; i < iters; i++) {
		ok += getppid() == parent;
		int d = dup(fd);
		ok += d >= 0 && close(d) == 0;
	}
	timer_off();
	close(fd);
	return ok;
}

/* ---- fcopy: a 4 MiB file copied with read/write through a small buffer ---- */

#define FCOPY_SRC "sysbench-fcopy.src"
#define FCOPY_DST "sysbench-fcopy.dst"
#define FCOPY_SIZE (4L << 20)

static int make_source(void)
{
	static unsigned char block[65536];
	unsigned x = 2463534242u;
	int fd = open(FCOPY_SRC, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	for (long done = 0; done < FCOPY_SIZE; done += (long)sizeof block) {
		for (size_t i = 0; i < sizeof block; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			block[i] = (unsigned char)(x >> 11);
		}
		if (write_all(fd, block, sizeof block) < 0) {
			close(fd);
			return -1;
		}
	}
	return close(fd);
}

/* iters counts buffers: the copy is repeated until iters buffers moved */
static check_t fcopy(long iters, size_t bufsize)
{
	unsigned char buf[4096];
	check_t copied = 0;
	if (make_source() < 0)
		return fail(FCOPY_SRC);
	long left = iters;
	timer_on();
	while (left > 0) {
		int in = open(FCOPY_SRC, O_RDONLY);
		int out = open(FCOPY_DST, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || out < 0)
			return fail("open for copy");
		ssize_t n;
		while (left > 0 && (n = read(in, buf, bufsize)) > 0) {
			if (write_all(out, buf, (size_t)n) < 0)
				return fail(FCOPY_DST);
			copied += (check_t)n;
			left--;
		}
		close(in);
		if (close(out) < 0)
			return fail(FCOPY_DST);
	}
	timer_off();
	check_t h = hash_file(FCOPY_DST);
	unlink(FCOPY_SRC);
	unlink(FCOPY_DST);
	return h == FAILED ? FAILED : copied ^ h;
}

static check_t t_fcopy_256(long iters)
{
	return fcopy(iters, 256);
}

static check_t t_fcopy_1024(long iters)
{
	return fcopy(iters, 1024);
}

static check_t t_fcopy_4096(long iters)
{
	return fcopy(iters, 4096);
}

/* ---- shell: /bin/sh runs a small text-processing script ---- */

#define SHELL_WORDS "sysbench-words.txt"
#define SHELL_SCRIPT "sysbench-script.sh"

static const char script[] =
	"LC_ALL=C; export LC_ALL\n"
	"sort \"$1\" > \"$2.sorted\"\n"
	"grep -c ab \"$2.sorted\" > \"$2\"\n"
	"sort -u \"$1\" | wc -l >> \"$2\"\n"
	"grep -v e \"$1\" | tr a-z A-Z | tail -n 2 >> \"$2\"\n";

static int make_words(void)
{
	static const char syl[][4] = { "ab", "ra", "ce", "do", "mi", "nu", "ko", "te",
				       "li", "sa", "ve", "zo", "pu", "gi", "fa", "he" };
	FILE *f = fopen(SHELL_WORDS, "w");
	if (!f)
		return -1;
	unsigned x = 88172645u;
	for (int line = 0; line < 3000; line++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		int n = 1 + (int)(x % 4);
		for (int k = 0; k < n; k++)
			fputs(syl[(x >> (4 * k + 4)) & 15], f);
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		return -1;
	f = fopen(SHELL_SCRIPT, "w");
	if (!f)
		return -1;
	fputs(script, f);
	return fclose(f);
}

/* Runs rounds of `width` concurrent scripts; every output must be equal. */
static check_t shell(long rounds, int width)
{
	char out[64], first[64];
	if (make_words() < 0)
		return fail(SHELL_WORDS);
	snprintf(first, sizeof first, "sysbench-out.0");
	timer_on();
	for (long r = 0; r < rounds; r++) {
		pid_t pid[8];
		for (int k = 0; k < width; k++) {
			snprintf(out, sizeof out, "sysbench-out.%d", k);
			pid[k] = fork();
			if (pid[k] < 0)
				return fail("fork");
			if (pid[k] == 0) {
				execl("/bin/sh", "sh", SHELL_SCRIPT, SHELL_WORDS, out, (char *)NULL);
				_exit(127);
			}
		}
		for (int k = 0; k < width; k++) {
			int st;
			if (waitpid(pid[k], &st, 0) != pid[k] || !WIFEXITED(st) ||
			    WEXITSTATUS(st) != 0) {
				fprintf(stderr, "sysbench: script %d of round %ld failed\n", k, r);
				return FAILED;
			}
		}
	}
	timer_off();
	check_t h = hash_file(first);
	for (int k = 0; k < width; k++) {
		snprintf(out, sizeof out, "sysbench-out.%d", k);
		if (hash_file(out) != h) {
			fprintf(stderr, "sysbench: %s differs from %s\n", out, first);
			return FAILED;
		}
		unlink(out);
		snprintf(out, sizeof out, "sysbench-out.%d.sorted", k);
		unlink(out);
	}
	unlink(SHELL_WORDS);
	unlink(SHELL_SCRIPT);
	return h;
}

static check_t t_shell1(long iters)
{
	return shell(iters, 1);
}

static check_t t_shell8(long iters)
{
	return shell(iters, 8);
}

static const struct test {
	const char *name;
	long iters; /* at 100 percent: 0.1 to 0.5 s at -O2 with glibc here */
	check_t (*run)(long iters);
} tests[] = {
	{ "execl", 250, t_execl },
	{ "spawn", 500, t_spawn },
	{ "pipe", 80000, t_pipe },
	{ "context1", 20000, t_context1 },
	{ "syscall", 150000, t_syscall },
	{ "fcopy_256", 40000, t_fcopy_256 },
	{ "fcopy_1024", 25000, t_fcopy_1024 },
	{ "fcopy_4096", 12000, t_fcopy_4096 },
	{ "shell1", 10, t_shell1 },
	{ "shell8", 2, t_shell8 },
};

int main(int argc, char **argv)
{
	find_self(argv[0]);
	if (argc == 6 && strcmp(argv[1], "execl-chain") == 0)
		return execl_chain(argv);
	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	long percent = argc == 3 ? atol(argv[2]) : 100;
	if (argc < 2 || argc > 3 || percent <= 0) {
		fprintf(stderr, "usage: sysbench NAME [PERCENT] | sysbench list\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		if (strcmp(argv[1], tests[i].name) != 0)
			continue;
		long iters = tests[i].iters * percent / 100;
		if (iters < 1)
			iters = 1;
		check_t check = tests[i].run(iters);
		if (check == FAILED)
			return 1;
		printf("%s iters %ld check %llu\n", tests[i].name, iters, check);
		fprintf(stderr, "time: %.6f\n", t_total);
		return 0;
	}
	fprintf(stderr, "sysbench: no test '%s' (see: sysbench list)\n", argv[1]);
	return 2;
}
