/*
 * test_settings.c - the settings table (flagsets/settings.h) walked row by
 * row: every key loads from a study file and fills its field (and its
 * line), its default loads to what a study without the key gets, it is
 * named in `flagscope run --help` and in doc/study-format.md, and a row
 * with a run option is one `run` takes (--parse-only) and study_override
 * sets it, after which errors name the option (setting_where).  A refused value
 * names the key and the value; an unknown key's "known:" list is the
 * table's.
 */
#include <stddef.h>
#include <sys/wait.h>

#include "flagsets/settings.h"
#include "flagsets/study.h"
#include "tests/testlib.h"

static const char *dir;

/* A value the row's parser takes. */
static const char *good_value(const struct study_setting *st)
{
	return st->example ? st->example : st->def ? st->def : "x";
}

/* A study of crc32 with one O2 level, plus "key = value" in its section
 * (key NULL: nothing added). */
static char *study_text(const struct study_setting *st, const char *value)
{
	int workloads = st && !strcmp(st->key, "workloads") && !strcmp(st->section, "study");
	int host = st && !strcmp(st->section, "run") && strcmp(st->key, "host") &&
		   strcmp(st->key, "hosts");
	struct strbuf sb = {0};
	sb_add(&sb, "[study]\n");
	if (!workloads)
		sb_add(&sb, "workloads = crc32\n");
	if (st && !strcmp(st->section, "study"))
		sb_addf(&sb, "%s = %s\n", st->key, value);
	sb_add(&sb, "[axis opt]\nO2 = -O2\n");
	if (st && !strcmp(st->section, "run"))
		sb_addf(&sb, "[run]\n%s%s = %s\n", host ? "host = user@board\n" : "", st->key, value);
	return sb_detach(&sb);
}

static int load(const char *name, const char *text, struct study *s, struct strbuf *err)
{
	char *path = test_write(dir, name, text);
	int rc = study_load(path, s, err);
	free(path);
	return rc;
}

static int same_field(const struct study_setting *st, const struct study *a, const struct study *b)
{
	const char *fa = (const char *)a + st->field, *fb = (const char *)b + st->field;
	switch (st->type) {
	case SETTING_TEXT:
	case SETTING_CPULIST: {
		const char *x = *(char *const *)fa, *y = *(char *const *)fb;
		return x && y ? !strcmp(x, y) : x == y;
	}
	case SETTING_WORDS:
		return 1;
	case SETTING_REPEAT:
		return a->repeat == b->repeat && a->repeat_auto == b->repeat_auto &&
		       a->repeat_stable == b->repeat_stable;
	case SETTING_SECONDS:
	case SETTING_FRACTION:
	case SETTING_NUMBER:
		return *(const double *)fa == *(const double *)fb;
	default:
		return *(const int *)fa == *(const int *)fb;
	}
}

static void test_loads(const struct study_setting *st)
{
	struct study s, plain;
	struct strbuf err = {0};
	char *text = study_text(st, good_value(st));
	T_CHECK(!load("one.study", text, &s, &err), "[%s] %s = %s: %s", st->section, st->key,
		good_value(st), sb_str(&err));
	if (st->line != SETTING_NO_FIELD)
		T_CHECK(*(const int *)((const char *)&s + st->line) > 0, "%s: no line kept", st->key);
	if (st->type == SETTING_TEXT || st->type == SETTING_CPULIST) {
		const char *got = *(char *const *)((const char *)&s + st->field);
		T_CHECK(got && !strcmp(got, good_value(st)), "%s: the field holds '%s'", st->key,
			got ? got : "(null)");
	}
	study_release(&s);
	free(text);
	sb_release(&err);
	if (!st->def)
		return;
	/* the default the table states is what a study without the key gets */
	text = study_text(st, st->def);
	char *none = study_text(NULL, NULL);
	if (!strcmp(st->section, "run")) { /* a [run] needs its host */
		free(none);
		none = study_text(&(struct study_setting){.key = "host", .section = "run"}, "user@board");
	}
	T_CHECK(!load("def.study", text, &s, &err) && !load("none.study", none, &plain, &err),
		"%s = %s: %s", st->key, st->def, sb_str(&err));
	T_CHECK(same_field(st, &s, &plain), "%s: '%s = %s' is not what a study without it gets",
		st->key, st->key, st->def);
	study_release(&s);
	study_release(&plain);
	free(text);
	free(none);
	sb_release(&err);
}

static void test_refused(const struct study_setting *st)
{
	static const char *const bad_values[] = {
		[SETTING_INT] = "many", [SETTING_REPEAT] = "many", [SETTING_SECONDS] = "-1",
		[SETTING_FRACTION] = "2", [SETTING_NUMBER] = "-1", [SETTING_ENUM] = "nosuch",
		[SETTING_YESNO] = "maybe", [SETTING_CPULIST] = "0-x",
	};
	const char *bad = st->type < ARRAY_SIZE(bad_values) ? bad_values[st->type] : NULL;
	if (!bad && !st->nonempty)
		return;
	if (!bad)
		bad = "";
	struct study s;
	struct strbuf err = {0};
	char *text = study_text(st, bad);
	T_CHECK(load("bad.study", text, &s, &err) && strstr(sb_str(&err), st->key) &&
			(!*bad || strstr(sb_str(&err), bad)),
		"[%s] %s = %s: %s", st->section, st->key, bad, sb_str(&err));
	study_release(&s);
	free(text);
	sb_release(&err);
}

