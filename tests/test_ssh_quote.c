/*
 * test_ssh_quote.c - the parts of the ssh runner that need no board:
 * quoting (hostile values come back from real shells byte for byte and
 * run nothing), the checks of host/identity/known_hosts values before ssh
 * sees them, and reading board facts from /proc/cpuinfo texts of an x86
 * machine, a Loongson 2F and a Raspberry Pi 4.
 */
#include <unistd.h>

#include "harness/runner_ssh.h"
#include "tests/testlib.h"

static char *marker;

/* hostile values: each must reach the program as itself */
static const char *const hostile[] = {
	"plain",
	"",
	"two words",
	"$(touch MARKER)",
	"`touch MARKER`",
	"; touch MARKER",
	"a'b",
	"'; touch MARKER; echo '",
	"\"$(touch MARKER)\"",
	"x\ntouch MARKER\n",
	"\\'\\",
	"$HOME ${PATH} $$ $1",
	"* ? [a-z] ~",
	"-n",
	"--",
	"| touch MARKER &",
	"> MARKER",
	"\t\r\x01\x7f\xc3\xa9",
	"!! !$",
	"'''",
};

/* Each shell parses the quoted words back: printf '[%s]' shows them. */
static void check_shell(const char *shell, int busybox, char *const *words, size_t n)
{
	struct strbuf cmd = {0}, want = {0};
	sb_add(&cmd, "printf '[%s]' ");
	char **argv = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		argv[i] = words[i];
		sb_addf(&want, "[%s]", words[i]);
	}
	sh_quote_argv(&cmd, argv);
	char *run_sh[] = {(char *)shell, "-c", cmd.buf, NULL};
	char *run_bb[] = {(char *)shell, "sh", "-c", cmd.buf, NULL};
	char **run = busybox ? run_bb : run_sh;
	char *out = NULL;
	int rc = run_capture(run, &out);
	T_CHECK(rc == 0 && out && !strcmp(out, want.buf), "%s: rc %d, got\n%s\nwant\n%s", shell, rc,
		out ? out : "(none)", want.buf);
	T_CHECK(!file_exists(marker), "%s: a quoted value ran a command", shell);
	free(out);
	free(argv);
	sb_release(&cmd);
	sb_release(&want);
}

static void check_quoting(void)
{
	size_t n = ARRAY_SIZE(hostile);
	char **words = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		struct strbuf w = {0};
		/* MARKER stands for the absolute marker path */
		for (const char *p = hostile[i]; *p;)
			if (str_starts_with(p, "MARKER")) {
				sb_add(&w, marker);
				p += 6;
			} else {
				sb_addc(&w, *p++);
			}
		words[i] = w.buf ? sb_detach(&w) : xstrdup("");
	}
	/* a long value, quotes inside, just under what one argument may hold */
	struct strbuf big = {0};
	for (int i = 0; i < 9000; i++)
		sb_add(&big, "a'$(x)`;\n");
	char *longw[] = {big.buf};
	const char *shells[] = {"/bin/sh", "/bin/bash", "/bin/dash", "/bin/busybox"};
	for (size_t s = 0; s < ARRAY_SIZE(shells); s++) {
		if (access(shells[s], X_OK))
			continue;
		int bb = !strcmp(shells[s], "/bin/busybox");
		check_shell(shells[s], bb, words, n);
		check_shell(shells[s], bb, longw, 1);
	}
	/* the exact form: single quotes, ' as '\'' */
	struct strbuf q = {0};
	sh_quote(&q, "it's");
	T_CHECK(!strcmp(q.buf, "'it'\\''s'"), "quote: %s", q.buf);
	q.len = 0;
	sh_quote(&q, "");
	T_CHECK(!strcmp(q.buf, "''"), "empty word: %s", q.buf);
	sb_release(&q);
	sb_release(&big);
	for (size_t i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

static const struct {
	const char *host, *identity, *known;
	int port;
	int ok;
	size_t nboards;
	const char *first_name, *first_dest;
	int first_port;
} target_cases[] = {
	{"pi@rpi4", NULL, NULL, 0, 1, 1, "pi@rpi4", "pi@rpi4", 0},
	{"root@127.0.0.1:2222", NULL, NULL, 0, 1, 1, "root@127.0.0.1:2222", "root@127.0.0.1", 2222},
	{"board", NULL, NULL, 2200, 1, 1, "board:2200", "board", 2200},
	{"a:1 b:2  c", NULL, NULL, 0, 1, 3, "a:1", "a", 1},
	{"[::1]:22", NULL, NULL, 0, 1, 1, "[::1]:22", "::1", 22},
	{"u@loongson-2f.lan", "/root/.ssh/id_ed25519", "/etc/fs/known_hosts", 0, 1, 1,
	 "u@loongson-2f.lan", "u@loongson-2f.lan", 0},
	{"-oProxyCommand=touch", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"host;touch", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"$(touch)", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"a`b`", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"user@-oProxyCommand", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"@host", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"host:99999", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"host:x", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"", NULL, NULL, 0, 0, 0, NULL, NULL, 0},
	{"h", "/k ey", NULL, 0, 0, 0, NULL, NULL, 0},
	{"h", "-oProxyCommand=x", NULL, 0, 0, 0, NULL, NULL, 0},
	{"h", "/k%d", NULL, 0, 0, 0, NULL, NULL, 0},
	{"h", NULL, "/known hosts", 0, 0, 0, NULL, NULL, 0},
	{"h", NULL, "/known\"x", 0, 0, 0, NULL, NULL, 0},
	{"h", NULL, NULL, 70000, 0, 0, NULL, NULL, 0},
};

static void check_targets(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(target_cases); i++) {
		struct run_target t = {.host = target_cases[i].host,
				       .port = target_cases[i].port,
				       .identity = target_cases[i].identity,
				       .known_hosts = target_cases[i].known};
		struct ssh_dest *d = NULL;
		size_t n = 0;
		struct strbuf err = {0};
		int rc = ssh_target_parse(&t, &d, &n, &err);
		T_CHECK((rc == 0) == target_cases[i].ok, "host '%s': rc %d (%s)", t.host, rc,
			sb_str(&err));
		T_CHECK(rc == 0 || err.len, "host '%s': refused without a reason", t.host);
		if (!rc && target_cases[i].ok) {
			T_CHECK(n == target_cases[i].nboards, "host '%s': %zu boards", t.host, n);
			T_CHECK(!strcmp(d[0].name, target_cases[i].first_name) &&
					!strcmp(d[0].user_host, target_cases[i].first_dest) &&
					d[0].port == target_cases[i].first_port,
				"host '%s': name %s dest %s port %d", t.host, d[0].name,
				d[0].user_host, d[0].port);
		}
		ssh_dests_free(d, n);
		sb_release(&err);
	}
	struct ssh_dest *d;
	size_t n;
	struct strbuf err = {0};
	T_CHECK(ssh_target_parse(NULL, &d, &n, &err) == -1 && strstr(sb_str(&err), "host ="),
		"no target: %s", sb_str(&err));
	sb_release(&err);
}

