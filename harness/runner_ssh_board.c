/* runner_ssh_board.c - one board: its ssh connection, commands, uploads,
 * facts and the measuring helper (see runner_ssh_internal.h) */
#include "harness/runner_ssh_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* how long a board may take to accept a connection, and to answer a
 * small command */
#define CONNECT_SECONDS 15
#define COMMAND_SECONDS 60

void board_ssh_argv(const struct board *b, int master, const char *remote_cmd,
		    struct strlist *argv)
{
	sl_push(argv, "ssh");
	static const char *const common[] = {
		"BatchMode=yes",	 "StrictHostKeyChecking=yes", "ConnectTimeout=10",
		"ServerAliveInterval=5", "ServerAliveCountMax=3",     "LogLevel=ERROR",
	};
	for (size_t i = 0; i < ARRAY_SIZE(common); i++) {
		sl_push(argv, "-o");
		sl_push(argv, common[i]);
	}
	if (b->known_hosts) {
		/* the pin: only this file's keys are trusted */
		sl_push(argv, "-o");
		sl_push_owned(argv, xasprintf("UserKnownHostsFile=%s", b->known_hosts));
		sl_push(argv, "-o");
		sl_push(argv, "GlobalKnownHostsFile=/dev/null");
	}
	if (b->identity) {
		sl_push(argv, "-i");
		sl_push(argv, b->identity);
		sl_push(argv, "-o");
		sl_push(argv, "IdentitiesOnly=yes");
	}
	if (b->dest.port > 0) {
		sl_push(argv, "-p");
		sl_push_owned(argv, xasprintf("%d", b->dest.port));
	}
	sl_push(argv, "-o");
	if (b->control) {
		sl_push_owned(argv, xasprintf("ControlPath=%s", b->control));
		sl_push(argv, "-o");
		sl_push(argv, master ? "ControlMaster=yes" : "ControlMaster=no");
	} else {
		sl_push(argv, "ControlPath=none");
	}
	if (master) {
		sl_push(argv, "-N");
		sl_push(argv, "-o");
		sl_push(argv, "ControlPersist=no");
	}
	sl_push(argv, "--");
	sl_push(argv, b->dest.user_host);
	if (remote_cmd)
		sl_push(argv, remote_cmd);
}

int ssh_spawn(struct strlist *argv, int in_fd, struct ssh_proc *p, struct strbuf *err)
{
	int out[2], in[2] = {-1, -1};
	memset(p, 0, sizeof(*p));
	p->in = p->out = p->err = -1;
	/* stdin is a socket so that writing to a board gone away is an error
	 * (send MSG_NOSIGNAL), not a SIGPIPE */
	if (pipe2(out, O_CLOEXEC) ||
	    (in_fd < 0 && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in))) {
		sb_addf(err, "pipe: %s", strerror_lc(errno));
		return -1;
	}
	p->err = memfd_create("ssh-stderr", MFD_CLOEXEC);
	sl_push_owned(argv, NULL);
	argv->n--;
	ssh_counts_add(&ssh_counts.commands);
	pid_t pid = fork();
	if (pid < 0) {
		sb_addf(err, "fork: %s", strerror_lc(errno));
		return -1;
	}
	if (pid == 0) {
		/* its own group: a ^C meant for flagscope must not cut the line;
		 * but it ends with flagscope, however that ends */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(in_fd >= 0 ? in_fd : in[0], 0);
		dup2(out[1], 1);
		if (p->err >= 0)
			dup2(p->err, 2);
		execvp(argv->v[0], argv->v);
		_exit(127);
	}
	p->pid = pid;
	close(out[1]);
	p->out = out[0];
	if (in_fd < 0) {
		close(in[0]);
		p->in = in[1];
	}
	return 0;
}

static void last_line_of(int fd, struct strbuf *why)
{
	if (fd < 0)
		return;
	char buf[2048];
	off_t size = lseek(fd, 0, SEEK_END);
	off_t from = size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0;
	ssize_t got = pread(fd, buf, sizeof(buf) - 1, from);
	if (got <= 0)
		return;
	buf[got] = '\0';
	char *t = str_trim(buf);
	char *nl = strrchr(t, '\n');
	sb_add(why, str_trim(nl ? nl + 1 : t));
}

