/*
 * test_machine.c - the machine state (harness/machine.h) read from fake
 * /proc and /sys trees, so the parsing is tested without this machine:
 *  - an x86 host with cpufreq (governor, intel_pstate turbo, range), an
 *    x86 VM without cpufreq (hypervisor flag, DMI vendor, cpuinfo MHz), an
 *    arm board (no model name line, and "cpu MHz" is not "cpu"; no flags
 *    line: vm unknown; cpufreq boost off) and an empty tree (everything "unknown", nothing fails);
 *  - the load: before, the largest sampled, after; the sampling thread;
 *  - isolate's check: refused above per_core x cores, with both numbers;
 *  - CPU lists (base/cpulist.h): good and bad lists, formatting, and the
 *    pin check against the CPUs this process may use;
 *  - a study's pin, isolate and isolate_load keys.
 * Expected: all checks pass.
 */
#include <math.h>

#include "base/cpulist.h"
#include "flagsets/study.h"
#include "harness/machine.h"
#include "tests/testlib.h"

static char *dir;

struct file {
	const char *path, *text;
};

/* A tree of files under dir/name; heap path of its root. */
static char *fake_tree(const char *name, const struct file *files)
{
	char *root = xasprintf("%s/%s", dir, name);
	mkdir_p(root, 0755);
	for (; files->path; files++) {
		char *path = xasprintf("%s/%s", root, files->path);
		char *slash = strrchr(path, '/');
		*slash = '\0';
		mkdir_p(path, 0755);
		*slash = '/';
		file_write(path, files->text, strlen(files->text));
		free(path);
	}
	return root;
}

