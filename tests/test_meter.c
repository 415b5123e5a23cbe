/*
 * test_meter.c - the meter registry (checked, names and help derived from
 * meters[]) and the cachegrind meter's parser.  Expected: the default set
 * is "rusage perf memory", every meter is known by name, a cachegrind file
 * gives per-function counts and its total as "insns".
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
	free(dir);
	return test_summary("test_meter");
}
