/* build_logs.c - see build_logs.h */
#include "pipeline/build_logs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/pivot_sweep.h"
#include "harness/build.h"
#include "pipeline/pipeline_internal.h"

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* text into path through a temporary name: a log is never seen half
 * written (a shard killed while it keeps them, a merge reading them) */
static int write_whole(const char *path, const char *text, size_t len)
{
	char *tmp = xasprintf("%s.tmp%d", path, (int)getpid());
	int rc = file_write(tmp, text, len) || rename(tmp, path) ? -1 : 0;
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* The files of a build folder that are kept, and where each goes: the
 * build's log, and a Debian package's test step's (debpkg.h), where a
 * sweep's failing tests are named */
static const struct {
	const char *name;
	char *(*path)(const char *dir, const char *workload, const char *label);
} kept_files[] = {
	{"build.log", sweep_log_path},
	{"tests.log", sweep_tests_log_path},
};

/* One kept file: 1 from a folder of from (or already in place), 2 from
 * the build cache, 0 found nowhere, -1 not written (said) */
static int keep_file(const char *dir, const char *workload, const char *label, const char *key,
		     const struct strlist *from, size_t f)
{
	char *to = kept_files[f].path(dir, workload, label), *text = NULL;
	size_t len = 0;
	int there = 0;
	for (size_t i = 0; from && i < from->n && !text && !there; i++) {
		char *p = kept_files[f].path(from->v[i], workload, label);
		there = same_file(p, to);
		if (!there)
			text = file_read(p, &len);
		free(p);
	}
	int rc = there || text ? 1 : 0;
	if (!rc) {
		char *bdir = build_dir_of_key(key);
		char *path = xasprintf("%s/%s", bdir, kept_files[f].name);
		text = file_read(path, &len);
		rc = text ? 2 : 0;
		free(bdir);
		free(path);
	}
	if (text) {
		*strrchr(to, '/') = 0;
		int made = mkdir_p(to, 0755);
		to[strlen(to)] = '/';
		if (made || write_whole(to, text, len)) {
			error_msg("%s: cannot write the build log (check --logs)", to);
			rc = -1;
		}
	}
	free(text);
	free(to);
	return rc;
}

int build_log_keep(const char *dir, const char *workload, const char *label, const char *key,
		   const struct strlist *from, struct build_logs_count *n)
{
	int rc = keep_file(dir, workload, label, key, from, 0);
	if (rc < 0)
		return -1;
	n->kept += rc == 1;
	n->cached += rc == 2;
	n->missing += rc == 0;
	for (size_t f = 1; f < ARRAY_SIZE(kept_files); f++) /* only where the build made them */
		if (keep_file(dir, workload, label, key, from, f) < 0)
			return -1;
	return 0;
}

char *build_logs_summary(const char *dir, const struct build_logs_count *n)
{
	struct strbuf sb = {0};
	sb_addf(&sb, "%s: %ld build logs kept", dir, n->kept + n->cached);
	if (n->kept && n->cached)
		sb_addf(&sb, " (%ld from the shards' log folders, %ld from the build cache)", n->kept,
			n->cached);
	if (n->missing)
		sb_addf(&sb, ", %ld found neither in a shard's log folder nor in this machine's "
			     "build cache (give the shards run --logs, as flagscope slurm does, or "
			     "one cache)",
			n->missing);
	return sb_detach(&sb);
}

/* s with every "<dir>/<name>" of a kept file replaced by its kept copy's
 * path (heap; NULL when s names none) */
static char *naming_kept(const char *s, const char *bdir, const char *dir,
			 const struct build *b)
{
	char *out = NULL;
	for (size_t f = 0; s && f < ARRAY_SIZE(kept_files); f++) {
		char *from = xasprintf("%s/%s", bdir, kept_files[f].name);
		char *to = kept_files[f].path(dir, b->recipe->name, b->cfg->label);
		const char *cur = out ? out : s, *hit = strstr(cur, from);
		if (hit && file_exists(to)) {
			char *s2 = xasprintf("%.*s%s%s", (int)(hit - cur), cur, to, hit + strlen(from));
			free(out);
			out = s2;
		}
		free(from);
		free(to);
	}
	return out;
}

/* The build's log kept as soon as it finished, and its detail naming that
 * copy: the console line, the store and every report after name the log
 * the user asked for, which outlives a cleaned build cache */
static void keep_one_now(struct pipeline *pl, struct build *b)
{
	const char *dir = pl->opt->logs_dir;
	struct build_logs_count n = {0};
	char *abs = realpath(dir, NULL);
	if (!abs || build_log_keep(abs, b->recipe->name, b->cfg->label, b->key, NULL, &n)) {
		free(abs);
		return;
	}
	char *named = naming_kept(b->detail, b->dir, abs, b);
	if (named) {
		free(b->detail);
		b->detail = named;
	}
	free(abs);
}

void pipeline_build_kept(const struct build *done_build, size_t done, size_t total, void *user)
{
	struct pipeline *pl = user;
	const struct pipeline_events *ev = &pl->opt->ev;
	struct build *b = &pl->plan->builds[done_build - pl->plan->builds];
	if (!b->interrupted && !b->settled)
		keep_one_now(pl, b);
	if (ev->build_done)
		ev->build_done(b, done, total, ev->user);
}

/* run --logs: this run's builds (its shard's) that ran or were found
 * built; a build settled before building has no log */
void pipeline_keep_logs(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	const char *dir = pl->opt->logs_dir;
	struct build_logs_count n = {0};
	int rc = mkdir_p(dir, 0755);
	if (rc)
		error_msg("%s: cannot make the log folder (check --logs)", dir);
	for (size_t i = 0; !rc && i < p->nconfigs * p->nworkloads; i++) {
		const struct build *b = &p->builds[i];
		if (p->in_shard[i] && !b->interrupted && !b->settled)
			rc = build_log_keep(dir, b->recipe->name, b->cfg->label, b->key, NULL, &n);
	}
	char *abs = realpath(dir, NULL);
	if (!rc)
		pipeline_stored(pl, store_put_fact(pl->store, p->study.name, BUILD_LOGS_FACT,
						   abs ? abs : dir));
	char *said = build_logs_summary(dir, &n);
	pipeline_say(pl->opt, "%s", said);
	free(said);
	free(abs);
}
