/* runner_ssh_session.c - the helper's served session on a board: runs
 * requested as framed words (no shell ever parses them), answers read
 * back into the run's files (see runner_ssh_internal.h and
 * harness/remote-helper/helper.c) */
#include "harness/runner_ssh_internal.h"
#include "base/cpulist.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* how long past the program's own timeout a board may stay silent */
#define RUN_GRACE_SECONDS 60

/* A buffered reader of the session's stdout with a deadline.  An answer
 * ends at its "end" line and the helper says nothing until asked again,
 * so the buffer never holds the start of another answer. */
struct session_reader {
	int fd;
	char buf[65536];
	size_t pos, len;
	double deadline;
	double idle; /* > 0: each read moves the deadline this far ahead */
	const char *why; /* why a read failed */
	/* run_spec.stop: a wait looks at it every STOP_LOOK_MS; stopped says
	 * the read failed because it was set */
	const volatile sig_atomic_t *stop;
	int stopped;
};

#define STOP_LOOK_MS 100

static int rd_fill(struct session_reader *r)
{
	if (r->pos < r->len)
		return 0;
	r->pos = r->len = 0;
	for (;;) {
		if (r->stop && *r->stop) {
			r->why = "stopped";
			r->stopped = 1;
			return -1;
		}
		int ms = (int)((r->deadline - now_seconds()) * 1000);
		struct pollfd p = {.fd = r->fd, .events = POLLIN};
		int look = r->stop && ms > STOP_LOOK_MS ? STOP_LOOK_MS : ms;
		int rc = ms > 0 ? poll(&p, 1, look) : 0;
		if ((rc < 0 && errno == EINTR) || (rc == 0 && look < ms))
			continue;
		if (rc <= 0) {
			r->why = "no answer from the board (timed out)";
			return -1;
		}
		ssize_t got = read(r->fd, r->buf, sizeof(r->buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			r->why = "the connection ended in the middle of the run";
			return -1;
		}
		r->len = (size_t)got;
		if (r->idle > 0)
			r->deadline = now_seconds() + r->idle;
		return 0;
	}
}

static int rd_line(struct session_reader *r, struct strbuf *line)
{
	line->len = 0;
	if (line->buf)
		line->buf[0] = '\0';
	for (;;) {
		if (rd_fill(r))
			return -1;
		char *nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
		size_t n = nl ? (size_t)(nl - (r->buf + r->pos)) : r->len - r->pos;
		sb_addn(line, r->buf + r->pos, n);
		r->pos += n + (nl ? 1 : 0);
		if (nl)
			return 0;
		if (line->len > 65536) {
			r->why = "the helper's answer is garbled";
			return -1;
		}
	}
}

/* n bytes to fd (or nowhere when fd < 0), or into sb when not NULL */
static int rd_copy(struct session_reader *r, long long n, int fd, struct strbuf *sb)
{
	while (n > 0) {
		if (rd_fill(r))
			return -1;
		size_t k = r->len - r->pos < (unsigned long long)n ? r->len - r->pos : (size_t)n;
		if (sb)
			sb_addn(sb, r->buf + r->pos, k);
		for (size_t done = 0; fd >= 0 && done < k;) {
			ssize_t w = write(fd, r->buf + r->pos + done, k - done);
			if (w <= 0) {
				r->why = "cannot write the run's output here";
				return -1;
			}
			done += (size_t)w;
		}
		r->pos += k;
		n -= (long long)k;
	}
	return 0;
}

/* A relative path with no empty, "." or ".." part: a board never writes
 * outside the run folder. */
static int safe_relative(const char *rel)
{
	if (!*rel || *rel == '/')
		return 0;
	char *copy = xstrdup(rel);
	int ok = 1;
	for (char *save, *p = strtok_r(copy, "/", &save); p && ok; p = strtok_r(NULL, "/", &save))
		ok = strcmp(p, ".") && strcmp(p, "..");
	ok = ok && !strstr(rel, "//") && rel[strlen(rel) - 1] != '/';
	free(copy);
	return ok;
}

static int open_out(const char *path)
{
	return path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
}

static int write_frame(struct session_reader *r, const struct run_spec *spec, const struct remote_argv *ra,
		       const char *name, long long size)
{
	int fd = -1;
	if (!strcmp(name, "stdout"))
		fd = open_out(spec->stdout_path);
	else if (!strcmp(name, "stderr"))
		fd = open_out(spec->stderr_path);
	else if (!strcmp(name, "perf"))
		fd = open_out(ra->perf_out);
	else if (str_starts_with(name, "cwd/") && spec->cwd && safe_relative(name + 4)) {
		char *path = xasprintf("%s/%s", spec->cwd, name + 4);
		char *dir = ssh_dir_of(path);
		mkdir_p(dir, 0755);
		fd = open_out(path);
		free(dir);
		free(path);
	}
	int rc = rd_copy(r, size, fd, NULL);
	if (fd >= 0)
		close(fd);
	return rc;
}

static double kv_num(const struct strlist *kv, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i < kv->n; i++)
		if (!strncmp(kv->v[i], key, k) && kv->v[i][k] == '=')
			return strtod(kv->v[i] + k + 1, NULL);
	return 0;
}

