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

/* Kill pid if it still carries tag: through a pidfd when there is one, so
 * a pid reused between the look and the kill is never hit. */
static int kill_tagged(long pid, const char *tag)
{
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	int hit = environ_has(pid, tag);
	if (hit && pidfd >= 0)
		hit = !syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	else if (hit)
		hit = !kill((pid_t)pid, SIGKILL);
	if (pidfd >= 0)
		close(pidfd);
	return hit;
}

int strays_kill(const char *tag)
{
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
			if (environ_has(pid, tag))
				found += kill_tagged(pid, tag);
		}
		closedir(d);
		killed += found;
		if (!found)
			break;
	}
	return killed;
}
