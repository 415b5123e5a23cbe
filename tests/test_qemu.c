/*
 * test_qemu.c - harness/qemu.c and the plugin's instruction classes:
 * classification of known encodings, choosing the emulator and CPU model
 * from ELF files of every ABI (assembled here from tests/fixtures/asm/),
 * UNRUNNABLE verdicts, exact counts through qemu_run(), counts files
 * that must be refused, and the plan of a measured run (a script starting
 * its guests through $EMU, a stand-in model kept for the report).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/testlib.h"
#include "harness/qemu.h"


/* Encodings as the cross binutils assemble them (objdump -d). */
static const struct {
	int aarch64;
	uint32_t word;
	enum insn_class want;
	const char *insn;
} class_cases[] = {
	{0, 0x8fac0004, INSN_LOAD, "lw t0,4(sp)"},
	{0, 0xdfac0008, INSN_LOAD, "ld t0,8(sp)"},
	{0, 0xc7a00000, INSN_LOAD, "lwc1 $f0,0(sp)"},
	{0, 0x4dac0001, INSN_LOAD, "ldxc1 $f0,t0(t1)"},
	{0, 0xa3ac0000, INSN_STORE, "sb t0,0(sp)"},
	{0, 0xffac0000, INSN_STORE, "sd t0,0(sp)"},
	{0, 0xf7a20000, INSN_STORE, "sdc1 $f2,0(sp)"},
	{0, 0x03e00008, INSN_BRANCH, "jr ra"},
	{0, 0x0320f809, INSN_BRANCH, "jalr t9"},
	{0, 0x118dffff, INSN_BRANCH, "beq t0,t1"},
	{0, 0x0591ffff, INSN_BRANCH, "bgezal t0"},
	{0, 0x5580ffff, INSN_BRANCH, "bnezl t0"},
	{0, 0x4501ffff, INSN_BRANCH, "bc1t"},
	{0, 0x10000100, INSN_BRANCH, "b"},
	{0, 0x018d0018, INSN_MULDIV, "mult t0,t1"},
	{0, 0x018d001f, INSN_MULDIV, "ddivu zero,t0,t1"},
	{0, 0x71ae6002, INSN_MULDIV, "mul t0,t1,t2"},
	{0, 0x71ae6012, INSN_MULDIV, "multu.g t0,t1,t2 (Loongson 2F)"},
	{0, 0x46241000, INSN_FP, "add.d $f0,$f2,$f4"},
	{0, 0x448c0000, INSN_FP, "mtc1 t0,$f0"},
	{0, 0x4c462021, INSN_FP, "madd.d $f0,$f2,$f4,$f6 (MIPS IV)"},
	{0, 0x72241018, INSN_FP, "madd.d $f0,$f2,$f4 (Loongson 2F)"},
	{0, 0x4b641000, INSN_FP, "paddw $f0,$f2,$f4 (Loongson MMI)"},
	{0, 0x01ae6021, INSN_OTHER, "addu t0,t1,t2"},
	{0, 0x000d60f8, INSN_OTHER, "dsll t0,t1,0x3"},
	{0, 0x0000000c, INSN_OTHER, "syscall"},
	{0, 0xcfa00000, INSN_OTHER, "pref 0x0,0(sp)"},
	{0, 0x3c0c0001, INSN_OTHER, "lui t0,0x1"},
	{0, 0x7c03e83b, INSN_OTHER, "rdhwr v1,$29"},
	{0, 0x7dac1083, INSN_OTHER, "dext t0,t1,0x2,0x3"},
	{0, 0x71a06020, INSN_OTHER, "clz t0,t5"},
	{1, 0xf94007e0, INSN_LOAD, "ldr x0,[sp,#8]"},
	{1, 0x580004a0, INSN_LOAD, "ldr x0,<literal>"},
	{1, 0xa94007e0, INSN_LOAD, "ldp x0,x1,[sp]"},
	{1, 0xb8a26820, INSN_LOAD, "ldrsw x0,[x1,x2]"},
	{1, 0x3dc00000, INSN_LOAD, "ldr q0,[x0]"},
	{1, 0xc85f7c20, INSN_LOAD, "ldxr x0,[x1]"},
	{1, 0xf8200041, INSN_LOAD, "ldadd x0,x1,[x2]"},
	{1, 0x4c407800, INSN_LOAD, "ld1 {v0.4s},[x0]"},
	{1, 0xf90003e0, INSN_STORE, "str x0,[sp]"},
	{1, 0xa9bf07e0, INSN_STORE, "stp x0,x1,[sp,#-16]!"},
	{1, 0x3d800000, INSN_STORE, "str q0,[x0]"},
	{1, 0x38226820, INSN_STORE, "strb w0,[x1,x2]"},
	{1, 0xc8027c20, INSN_STORE, "stxr w2,x0,[x1]"},
	{1, 0x4c007800, INSN_STORE, "st1 {v0.4s},[x0]"},
	{1, 0x14000000, INSN_BRANCH, "b"},
	{1, 0x94000000, INSN_BRANCH, "bl"},
	{1, 0x54000001, INSN_BRANCH, "b.ne"},
	{1, 0xb4000000, INSN_BRANCH, "cbz x0"},
	{1, 0x37180000, INSN_BRANCH, "tbnz w0,#3"},
	{1, 0xd61f0000, INSN_BRANCH, "br x0"},
	{1, 0xd63f0000, INSN_BRANCH, "blr x0"},
	{1, 0xd65f03c0, INSN_BRANCH, "ret"},
	{1, 0x9b027c20, INSN_MULDIV, "mul x0,x1,x2"},
	{1, 0x9b020c20, INSN_MULDIV, "madd x0,x1,x2,x3"},
	{1, 0x9bc27c20, INSN_MULDIV, "umulh x0,x1,x2"},
	{1, 0x9ac20c20, INSN_MULDIV, "sdiv x0,x1,x2"},
	{1, 0x1ac20820, INSN_MULDIV, "udiv w0,w1,w2"},
	{1, 0x1e622820, INSN_FP, "fadd d0,d1,d2"},
	{1, 0x9e670020, INSN_FP, "fmov d0,x1"},
	{1, 0x9e620000, INSN_FP, "scvtf d0,x0"},
	{1, 0x4ea28420, INSN_FP, "add v0.4s,v1.4s,v2.4s"},
	{1, 0x8b020020, INSN_OTHER, "add x0,x1,x2"},
	{1, 0xd28000a0, INSN_OTHER, "mov x0,#5"},
	{1, 0xd4000001, INSN_OTHER, "svc #0"},
	{1, 0xd503201f, INSN_OTHER, "nop"},
	{1, 0x90000000, INSN_OTHER, "adrp x0"},
	{1, 0xd37df020, INSN_OTHER, "lsl x0,x1,#3"},
};

