/*
 * test_meter.c - the meter registry (checked, names and help derived from
 * meters[]) and the cachegrind meter's parser.  Expected: the default set
 * is "rusage perf memory", every meter is known by name, a cachegrind file
 * gives per-function counts and its total as "insns"; what a meter's collect
 * gives is among the metric names it declares (what --metric is checked
 * against before a study builds).
 */
#include "harness/meter.h"
#include "harness/meter_cachegrind.h"
#include "tests/testlib.h"

static void check_registry(void)
{
	struct strbuf err = {0};
	T_CHECK(!meters_check(&err), "meters[]: %s", sb_str(&err));
	sb_release(&err);
	T_CHECK(!strcmp(meter_names(), "rusage perf memory"), "default '%s'", meter_names());
	T_CHECK(!strcmp(meter_known_names(), "rusage perf memory cachegrind qemu-insn"), "known '%s'",
		meter_known_names());
	char *help = meter_help_text();
	for (size_t i = 0; meter_at(i); i++) {
		const struct meter_ops *m = meter_at(i);
		T_CHECK(meter_lookup(m->name) == m, "lookup %s", m->name);
		T_CHECK(strstr(help, m->name) && strstr(help, m->help), "help lacks %s:\n%s", m->name,
			help);
	}
	free(help);
	T_CHECK(!meter_lookup("stopwatch"), "an unknown meter was found");
	/* the qemu runner brings its own meter */
	T_CHECK(runner_qemu.meter == &meter_qemu_insn && meter_qemu_insn.own, "qemu-insn");
}

/* every name m's collect gave in got is in m's metrics table */
static void check_declared(const struct meter_ops *m, const struct measurements *got)
{
	struct strlist names = {0};
	meter_push_metrics(m, &names);
	T_CHECK(got->n > 0, "%s collected nothing", m->name);
	for (size_t i = 0; i < got->n; i++)
		T_CHECK(sl_find(&names, got->v[i].name) >= 0 && meter_table_find(m, got->v[i].name),
			"%s gives '%s', not in its metrics or without a grain", m->name, got->v[i].name);
	sl_release(&names);
}

static void check_metric_names(const char *dir)
{
	char *perf = test_write(dir, "perf.out", "# started on x\n\n1200,,cycles,100,100.00,,\n"
						  "3.5,msec,task-clock,100,100.00,,\n");
	struct meter_run pr = {.scratch = perf};
	struct measurements pm = {0};
	struct strbuf pnote = {0};
	T_CHECK(!meter_perf.collect(&pr, &pm, &pnote) && pm.n == 2, "perf collect: %zu", pm.n);
	check_declared(&meter_perf, &pm);
	measurements_release(&pm);
	sb_release(&pnote);
	free(perf);
	struct run_result rr = {.wall = 1, .user = 0.5, .maxrss_kb = 10, .vm_peak_kb = 20,
				.vm_hwm_kb = 10, .dirty_kb = 5};
	struct meter_run mr = {.rr = &rr};
	const struct meter_ops *timed[] = {&meter_rusage, &meter_memory};
	for (size_t i = 0; i < ARRAY_SIZE(timed); i++) {
		struct measurements m = {0};
		struct strbuf note = {0};
		T_CHECK(!timed[i]->collect(&mr, &m, &note), "%s collect", timed[i]->name);
		check_declared(timed[i], &m);
		measurements_release(&m);
		sb_release(&note);
	}
	/* "rusage" alone: no perf, memory or insns names (the qemu runner's
	 * own meter comes with the runner, not here) */
	struct strlist names = {0};
	meter_metric_names("rusage", &names);
	T_CHECK(sl_find(&names, "time") >= 0 && sl_find(&names, "insns") < 0 &&
			sl_find(&names, "perf/task-clock") < 0 && sl_find(&names, "mem.res") < 0,
		"rusage's names: %zu", names.n);
	sl_release(&names);
	meter_metric_names(NULL, &names);
	T_CHECK(sl_find(&names, "perf/task-clock") >= 0 && sl_find(&names, "mem.res") >= 0,
		"the default set's names: %zu", names.n);
	sl_release(&names);
}

static void check_cachegrind(const char *dir)
{
	char *path = test_write(dir, "cachegrind.out",
				"events: Ir\nfl=a.c\nfn=main\n3 100\n4 20\nfl=b.c\nfn=crc\n1 500\n"
				"fi=c.h\nfn=main\n9 5\nsummary: 625\n");
	struct fn_counts p;
	struct strbuf err = {0};
	struct measurements m = {0};
	struct meter_state st = {0};
	struct meter_run mr = {.st = &st, .scratch = path, .out = &p};
	memset(&p, 0, sizeof(p));
	T_CHECK(!meter_cachegrind.collect(&mr, &m, &err), "collect: %s", sb_str(&err));
	T_CHECK(m.n == 1 && !strcmp(m.v[0].name, "insns") && m.v[0].value == 625, "insns");
	check_declared(&meter_cachegrind, &m);
	T_CHECK(p.n == 2 && !strcmp(p.name[0], "main") && p.ir[0] == 125 && p.ir[1] == 500 &&
			p.total == 625,
		"per function: n %zu", p.n);
	fn_counts_release(&p);
	measurements_release(&m);
	free(path);
	path = test_write(dir, "not-cachegrind", "events: Dr\nfn=x\n1 2\n");
	T_CHECK(cachegrind_parse(path, &p, &err) == -1 && strstr(sb_str(&err), "no Ir event"),
		"%s", sb_str(&err));
	sb_release(&err);
	free(path);
}

int main(void)
{
	char *dir = test_tmpdir("meter");
	check_registry();
	check_cachegrind(dir);
	check_metric_names(dir);
	free(dir);
	return test_summary("test_meter");
}