static const char *kv_str(const struct strlist *kv, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i < kv->n; i++)
		if (!strncmp(kv->v[i], key, k) && kv->v[i][k] == '=')
			return kv->v[i] + k + 1;
	return NULL;
}

/* 0; 1 when the answer is cut short or garbled (r->why says how);
 * BOARD_ERROR when the program could not start on the board. */
static int read_answer(struct session_reader *r, const struct run_spec *spec, const struct remote_argv *ra,
		       struct run_result *res, struct strbuf *err)
{
	struct strbuf line = {0}, name = {0};
	struct strlist kv = {0};
	int rc = 1;
	/* the files exist even when the answer is cut short */
	int fds[] = {open_out(spec->stdout_path), open_out(spec->stderr_path)};
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (rd_line(r, &line) || strcmp(line.buf, "flagscope-helper 1"))
		goto out;
	/* the program is done: large outputs may take long on a slow line,
	 * but never long without a byte */
	r->idle = RUN_GRACE_SECONDS;
	while (!rd_line(r, &line) && strcmp(line.buf, "--"))
		sl_push(&kv, line.buf);
	if (strcmp(sb_str(&line), "--"))
		goto out;
	for (;;) {
		long long size;
		size_t nlen;
		if (rd_line(r, &line))
			goto out;
		if (!strcmp(line.buf, "end"))
			break;
		if (sscanf(line.buf, "file %lld %zu", &size, &nlen) != 2 || size < 0 ||
		    nlen > 4096) {
			r->why = "the helper's answer is garbled";
			goto out;
		}
		name.len = 0;
		if (rd_copy(r, (long long)nlen, -1, &name) ||
		    write_frame(r, spec, ra, sb_str(&name), size))
			goto out;
	}
	if (kv_str(&kv, "error")) {
		sb_addf(err, "the helper failed: %s", kv_str(&kv, "error"));
		r->why = "";
		goto out;
	}
	rc = 0;
	if (kv_num(&kv, "exec_errno")) {
		const char *why = kv_str(&kv, "exec_error");
		sb_addf(err, "cannot start %s: %s", spec->argv[0], why ? why : "exec failed");
		rc = BOARD_ERROR;
	}
	res->exited = (int)kv_num(&kv, "exited");
	res->status = (int)kv_num(&kv, "status");
	res->signal = (int)kv_num(&kv, "signal");
	res->timed_out = (int)kv_num(&kv, "timed_out");
	res->wall = kv_num(&kv, "wall");
	res->user = kv_num(&kv, "user");
	res->sys = kv_num(&kv, "sys");
	res->maxrss_kb = (long)kv_num(&kv, "maxrss_kb");
	if (kv_str(&kv, "aslr")) /* the board's run-time layout (harness/layout.h) */
		res->layout = (struct run_layout){
			.known = 1, .aslr = (int)kv_num(&kv, "aslr"),
			.pad = (size_t)kv_num(&kv, "pad"), .env_bytes = (size_t)kv_num(&kv, "env"),
		};
out:
	sb_release(&line);
	sb_release(&name);
	sl_release(&kv);
	return rc;
}

static void session_forget(struct board_session *s)
{
	free(s->rd);
	s->rd = NULL;
	s->pid = 0;
	s->in = s->out = s->err = -1;
}

void board_session_close(struct board_session *s)
{
	if (s->pid <= 0)
		return;
	struct ssh_proc p = {s->pid, s->in, s->out, s->err};
	/* the end of its stdin ends the helper, and then ssh */
	ssh_finish(&p, now_seconds() + 5, NULL);
	session_forget(s);
}

/* The last words of a broken session's ssh (why it broke). */
static void session_break(struct board_session *s, struct strbuf *why)
{
	struct ssh_proc p = {s->pid, s->in, s->out, s->err};
	close(p.in);
	p.in = -1;
	ssh_finish(&p, now_seconds() + 2, why);
	session_forget(s);
}

static int session_open(struct board *b, struct board_session *s, const char *helper,
			struct strbuf *err)
{
	if (s->pid > 0 && waitpid(s->pid, NULL, WNOHANG) == 0)
		return 0;
	if (s->pid > 0)
		session_break(s, NULL);
	struct strbuf cmd = {0};
	sh_quote(&cmd, helper);
	sb_add(&cmd, " serve");
	struct strlist argv = {0};
	struct ssh_proc p;
	board_ssh_argv(b, 0, sb_str(&cmd), &argv);
	int rc = ssh_spawn(&argv, -1, &p, err);
	sl_release(&argv);
	sb_release(&cmd);
	if (rc)
		return BOARD_FAULT;
	s->pid = p.pid;
	s->in = p.in;
	s->out = p.out;
	s->err = p.err;
	s->rd = xcalloc(1, sizeof(*s->rd));
	s->rd->fd = p.out;
	return 0;
}