int ssh_finish(struct ssh_proc *p, double deadline, struct strbuf *why)
{
	int status = 0, killed = 0;
	if (p->in >= 0)
		close(p->in);
	p->in = -1;
	for (;;) {
		pid_t got = waitpid(p->pid, &status, WNOHANG);
		if (got == p->pid)
			break;
		if (got < 0 && errno != EINTR)
			break;
		if (now_seconds() > deadline && !killed) {
			kill(-p->pid, SIGKILL);
			kill(p->pid, SIGKILL);
			killed = 1;
		}
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (p->out >= 0)
		close(p->out);
	p->out = -1;
	if (why)
		last_line_of(p->err, why);
	if (p->err >= 0)
		close(p->err);
	p->err = -1;
	if (killed)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

int board_command(struct board *b, const char *remote_cmd, int in_fd, double seconds, char **out,
		  struct strbuf *err)
{
	struct strlist argv = {0};
	struct ssh_proc p;
	struct strbuf text = {0}, why = {0};
	board_ssh_argv(b, 0, remote_cmd, &argv);
	int null = in_fd >= 0 ? -1 : open("/dev/null", O_RDONLY | O_CLOEXEC);
	int spawned = ssh_spawn(&argv, in_fd >= 0 ? in_fd : null, &p, err);
	if (null >= 0)
		close(null);
	sl_release(&argv);
	if (spawned)
		return BOARD_FAULT;
	double deadline = now_seconds() + seconds;
	char buf[8192];
	for (;;) {
		struct pollfd pf = {.fd = p.out, .events = POLLIN};
		int left = (int)((deadline - now_seconds()) * 1000);
		if (left <= 0 || poll(&pf, 1, left) == 0)
			break;
		ssize_t got = read(p.out, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		sb_addn(&text, buf, (size_t)got);
	}
	int rc = ssh_finish(&p, deadline, &why);
	if (rc == -1 || rc == 255) {
		sb_addf(err, "%s: %s", b->dest.name,
			rc == -1 ? "no answer (timed out)" : why.len ? why.buf : "ssh failed");
		rc = BOARD_FAULT;
	} else if (rc != 0 && why.len) {
		sb_addf(err, "%s: %s", b->dest.name, why.buf);
	}
	if (out)
		*out = sb_detach(&text);
	sb_release(&text);
	sb_release(&why);
	return rc;
}

void board_disconnect(struct board *b)
{
	for (size_t i = 0; i < b->nsessions; i++)
		board_session_close(&b->sessions[i]);
	if (b->master > 0) {
		kill(b->master, SIGTERM);
		double deadline = now_seconds() + 5;
		int status;
		while (waitpid(b->master, &status, WNOHANG) == 0) {
			if (now_seconds() > deadline) {
				kill(b->master, SIGKILL);
				waitpid(b->master, &status, 0);
				break;
			}
			struct timespec ts = {0, 10 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	b->master = 0;
	b->ready = 0;
	if (b->control)
		unlink(b->control);
}

/* The ControlMaster: one authenticated connection that every later ssh
 * call of this board multiplexes over. */
static int board_connect(struct board *b, struct strbuf *err)
{
	if (!b->control || (b->master > 0 && waitpid(b->master, NULL, WNOHANG) == 0))
		return 0;
	/* the line was lost: the board must be looked at again */
	b->master = 0;
	b->ready = 0;
	unlink(b->control);
	struct strlist argv = {0};
	board_ssh_argv(b, 1, NULL, &argv);
	sl_push_owned(&argv, NULL);
	argv.n--;
	int log = memfd_create("ssh-master", MFD_CLOEXEC);
	ssh_counts_add(&ssh_counts.connects);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		/* the connection ends with flagscope, however it ends */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		if (log >= 0)
			dup2(log, 2);
		execvp("ssh", argv.v);
		_exit(127);
	}
	sl_release(&argv);
	if (pid < 0) {
		sb_addf(err, "fork: %s", strerror_lc(errno));
		close(log);
		return BOARD_FAULT;
	}
	double deadline = now_seconds() + CONNECT_SECONDS;
	int status;
	for (;;) {
		struct stat st;
		if (!stat(b->control, &st) && S_ISSOCK(st.st_mode))
			break;
		if (waitpid(pid, &status, WNOHANG) == pid || now_seconds() > deadline) {
			struct strbuf why = {0};
			if (now_seconds() > deadline) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				sb_add(&why, "no answer (timed out connecting)");
			}
			last_line_of(log, &why);
			sb_addf(err, "%s: cannot connect: %s", b->dest.name,
				why.len ? why.buf : "ssh failed");
			sb_release(&why);
			close(log);
			return BOARD_FAULT;
		}
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	close(log);
	b->master = pid;
	return 0;
}

static char *next_line(char **p)
{
	char *s = *p;
	if (!s || !*s)
		return NULL;
	char *nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

/* One command for everything the first contact needs: the work folders,
 * where they are, and the facts. */
static int board_probe(struct board *b, struct strbuf *err)
{
	struct strbuf cmd = {0};
	sb_add(&cmd, "umask 022 && mkdir -p -- ");
	sh_quote(&cmd, b->workdir_arg);
	sb_add(&cmd, " && cd -- ");
	sh_quote(&cmd, b->workdir_arg);
	sb_add(&cmd, " && mkdir -p o a r && pwd -P && uname -r && uname -m && echo @@ && "
		     "cat /proc/cpuinfo && echo @@ && "
		     "{ cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq 2>/dev/null || true; }");
	char *out = NULL;
	int rc = board_command(b, sb_str(&cmd), -1, COMMAND_SECONDS, &out, err);
	sb_release(&cmd);
	if (rc == BOARD_FAULT) {
		free(out);
		return rc;
	}
	char *p = out, *wd = next_line(&p), *kernel = next_line(&p), *machine = next_line(&p);
	char *mark = next_line(&p);
	if (rc != 0 || !wd || *wd != '/' || !kernel || !machine || !mark || strcmp(mark, "@@")) {
		if (!err->len)
			sb_addf(err, "%s: cannot make the work folder %s", b->dest.name,
				b->workdir_arg);
		free(out);
		return BOARD_ERROR;
	}
	free(b->workdir);
	b->workdir = xstrdup(wd);
	memset(&b->facts, 0, sizeof(b->facts));
	snprintf(b->facts.kernel, sizeof(b->facts.kernel), "%s", kernel);
	snprintf(b->facts.machine, sizeof(b->facts.machine), "%s", machine);
	char *end = strstr(p, "\n@@\n");
	char *freq = NULL;
	if (end) {
		*end = '\0';
		freq = end + 4;
	}
	board_facts_parse_cpuinfo(&b->facts, p, freq);
	free(out);
	return 0;
}

int board_upload(struct board *b, const char *local, const char *hex, struct strbuf *err)
{
	int fd = open(local, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		sb_addf(err, "%s: %s", local, strerror_lc(errno));
		if (fd >= 0)
			close(fd);
		return BOARD_ERROR;
	}
	char *obj = xasprintf("%s/o/%s", b->workdir, hex);
	char *tmp = xasprintf("%s/o/.%s.%d.%lx", b->workdir, hex, (int)getpid(),
			      (unsigned long)pthread_self());
	struct strbuf cmd = {0};
	sb_add(&cmd, "cat > ");
	sh_quote(&cmd, tmp);
	sb_addf(&cmd, " && chmod %s ", (st.st_mode & 0111) ? "755" : "644");
	sh_quote(&cmd, tmp);
	sb_add(&cmd, " && mv -f -- ");
	sh_quote(&cmd, tmp);
	sb_addc(&cmd, ' ');
	sh_quote(&cmd, obj);
	/* a slow link still moves 256 KiB/s */
	double seconds = COMMAND_SECONDS + (double)st.st_size / (256 * 1024);
	int rc = board_command(b, sb_str(&cmd), fd, seconds, NULL, err);
	close(fd);
	if (rc == 0)
		ssh_counts_add(&ssh_counts.uploads);
	else if (rc != BOARD_FAULT) {
		if (!err->len)
			sb_addf(err, "%s: cannot write %s", b->dest.name, obj);
		rc = BOARD_FAULT; /* a full disk: another board may do */
	}
	sb_release(&cmd);
	free(obj);
	free(tmp);
	return rc;
}

int board_prepare(struct board *b, struct strbuf *err)
{
	int rc = board_connect(b, err);
	if (rc || b->ready)
		return rc;
	if ((rc = board_probe(b, err)))
		return rc;
	char *local = ssh_helper_build(b->facts.machine, err);
	if (!local)
		return BOARD_ERROR;
	char hex[65];
	if (sha256_file_hex(local, hex)) {
		sb_addf(err, "%s: cannot read", local);
		free(local);
		return BOARD_ERROR;
	}
	free(b->helper);
	b->helper = xasprintf("%s/o/%s", b->workdir, hex);
	/* the helper in place (one command when it is there already), then
	 * what the board's own perf can count */
	struct strbuf cmd = {0}, probe = {0};
	sh_quote(&probe, b->helper);
	sb_add(&probe, " perf-probe");
	sb_add(&cmd, "test -x ");
	sh_quote(&cmd, b->helper);
	sb_addf(&cmd, " && %s", probe.buf);
	char *out = NULL;
	struct strbuf first = {0};
	rc = board_command(b, sb_str(&cmd), -1, COMMAND_SECONDS, &out, &first);
	if (rc == BOARD_FAULT)
		sb_add(err, sb_str(&first));
	sb_release(&first);
	if (rc > 0) {
		rc = board_upload(b, local, hex, err);
		free(out);
		out = NULL;
		if (!rc)
			rc = board_command(b, sb_str(&probe), -1, COMMAND_SECONDS, &out, err);
		if (rc > 0) {
			if (!err->len)
				sb_addf(err, "%s: the measuring helper does not run there", b->dest.name);
			rc = BOARD_ERROR;
		}
	}
	sb_release(&cmd);
	sb_release(&probe);
	free(local);
	const char *perf = out ? strstr(out, "perf=") : NULL;
	snprintf(b->facts.perf, sizeof(b->facts.perf), "%.*s", perf ? (int)strcspn(perf + 5, "\n") : 7,
		 perf ? perf + 5 : "unknown");
	free(out);
	if (rc)
		return rc;
	b->ready = 1;
	return 0;
}

/* The compiler that builds for a board of this machine: the study's
 * helper_cc, else FLAGSCOPE_HELPER_CC, else the system's for its own
 * machine, else Debian's cross compiler of that name. */
static const char *helper_cc(const char *machine)
{
	static const struct {
		const char *prefix, *cc;
	} cross[] = {
		{"aarch64", "aarch64-linux-gnu-gcc"},
		{"arm", "arm-linux-gnueabihf-gcc"},
		{"mips64", "mips64el-linux-gnuabi64-gcc"},
		{"mips", "mipsel-linux-gnu-gcc"},
		{"x86_64", "x86_64-linux-gnu-gcc"},
		{"i686", "i686-linux-gnu-gcc"},
		{"riscv64", "riscv64-linux-gnu-gcc"},
		{"ppc64le", "powerpc64le-linux-gnu-gcc"},
		{"loongarch64", "loongarch64-linux-gnu-gcc"},
	};
	const char *env = getenv("FLAGSCOPE_HELPER_CC");
	if (ssh_options()->helper_cc)
		return ssh_options()->helper_cc;
	if (env && *env)
		return env;
	struct utsname u;
	if (!uname(&u) && !strcmp(u.machine, machine))
		return "cc";
	for (size_t i = 0; i < ARRAY_SIZE(cross); i++)
		if (str_starts_with(machine, cross[i].prefix))
			return cross[i].cc;
	return NULL;
}

static pthread_mutex_t helper_lock = PTHREAD_MUTEX_INITIALIZER;

char *ssh_helper_build(const char *machine, struct strbuf *err)
{
	const char *cc = helper_cc(machine);
	if (!cc) {
		sb_addf(err, "no compiler known for a board of machine '%s' (set helper_cc in [run], "
			     "or FLAGSCOPE_HELPER_CC, to a compiler that links static programs for it)",
			machine);
		return NULL;
	}
	char *src = paths_remote_helper();
	size_t len;
	char *text = file_read(src, &len);
	if (!text) {
		sb_addf(err, "%s: %s (the measuring helper's source is missing)", src,
			strerror_lc(errno));
		free(src);
		return NULL;
	}
	struct strlist argv = {0};
	sl_split_ws(&argv, cc);
	sl_push(&argv, "--version");
	sl_push_owned(&argv, NULL);
	argv.n--;
	char *version = NULL;
	run_capture(argv.v, &version);
	sl_release(&argv);
	struct strbuf id = {0};
	sb_addn(&id, text, len);
	sb_addf(&id, "\n%s\n%s\n%s", cc, machine, version ? version : "");
	char key[65];
	sha256_hex(id.buf, id.len, key);
	key[16] = '\0';
	free(text);
	free(version);
	sb_release(&id);
	char *dir = xasprintf("%s/remote-helper/%s", flagscope_cache_dir(), key);
	char *out = xasprintf("%s/fs-helper", dir);
	pthread_mutex_lock(&helper_lock);
	if (!file_exists(out)) {
		char *tmp = xasprintf("%s.%d.tmp", out, (int)getpid());
		char *log = NULL;
		mkdir_p(dir, 0755);
		sl_split_ws(&argv, cc);
		const char *tail[] = {"-static", "-O2", "-o", tmp, src};
		for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
			sl_push(&argv, tail[i]);
		sl_push_owned(&argv, NULL);
		argv.n--;
		int rc = run_capture(argv.v, &log);
		sl_release(&argv);
		if (rc == 0 && !rename(tmp, out)) {
			free(log);
		} else {
			sb_addf(err, "cannot build the measuring helper for %s with %s: %s", machine, cc,
				log && *log ? str_trim(log) : "the compiler failed");
			unlink(tmp);
			free(log);
			free(out);
			out = NULL;
		}
		free(tmp);
	}
	pthread_mutex_unlock(&helper_lock);
	free(dir);
	free(src);
	return out;
}