static void test_classes(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(class_cases); i++) {
		enum insn_class got = class_cases[i].aarch64 ? insn_class_aarch64(class_cases[i].word)
							     : insn_class_mips(class_cases[i].word);
		T_CHECK(got == class_cases[i].want, "%s (0x%08x): %s, want %s", class_cases[i].insn,
		      class_cases[i].word, insn_class_names[got], insn_class_names[class_cases[i].want]);
	}
}

static void test_counts_files(const char *tmp)
{
	static const struct {
		const char *text;
		int ok;
		const char *why;
	} cases[] = {
		{"insns=10\nloads=1\nstores=2\nbranches=3\nmuldiv=0\nfp=0\nother=4\n", 1, "adds up"},
		{"plugin=x\napi=1\ntarget=mipsel\nmode=tb\ninsns=0\n", 1, "empty run"},
		{"insns=10\nloads=1\nstores=2\nbranches=3\nmuldiv=0\nfp=0\nother=5\n", 0, "sum 11 != 10"},
		{"loads=1\nother=2\n", 0, "no insns line"},
		{"insns=ten\n", 0, "not a number"},
		{"insns=-1\nother=-1\n", 0, "negative"},
		{"insns 10\n", 0, "not key=value"},
		{"insns=99999999999999999999999\n", 0, "overflow"},
	};
	char *path = xasprintf("%s/counts", tmp);
	struct qemu_counts c;
	struct strbuf err = {0};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		file_write(path, cases[i].text, strlen(cases[i].text));
		sb_release(&err);
		int rc = qemu_counts_read(path, &c, &err);
		T_CHECK((rc == 0) == cases[i].ok, "counts file case '%s': rc %d (%s)", cases[i].why, rc,
		      sb_str(&err));
	}
	file_write(path, cases[2].text, strlen(cases[2].text));
	sb_release(&err);
	T_CHECK(qemu_counts_read(path, &c, &err) == -2 && strstr(sb_str(&err), "raced"),
		"classes not adding up are a race of a threaded guest: %s", sb_str(&err));
	sb_release(&err);
	file_write(path, cases[1].text, strlen(cases[1].text));
	T_CHECK(!qemu_counts_read(path, &c, &err) && !strcmp(c.target, "mipsel") &&
		      !strcmp(c.mode, "tb"), "target and mode read back");
	unlink(path);
	sb_release(&err);
	T_CHECK(qemu_counts_read(path, &c, &err) == -1 && strstr(sb_str(&err), "did not reach exit"),
	      "a missing counts file says the guest did not exit: %s", sb_str(&err));
	sb_release(&err);
	free(path);
}

