/* report_lnt.c - see report_lnt.h */
#include "analysis/report_lnt.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/results.h"

/* The machine-state keys that stay the same between runs of one machine */
static const char *const lnt_machine_keys[] = {"cpu",    "cores", "governor", "boost",
					       "freq",   "kernel", "vm",       "pin"};

static void json_key(struct strbuf *sb, const char *key, const char *value)
{
	sb_add(sb, sb->len && sb->buf[sb->len - 1] != '{' ? "," : "");
	sb_add_json(sb, key);
	sb_addc(sb, ':');
	sb_add_json(sb, value ? value : "");
}

static void json_numbers(struct strbuf *sb, const char *key, const double *v, size_t n,
			 double scale)
{
	sb_addf(sb, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		sb_addf(sb, "%s%.9g", i ? "," : "", v[i] * scale);
	sb_addc(sb, ']');
}

/* A value of a one-row query on (study, config_id, workload), or -1 */
static double build_value(struct store *st, const char *sql, const char *study,
			  const char *config_id, const char *workload)
{
	sqlite3_stmt *s;
	double v = -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, config_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
		v = sqlite3_column_double(s, 0);
	sqlite3_finalize(s);
	return v;
}

static void lnt_test(struct strbuf *sb, struct store *st, const char *study,
		     const char *config_id, const char *workload, const char *run)
{
	sb_add(sb, "{\"name\":");
	char *name = *run ? xasprintf("flagscope/%s/%s", workload, run)
			  : xasprintf("flagscope/%s", workload);
	sb_add_json(sb, name);
	free(name);
	char *detail = NULL;
	enum outcome status = results_status(st, study, config_id, workload, run, &detail);
	free(detail);
	if (!outcome_ranked(status)) {
		sb_add(sb, ",\"execution_status\":1}");
		return;
	}
	static const struct {
		const char *metric, *lnt;
		double scale;
	} samples[] = {{"time", "execution_time", 1}, {"mem.res", "mem_bytes", 1024}};
	for (size_t m = 0; m < ARRAY_SIZE(samples); m++) {
		size_t n;
		double *v = results_samples(st, study, config_id, workload, run, samples[m].metric,
					    &n, NULL);
		if (n)
			json_numbers(sb, samples[m].lnt, v, n, samples[m].scale);
		free(v);
	}
	double secs = build_value(st, "SELECT seconds FROM builds WHERE study=? AND config_id=? "
				      "AND workload=? AND cached=0", study, config_id, workload);
	double text = build_value(st, "SELECT value FROM build_sizes WHERE study=? AND "
				      "config_id=? AND workload=? AND metric='size.text'",
				  study, config_id, workload);
	if (secs >= 0)
		sb_addf(sb, ",\"compile_time\":%.6g", secs);
	if (text >= 0)
		sb_addf(sb, ",\"code_size\":%.0f", text);
	sb_addc(sb, '}');
}

/* "STUDY__LABEL" with blanks as '_' */
static char *machine_name(const char *study, const char *label)
{
	char *name = xasprintf("%s__%s", study, label);
	for (char *p = name; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	return name;
}

static void lnt_machine(struct strbuf *sb, const char *study, const struct result_config *c,
			const struct strlist *keys, const struct strlist *values)
{
	char *name = machine_name(study, c->label);
	sb_add(sb, ",\"machine\":{");
	json_key(sb, "name", name);
	free(name);
	json_key(sb, "cc", c->cc);
	json_key(sb, "toolchain", c->toolchain);
	json_key(sb, "cflags", c->cflags);
	json_key(sb, "ldflags", c->ldflags);
	json_key(sb, "link", c->link);
	json_key(sb, "config_id", c->id);
	for (size_t i = 0; i < ARRAY_SIZE(lnt_machine_keys); i++) {
		int k = sl_find(keys, lnt_machine_keys[i]);
		if (k >= 0)
			json_key(sb, lnt_machine_keys[i], values->v[k]);
	}
	/* the NTS schema's own machine fields */
	int cpu = sl_find(keys, "cpu"), kernel = sl_find(keys, "kernel");
	if (cpu >= 0)
		json_key(sb, "hardware", values->v[cpu]);
	if (kernel >= 0) {
		char *os = xasprintf("Linux %s", values->v[kernel]);
		json_key(sb, "os", os);
		free(os);
	}
	sb_addc(sb, '}');
}

/* started/finished from the machine state, else when the study was stored */
static char *run_time(struct store *st, const char *study, const struct strlist *keys,
		      const struct strlist *values, const char *key)
{
	int k = sl_find(keys, key);
	if (k >= 0 && strcmp(values->v[k], "unknown"))
		return xstrdup(values->v[k]);
	sqlite3_stmt *s;
	char *t = xstrdup("1970-01-01T00:00:00");
	if (sqlite3_prepare_v2(st->db, "SELECT replace(updated, ' ', 'T') FROM studies WHERE name=?",
			       -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
			free(t);
			t = xstrdup((const char *)sqlite3_column_text(s, 0));
		}
		sqlite3_finalize(s);
	}
	return t;
}

/* The study a saved baseline was saved from (heap), or NULL when study is
 * no baseline */
static char *baseline_source(struct store *st, const char *study)
{
	if (!str_starts_with(study, STORE_BASELINE_PREFIX))
		return NULL;
	size_t n;
	struct store_baseline *b = store_baselines(st, &n);
	char *source = NULL;
	for (size_t i = 0; i < n && !source; i++)
		if (!strcmp(b[i].name, study + strlen(STORE_BASELINE_PREFIX)))
			source = xstrdup(b[i].study);
	store_baselines_free(b, n);
	return source;
}

/* study: the name the submissions carry (a baseline's source study);
 * stored: where its rows are */
static void lnt_run(struct strbuf *sb, struct store *st, const char *study, const char *stored,
		    const char *label, const struct strlist *keys, const struct strlist *values)
{
	char *start = run_time(st, stored, keys, values, "started");
	char *end = run_time(st, stored, keys, values, "finished");
	struct strbuf order = {0};
	for (const char *p = start; *p; p++)
		if (*p >= '0' && *p <= '9')
			sb_addc(&order, *p);
	sb_add(sb, ",\"run\":{");
	json_key(sb, "start_time", start);
	json_key(sb, "end_time", end);
	json_key(sb, "llvm_project_revision", sb_str(&order));
	json_key(sb, "study", study);
	if (strcmp(study, stored))
		json_key(sb, "baseline", stored + strlen(STORE_BASELINE_PREFIX));
	json_key(sb, "configuration", label);
	for (size_t i = 0; i < keys->n; i++)
		if (str_starts_with(keys->v[i], "load."))
			json_key(sb, keys->v[i], values->v[i]);
	sb_addc(sb, '}');
	sb_release(&order);
	free(start);
	free(end);
}

int report_lnt(FILE *out, struct store *st, const char *study)
{
	size_t n;
	struct result_config *c = results_configs(st, study, &n);
	struct strlist keys = {0}, values = {0}, workloads = {0}, runs = {0};
	store_get_machine(st, study, &keys, &values);
	results_items(st, study, &workloads, &runs);
	char *source = baseline_source(st, study);
	const char *shown = source ? source : study;
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = {0};
		sb_add(&sb, "{\"format_version\":\"2\"");
		lnt_machine(&sb, shown, &c[i], &keys, &values);
		lnt_run(&sb, st, shown, study, c[i].label, &keys, &values);
		sb_add(&sb, ",\"tests\":[");
		for (size_t w = 0; w < workloads.n; w++) {
			sb_add(&sb, w ? "," : "");
			lnt_test(&sb, st, study, c[i].id, workloads.v[w], runs.v[w]);
		}
		fprintf(out, "%s]}\n", sb_str(&sb));
		sb_release(&sb);
	}
	free(source);
	result_configs_free(c, n);
	sl_release(&keys);
	sl_release(&values);
	sl_release(&workloads);
	sl_release(&runs);
	return n ? 0 : -1;
}
