/* runner_ssh_files.c - the files a run needs on the board, content-
 * addressed so that nothing is copied twice (see runner_ssh_internal.h) */
#include "harness/runner_ssh_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct hash_entry {
	char *path;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	char hex[65];
};
static pthread_mutex_t hash_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hash_entry *hashes;
static size_t nhashes;

/* sha256 of a file, remembered while it stays the same file */
static int file_hash(const char *path, const struct stat *st, char hex[65])
{
	pthread_mutex_lock(&hash_lock);
	for (size_t i = 0; i < nhashes; i++) {
		struct hash_entry *h = &hashes[i];
		if (!strcmp(h->path, path) && h->dev == st->st_dev && h->ino == st->st_ino &&
		    h->size == st->st_size && h->mtime.tv_sec == st->st_mtim.tv_sec &&
		    h->mtime.tv_nsec == st->st_mtim.tv_nsec) {
			memcpy(hex, h->hex, 65);
			pthread_mutex_unlock(&hash_lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&hash_lock);
	if (sha256_file_hex(path, hex))
		return -1;
	pthread_mutex_lock(&hash_lock);
	hashes = xrealloc(hashes, (nhashes + 1) * sizeof(*hashes));
	hashes[nhashes++] = (struct hash_entry){xstrdup(path), st->st_dev, st->st_ino, st->st_size,
						st->st_mtim, ""};
	memcpy(hashes[nhashes - 1].hex, hex, 65);
	pthread_mutex_unlock(&hash_lock);
	return 0;
}

void ssh_files_forget(void)
{
	pthread_mutex_lock(&hash_lock);
	for (size_t i = 0; i < nhashes; i++)
		free(hashes[i].path);
	free(hashes);
	hashes = NULL;
	nhashes = 0;
	pthread_mutex_unlock(&hash_lock);
}

void run_files_release(struct run_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->sets[i].dir);
		sl_release(&f->sets[i].names);
		sl_release(&f->sets[i].hexes);
		sl_release(&f->sets[i].paths);
	}
	free(f->sets);
	memset(f, 0, sizeof(*f));
}

static int set_add(struct file_set *s, const char *path, struct strbuf *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (sl_find(&s->names, base) >= 0)
		return 0;
	struct stat st;
	char hex[65];
	if (stat(path, &st) || !S_ISREG(st.st_mode) || file_hash(path, &st, hex)) {
		sb_addf(err, "%s: cannot read it to copy it to the board", path);
		return -1;
	}
	sl_push(&s->names, base);
	sl_push(&s->hexes, hex);
	sl_push(&s->paths, path);
	return 0;
}

static void set_seal(struct file_set *s)
{
	struct strbuf id = {0};
	for (size_t i = 0; i < s->names.n; i++)
		sb_addf(&id, "%s/%s\n", s->names.v[i], s->hexes.v[i]); /* no name has a / */
	sha256_hex(id.buf, id.len, s->id);
	sb_release(&id);
}

static struct file_set *set_new(struct run_files *f, const char *dir)
{
	f->sets = xrealloc(f->sets, (f->n + 1) * sizeof(*f->sets));
	struct file_set *s = &f->sets[f->n++];
	memset(s, 0, sizeof(*s));
	s->dir = xstrdup(dir);
	return s;
}

static int is_script(const char *path)
{
	char head[2] = {0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t got = read(fd, head, 2);
	close(fd);
	return got == 2 && head[0] == '#' && head[1] == '!';
}

/* A script calls the programs beside it (gzip's roundtrip.sh): they go
 * with it. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_siblings(struct file_set *s, struct strbuf *err)
{
	struct strlist names = {0};
	DIR *d = opendir(s->dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			sl_push(&names, e->d_name);
	if (d)
		closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	int rc = 0;
	for (size_t i = 0; i < names.n && !rc; i++) {
		char *p = xasprintf("%s/%s", s->dir, names.v[i]);
		struct stat st;
		if (!lstat(p, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111))
			rc = set_add(s, p, err);
		free(p);
	}
	sl_release(&names);
	return rc;
}

char *ssh_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

static char *set_path(const char *workdir, const struct file_set *s, const char *name)
{
	return xasprintf("%s/a/%s/%s", workdir, s->id, name);
}

int plan_files(const struct run_spec *spec, struct run_files *f, struct strbuf *err)
{
	char *const *argv = spec->argv;
	char *prog = argv[0][0] == '/' || !spec->cwd ? xstrdup(argv[0])
						      : xasprintf("%s/%s", spec->cwd, argv[0]);
	struct stat st;
	if (stat(prog, &st) || !S_ISREG(st.st_mode)) {
		sb_addf(err, "cannot start %s: %s", argv[0],
			access(prog, F_OK) ? strerror_lc(errno) : "not a file");
		free(prog);
		return -1;
	}
	char *dir = ssh_dir_of(prog);
	struct file_set *art = set_new(f, dir);
	int rc = set_add(art, prog, err);
	if (!rc && is_script(prog))
		rc = add_siblings(art, err);
	size_t dlen = strlen(dir), clen = spec->cwd ? strlen(spec->cwd) : 0;
	/* files of the program's own folder named in the arguments join it */
	for (size_t i = 1; argv[i] && !rc; i++)
		if (!strncmp(argv[i], dir, dlen) && argv[i][dlen] == '/' &&
		    !stat(argv[i], &st) && S_ISREG(st.st_mode))
			rc = set_add(art, argv[i], err);
	for (size_t i = 1; argv[i] && !rc; i++) {
		const char *w = argv[i];
		const char *eq = w[0] == '-' ? strchr(w, '=') : NULL;
		const char *path = eq ? eq + 1 : w;
		if (*path != '/' || (spec->cwd && !strncmp(path, spec->cwd, clen) &&
				     (path[clen] == '/' || !path[clen])))
			continue;
		if (!stat(path, &st) && S_ISDIR(st.st_mode) && strcmp(path, dir)) {
			sb_addf(err, "argument %zu (%s) is a folder: only files are copied to boards "
				     "(name the files)",
				i, path);
			rc = -1;
		} else if (!stat(path, &st) && S_ISREG(st.st_mode) &&
			   !(!strncmp(path, dir, dlen) && path[dlen] == '/')) {
			char *pdir = ssh_dir_of(path);
			struct file_set *s = set_new(f, pdir);
			free(pdir);
			rc = set_add(s, path, err);
		}
	}
	if (!rc && spec->stdin_path) {
		struct file_set *s = set_new(f, "");
		rc = set_add(s, spec->stdin_path, err);
	}
	for (size_t i = 0; i < f->n; i++)
		set_seal(&f->sets[i]);
	free(prog);
	free(dir);
	return rc;
}