/* The fixtures, assembled with the cross compilers; the expected counts
 * per iteration and fixed part are those in each file's first comment. */
static const struct elf_case {
	const char *name;
	const char *cc;
	const char *flags[4];
	const char *src;
	const char *qemu, *abi, *isa, *ext;
	unsigned long long per_iter, fixed;
} elf_cases[] = {
	{"n64", "mips64el-linux-gnuabi64-gcc", {"-mabi=64", "-march=loongson2f"}, "loop-mips64.S",
	 "qemu-mips64el", "n64", "mips3", "loongson-2f", 8, 7},
	{"n32", "mips64el-linux-gnuabi64-gcc", {"-mabi=n32", "-march=r4600"}, "loop-mips64.S",
	 "qemu-mipsn32el", "n32", "mips3", NULL, 8, 7},
	{"o32", "mips64el-linux-gnuabi64-gcc", {"-mabi=32", "-march=mips1", "-mfp32"},
	 "loop-mips32.S", "qemu-mipsel", "o32", "mips1", NULL, 9, 8},
	{"o32-2f", "mips64el-linux-gnuabi64-gcc", {"-mabi=32", "-march=loongson2f"},
	 "loop-mips32.S", "qemu-mipsel", "o32", "mips3", "loongson-2f", 9, 8},
	{"o32-gnu", "mipsel-linux-gnu-gcc", {"-march=mips1", "-mfp32"}, "loop-mips32.S",
	 "qemu-mipsel", "o32", "mips1", NULL, 9, 8},
	{"aarch64", "aarch64-linux-gnu-gcc", {"-mcpu=cortex-a72"}, "loop-aarch64.S", "qemu-aarch64",
	 "lp64", "armv8", NULL, 7, 7},
};

static char *assemble(const struct elf_case *c, const char *tmp, int n)
{
	char *out = xasprintf("%s/%s-%d", tmp, c->name, n);
	char *src = xasprintf("%s/tests/fixtures/asm/%s", FLAGSCOPE_SOURCE_DIR, c->src);
	char *def = xasprintf("-DN=%d", n);
	struct strlist argv = {0};
	char *log = NULL;

	sl_push(&argv, c->cc);
	for (size_t i = 0; i < ARRAY_SIZE(c->flags) && c->flags[i]; i++)
		sl_push(&argv, c->flags[i]);
	const char *rest[] = {"-nostdlib", "-static", def, "-o", out, src};
	for (size_t i = 0; i < ARRAY_SIZE(rest); i++)
		sl_push(&argv, rest[i]);
	sl_push_owned(&argv, NULL);
	int rc = run_capture(argv.v, &log);
	T_CHECK(rc == 0, "%s: assembling failed: %s", c->name, log ? log : "");
	free(log);
	sl_release(&argv);
	free(src);
	free(def);
	if (rc) {
		free(out);
		return NULL;
	}
	return out;
}

