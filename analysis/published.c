/* published.c - see published.h */
#include "analysis/published.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/ini.h"
#include "workloads/searchpath.h"

#define PUBLISHED_FILE "published.ini"

struct loader {
	struct published *head; /* the file's first source */
	struct published *pub;  /* the source the rows go to: the last [source] */
	const char *path;
	char *same_as;
	char *section; /* pub's [source ...] section, or NULL before the first */
};

/* A [source LABEL] after another source starts the next one; its label
 * names its columns, so every source of a file has its own. */
static int source_begin(struct loader *ld, const char *section, int line, struct strbuf *err)
{
	if (ld->section && !strcmp(ld->section, section))
		return 0;
	const char *label = section[6] ? section + 7 : NULL;
	if (ld->section) {
		if (!label) {
			sb_addf(err, "%s:%d: a second source without a label (write [source LABEL], "
				     "a short word for its columns)", ld->path, line);
			return -1;
		}
		for (struct published *q = ld->head; q; q = q->next)
			if (q->label && !strcmp(q->label, label)) {
				sb_addf(err, "%s:%d: [source %s] twice (give each source its own "
					     "label)", ld->path, line, label);
				return -1;
			}
		struct published *next = xcalloc(1, sizeof(*next));
		ld->pub->next = next;
		ld->pub = next;
		free(ld->section);
	}
	ld->section = xstrdup(section);
	ld->pub->label = label ? xstrdup(label) : NULL;
	return 0;
}

static struct published_row *row_for(struct published *pub, const char *section, int line)
{
	const char *sp = strchr(section, ' ');
	size_t klen = (size_t)(sp - section);
	for (size_t i = 0; i < pub->n; i++)
		if (strlen(pub->rows[i].kind) == klen && !strncmp(pub->rows[i].kind, section, klen) &&
		    !strcmp(pub->rows[i].id, sp + 1))
			return &pub->rows[i];
	pub->rows = xrealloc(pub->rows, (pub->n + 1) * sizeof(*pub->rows));
	struct published_row *r = &pub->rows[pub->n++];
	memset(r, 0, sizeof(*r));
	r->kind = xasprintf("%.*s", (int)(sp - section), section);
	r->id = xstrdup(sp + 1);
	r->title = xstrdup("");
	r->link = xstrdup("");
	r->line = line;
	r->values = xcalloc(pub->libcs.n ? pub->libcs.n : 1, sizeof(double));
	for (size_t i = 0; i < pub->libcs.n; i++)
		r->values[i] = NAN;
	return r;
}

static int source_item(struct loader *ld, const char *name, const char *value, int line,
		       struct strbuf *err)
{
	struct published *pub = ld->pub;
	if (!strcmp(name, "title")) {
		free(pub->title);
		pub->title = xstrdup(value);
	} else if (!strcmp(name, "hardware")) {
		free(pub->hardware);
		pub->hardware = xstrdup(value);
	} else if (!strcmp(name, "versions")) {
		free(pub->versions);
		pub->versions = xstrdup(value);
	} else if (!strcmp(name, "url")) {
		free(pub->url);
		pub->url = xstrdup(value);
	} else if (!strcmp(name, "libcs")) {
		if (pub->n) {
			sb_addf(err, "%s:%d: libcs after the rows (put [source] first)", ld->path,
				line);
			return -1;
		}
		sl_release(&pub->libcs);
		sl_split_ws(&pub->libcs, value);
	} else if (!strcmp(name, "same_as")) {
		free(ld->same_as);
		ld->same_as = xstrdup(value);
	} else {
		sb_addf(err, "%s:%d: unknown key '%s' in [source] (use title, url, libcs, hardware, "
			     "versions or same_as)",
			ld->path, line, name);
		return -1;
	}
	return 0;
}

static int row_item(struct loader *ld, const char *section, const char *name, const char *value,
		    int line, int continued, struct strbuf *err)
{
	struct published *pub = ld->pub;
	if (str_starts_with(section, "time ") == 0 && str_starts_with(section, "dirty ") == 0) {
		sb_addf(err, "%s:%d: unknown section [%s] (use [source], [time ID] or [dirty ID])",
			ld->path, line, section);
		return -1;
	}
	if (!pub->libcs.n) {
		sb_addf(err, "%s:%d: a figure before [source]'s libcs (put [source] first)", ld->path,
			line);
		return -1;
	}
	struct published_row *r = row_for(pub, section, line);
	if (!strcmp(name, "runs")) {
		if (!continued)
			sl_release(&r->runs);
		sl_split_ws(&r->runs, value);
		return 0;
	}
	if (continued) {
		sb_addf(err, "%s:%d: '%s' goes on one line (only runs = may continue)", ld->path,
			line, name);
		return -1;
	}
	if (!strcmp(name, "row")) {
		free(r->title);
		r->title = xstrdup(value);
		return 0;
	}
	if (!strcmp(name, "link")) {
		if (strcmp(value, "static") && strcmp(value, "dynamic")) {
			sb_addf(err, "%s:%d: link = '%s' (use static or dynamic)", ld->path, line,
				value);
			return -1;
		}
		free(r->link);
		r->link = xstrdup(value);
		return 0;
	}
	int i = sl_find(&pub->libcs, name);
	if (i < 0) {
		sb_addf(err, "%s:%d: unknown key '%s' (use row, runs, link or a library of [source] "
			     "libcs)", ld->path, line, name);
		return -1;
	}
	char *end;
	errno = 0;
	double v = strtod(value, &end);
	if (errno || end == value || *end || !(v > 0) || !isfinite(v)) {
		sb_addf(err, "%s:%d: %s = '%s' is not a positive number (write the published figure, "
			     "e.g. 0.027)", ld->path, line, name, value);
		return -1;
	}
	r->values[i] = v;
	return 0;
}