/* "N\n" then each word as "LEN\n" BYTES */
static int session_send(struct board_session *s, const struct strlist *words, double deadline)
{
	struct strbuf req = {0};
	sb_addf(&req, "%zu\n", words->n);
	for (size_t i = 0; i < words->n; i++) {
		sb_addf(&req, "%zu\n", strlen(words->v[i]));
		sb_add(&req, words->v[i]);
	}
	size_t done = 0;
	while (done < req.len) {
		struct pollfd p = {.fd = s->in, .events = POLLOUT};
		int ms = (int)((deadline - now_seconds()) * 1000);
		if (ms <= 0 || poll(&p, 1, ms) <= 0)
			break;
		/* a socket: a board gone away is EPIPE, never SIGPIPE */
		ssize_t w = send(s->in, req.buf + done, req.len - done, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	int rc = done == req.len ? 0 : -1;
	sb_release(&req);
	return rc;
}

static unsigned run_serial;
static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;

static void request_words(const struct run_spec *spec, const struct remote_argv *ra,
			  const char *rundir, struct strlist *words)
{
	sl_push(words, "-d");
	sl_push(words, rundir);
	sl_push(words, "-t");
	sl_push_owned(words, xasprintf("%.3f", spec->timeout > 0 ? spec->timeout : 0));
	if (ra->stdin_path) {
		sl_push(words, "-i");
		sl_push(words, ra->stdin_path);
	}
	cpu_set_t pin;
	int pinned = spec->pin && !cpulist_parse(spec->pin, &pin, NULL);
	/* one -c per CPU: the helper needs no list parser of its own */
	for (int c = 0; pinned && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &pin)) {
			sl_push(words, "-c");
			sl_push_owned(words, xasprintf("%d", c));
		}
	if (ra->perf_events) {
		sl_push(words, "-e");
		sl_push(words, ra->perf_events);
	}
	/* the board pads its environment by this where its ASLR is off */
	sl_push(words, "-p");
	sl_push_owned(words, xasprintf("%zu", layout_pad_next()));
	sl_push(words, "--");
	for (size_t i = 0; i < ra->words.n; i++)
		sl_push(words, ra->words.v[i]);
}

int board_run(struct board *b, struct board_session *s, const struct run_spec *spec,
	      const struct run_files *f, struct run_result *res, struct strbuf *err)
{
	struct remote_argv ra = {0};
	struct strlist words = {0};
	pthread_mutex_lock(&serial_lock);
	unsigned serial = ++run_serial;
	pthread_mutex_unlock(&serial_lock);
	/* another run of the board may prepare it again meanwhile */
	pthread_mutex_lock(&b->lock);
	char *workdir = xstrdup(b->workdir), *helper = xstrdup(b->helper);
	pthread_mutex_unlock(&b->lock);
	char *rundir = xasprintf("%s/r/%d-%u-%lx", workdir, (int)getpid(), serial,
				 (unsigned long)(now_seconds() * 1e6));
	char *rcwd = xasprintf("%s/cwd", rundir);
	map_words(spec, f, workdir, rcwd, &ra);
	request_words(spec, &ra, rundir, &words);
	if (ra.perf_out)
		unlink(ra.perf_out); /* stays absent when the board has no perf */
	double deadline = now_seconds() + (spec->timeout > 0 ? spec->timeout : 3600) +
			  RUN_GRACE_SECONDS;
	int rc = session_open(b, s, helper, err);
	if (!rc && session_send(s, &words, deadline)) {
		s->rd->why = "the connection ended before the run started";
		rc = 1;
	} else if (!rc) {
		s->rd->deadline = deadline;
		s->rd->idle = 0;
		s->rd->why = NULL;
		s->rd->stop = spec->stop;
		s->rd->stopped = 0;
		rc = read_answer(s->rd, spec, &ra, res, err);
	}
	if (rc == 1 && s->rd && s->rd->stopped) {
		/* the helper kills the program when its stdin ends */
		session_break(s, NULL);
		res->interrupted = 1;
		err->len = 0;
		rc = 0;
	} else if (rc == 1) {
		struct strbuf why = {0}, reason = {0};
		const char *what = s->rd && s->rd->why ? s->rd->why : "";
		sb_addf(&reason, "%s: %s%s%s", b->dest.name, what, *what && err->len ? ": " : "",
			sb_str(err));
		if (!*what && !err->len)
			sb_add(&reason, "the helper's answer is garbled");
		session_break(s, &why);
		if (why.len)
			sb_addf(&reason, " (%s)", why.buf);
		err->len = 0;
		sb_add(err, reason.buf);
		sb_release(&why);
		sb_release(&reason);
		rc = BOARD_FAULT;
	} else if (rc != BOARD_FAULT && ssh_reuse() != REUSE_ALL) {
		board_session_close(s);
	}
	remote_argv_release(&ra);
	sl_release(&words);
	free(rundir);
	free(rcwd);
	free(workdir);
	free(helper);
	return rc;
}