static void test_guest(const struct elf_case *c, const char *elf)
{
	struct qemu_guest g;
	struct strbuf err = {0};
	const char *qemu = NULL;

	T_CHECK(!qemu_guest_read(elf, &g, &err), "%s: %s", c->name, sb_str(&err));
	T_CHECK(g.qemu && !strcmp(g.qemu, c->qemu), "%s: qemu %s, want %s", c->name, g.qemu, c->qemu);
	T_CHECK(g.abi && !strcmp(g.abi, c->abi), "%s: abi %s, want %s", c->name, g.abi, c->abi);
	T_CHECK(g.isa && !strcmp(g.isa, c->isa), "%s: isa %s, want %s", c->name, g.isa, c->isa);
	T_CHECK(c->ext ? g.ext && !strcmp(g.ext, c->ext) : !g.ext, "%s: ext %s, want %s", c->name,
	      g.ext ? g.ext : "none", c->ext ? c->ext : "none");
	T_CHECK(!qemu_pick(elf, &qemu, &err) && qemu && !strcmp(qemu, c->qemu), "%s: qemu_pick",
	      c->name);
	sb_release(&err);
}

/* Which (ELF, requested model) pairs QEMU can run, and on which model. */
static const struct {
	const char *elf, *cpu;
	int want;
	const char *run_cpu; /* expected -cpu when want == 1 */
	const char *reason;  /* substring of the reason, or NULL when none is due */
} can_run_cases[] = {
	{"n64", "Loongson-2F", 1, "Loongson-2F", NULL},
	{"n64", NULL, 1, NULL, NULL},
	{"n64", "24Kf", 0, NULL, "32-bit CPU model"},
	{"n64", "Pentium", 0, NULL, "no CPU model 'Pentium'"},
	{"n32", "Loongson-2F", 1, "Loongson-2F", NULL},
	{"n32", "R4000", 1, "R4000", NULL},
	{"o32", "Loongson-2F", 1, "24Kf", "runs on 24Kf"},
	{"o32", "24Kf", 1, "24Kf", NULL},
	{"o32-2f", "Loongson-2F", 0, NULL, "multu.g"},
	{"aarch64", "cortex-a72", 1, "cortex-a72", NULL},
	{"aarch64", "Loongson-2F", 0, NULL, "no CPU model"},
};

static void test_can_run(char *const elves[])
{
	for (size_t i = 0; i < ARRAY_SIZE(can_run_cases); i++) {
		const char *elf = NULL, *run_cpu = "unset";
		struct strbuf why = {0};

		for (size_t k = 0; k < ARRAY_SIZE(elf_cases); k++)
			if (!strcmp(elf_cases[k].name, can_run_cases[i].elf))
				elf = elves[k];
		if (!elf)
			continue;
		int rc = qemu_cpu_can_run(elf, can_run_cases[i].cpu, &run_cpu, &why);
		T_CHECK(rc == can_run_cases[i].want, "%s on %s: %d, want %d (%s)", can_run_cases[i].elf,
		      can_run_cases[i].cpu, rc, can_run_cases[i].want, sb_str(&why));
		if (rc == 1)
			T_CHECK(can_run_cases[i].run_cpu ? run_cpu && !strcmp(run_cpu, can_run_cases[i].run_cpu)
						       : !run_cpu,
			      "%s on %s: runs on %s", can_run_cases[i].elf, can_run_cases[i].cpu,
			      run_cpu ? run_cpu : "(default)");
		T_CHECK(can_run_cases[i].reason ? strstr(sb_str(&why), can_run_cases[i].reason) != NULL
					      : why.len == 0,
		      "%s on %s: reason '%s'", can_run_cases[i].elf, can_run_cases[i].cpu, sb_str(&why));
		sb_release(&why);
	}
}

