/*
 * test_baseline.c - the machine state and baselines in the store
 * (analysis/store.h), compare against a baseline (analysis/compare.h),
 * the machine section of the reports and the LNT writer
 * (analysis/report_lnt.h), on a synthetic database:
 *  - the machine state is stored in order and read back; the reports show
 *    it, with the busy warning only above 0.75 load per core;
 *  - baseline save copies every row of the study and clears its runs
 *    (or keeps them), a study without runs has nothing to save, saving a
 *    name again replaces it, delete removes every row; a baseline is never
 *    the latest study while another is stored;
 *  - compare against a baseline lists the machine differences (not the
 *    load or times) and finds a planted 10% regression;
 *  - LNT: one submission per configuration and line, with the fields
 *    format 2 requires; an item that failed is LNT's FAIL, without samples;
 *    a saved baseline's submissions are its study's machines.
 * Expected: all checks pass.
 */
#include "analysis/compare.h"
#include "analysis/rank.h"
#include "analysis/report.h"
#include "analysis/report_lnt.h"
#include "tests/synthdb.h"

static char *dir;
static const char *const labels[] = {"gcc O2", "gcc O3"};
static const char *const keys[] = {"cpu", "cores", "governor", "load.max", "started"};

static void put_samples(struct store *st, double o2, uint64_t seed)
{
	synth_item(st, "s", "gcc O2", "crc32", "ok", "time", "s", o2, 0.005, 8, 1000, seed);
	synth_item(st, "s", "gcc O3", "crc32", "ok", "time", "s", 1.0, 0.005, 8, 1200, seed + 1);
}

static void put_machine(struct store *st, const char *governor, const char *load,
			const char *started)
{
	char *values[] = {"Test CPU", "2", (char *)governor, (char *)load, (char *)started};
	T_CHECK(!store_put_machine(st, "s", keys, values, ARRAY_SIZE(keys)), "machine stored: %s",
		store_errmsg(st));
}

/* The report of study s in format fmt, as a heap string. */
static char *report_text(struct store *st, const char *fmt)
{
	struct ranking rk;
	struct strbuf err = {0};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!ranking_compute(st, "s", NULL, &rk, &err)) {
		report_print(f, &rk, report_format(fmt));
		ranking_release(&rk);
	}
	fclose(f);
	sb_release(&err);
	return text;
}

static void check_machine_report(struct store *st)
{
	struct strlist k = {0}, v = {0};
	store_get_machine(st, "s", &k, &v);
	T_CHECK(k.n == ARRAY_SIZE(keys) && !strcmp(k.v[2], "governor") &&
			!strcmp(v.v[2], "performance"),
		"read back in order: %zu keys", k.n);
	sl_release(&k);
	sl_release(&v);
	char *text = report_text(st, "table");
	T_CHECK(text && strstr(text, "\nmachine:\n") && strstr(text, "governor     performance"),
		"the table shows the machine state:\n%s", text ? text : "");
	T_CHECK(text && !strstr(text, "warning: the 1-minute load"), "0.50 on 2 cores is quiet");
	free(text);
	put_machine(st, "performance", "3.50", "2026-12-03T10:00:00");
	text = report_text(st, "json");
	T_CHECK(text && strstr(text, "\"machine\":{\"cpu\":\"Test CPU\"") &&
			strstr(text, "\"machine_warning\":\"the 1-minute load average reached 3.50"),
		"JSON: the state and the warning above 0.75 x 2:\n%s", text ? text : "");
	free(text);
	text = report_text(st, "html");
	T_CHECK(text && strstr(text, "<h2>Machine</h2>") && strstr(text, "reached 3.50"),
		"HTML: the machine section and its warning");
	free(text);
}

static void check_save(struct store *st)
{
	int replaced = -1;
	T_CHECK(!store_baseline_save(st, "before", "s", 1, &replaced) && replaced == 0,
		"saved: %s", store_errmsg(st));
	T_CHECK(synth_count(st, "SELECT count(*) FROM runs WHERE study='s'") == 0, "the study's runs cleared");
	T_CHECK(synth_count(st, "SELECT count(*) FROM configs WHERE study='s'") == 2, "configs stay");
	T_CHECK(synth_count(st, "SELECT count(*) FROM runs WHERE study='baseline:before' AND rep>=1") == 16,
		"the baseline has the 16 repetitions");
	T_CHECK(synth_count(st, "SELECT count(*) FROM machine WHERE study='baseline:before'") == 5,
		"and the machine state");
	T_CHECK(synth_count(st, "SELECT count(*) FROM build_sizes WHERE study='baseline:before'") == 2,
		"and the sizes");
	T_CHECK(store_baseline_save(st, "again", "s", 1, &replaced) == 1, "no runs: nothing to save");
	char *latest = store_latest_study(st);
	T_CHECK(latest && !strcmp(latest, "s"), "the latest study is s, not its baseline: %s", latest);
	free(latest);
}