static const struct {
	const char *name, *cpuinfo, *max_khz, *cpu;
	double mhz;
	int cpus;
} cpuinfo_cases[] = {
	{"x86", "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n"
		"cpu MHz\t\t: 2450.000\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n"
		"cpu MHz\t\t: 2450.000\n",
	 NULL, "AMD EPYC 7B13", 2450, 2},
	{"loongson-2f", "system type\t\t: lemote-lynloong-2f\nmachine\t\t\t: Unknown\n"
			"processor\t\t: 0\ncpu model\t\t: ICT Loongson-2 V0.3  FPU V0.1\n"
			"BogoMIPS\t\t: 528.38\nwait instruction\t: no\n",
	 "797000\n", "ICT Loongson-2 V0.3  FPU V0.1", 797, 1},
	{"rpi4", "processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd08\n"
		 "processor\t: 1\nprocessor\t: 2\nprocessor\t: 3\nHardware\t: BCM2835\n"
		 "Revision\t: c03111\nModel\t\t: Raspberry Pi 4 Model B Rev 1.1\n",
	 "1500000", "Raspberry Pi 4 Model B Rev 1.1", 1500, 4},
	{"empty", "", NULL, "", 0, 0},
};

static void check_cpuinfo(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cpuinfo_cases); i++) {
		struct board_facts f = {0};
		board_facts_parse_cpuinfo(&f, cpuinfo_cases[i].cpuinfo, cpuinfo_cases[i].max_khz);
		T_CHECK(!strcmp(f.cpu, cpuinfo_cases[i].cpu) && f.mhz == cpuinfo_cases[i].mhz &&
				f.cpus == cpuinfo_cases[i].cpus,
			"%s: cpu '%s' mhz %g cpus %d", cpuinfo_cases[i].name, f.cpu, f.mhz, f.cpus);
	}
	struct board_facts f = {.kernel = "6.1.0", .machine = "mips64", .cpu = "ICT Loongson-2",
				.mhz = 797, .cpus = 1};
	struct strbuf sb = {0};
	board_facts_format(&f, &sb);
	T_CHECK(!strcmp(sb.buf, "kernel=6.1.0 machine=mips64 cpu=ICT Loongson-2 mhz=797 cpus=1"),
		"format: %s", sb.buf);
	sb_release(&sb);
	snprintf(f.perf, sizeof(f.perf), "absent");
	board_facts_format(&f, &sb);
	T_CHECK(!strcmp(sb.buf, "kernel=6.1.0 machine=mips64 cpu=ICT Loongson-2 mhz=797 cpus=1 "
				"perf=absent"),
		"format with perf: %s", sb.buf);
	sb_release(&sb);
}

int main(void)
{
	char *dir = test_tmpdir("test_ssh_quote");
	marker = xasprintf("%s/MARKER", dir);
	check_quoting();
	check_targets();
	check_cpuinfo();
	T_CHECK(!file_exists(marker), "the marker file exists: something ran");
	free(marker);
	free(dir);
	return test_summary("test_ssh_quote");
}
