/* children.c - see children.h */
#include "search/children.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

void children_run(size_t n, int jobs, child_fn fn, void *user, char **out)
{
	size_t width = jobs < 1 ? 1 : jobs > 64 ? 64 : (size_t)jobs;
	for (size_t first = 0; first < n; first += width) {
		size_t m = n - first < width ? n - first : width;
		pid_t pids[64];
		int fds[64];
		for (size_t k = 0; k < m; k++) {
			int p[2];
			pids[k] = -1;
			fds[k] = -1;
			if (pipe(p))
				continue;
			pids[k] = fork();
			if (pids[k] == 0) {
				close(p[0]);
				struct strbuf sb = {0};
				fn(first + k, user, &sb);
				/* a short answer; a failed write just means "nothing" */
				_exit(sb.len && write(p[1], sb.buf, sb.len) < 0);
			}
			close(p[1]);
			if (pids[k] < 0)
				close(p[0]);
			else
				fds[k] = p[0];
		}
		for (size_t k = 0; k < m; k++) {
			struct strbuf sb = {0};
			char buf[512];
			ssize_t got;
			while (fds[k] >= 0 && ((got = read(fds[k], buf, sizeof(buf))) > 0 ||
					       (got < 0 && errno == EINTR)))
				if (got > 0)
					sb_addn(&sb, buf, (size_t)got);
			if (fds[k] >= 0)
				close(fds[k]);
			while (pids[k] > 0 && waitpid(pids[k], NULL, 0) < 0 && errno == EINTR)
				;
			out[first + k] = sb.len ? sb_detach(&sb) : xstrdup("");
			sb_release(&sb);
		}
	}
}