static void test_run(const struct elf_case *c, const char *elf, int n)
{
	struct qemu_counts first, again;
	struct strbuf err = {0};
	const char *cpu = NULL;
	char *argv[] = {(char *)elf, NULL};
	int rc;

	rc = qemu_cpu_can_run(elf, !strcmp(c->abi, "lp64") ? "cortex-a72" : "Loongson-2F", &cpu, &err);
	sb_release(&err);
	if (rc != 1)
		return; /* the UNRUNNABLE case is checked above */
	rc = qemu_run(argv, cpu, &first, NULL, &err);
	T_CHECK(rc == (3 * n) % 256, "%s: exit status %d, want %d (%s)", c->name, rc, (3 * n) % 256,
	      sb_str(&err));
	if (rc < 0) {
		sb_release(&err);
		return;
	}
	T_CHECK(first.insns == c->per_iter * n + c->fixed, "%s N=%d: %llu instructions, want %llu",
	      c->name, n, first.insns, c->per_iter * n + c->fixed);
	T_CHECK(first.by_class[INSN_LOAD] == (unsigned long long)n + 1 &&
		      first.by_class[INSN_STORE] == (unsigned long long)n + 1 &&
		      first.by_class[INSN_BRANCH] == (unsigned long long)n &&
		      first.by_class[INSN_MULDIV] == (unsigned long long)n &&
		      first.by_class[INSN_FP] == (unsigned long long)n,
	      "%s N=%d: class counts", c->name, n);
	rc = qemu_run(argv, cpu, &again, NULL, &err);
	T_CHECK(rc >= 0 && !memcmp(&first, &again, sizeof(first)), "%s: a second run counts the same",
	      c->name);
	sb_release(&err);
}

/* A recipe's script under emulation: it runs here and starts the guest
 * through $EMU; the counts are the sum over the guests it started. */
static void test_plan(char *const elves[], const char *tmp)
{
	const struct elf_case *n64 = &elf_cases[0], *o32 = &elf_cases[2];
	char *script = xasprintf("%s/twice.sh", tmp), *idle = xasprintf("%s/idle.sh", tmp);
	char *scratch = xasprintf("%s/run.meter", tmp);
	static const char twice[] = "#!/bin/sh\n# expect: two guest runs counted\n"
				    "$EMU \"$1\" || true\n$EMU \"$1\" || true\n";
	static const char none[] = "#!/bin/sh\n# expect: nothing counted\nexit 0\n";
	struct strbuf err = {0};
	struct qemu_plan p;
	struct qemu_counts c;
	int nproc = 0;

	if (!elves[0] || !elves[2] || !elves[3])
		return;
	file_write(script, twice, strlen(twice));
	file_write(idle, none, strlen(none));
	chmod(script, 0755);
	chmod(idle, 0755);
	T_CHECK(qemu_runs_natively(script, &err) == 1, "a script runs natively");
	T_CHECK(qemu_runs_natively("/bin/sh", &err) == 1, "this machine's ELF runs natively");
	T_CHECK(qemu_runs_natively(elves[0], &err) == 0, "a MIPS ELF does not");
	T_CHECK(qemu_runs_natively("/nonexistent", &err) == -1, "a missing file cannot tell");
	sb_release(&err);

	/* an ELF: under qemu, the stand-in kept for the report */
	T_CHECK(qemu_plan_init(&p, elves[2], NULL, "Loongson-2F", scratch, &err) == 1 && !p.script &&
		      p.cpu && !strcmp(p.cpu, "24Kf") && p.stand_in && strstr(p.stand_in, "runs on 24Kf") &&
		      !strcmp(p.emu_plain, "qemu-mipsel -cpu 24Kf") && !p.emu,
	      "%s on Loongson-2F: stand-in %s, EMU '%s' (%s)", o32->name, p.stand_in ? p.stand_in : "none",
	      p.emu_plain ? p.emu_plain : "", sb_str(&err));
	qemu_plan_release(&p);
	sb_release(&err);

	/* a script: $EMU runs each guest with its own counts file */
	char *guests[] = {"/nonexistent-first", elves[0], NULL};
	int rc = qemu_plan_init(&p, script, guests, "Loongson-2F", scratch, &err);
	T_CHECK(rc == 1 && p.script && p.emu && !p.stand_in, "script plan: %d (%s)", rc, sb_str(&err));
	if (rc == 1) {
		char *env = xasprintf("EMU=%s", p.emu);
		char *argv[] = {"env", env, script, elves[0], NULL};
		T_CHECK(run_capture(argv, NULL) == 0, "the script ran");
		rc = qemu_plan_counts(&p, &c, &nproc, &err);
		T_CHECK(rc == 0 && nproc == 2 && c.insns == 2 * (n64->per_iter * 1000 + n64->fixed) &&
			      c.by_class[INSN_MULDIV] == 2000,
		      "two guests counted: rc %d, %d processes, %llu instructions (%s)", rc, nproc,
		      c.insns, sb_str(&err));
		sb_release(&err);
		T_CHECK(qemu_plan_counts(&p, &c, &nproc, &err) == -1 && nproc == 0 &&
			      strstr(sb_str(&err), "started no guest"),
		      "the counts were taken: %s", sb_str(&err));
		sb_release(&err);
		argv[2] = idle;
		run_capture(argv, NULL);
		T_CHECK(qemu_plan_counts(&p, &c, &nproc, &err) == -1 && strstr(sb_str(&err), "$EMU"),
			"a script that starts no guest is told: %s", sb_str(&err));
		free(env);
		sb_release(&err);
		char *wrapper = xstrdup(p.emu);
		qemu_plan_release(&p);
		T_CHECK(!file_exists(wrapper), "the wrapper is removed");
		free(wrapper);
	}
	sb_release(&err);
	char *no_guests[] = {script, NULL};
	T_CHECK(qemu_plan_init(&p, script, no_guests, "Loongson-2F", scratch, &err) == -1 &&
		      strstr(sb_str(&err), "no guest program"),
	      "a script without a guest program is refused: %s", sb_str(&err));
	sb_release(&err);
	T_CHECK(qemu_plan_init(&p, elves[3], NULL, "Loongson-2F", scratch, &err) == 0 &&
		      strstr(sb_str(&err), "multu.g"),
	      "o32 Loongson 2F code stays unrunnable: %s", sb_str(&err));
	sb_release(&err);
	free(script);
	free(idle);
	free(scratch);
}

