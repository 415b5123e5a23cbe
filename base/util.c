/* util.c - see util.h */
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <openssl/evp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void)
{
	fputs("flagscope: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		out_of_memory();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		out_of_memory();
	return p;
}

static char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;
	if (vasprintf(&p, fmt, ap) < 0)
		out_of_memory();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

static void say(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("flagscope: ", fmt, ap);
	va_end(ap);
}

const char *strerror_lc(int e)
{
	static __thread char buf[128];
	snprintf(buf, sizeof(buf), "%s", strerror(e));
	/* only a capital followed by a lowercase letter: "EOF", "I/O error" stay */
	if (isupper((unsigned char)buf[0]) && islower((unsigned char)buf[1]))
		buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("flagscope: warning: ", fmt, ap);
	va_end(ap);
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap * 2 : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	sb->buf = xrealloc(sb->buf, cap);
	sb->cap = cap;
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_addn(sb, &c, 1);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	char *p = xvasprintf(fmt, ap);
	sb_add(sb, p);
	free(p);
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sh_quote(struct strbuf *sb, const char *word)
{
	sb_addc(sb, '\'');
	for (const char *p = word; *p; p++)
		if (*p == '\'')
			sb_add(sb, "'\\''");
		else
			sb_addc(sb, *p);
	sb_addc(sb, '\'');
}

void sh_quote_argv(struct strbuf *sb, char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			sb_addc(sb, ' ');
		sh_quote(sb, argv[i]);
	}
}

void sb_add_json(struct strbuf *sb, const char *s)
{
	sb_addc(sb, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': sb_add(sb, "\\\""); break;
		case '\\': sb_add(sb, "\\\\"); break;
		case '\n': sb_add(sb, "\\n"); break;
		case '\t': sb_add(sb, "\\t"); break;
		case '\r': sb_add(sb, "\\r"); break;
		default:
			if (*p < 0x20)
				sb_addf(sb, "\\u%04x", *p);
			else
				sb_addc(sb, (char)*p);
		}
	}
	sb_addc(sb, '"');
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sb_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void sl_push_owned(struct strlist *sl, char *s)
{
	if (sl->n == sl->cap) {
		sl->cap = sl->cap ? sl->cap * 2 : 8;
		sl->v = xrealloc(sl->v, sl->cap * sizeof(*sl->v));
	}
	sl->v[sl->n++] = s;
}

void sl_push(struct strlist *sl, const char *s)
{
	sl_push_owned(sl, xstrdup(s));
}

/* Damerau-Levenshtein (optimal string alignment), case folded: a typo of a
 * short name is one or two letters dropped, doubled, swapped or wrong */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d = xcalloc((la + 1) * (lb + 1), sizeof(*d));
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t best = D(i - 1, j - 1) + !same;
			if (D(i - 1, j) + 1 < best)
				best = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < best)
				best = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < best)
				best = D(i - 2, j - 2) + 1;
			D(i, j) = best;
		}
	size_t r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *str_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = 3, len = strlen(word);
	for (size_t i = 0; i < n; i++) {
		size_t dist = edit_distance(word, names[i]);
		if (dist < best_d && 2 * dist < len + (len == 1)) {
			best = names[i];
			best_d = dist;
		}
	}
	return best;
}

int sl_find(const struct strlist *sl, const char *s)
{
	for (size_t i = 0; i < sl->n; i++)
		if (!strcmp(sl->v[i], s))
			return (int)i;
	return -1;
}

size_t sl_split_ws(struct strlist *sl, const char *s)
{
	size_t added = 0;
	while (s && *s) {
		while (*s && isspace((unsigned char)*s))
			s++;
		const char *start = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (s > start) {
			sl_push_owned(sl, xstrndup(start, (size_t)(s - start)));
			added++;
		}
	}
	return added;
}

char *sl_join(const struct strlist *sl, const char *sep)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < sl->n; i++) {
		if (i)
			sb_add(&sb, sep);
		sb_add(&sb, sl->v[i]);
	}
	return sb_detach(&sb);
}

void sl_release(struct strlist *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		free(sl->v[i]);
	free(sl->v);
	sl->v = NULL;
	sl->n = sl->cap = 0;
}

char *str_trim(char *s)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

char *str_unquote_dup(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0])
		return xstrndup(s + 1, n - 2);
	return xstrndup(s, n);
}