static char *run_output(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	struct strbuf sb = {0};
	char buf[4096];
	size_t n;
	while (p && (n = fread(buf, 1, sizeof(buf), p)) > 0)
		sb_addn(&sb, buf, n);
	int rc = p ? pclose(p) : -1;
	*status = rc >= 0 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
	return sb_detach(&sb);
}

static void test_named(const char *bin)
{
	int status;
	char *cmd = xasprintf("'%s' run --help", bin);
	char *help = run_output(cmd, &status);
	char *page = xasprintf("%s/doc/study-format.md", FLAGSCOPE_SOURCE_DIR);
	char *doc = file_read(page, NULL);
	T_CHECK(status == 0 && doc, "run --help exit %d; %s read: %d", status, page, doc != NULL);
	for (const struct study_setting *st = study_settings; st->key && doc; st++) {
		char *in_help = xasprintf("[%s] %s\n", st->section, st->key);
		char *in_help_def = xasprintf("[%s] %s ", st->section, st->key);
		T_CHECK(strstr(help, in_help) || strstr(help, in_help_def),
			"run --help does not name [%s] %s", st->section, st->key);
		/* `key`, `key = ...`, or a line "key = ..." of an ini block */
		char *tick = xasprintf("`%s`", st->key), *tick_eq = xasprintf("`%s =", st->key);
		char *line = xasprintf("\n%s = ", st->key);
		T_CHECK(strstr(doc, tick) || strstr(doc, tick_eq) || strstr(doc, line),
			"%s does not name `%s`", page, st->key);
		free(line);
		free(in_help);
		free(in_help_def);
		free(tick);
		free(tick_eq);
	}
	free(help);
	free(doc);
	free(page);
	free(cmd);
}

/* A row that names a run option: run takes it, with a value its parser
 * would take, and lists it in --help. */
static void test_overridable(const char *bin, const char *study)
{
	int status;
	char *cmd = xasprintf("'%s' run --help", bin);
	char *help = run_output(cmd, &status);
	free(cmd);
	for (const struct study_setting *st = study_settings; st->key; st++) {
		if (!st->flag)
			continue;
		const char *value = st->type == SETTING_REPEAT ? "3" : !strcmp(st->key, "workloads") ? "crc32" : good_value(st);
		char *opt = xasprintf("--%s ", st->flag);
		T_CHECK(strstr(help, opt), "run --help lists no %s", opt);
		cmd = xasprintf("'%s' --parse-only run '%s' --%s '%s' 2>&1", bin, study, st->flag, value);
		char *out = run_output(cmd, &status);
		T_CHECK(status == 0, "%s: exit %d: %s", cmd, status, out);
		free(out);
		free(cmd);
		free(opt);
	}
	free(help);
}

/* A row with a run option, set from the option: the field holds the
 * option's value, its line is cleared, and errors name the option. */
static void test_override(const struct study_setting *st)
{
	struct study s;
	struct strbuf err = {0};
	char *text = study_text(NULL, NULL);
	const char *value = st->type == SETTING_REPEAT ? "3" : good_value(st);
	T_CHECK(!load("over.study", text, &s, &err), "%s", sb_str(&err));
	T_CHECK(!study_override(&s, st->key, value, &err), "--%s %s: %s", st->flag, value,
		sb_str(&err));
	char *where = setting_where(&s, st->key), *want = xasprintf("--%s", st->flag);
	T_CHECK(!strcmp(where, want), "%s: where is '%s'", st->key, where);
	if (st->line != SETTING_NO_FIELD)
		T_CHECK(!*(const int *)((const char *)&s + st->line), "%s: the file's line kept",
			st->key);
	if (st->type == SETTING_REPEAT)
		T_CHECK(s.repeat == 3 && !s.repeat_stable && !s.repeat_auto, "--repeat 3: %d", s.repeat);
	if (st->type == SETTING_TEXT || st->type == SETTING_CPULIST)
		T_CHECK(!strcmp(*(char *const *)((const char *)&s + st->field), value), "%s", st->key);
	free(where);
	free(want);
	free(text);
	study_release(&s);
	sb_release(&err);
}

int main(void)
{
	dir = test_tmpdir("settings");
	for (const struct study_setting *st = study_settings; st->key; st++) {
		T_CHECK(st->help && *st->help, "%s: no help line", st->key);
		T_CHECK(setting_lookup(st->section, st->key) == st, "%s: looked up as another row",
			st->key);
		test_loads(st);
		test_refused(st);
		if (st->flag)
			test_override(st);
	}
	struct study s;
	struct strbuf err = {0};
	char *known = setting_keys("study");
	T_CHECK(load("unknown.study", "[study]\nworkloads = crc32\ncolour = red\n", &s, &err) &&
			strstr(sb_str(&err), known),
		"the unknown key's list is not the table's: %s", sb_str(&err));
	free(known);
	study_release(&s);
	sb_release(&err);
	const char *bin = getenv("FLAGSCOPE_BIN");
	if (bin && *bin) {
		char *study = study_text(NULL, NULL);
		char *path = test_write(dir, "plain.study", study);
		test_named(bin);
		test_overridable(bin, path);
		free(study);
		free(path);
	} else {
		printf("SKIP (part): no FLAGSCOPE_BIN: run --help and run's options not checked\n");
	}
	return test_summary("test_settings");
}
