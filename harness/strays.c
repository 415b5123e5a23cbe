/* strays.c - kill what a run left behind, found by its environment tag */
#include "harness/strays.h"

#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TAG_NAME "FLAGSCOPE_RUN="

void strays_tag(char *tag)
{
	static atomic_uint next;
	/* pid: unique among live processes; the counter: among this one's runs */
	snprintf(tag, STRAYS_TAG_SIZE, TAG_NAME "%08x%08x", (unsigned)getpid(),
		 atomic_fetch_add(&next, 1) + 1);
}

/* pid's environment (entries end in NUL), *len its size; NULL when it
 * cannot be read (gone, or another user's) */
static char *read_environ(long pid, size_t *len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 16384;
	char *buf = malloc(cap);
	ssize_t got;
	*len = 0;
	while (buf && (got = read(fd, buf + *len, cap - *len)) > 0) {
		*len += (size_t)got;
		if (*len == cap && cap < (1u << 22)) {
			char *more = realloc(buf, cap *= 2);
			if (!more)
				break;
			buf = more;
		} else if (*len == cap) {
			break;
		}
	}
	close(fd);
	return buf;
}

/* 1 when pid's environment holds the entry tag */
static int environ_has(long pid, const char *tag)
{
	size_t len = 0, tlen = strlen(tag) + 1;
	char *buf = read_environ(pid, &len);
	int found = 0;
	for (size_t at = 0; buf && !found && at + tlen <= len;) {
		found = !memcmp(buf + at, tag, tlen);
		const char *nul = memchr(buf + at, '\0', len - at);
		at = nul ? (size_t)(nul - buf) + 1 : len;
	}
	free(buf);
	return found;
}

/* What marks a process as the run's: its tag, or one of the run's output
 * files open (the file, by device and inode, not its name) */
struct mark {
	const char *tag;
	struct stat files[4];
	size_t nfiles;
};

/* 1 when pid has one of m's files open */
static int holds_file(long pid, const struct mark *m)
{
	if (!m->nfiles)
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/fd", pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int found = 0;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		char fd[320];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(fd, sizeof(fd), "%s/%s", path, e->d_name);
		if (stat(fd, &st))
			continue;
		for (size_t i = 0; i < m->nfiles && !found; i++)
			found = st.st_dev == m->files[i].st_dev && st.st_ino == m->files[i].st_ino;
	}
	closedir(d);
	return found;
}

static int marked(long pid, const struct mark *m)
{
	return environ_has(pid, m->tag) || holds_file(pid, m);
}

/* Kill pid if it is still marked: through a pidfd when there is one, so
 * a pid reused between the look and the kill is never hit. */
static int kill_marked(long pid, const struct mark *m)
{
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	int hit = marked(pid, m);
	if (hit && pidfd >= 0)
		hit = !syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	else if (hit)
		hit = !kill((pid_t)pid, SIGKILL);
	if (pidfd >= 0)
		close(pidfd);
	return hit;
}

/* fn(pid, ctx) for every process but this one and init; the sum of what
 * fn returned (-1 when /proc cannot be read) */
static int each_process(int (*fn)(long pid, void *ctx), void *ctx)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	int sum = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (!*end && pid > 1 && pid != (long)getpid())
			sum += fn(pid, ctx);
	}
	closedir(d);
	return sum;
}

static int kill_if_marked(long pid, void *ctx)
{
	return marked(pid, ctx) ? kill_marked(pid, ctx) : 0;
}

int strays_kill(const char *tag, const char *const *held)
{
	struct mark m = {.tag = tag};
	for (size_t i = 0; held && held[i] && m.nfiles < sizeof(m.files) / sizeof(m.files[0]); i++)
		m.nfiles += !stat(held[i], &m.files[m.nfiles]) && S_ISREG(m.files[m.nfiles].st_mode);
	int killed = 0;
	/* again while some are found: one may have forked during the look */
	for (int pass = 0; pass < 4; pass++) {
		int found = each_process(kill_if_marked, &m);
		killed += found;
		if (found <= 0)
			break;
	}
	return killed;
}

int strays_child_setup(pid_t parent, int die_with)
{
	child_close_fds();
	if (!die_with)
		return 0;
	/* after the prctl: a parent killed before it is seen here */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		return -1;
	return 0;
}

/* Field 22 of /proc/PID/stat: when the process started (clock ticks
 * after boot); 0 when it is gone. */
static unsigned long long start_time(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* the command name may hold blanks and parentheses: count after the last ')' */
	char *p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* The pid in pid's run tag, or 0 when it carries none */
static long tag_owner(long pid)
{
	size_t len;
	char *env = read_environ(pid, &len);
	long owner = 0;
	size_t tlen = strlen(TAG_NAME);
	for (size_t at = 0; env && !owner && at + STRAYS_TAG_SIZE <= len;) {
		const char *e = env + at;
		const char *nul = memchr(e, '\0', len - at);
		size_t n = nul ? (size_t)(nul - e) : len - at;
		if (n == STRAYS_TAG_SIZE - 1 && !memcmp(e, TAG_NAME, tlen)) {
			char hex[9];
			memcpy(hex, e + tlen, 8);
			hex[8] = '\0';
			owner = strtol(hex, NULL, 16);
		}
		at += n + 1;
	}
	free(env);
	return owner;
}

/* 1 when pid is a leftover of a gone flagscope's run and was killed */
static int kill_if_orphan(long pid, void *ctx)
{
	(void)ctx;
	long owner = tag_owner(pid);
	if (owner <= 0 || owner == (long)getpid())
		return 0;
	unsigned long long born = start_time(pid), owner_born = start_time(owner);
	if (!born || (owner_born && owner_born <= born))
		return 0; /* a live flagscope's run, or gone meanwhile */
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0), hit = 0;
	/* still the process looked at: the same start time */
	if (pidfd >= 0 && start_time(pid) == born)
		hit = !syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	if (pidfd >= 0)
		close(pidfd);
	return hit;
}

int strays_kill_orphans(void)
{
	int n = each_process(kill_if_orphan, NULL);
	return n > 0 ? n : 0;
}