char *path_home_dup(const char *path)
{
	const char *home = getenv("HOME");
	if (path[0] != '~' || (path[1] && path[1] != '/') || !home || !*home)
		return xstrdup(path);
	size_t h = strlen(home);
	while (h > 1 && home[h - 1] == '/')
		h--;
	return xasprintf("%.*s%s", (int)h, home, path + 1);
}

int str_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void digest_hex(const unsigned char *md, unsigned int n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	for (unsigned int i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[2 * n] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	digest_hex(md, n, out);
}

int sha256_file_hex(const char *path, char out[65])
{
	unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		EVP_DigestUpdate(ctx, buf, (size_t)got);
	int err = got < 0 ? -errno : 0;
	EVP_DigestFinal_ex(ctx, md, &n);
	EVP_MD_CTX_free(ctx);
	close(fd);
	if (!err)
		digest_hex(md, n, out);
	return err;
}

void sha256_dir_hex(const char *dir, char out[65])
{
	struct strbuf sb = {0};
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]->d_name);
		char hex[65];
		if (!is_dir(p) && !sha256_file_hex(p, hex))
			sb_addf(&sb, "%s %s\n", names[i]->d_name, hex);
		free(p);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	sha256_hex(sb_str(&sb), sb.len, out);
	sb_release(&sb);
}

char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = {0};
	char buf[65536];
	size_t got;
	if (!f)
		return NULL;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_addn(&sb, buf, got);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		sb_release(&sb);
		errno = EIO;
		return NULL;
	}
	if (len)
		*len = sb.len;
	return sb_detach(&sb);
}

int file_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -errno;
	size_t put = fwrite(data, 1, len, f);
	int err = (put != len || fclose(f)) ? -EIO : 0;
	return err;
}

int file_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mkdir_p(const char *path, int mode)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, (mode_t)mode) && errno != EEXIST) {
			int err = -errno;
			free(p);
			return err;
		}
		*s = '/';
	}
	int err = (mkdir(p, (mode_t)mode) && errno != EEXIST) ? -errno : 0;
	free(p);
	return err;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (flag == FTW_DP ? rmdir(path) : unlink(path)) ? -1 : 0;
}

/* In-process: measured runs clean their folder every time, and a fork of
 * rm costs milliseconds. */
int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) ? -EIO : 0;
}

int copy_tree(const char *from, const char *to)
{
	char *argv[] = {"cp", "-a", "--", (char *)from, (char *)to, NULL};
	return run_capture(argv, NULL) == 0 ? 0 : -EIO;
}

void child_close_fds(void)
{
	if (syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */)) {
		long max = sysconf(_SC_OPEN_MAX);
		for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
			fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
}

/* Read fd to its end into sb, or until deadline (monotonic seconds,
 * INFINITY: none); 1 when the deadline came first. */
static int read_until(int fd, struct strbuf *sb, double deadline)
{
	char buf[4096];
	for (;;) {
		int ms = -1;
		if (isfinite(deadline)) {
			double left = deadline - now_seconds();
			if (left <= 0)
				return 1;
			ms = (int)(left * 1000) + 1;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int n = poll(&p, 1, ms);
		if (n < 0 && errno != EINTR)
			return 0;
		if (n <= 0)
			continue;
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got > 0)
			sb_addn(sb, buf, (size_t)got);
		else if (got == 0 || errno != EINTR)
			return 0;
	}
}

int run_capture_timeout(char *const argv[], char **out, double timeout, int *timed_out)
{
	int pipefd[2];
	if (timed_out)
		*timed_out = 0;
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		/* its own group when it may be killed: its children go with it */
		if (timeout > 0)
			setpgid(0, 0);
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		/* a helper gets no database, lock or log of flagscope's */
		child_close_fds();
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (timeout > 0)
		setpgid(pid, pid); /* before a kill of its group can come */
	close(pipefd[1]);
	struct strbuf sb = {0};
	int expired = read_until(pipefd[0], &sb, timeout > 0 ? now_seconds() + timeout : INFINITY);
	if (expired) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		if (timed_out)
			*timed_out = 1;
	}
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			sb_release(&sb);
			return -errno;
		}
	if (out)
		*out = sb_detach(&sb);
	else
		sb_release(&sb);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int run_capture(char *const argv[], char **out)
{
	return run_capture_timeout(argv, out, 0, NULL);
}

int run_shell_capture(const char *script, char **out)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	return run_capture(argv, out);
}

char *path_lookup(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : realpath(name, NULL);
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *found = NULL;
	for (char *save, *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", d, name);
		if (!access(p, X_OK))
			found = realpath(p, NULL);
		free(p);
	}
	free(copy);
	return found;
}

int cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