static int item(void *user, const char *section, const char *name, const char *value, int line,
		int continued, struct strbuf *err)
{
	struct loader *ld = user;
	if (!strcmp(section, "source") || str_starts_with(section, "source ")) {
		if (source_begin(ld, section, line, err))
			return -1;
		return source_item(ld, name, value, line, err);
	}
	return row_item(ld, section, name, value, line, continued, err);
}

static int load_file(const char *path, struct published *pub, char **same_as, struct strbuf *err)
{
	struct loader ld = {.head = pub, .pub = pub, .path = path};
	int rc = ini_load(path, item, &ld, err);
	*same_as = ld.same_as;
	free(ld.section);
	for (struct published *q = pub; q; q = q->next) {
		free(q->path);
		q->path = xstrdup(path);
	}
	return rc;
}

/* same_as's published.ini: beside recipe_dir (the bundled and installed
 * trees), else where the search path finds that workload (a copy of the
 * recipe in a user's folder); heap, or NULL when there is none */
static char *sibling_file(const char *recipe_dir, const char *same_as)
{
	const char *slash = strrchr(recipe_dir, '/');
	char *path = slash ? xasprintf("%.*s/%s/%s", (int)(slash - recipe_dir), recipe_dir,
				       same_as, PUBLISHED_FILE)
			   : xasprintf("../%s/%s", same_as, PUBLISHED_FILE);
	if (!access(path, F_OK))
		return path;
	free(path);
	char *dir = workload_find(NULL, same_as);
	path = dir ? xasprintf("%s/%s", dir, PUBLISHED_FILE) : NULL;
	free(dir);
	if (path && access(path, F_OK)) {
		free(path);
		path = NULL;
	}
	return path;
}

int published_load(const char *recipe_dir, struct published *pub, struct strbuf *err)
{
	memset(pub, 0, sizeof(*pub));
	char *path = xasprintf("%s/%s", recipe_dir, PUBLISHED_FILE);
	if (access(path, F_OK)) {
		free(path);
		return 1;
	}
	char *same_as = NULL;
	int rc = load_file(path, pub, &same_as, err);
	if (!rc && same_as) {
		if (pub->n || !*same_as || strchr(same_as, '/')) {
			sb_addf(err, "%s: same_as = '%s' with rows of its own, or not a workload name "
				     "(give either same_as = WORKLOAD or the rows)", path, same_as);
			rc = -1;
		} else {
			char *other = sibling_file(recipe_dir, same_as);
			char *again = NULL;
			published_release(pub);
			if (!other) {
				free(same_as);
				free(path);
				return 1;
			}
			rc = load_file(other, pub, &again, err);
			if (!rc && again) {
				sb_addf(err, "%s: same_as again (point same_as at the file with the rows)",
					other);
				rc = -1;
			}
			free(again);
			free(other);
		}
	}
	free(same_as);
	free(path);
	return rc;
}

void published_release(struct published *pub)
{
	if (pub->next) {
		published_release(pub->next);
		free(pub->next);
	}
	for (size_t i = 0; i < pub->n; i++) {
		struct published_row *r = &pub->rows[i];
		free(r->kind);
		free(r->id);
		free(r->title);
		free(r->link);
		sl_release(&r->runs);
		free(r->values);
	}
	free(pub->rows);
	free(pub->label);
	free(pub->title);
	free(pub->url);
	free(pub->hardware);
	free(pub->versions);
	free(pub->path);
	sl_release(&pub->libcs);
	memset(pub, 0, sizeof(*pub));
}

static int link_holds(const struct published_row *r, const char *link)
{
	return !*r->link || (link && !strcmp(r->link, link));
}

const struct published_row *published_find(const struct published *pub, const char *kind,
					   const char *run, const char *link)
{
	for (size_t i = 0; i < pub->n; i++) {
		const struct published_row *r = &pub->rows[i];
		if (!strcmp(r->kind, kind) && link_holds(r, link) && sl_find(&r->runs, run) >= 0)
			return r;
	}
	for (size_t i = 0; i < pub->n; i++) {
		const struct published_row *r = &pub->rows[i];
		if (!strcmp(r->kind, kind) && link_holds(r, link) && sl_find(&r->runs, "*") >= 0)
			return r;
	}
	return NULL;
}

double published_value(const struct published *pub, const struct published_row *r,
		       const char *libc)
{
	int i = sl_find(&pub->libcs, libc);
	return i < 0 ? NAN : r->values[i];
}
