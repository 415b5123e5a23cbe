/* strays.c - kill what a run left behind, found by its environment tag */
#include "harness/strays.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* 1 when pid's environment holds the entry tag (entries end in NUL). */
static int environ_has(long pid, const char *tag)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* gone, or another user's */
	size_t cap = 16384, len = 0, tlen = strlen(tag) + 1;
	char *buf = malloc(cap);
	ssize_t got;
	while (buf && (got = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)got;
		if (len == cap && cap < (1u << 22)) {
			char *more = realloc(buf, cap *= 2);
			if (!more)
				break;
			buf = more;
		} else if (len == cap) {
			break;
		}
	}
	close(fd);
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

int strays_kill(const char *tag, const char *const *held)
{
	struct mark m = {.tag = tag};
	for (size_t i = 0; held && held[i] && m.nfiles < sizeof(m.files) / sizeof(m.files[0]); i++)
		m.nfiles += !stat(held[i], &m.files[m.nfiles]) && S_ISREG(m.files[m.nfiles].st_mode);
	int killed = 0;
	/* again while some are found: one may have forked during the look */
	for (int pass = 0; pass < 4; pass++) {
		DIR *d = opendir("/proc");
		if (!d)
			break;
		int found = 0;
		struct dirent *e;
		while ((e = readdir(d))) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			if (*end || pid <= 1 || pid == (long)getpid())
				continue;
			if (marked(pid, &m))
				found += kill_marked(pid, &m);
		}
		closedir(d);
		killed += found;
		if (!found)
			break;
	}
	return killed;
}