static const struct file x86_host[] = {
	{"proc/cpuinfo",
	 "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n"
	 "cpu MHz\t\t: 2400.000\nflags\t\t: fpu vme de pse tsc msr sse sse2\n\n"
	 "processor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n"
	 "flags\t\t: fpu vme de pse tsc msr sse sse2\n\n"
	 "processor\t: 2\nprocessor\t: 3\n"},
	{"proc/loadavg", "0.25 0.30 0.40 1/200 1234\n"},
	{"proc/sys/kernel/osrelease", "6.1.0-18-amd64\n"},
	{"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n"},
	{"sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", "1200000\n"},
	{"sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "3300000\n"},
	{"sys/devices/system/cpu/intel_pstate/no_turbo", "0\n"},
	{"sys/class/dmi/id/sys_vendor", "Dell Inc.\n"},
	{NULL, NULL},
};

static const struct file x86_vm[] = {
	{"proc/cpuinfo",
	 "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.406\n"
	 "flags\t\t: fpu vme sse2 hypervisor lahf_lm\n\n"
	 "processor\t: 1\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.406\n"
	 "flags\t\t: fpu vme sse2 hypervisor lahf_lm\n"},
	{"proc/loadavg", "3.00 2.00 1.00 3/120 99\n"},
	{"proc/sys/kernel/osrelease", "6.18.44\n"},
	{"sys/class/dmi/id/sys_vendor", "QEMU\n"},
	{NULL, NULL},
};

static const struct file arm_board[] = {
	{"proc/cpuinfo",
	 "processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd\nCPU part\t: 0xd03\n"
	 "cpu MHz\t\t: 1200.000\n\n"
	 "processor\t: 1\nBogoMIPS\t: 48.00\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 3\n"},
	{"proc/loadavg", "bad\n"},
	{"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "ondemand\n"},
	{"sys/devices/system/cpu/cpufreq/boost", "0\n"},
	{NULL, NULL},
};

struct machine_case {
	const char *name;
	const struct file *files; /* NULL: an empty tree */
	const char *want[MACHINE_NKEYS]; /* NULL: not checked */
};

static const struct machine_case machine_cases[] = {
	{"x86 host", x86_host,
	 {[MACHINE_CPU] = "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", [MACHINE_CORES] = "4",
	  [MACHINE_GOVERNOR] = "performance", [MACHINE_BOOST] = "on",
	  [MACHINE_FREQ] = "1200-3300 MHz", [MACHINE_KERNEL] = "6.1.0-18-amd64",
	  [MACHINE_VM] = "no", [MACHINE_PIN] = "0-1", [MACHINE_LOAD_BEFORE] = "0.25",
	  [MACHINE_LOAD_MAX] = "0.25"}},
	{"x86 vm", x86_vm,
	 {[MACHINE_CPU] = "AMD EPYC", [MACHINE_CORES] = "2", [MACHINE_GOVERNOR] = "unknown",
	  [MACHINE_BOOST] = "unknown", [MACHINE_FREQ] = "2445 MHz (cpuinfo; no cpufreq)",
	  [MACHINE_KERNEL] = "6.18.44", [MACHINE_VM] = "yes (hypervisor flag, sys_vendor QEMU)",
	  [MACHINE_LOAD_BEFORE] = "3.00"}},
	{"arm board", arm_board,
	 {[MACHINE_CPU] = "unknown", [MACHINE_CORES] = "2", [MACHINE_GOVERNOR] = "ondemand",
	  [MACHINE_BOOST] = "off", [MACHINE_FREQ] = "1200 MHz (cpuinfo; no cpufreq)", [MACHINE_VM] = "unknown",
	  [MACHINE_PIN] = "none", [MACHINE_LOAD_BEFORE] = "unknown"}},
	{"empty tree", NULL,
	 {[MACHINE_CPU] = "unknown", [MACHINE_CORES] = "unknown", [MACHINE_GOVERNOR] = "unknown",
	  [MACHINE_BOOST] = "unknown", [MACHINE_FREQ] = "unknown", [MACHINE_KERNEL] = "unknown",
	  [MACHINE_VM] = "unknown", [MACHINE_LOAD_BEFORE] = "unknown",
	  [MACHINE_LOAD_AFTER] = "unknown", [MACHINE_LOAD_MAX] = "unknown"}},
};

static void check_machine_cases(void)
{
	static const struct file none[] = {{NULL, NULL}};
	for (size_t i = 0; i < ARRAY_SIZE(machine_cases); i++) {
		const struct machine_case *c = &machine_cases[i];
		char *root = fake_tree(c->name, c->files ? c->files : none);
		struct machine_state m = {0};
		machine_read(&m, root, i == 0 ? "0-1" : NULL);
		machine_finish(&m, root, NAN);
		for (size_t k = 0; k < MACHINE_NKEYS; k++) {
			T_CHECK(m.v[k] != NULL, "%s: %s not set", c->name, machine_key_names[k]);
			if (c->want[k] && m.v[k])
				T_CHECK(!strcmp(m.v[k], c->want[k]), "%s: %s is '%s', want '%s'",
					c->name, machine_key_names[k], m.v[k], c->want[k]);
		}
		T_CHECK(m.v[MACHINE_STARTED] && strlen(m.v[MACHINE_STARTED]) == 19 &&
				m.v[MACHINE_STARTED][10] == 'T',
			"%s: started is an ISO time, not '%s'", c->name, m.v[MACHINE_STARTED]);
		machine_release(&m);
		free(root);
	}
}

/* before 0.25; a sample of 4.5 during the runs; after 0.25 */
static void check_load(void)
{
	char *root = fake_tree("load", x86_host);
	struct machine_state m = {0};
	machine_read(&m, root, NULL);
	machine_finish(&m, root, 4.5);
	T_CHECK(!strcmp(m.v[MACHINE_LOAD_MAX], "4.50"), "load.max %s", m.v[MACHINE_LOAD_MAX]);
	T_CHECK(!strcmp(m.v[MACHINE_LOAD_AFTER], "0.25"), "load.after %s", m.v[MACHINE_LOAD_AFTER]);
	machine_release(&m);
	struct machine_watch w;
	T_CHECK(!machine_watch_start(&w, root), "the sampling thread starts");
	double max = machine_watch_stop(&w);
	T_CHECK(max == 0.25, "the thread samples at once: %g", max);
	T_CHECK(isnan(machine_load(dir)), "no loadavg: NAN");
	free(root);
}

static void check_quiet(void)
{
	char *root = fake_tree("busy", x86_vm); /* load 3.00 on 2 cores */
	struct strbuf why = {0};
	T_CHECK(machine_quiet_check(root, 0.5, &why) == -1, "3.00 > 0.5 x 2 refused");
	T_CHECK(strstr(sb_str(&why), "3.00") && strstr(sb_str(&why), "1.00") &&
			strstr(sb_str(&why), "0.5 per core x 2 cores"),
		"the message names the load and the threshold: %s", sb_str(&why));
	sb_release(&why);
	T_CHECK(!machine_quiet_check(root, 1.5, &why), "3.00 <= 1.5 x 2 passes");
	T_CHECK(!machine_quiet_check(dir, 0, &why), "an unreadable load passes");
	sb_release(&why);
	free(root);
}

struct list_case {
	const char *text;
	int ok;
	const char *formatted; /* cpulist_format of the set */
};

static const struct list_case list_cases[] = {
	{"0", 1, "0"},         {"0-1,3", 1, "0-1,3"}, {" 2 , 5-6 ", 1, "2,5-6"},
	{"3,1,2", 1, "1-3"},   {"", 0, NULL},         {"1-0", 0, NULL},
	{"a", 0, NULL},        {"0,,1", 0, NULL},     {"0-", 0, NULL},
	{"0,", 0, NULL},       {"99999", 0, NULL},    {"-1", 0, NULL},
};

static void check_cpulist(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(list_cases); i++) {
		const struct list_case *c = &list_cases[i];
		cpu_set_t set;
		struct strbuf why = {0};
		int rc = cpulist_parse(c->text, &set, &why);
		T_CHECK(rc == (c->ok ? 0 : -1), "'%s': rc %d", c->text, rc);
		if (!c->ok)
			T_CHECK(strstr(sb_str(&why), "is not a CPU list"), "'%s': %s", c->text,
				sb_str(&why));
		if (c->ok) {
			char *f = cpulist_format(&set);
			T_CHECK(!strcmp(f, c->formatted), "'%s' formats as '%s'", c->text, f);
			free(f);
		}
		sb_release(&why);
	}
}

static void check_pin(void)
{
	cpu_set_t allowed;
	T_CHECK(!sched_getaffinity(0, sizeof(allowed), &allowed), "affinity readable");
	int first = 0;
	while (!CPU_ISSET(first, &allowed))
		first++;
	char *ok = xasprintf("%d", first), *bad = xasprintf("%d", CPU_SETSIZE - 1);
	struct strbuf why = {0};
	T_CHECK(!machine_pin_check(ok, 0, &why), "CPU %s is allowed: %s", ok, sb_str(&why));
	T_CHECK(machine_pin_check(bad, 0, &why) == -1 &&
			strstr(sb_str(&why), "is not one this process may run on (allowed: "),
		"CPU %s refused: %s", bad, sb_str(&why));
	sb_release(&why);
	T_CHECK(!machine_pin_check("0-1,3", 1, &why), "a board takes a CPU list: %s", sb_str(&why));
	sb_release(&why);
	T_CHECK(machine_pin_check("0-x", 1, &why) == -1 && strstr(sb_str(&why), "is not a CPU list"),
		"a board's list is parsed here: %s", sb_str(&why));
	sb_release(&why);
	T_CHECK(!machine_pin_check(bad, 1, &why), "a board's CPU is not this machine's");
	sb_release(&why);
	free(ok);
	free(bad);
}

static void check_study_keys(void)
{
	char *path = test_write(dir, "pin.study",
				"[study]\nworkloads = crc32\npin = 0-1,3\nisolate = yes\n"
				"isolate_load = 1.5\n");
	struct study s;
	struct strbuf err = {0};
	T_CHECK(!study_load(path, &s, &err), "loads: %s", sb_str(&err));
	T_CHECK(s.pin && !strcmp(s.pin, "0-1,3") && s.pin_line == 3, "pin %s line %d", s.pin,
		s.pin_line);
	T_CHECK(s.isolate == 1 && s.isolate_load == 1.5, "isolate %d load %g", s.isolate,
		s.isolate_load);
	study_release(&s);
	free(path);
	path = test_write(dir, "plain.study", "[study]\nworkloads = crc32\n");
	T_CHECK(!study_load(path, &s, &err), "loads: %s", sb_str(&err));
	T_CHECK(!s.pin && !s.isolate && s.isolate_load == 0.5, "defaults: no pin, not isolated, 0.5");
	study_release(&s);
	sb_release(&err);
	free(path);
}

int main(void)
{
	dir = test_tmpdir("machine");
	check_machine_cases();
	check_load();
	check_quiet();
	check_cpulist();
	check_pin();
	check_study_keys();
	free(dir);
	return test_summary("test_machine");
}
