/* study_names.c - see study_names.h */
#include "harness/study_names.h"

#include <stdlib.h>

#include "harness/fetch.h"
#include "harness/meter.h"

static void add_line(struct strbuf *err, const char *path, int line, const char *what)
{
	if (err->len)
		sb_addc(err, '\n');
	if (line > 0)
		sb_addf(err, "%s:%d: %s", path, line, what);
	else
		sb_addf(err, "%s: %s", path, what);
}

int meter_names_check(const struct strlist *names, const char *where, int line,
		      struct strbuf *err)
{
	int rc = 0;
	for (size_t i = 0; i < names->n; i++)
		if (!meter_lookup(names->v[i])) {
			char *what = xasprintf("unknown meter '%s' (known: %s)", names->v[i],
					       meter_known_names());
			add_line(err, where, line, what);
			free(what);
			rc = -1;
		}
	return rc;
}

int study_check_names(const struct study *s, struct strbuf *err)
{
	if (s->meters_line && !s->meters.n) { /* it silently meant the default */
		char *what = xasprintf("meters = names no meter (name one or more of: %s; or leave "
				       "the line out for the default, %s)", meter_known_names(),
				       meter_names());
		add_line(err, s->path, s->meters_line, what);
		free(what);
		return -1;
	}
	return meter_names_check(&s->meters, s->path, s->meters_line, err);
}

/* one_check: source_check or the parse alone */
static int source_check_parse(const char *spec, struct strbuf *err)
{
	return source_parse(spec, NULL, err);
}

static int check_sources(const struct recipe *r, int (*one_check)(const char *, struct strbuf *),
			 struct strbuf *err)
{
	if (!r->source)
		return 0;
	struct strbuf why = {0};
	/* a package named without a recipe (packages =, run --packages) has no file */
	char *path = r->dir ? xasprintf("%s/recipe.ini", r->dir) : xasprintf("package %s", r->name);
	int rc = one_check(r->source, &why);
	if (rc && r->source_origin) /* an override: where it was written */
		sb_addf(err, "%s%s: %s", err->len ? "\n" : "", r->source_origin, sb_str(&why));
	else if (rc)
		add_line(err, path, r->source_line, sb_str(&why));
	for (size_t i = 0; i < r->nextra; i++) {
		sb_release(&why);
		if (!one_check(r->extra[i].spec, &why))
			continue;
		if (r->extra[i].origin) /* an override: where it was written */
			sb_addf(err, "%s%s: %s", err->len ? "\n" : "", r->extra[i].origin, sb_str(&why));
		else
			add_line(err, path, r->extra[i].line, sb_str(&why));
		rc = -1;
	}
	free(path);
	sb_release(&why);
	return rc;
}

int recipe_check_names(const struct recipe *r, struct strbuf *err)
{
	return check_sources(r, source_check, err);
}

int recipe_check_kinds(const struct recipe *r, struct strbuf *err)
{
	return check_sources(r, source_check_parse, err);
}