static void check_against(struct store *st)
{
	put_samples(st, 1.10, 7); /* gcc O2 10% slower */
	put_machine(st, "powersave", "0.20", "2026-12-03T11:00:00");
	struct compare_result res;
	struct strbuf err = {0};
	struct rank_options o;
	rank_options_default(&o);
	struct strlist metrics = {0};
	T_CHECK(!compare_studies(st, "baseline:before", st, "s", &metrics, &o, &res, &err), "%s",
		sb_str(&err));
	T_CHECK(res.machine.n == 1 && !strcmp(res.machine.v[0], "governor: performance -> powersave"),
		"one machine difference (loads and times are not): %zu %s", res.machine.n,
		res.machine.n ? res.machine.v[0] : "");
	T_CHECK(res.regressed == 1 && res.unchanged == 1, "O2 regressed, O3 not: %zu %zu",
		res.regressed, res.unchanged);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	compare_print(f, &res, "table");
	fclose(f);
	char *diff = strstr(text, "governor: performance -> powersave"), *line = strstr(text, "REGRESSED");
	T_CHECK(diff && line && diff < line, "the machine differences come first:\n%s", text);
	free(text);
	compare_result_release(&res);
	sb_release(&err);
}

static void check_list_delete(struct store *st)
{
	int replaced;
	T_CHECK(!store_baseline_save(st, "after", "s", 0, &replaced), "saved, runs kept");
	T_CHECK(synth_count(st, "SELECT count(*) FROM runs WHERE study='s' AND rep>=1") == 16, "kept");
	T_CHECK(!store_baseline_save(st, "after", "s", 0, &replaced) && replaced == 1, "replaced");
	size_t n;
	struct store_baseline *b = store_baselines(st, &n);
	T_CHECK(n == 2 && !strcmp(b[0].name, "before") && b[0].runs == 16 && !strcmp(b[0].study, "s"),
		"two baselines listed, oldest first");
	store_baselines_free(b, n);
	T_CHECK(store_baseline_delete(st, "before") == 0, "deleted");
	T_CHECK(store_baseline_delete(st, "before") == 1, "already gone");
	T_CHECK(!store_baseline_exists(st, "before") && store_baseline_exists(st, "after"), "exists");
	T_CHECK(synth_count(st, "SELECT count(*) FROM samples WHERE study='baseline:before'") == 0 &&
			synth_count(st, "SELECT count(*) FROM studies WHERE name='baseline:before'") == 0,
		"every row of the baseline is gone");
}

static void check_lnt(struct store *st)
{
	synth_build_failed(st, "s", "gcc O3", "nbody", "compile error");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	T_CHECK(!report_lnt(f, st, "s"), "written");
	fclose(f);
	int lines = 0;
	for (char *p = text; p && *p; p++)
		lines += *p == '\n';
	T_CHECK(lines == 2, "one submission per configuration and line: %d", lines);
	const char *want[] = {"{\"format_version\":\"2\",\"machine\":{\"name\":\"s__gcc_O2\"",
			      "\"governor\":\"powersave\"", "\"run\":{\"start_time\":\"2026-12-03T11:00:00\"",
			      "\"llvm_project_revision\":\"20261203110000\"",
			      "\"tests\":[{\"name\":\"flagscope/crc32\",\"execution_time\":[",
			      "\"code_size\":1000", "\"code_size\":1200", "\"compile_time\":1",
			      "{\"name\":\"flagscope/nbody\",\"execution_status\":1}"};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		T_CHECK(text && strstr(text, want[i]), "LNT has %s:\n%s", want[i], text ? text : "");
	free(text);
	/* a saved baseline is the same LNT machine as the study it was saved
	 * from (so LNT orders its runs with the later ones), its name in run */
	int replaced;
	T_CHECK(!store_baseline_save(st, "lntold", "s", 0, &replaced), "%s", store_errmsg(st));
	f = open_memstream(&text, &len);
	T_CHECK(!report_lnt(f, st, STORE_BASELINE_PREFIX "lntold"), "baseline written");
	fclose(f);
	T_CHECK(strstr(text, "\"machine\":{\"name\":\"s__gcc_O2\"") &&
			strstr(text, "\"study\":\"s\",\"baseline\":\"lntold\"") &&
			!strstr(text, "baseline:lntold"),
		"a baseline's LNT machine is its study's:\n%s", text);
	free(text);
}

int main(void)
{
	dir = test_tmpdir("baseline");
	struct store st;
	synth_open(&st, dir, "b.db", "s", "time", labels, NULL, 2);
	put_samples(&st, 1.0, 1);
	put_machine(&st, "performance", "0.50", "2026-12-03T10:00:00");
	check_machine_report(&st);
	check_save(&st);
	check_against(&st);
	check_list_delete(&st);
	check_lnt(&st);
	store_close(&st);
	free(dir);
	return test_summary("test_baseline");
}
