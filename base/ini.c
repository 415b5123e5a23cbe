/* ini.c - see ini.h */
#include "base/ini.h"

#include <errno.h>
#include <ini.h>
#include <string.h>

struct ini_reader_state {
	FILE *f;
	const char *path;
	int line;
	int too_long;   /* line number of the first over-long line */
	int indented;   /* the line just read starts with a blank */
	int unclosed;   /* line number of a "[section" without its "]" */
	char unclosed_text[128];
	ini_item_fn fn;
	ini_section_fn section_fn;
	void *user;
	struct strbuf *err;
	int failed;
	char prev_section[256];
	char prev_name[256];
};

/* inih calls the reader once per line, so counting here gives the line
 * number of the item the handler sees next. */
static char *reader(char *str, int num, void *stream)
{
	struct ini_reader_state *st = stream;
	if (!fgets(str, num, st->f))
		return NULL;
	st->line++;
	st->indented = (str[0] == ' ' || str[0] == '\t');
	/* the header as inih reads it: "[name]" after blanks, anything after
	 * the "]" ignored */
	const char *p = str + strspn(str, " \t");
	const char *end = *p == '[' ? strchr(p, ']') : NULL;
	if (*p == '[' && !end && !st->indented && !st->unclosed) {
		st->unclosed = st->line;
		snprintf(st->unclosed_text, sizeof(st->unclosed_text), "%.*s",
			 (int)strcspn(p, "\r\n"), p);
	}
	if (end && st->section_fn) {
		char name[256];
		snprintf(name, sizeof(name), "%.*s", (int)(end - p - 1), p + 1);
		st->section_fn(st->user, name, st->line);
	}
	size_t len = strlen(str);
	if (len == (size_t)num - 1 && str[len - 1] != '\n' && !feof(st->f)) {
		if (!st->too_long)
			st->too_long = st->line;
		int c;
		while ((c = fgetc(st->f)) != EOF && c != '\n')
			;
	}
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct ini_reader_state *st = user;
	/* after a "[section" without "]" every key would land in the section
	 * before it and be refused there: the header is the one cause to say */
	if (st->failed || st->unclosed)
		return 0;
	int continued = st->indented && !strcmp(section, st->prev_section) &&
			!strcmp(name, st->prev_name);
	snprintf(st->prev_section, sizeof(st->prev_section), "%s", section);
	snprintf(st->prev_name, sizeof(st->prev_name), "%s", name);
	if (st->fn(st->user, section, name, value, st->line, continued, st->err)) {
		st->failed = st->line;
		return 0;
	}
	return 1;
}

int ini_load(const char *path, ini_item_fn fn, void *user, struct strbuf *err)
{
	return ini_load_sections(path, fn, NULL, user, err);
}

int ini_load_sections(const char *path, ini_item_fn fn, ini_section_fn section_fn, void *user,
		      struct strbuf *err)
{
	struct ini_reader_state st = {.path = path, .fn = fn, .section_fn = section_fn,
				      .user = user, .err = err};
	st.f = fopen(path, "r");
	if (!st.f) {
		sb_addf(err, "%s: cannot read: %s (check the path)", path, strerror_lc(errno));
		return -1;
	}
	int rc = ini_parse_stream(reader, &st, handler, &st);
	fclose(st.f);
	if (st.unclosed) {
		sb_addf(err, "%s:%d: section header '%s' has no closing ']' (write '%s]')", path,
			st.unclosed, st.unclosed_text, st.unclosed_text);
		return -1;
	}
	if (st.failed)
		return -1;
	if (st.too_long) {
		sb_addf(err, "%s:%d: line longer than %d characters (split the value over indented continuation lines)",
			path, st.too_long, INI_MAX_LINE - 2);
		return -1;
	}
	if (rc > 0) {
		sb_addf(err, "%s:%d: not a 'key = value' line or a [section] (fix the syntax)", path, rc);
		return -1;
	}
	if (rc < 0) {
		sb_addf(err, "%s: cannot parse (out of memory or unreadable)", path);
		return -1;
	}
	return 0;
}