/* Words naming local files become paths under workdir/a/SET, words under
 * spec->cwd paths under the remote run folder's cwd: the same walk as
 * plan_files, so the sets come up in the same order. */
void map_words(const struct run_spec *spec, const struct run_files *f, const char *workdir,
		      const char *rcwd, struct remote_argv *ra)
{
	char *const *argv = spec->argv;
	/* what a wrapping meter asked the board to count (meter_ops.remote) */
	ra->perf_events = spec->count_events;
	ra->perf_out = spec->count_out;
	const struct file_set *art = &f->sets[0];
	size_t dlen = strlen(art->dir), clen = spec->cwd ? strlen(spec->cwd) : 0;
	size_t next_set = 1;
	sl_push_owned(&ra->words, set_path(workdir, art, art->names.v[0]));
	for (size_t i = 1; argv[i]; i++) {
		const char *w = argv[i];
		const char *eq = w[0] == '-' ? strchr(w, '=') : NULL;
		const char *path = eq ? eq + 1 : w;
		size_t keep = (size_t)(path - w);
		struct stat st;
		char *mapped = NULL;
		if (*path != '/') {
			/* not a local path */
		} else if (spec->cwd && !strncmp(path, spec->cwd, clen) &&
			   (path[clen] == '/' || !path[clen])) {
			mapped = xasprintf("%.*s%s%s", (int)keep, w, rcwd, path + clen);
		} else if (!strcmp(path, art->dir)) {
			mapped = xasprintf("%.*s%s/a/%s", (int)keep, w, workdir, art->id);
		} else if (!strncmp(path, art->dir, dlen) && path[dlen] == '/' && !stat(path, &st) &&
			   S_ISREG(st.st_mode)) {
			char *p = set_path(workdir, art, path + dlen + 1);
			mapped = xasprintf("%.*s%s", (int)keep, w, p);
			free(p);
		} else if (!stat(path, &st) && S_ISREG(st.st_mode) && next_set < f->n) {
			const struct file_set *s = &f->sets[next_set++];
			char *p = set_path(workdir, s, s->names.v[0]);
			mapped = xasprintf("%.*s%s", (int)keep, w, p);
			free(p);
		}
		sl_push_owned(&ra->words, mapped ? mapped : xstrdup(w));
	}
	if (spec->stdin_path) {
		const struct file_set *s = &f->sets[f->n - 1];
		ra->stdin_path = set_path(workdir, s, s->names.v[0]);
	}
}

void remote_argv_release(struct remote_argv *ra)
{
	sl_release(&ra->words);
	free(ra->stdin_path);
	ra->stdin_path = NULL;
}

int board_sets(struct board *b, const struct run_files *f, struct strbuf *err)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct file_set *s = &f->sets[i];
		if (sl_find(&b->sets, s->id) >= 0)
			continue;
		struct strbuf cmd = {0};
		sh_quote(&cmd, b->helper);
		sb_add(&cmd, " link ");
		sh_quote(&cmd, b->workdir);
		sb_addc(&cmd, ' ');
		sh_quote(&cmd, s->id);
		for (size_t k = 0; k < s->names.n; k++) {
			sb_addc(&cmd, ' ');
			sh_quote(&cmd, s->names.v[k]);
			sb_addc(&cmd, ' ');
			sh_quote(&cmd, s->hexes.v[k]);
		}
		char *out = NULL;
		int rc = board_command(b, sb_str(&cmd), -1, 60, &out, err);
		if (rc == 3) {
			/* the helper named the objects the board lacks */
			rc = 0;
			for (size_t k = 0; k < s->hexes.n && !rc; k++) {
				char *line = xasprintf("missing %s", s->hexes.v[k]);
				if (strstr(out ? out : "", line))
					rc = board_upload(b, s->paths.v[k], s->hexes.v[k], err);
				free(line);
			}
			if (!rc)
				rc = board_command(b, sb_str(&cmd), -1, 60, NULL, err);
		}
		free(out);
		sb_release(&cmd);
		if (rc) {
			if (rc > 0 && !err->len)
				sb_addf(err, "%s: cannot put the run's files in place", b->dest.name);
			return rc > 0 ? BOARD_FAULT : rc;
		}
		sl_push(&b->sets, s->id);
	}
	return 0;
}