static int have(const char *tool)
{
	char *argv[] = {"sh", "-c", "command -v \"$0\" >/dev/null", (char *)tool, NULL};
	return run_capture(argv, NULL) == 0;
}

int main(void)
{
	static const char *const tools[] = {"qemu-mips64el", "qemu-mipsn32el", "qemu-mipsel",
					    "qemu-aarch64", "mips64el-linux-gnuabi64-gcc",
					    "mipsel-linux-gnu-gcc", "aarch64-linux-gnu-gcc"};
	const char *base = getenv("FLAGSCOPE_TEST_TMP");
	char *tmp = xasprintf("%s/test_qemu", base && *base ? base : "/tmp");
	char *elves[ARRAY_SIZE(elf_cases)] = {0};
	struct strbuf err = {0};

	setvbuf(stdout, NULL, _IOLBF, 0); /* keep the lines if a sanitizer ends the run */
	remove_tree(tmp);
	mkdir_p(tmp, 0755);
	test_classes();
	test_counts_files(tmp);
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (!have(tools[i])) {
			printf("SKIP: %s is not installed (scripts/packages.txt)\n", tools[i]);
			return test_failures ? 1 : 77;
		}
	T_CHECK(qemu_plugin_path(&err) != NULL, "plugin: %s", sb_str(&err));
	for (size_t i = 0; i < ARRAY_SIZE(elf_cases); i++)
		if ((elves[i] = assemble(&elf_cases[i], tmp, 1000)))
			test_guest(&elf_cases[i], elves[i]);
	test_can_run(elves);
	for (size_t i = 0; i < ARRAY_SIZE(elf_cases); i++)
		if (elves[i])
			test_run(&elf_cases[i], elves[i], 1000);
	test_plan(elves, tmp);
	T_CHECK(qemu_pick("/nonexistent", &(const char *){NULL}, &err) == -1, "missing file refused");
	T_CHECK(qemu_pick("/bin/sh", &(const char *){NULL}, &err) == -1 && strstr(sb_str(&err), "machine"),
	      "x86-64 refused: %s", sb_str(&err));
	for (size_t i = 0; i < ARRAY_SIZE(elves); i++)
		free(elves[i]);
	sb_release(&err);
	remove_tree(tmp);
	free(tmp);
	return test_summary("test_qemu");
}
