/* results_args.c - see results_args.h */
#include "explorer/results_args.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results.h"
#include "base/ini.h"

int results_command_start(const struct command_spec *cmd, int argc, char **argv,
			  const struct results_opts *r, struct rank_options *ro, struct store *st,
			  char **study)
{
	struct strlist pos = {0};
	int rc = options_parse(cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 1 : 2;
	if (pos.n) {
		error_msg("%s: unexpected argument '%s' (see flagscope %s --help)", cmd->name,
			  pos.v[0], cmd->name);
		sl_release(&pos);
		return 2;
	}
	if (results_stat_options(cmd->name, r->alpha, r->min_effect, ro) ||
	    results_open(r->db ? r->db : "flagscope.db", r->study, st, study))
		return 2;
	return 0;
}

int results_open(const char *path, const char *study, struct store *st, char **name)
{
	struct strbuf err = {0};
	*name = NULL;
	if (!file_exists(path)) {
		error_msg("%s: no results database (run a study first, or pass --db PATH)", path);
		return -1;
	}
	if (store_open(st, path, 0, &err)) {
		error_msg("%s", sb_str(&err));
		sb_release(&err);
		return -1;
	}
	*name = study ? xstrdup(study) : store_latest_study(st);
	if (!*name) {
		error_msg("%s: holds no study (run one first)", path);
		store_close(st);
		return -1;
	}
	char *note = results_study_notes(st, *name);
	for (char *line = note, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		warn_msg("%s", line);
	}
	free(note);
	return 0;
}

static int parse_fraction(const char *cmd, const char *opt, const char *text, double lo,
			  double hi, double *v)
{
	char *end;
	double x = strtod(text, &end);
	if (end != text && *end == '%' && !end[1]) {
		x /= 100;
		end++;
	}
	if (end == text || *end || !isfinite(x) || x < lo || x > hi) {
		error_msg("%s: --%s needs a number from %g to %g, not '%s' (see flagscope %s --help)",
			  cmd, opt, lo, hi, text, cmd);
		return -1;
	}
	*v = x;
	return 0;
}

int results_stat_options(const char *cmd, const char *alpha, const char *min_effect,
			 struct rank_options *o)
{
	rank_options_default(o);
	if (alpha && (parse_fraction(cmd, "alpha", alpha, 1e-9, 0.5, &o->alpha)))
		return -1;
	/* auto keeps the fixed default as the fallback of items with no floor */
	if (min_effect && strcmp(min_effect, "auto")) {
		o->min_effect_auto = 0;
		if (parse_fraction(cmd, "min-effect", min_effect, 0, 0.99, &o->min_effect))
			return -1;
	}
	return 0;
}

/* 1 when path is an SQLite database (its 16-byte header) */
static int is_database(const char *path)
{
	char head[16] = {0};
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head), f) : 0;
	if (f)
		fclose(f);
	return n == sizeof(head) && !memcmp(head, "SQLite format 3", sizeof(head));
}

static void note_study_section(void *user, const char *section, int line)
{
	(void)line;
	*(int *)user |= !strcmp(section, "study");
}

static int any_item(void *user, const char *section, const char *name, const char *value,
		    int line, int continued, struct strbuf *err)
{
	(void)user, (void)section, (void)name, (void)value, (void)line, (void)continued, (void)err;
	return 0;
}

/* 1 when path is named or reads as a study file (a [study] section) */
static int is_study(const char *path)
{
	size_t n = strlen(path);
	if (n >= 6 && !strcmp(path + n - 6, ".study"))
		return 1;
	int found = 0;
	struct strbuf err = {0};
	/* a report is no INI file: reading stops at its first line, unfound */
	if (file_exists(path))
		ini_load_sections(path, any_item, note_study_section, &found, &err);
	sb_release(&err);
	return found;
}

int results_output_refused(const char *path)
{
	/* -o flagscope.db for --db would truncate the results; -o my.study
	 * for the study would lose it */
	if (is_database(path)) {
		error_msg("%s: is a results database: writing the output there would destroy it "
			  "(pick another file for -o)", path);
		return 1;
	}
	if (is_study(path)) {
		error_msg("%s: is a study file (a *.study name or a [study] section): writing the "
			  "output there would lose it (pick another file for -o)", path);
		return 1;
	}
	return 0;
}

FILE *results_output_open(const char *path)
{
	if (!path)
		return stdout;
	if (results_output_refused(path))
		return NULL;
	FILE *f = fopen(path, "w");
	if (!f)
		error_msg("%s: cannot write the output: %s (check the path)", path, strerror_lc(errno));
	return f;
}

int results_output_close(FILE *f, const char *path)
{
	if (f == stdout)
		return 0;
	int bad = ferror(f);
	if (fclose(f) || bad) {
		error_msg("%s: cannot write the output (check the disk)", path);
		return -1;
	}
	return 0;
}
