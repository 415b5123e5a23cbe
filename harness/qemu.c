/* qemu.c - pick qemu-user and the CPU model for an ELF, run it with the
 * instruction-count plugin, read the counts back. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/qemu.h"

/* e_flags fields that glibc's <elf.h> leaves out; values from binutils'
 * include/elf/mips.h. */
#define MIPS_ABI_MASK 0x0000f000u
#define MIPS_ABI_O32 0x00001000u
#define MIPS_MACH_MASK 0x00ff0000u

static const char *mips_isa(unsigned long flags)
{
	static const char *const arch[16] = {
		"mips1", "mips2", "mips3", "mips4", "mips5", "mips32", "mips64",
		"mips32r2", "mips64r2", "mips32r6", "mips64r6",
	};
	return arch[(flags & EF_MIPS_ARCH) >> 28];
}

static const char *mips_ext(unsigned long flags)
{
	switch ((flags & MIPS_MACH_MASK) >> 16) {
	case 0xa0: return "loongson-2e";
	case 0xa1: return "loongson-2f";
	case 0xa2: case 0xa3: case 0xa4: return "loongson-3a";
	default: return NULL;
	}
}

static int guest_from_header(const GElf_Ehdr *eh, const char *path, struct qemu_guest *g,
			     struct strbuf *err)
{
	int is64 = eh->e_ident[EI_CLASS] == ELFCLASS64;
	int le = eh->e_ident[EI_DATA] == ELFDATA2LSB;

	memset(g, 0, sizeof(*g));
	if (eh->e_machine == EM_AARCH64 && is64) {
		*g = (struct qemu_guest){.qemu = le ? "qemu-aarch64" : "qemu-aarch64_be",
					 .abi = "lp64", .isa = "armv8"};
		return 0;
	}
	if (eh->e_machine != EM_MIPS) {
		sb_addf(err, "%s: machine %u is not MIPS or AArch64 (no qemu runner for it)", path,
			(unsigned)eh->e_machine);
		return -1;
	}
	g->isa = mips_isa(eh->e_flags);
	g->ext = mips_ext(eh->e_flags);
	if (!g->isa) {
		sb_addf(err, "%s: unknown MIPS architecture level in e_flags 0x%lx", path,
			(unsigned long)eh->e_flags);
		return -1;
	}
	if (is64) {
		g->abi = "n64";
		g->qemu = le ? "qemu-mips64el" : "qemu-mips64";
	} else if (eh->e_flags & EF_MIPS_ABI2) {
		g->abi = "n32";
		g->qemu = le ? "qemu-mipsn32el" : "qemu-mipsn32";
	} else if ((eh->e_flags & MIPS_ABI_MASK) == 0 || (eh->e_flags & MIPS_ABI_MASK) == MIPS_ABI_O32) {
		g->abi = "o32";
		g->qemu = le ? "qemu-mipsel" : "qemu-mips";
	} else {
		sb_addf(err, "%s: MIPS EABI/o64 binaries have no qemu-user (e_flags 0x%lx)", path,
			(unsigned long)eh->e_flags);
		return -1;
	}
	return 0;
}

int qemu_guest_read(const char *elf_path, struct qemu_guest *g, struct strbuf *err)
{
	GElf_Ehdr eh;
	Elf *e;
	int fd, rc = -1;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		sb_addf(err, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(elf_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		sb_addf(err, "%s: %s", elf_path, strerror_lc(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
		sb_addf(err, "%s: not an ELF file (%s)", elf_path, elf_errmsg(-1));
	else
		rc = guest_from_header(&eh, elf_path, g, err);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

int qemu_pick(const char *elf_path, const char **qemu_binary, struct strbuf *err)
{
	struct qemu_guest g;

	if (qemu_guest_read(elf_path, &g, err))
		return -1;
	*qemu_binary = g.qemu;
	return 0;
}

int qemu_cpu_models(const char *qemu_binary, struct strlist *models, struct strbuf *err)
{
	char *argv[] = {(char *)qemu_binary, "-cpu", "help", NULL};
	char *out = NULL, *line, *save = NULL;
	size_t before = models->n;
	int rc = run_capture(argv, &out);

	/* QEMU 7.2 exits 1 after printing the list: the list decides */
	if (rc < 0 || rc == 127 || rc >= 128) {
		sb_addf(err, "%s -cpu help did not run (install qemu-user, see scripts/packages.txt)",
			qemu_binary);
		free(out);
		return -1;
	}
	/* "MIPS 'Loongson-2F'" (MIPS) or "  cortex-a72" (Arm) */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *q = strchr(line, '\''), *end;
		if (q && (end = strchr(q + 1, '\''))) {
			sl_push_owned(models, xstrndup(q + 1, (size_t)(end - q - 1)));
			continue;
		}
		line = str_trim(line);
		if (*line && !strpbrk(line, " :\t"))
			sl_push(models, line);
	}
	free(out);
	if (models->n == before) {
		sb_addf(err, "%s -cpu help listed no CPU model", qemu_binary);
		return -1;
	}
	return 0;
}

/* The 32-bit MIPS model with an FPU that runs MIPS I/II code: the stand-in
 * when an o32 program's study asks for a model qemu-mipsel does not have. */
static const char o32_stand_in[] = "24Kf";

int qemu_cpu_can_run(const char *elf_path, const char *cpu, const char **run_cpu,
		     struct strbuf *reason)
{
	struct qemu_guest g;
	struct strlist models = {0}, models32 = {0};
	int rc = -1;

	*run_cpu = cpu;
	if (qemu_guest_read(elf_path, &g, reason) || qemu_cpu_models(g.qemu, &models, reason))
		goto out;
	if (!cpu || !*cpu || sl_find(&models, cpu) >= 0) {
		rc = 1;
		if (cpu && *cpu && strcmp(g.abi, "o32") && str_starts_with(g.qemu, "qemu-mips")) {
			/* a 32-bit model cannot run n32/n64 code: the 32-bit
			 * models are the ones the o32 emulator offers */
			if (qemu_cpu_models(strcmp(g.qemu + strlen(g.qemu) - 2, "el") ? "qemu-mips"
										  : "qemu-mipsel",
					    &models32, reason)) {
				rc = -1;
			} else if (sl_find(&models32, cpu) >= 0) {
				sb_addf(reason, "%s is a 32-bit CPU model; %s code needs a 64-bit one",
					cpu, g.abi);
				rc = 0;
			}
		}
		goto out;
	}
	if (strcmp(g.abi, "o32")) {
		sb_addf(reason, "%s has no CPU model '%s' (see %s -cpu help)", g.qemu, cpu, g.qemu);
		rc = 0;
		goto out;
	}
	if (g.ext) {
		sb_addf(reason, "%s has no 64-bit CPU model such as %s, and o32 code built for %s "
				"uses its extensions (multu.g, ...) on which every 32-bit model traps",
			g.qemu, cpu, g.ext);
		rc = 0;
		goto out;
	}
	if (sl_find(&models, o32_stand_in) < 0) {
		sb_addf(reason, "%s has neither '%s' nor the stand-in '%s'", g.qemu, cpu, o32_stand_in);
		rc = 0;
		goto out;
	}
	sb_addf(reason, "%s has no CPU model '%s': this %s o32 program runs on %s (MIPS32r2 with FPU); "
			"its instruction count is the same, but %s would not trap on release-2 code",
		g.qemu, cpu, g.isa, o32_stand_in, o32_stand_in);
	*run_cpu = o32_stand_in;
	rc = 1;
out:
	sl_release(&models);
	sl_release(&models32);
	return rc;
}

const char *qemu_plugin_path(struct strbuf *err)
{
	const char *env = getenv("FLAGSCOPE_QEMU_PLUGIN");

	if (env && *env) {
		if (file_exists(env))
			return env;
		sb_addf(err, "FLAGSCOPE_QEMU_PLUGIN=%s does not exist", env);
		return NULL;
	}
	static char *installed; /* an installed binary's own, never the build tree's */
	if (installed || (installed = paths_installed_qemu_plugin()))
		return installed;
#ifdef FLAGSCOPE_QEMU_PLUGIN
	if (file_exists(FLAGSCOPE_QEMU_PLUGIN))
		return FLAGSCOPE_QEMU_PLUGIN;
	sb_addf(err, "instruction-count plugin %s is missing (build the insncount target "
		     "or set FLAGSCOPE_QEMU_PLUGIN)", FLAGSCOPE_QEMU_PLUGIN);
#else
	sb_add(err, "this build has no instruction-count plugin (set FLAGSCOPE_QEMU_PLUGIN)");
#endif
	return NULL;
}

int qemu_command(const char *elf_path, const char *cpu, const char *counts_path,
		 struct strlist *prefix, struct strbuf *err)
{
	const char *qemu, *plugin = NULL;

	if (qemu_pick(elf_path, &qemu, err))
		return -1;
	if (counts_path && !(plugin = qemu_plugin_path(err)))
		return -1;
	if (strchr(counts_path ? counts_path : "", ',')) {
		sb_addf(err, "counts file %s has a comma, which -plugin cannot pass", counts_path);
		return -1;
	}
	sl_push(prefix, qemu);
	if (cpu && *cpu) {
		sl_push(prefix, "-cpu");
		sl_push(prefix, cpu);
	}
	if (plugin) {
		sl_push(prefix, "-plugin");
		sl_push_owned(prefix, xasprintf("%s,out=%s", plugin, counts_path));
	}
	return 0;
}

static int counts_key(struct qemu_counts *c, const char *key, const char *val)
{
	unsigned long long *slot = NULL;
	char *end;

	if (!strcmp(key, "target")) {
		snprintf(c->target, sizeof(c->target), "%s", val);
		return 0;
	}
	if (!strcmp(key, "mode")) {
		snprintf(c->mode, sizeof(c->mode), "%s", val);
		return 0;
	}
	if (!strcmp(key, "insns"))
		slot = &c->insns;
	for (int i = 0; i < INSN_NCLASSES && !slot; i++)
		if (!strcmp(key, insn_class_names[i]))
			slot = &c->by_class[i];
	if (!slot)
		return 0; /* plugin, api, and keys a newer plugin adds */
	errno = 0;
	*slot = strtoull(val, &end, 10);
	return (errno || end == val || *end || *val == '-') ? -1 : 0;
}

int qemu_counts_read(const char *path, struct qemu_counts *c, struct strbuf *err)
{
	char *text = file_read(path, NULL), *line, *save = NULL;
	unsigned long long sum = 0;
	int have_insns = 0, rc = 0;

	memset(c, 0, sizeof(*c));
	if (!text) {
		sb_addf(err, "no instruction counts in %s (%s: the guest did not reach exit)", path,
			strerror_lc(errno));
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (*line == '#')
			continue;
		if (!eq) {
			sb_addf(err, "%s: line '%s' is not key=value", path, line);
			rc = -1;
			break;
		}
		*eq = '\0';
		have_insns |= !strcmp(line, "insns");
		if (counts_key(c, line, eq + 1)) {
			sb_addf(err, "%s: %s=%s is not a count", path, line, eq + 1);
			rc = -1;
		}
	}
	free(text);
	if (rc)
		return -1;
	for (int i = 0; i < INSN_NCLASSES; i++)
		sum += c->by_class[i];
	if (!have_insns) {
		sb_addf(err, "%s: no insns line", path);
		return -1;
	}
	if (sum != c->insns) {
		/* the file is gone by the time anyone reads this: no path */
		sb_addf(err, "the classes add up to %llu, not insns=%llu: the counters raced, as "
			     "the guest ran threads (the plugin's inline adds are not atomic), so "
			     "no count of it is exact", sum, c->insns);
		return -2;
	}
	return 0;
}

int qemu_run(char *const argv[], const char *cpu, struct qemu_counts *counts, char **output,
	     struct strbuf *err)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir = xasprintf("%s/flagscope-qemu-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	char *counts_path = NULL;
	struct strlist cmd = {0};
	int rc = -1;

	if (output)
		*output = NULL;
	if (!mkdtemp(dir)) {
		sb_addf(err, "%s: %s", dir, strerror_lc(errno));
		goto out;
	}
	counts_path = xasprintf("%s/counts", dir);
	if (qemu_command(argv[0], cpu, counts_path, &cmd, err))
		goto out;
	for (size_t i = 0; argv[i]; i++)
		sl_push(&cmd, argv[i]);
	sl_push_owned(&cmd, NULL);
	rc = run_capture(cmd.v, output);
	if (rc < 0) {
		sb_addf(err, "%s: %s", cmd.v[0], strerror_lc(-rc));
		rc = -1;
	} else if (rc == 127 && !file_exists(counts_path)) {
		sb_addf(err, "%s did not start (install qemu-user, see scripts/packages.txt)", cmd.v[0]);
		rc = -1;
	} else if (qemu_counts_read(counts_path, counts, err)) {
		rc = -1;
	}
	unlink(counts_path);
	rmdir(dir);
out:
	free(counts_path);
	free(dir);
	sl_release(&cmd);
	return rc;
}

/* 1 with its machine and class when path is an ELF file, 0 when it is not
 * one, -1 when it cannot be read. */
static int elf_machine(const char *path, unsigned *machine, int *elfclass, struct strbuf *err)
{
	unsigned char h[EI_NIDENT + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		sb_addf(err, "%s: %s", path, strerror_lc(errno));
		return -1;
	}
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return 0;
	*elfclass = h[EI_CLASS];
	/* e_machine follows e_type, in the file's byte order */
	*machine = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3]
					     : (unsigned)h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
	return 1;
}

int qemu_runs_natively(const char *path, struct strbuf *err)
{
	unsigned machine, self_machine;
	int elfclass, self_class;
	int rc = elf_machine(path, &machine, &elfclass, err);

	if (rc <= 0)
		return rc < 0 ? -1 : 1;
	if (elf_machine("/proc/self/exe", &self_machine, &self_class, err) != 1)
		return -1;
	return machine == self_machine && elfclass == self_class;
}

/* The wrapper is a script, not a list of words in a variable, so that each
 * guest process gets its own counts file: the plugin writes one at exit,
 * and a second program would overwrite the first's. */
static int write_emu_wrapper(struct qemu_plan *p, const char *guest, const char *path,
			     struct strbuf *err)
{
	struct strlist words = {0};
	struct strbuf sh = {0};
	const char *plugin = qemu_plugin_path(err);
	int rc = -1;

	if (!plugin || qemu_command(guest, p->cpu, NULL, &words, err))
		goto out;
	char *qemu = path_lookup(words.v[0]);
	if (!qemu) {
		sb_addf(err, "%s is not installed (apt-get install qemu-user)", words.v[0]);
		goto out;
	}
	free(words.v[0]);
	words.v[0] = qemu;
	sb_addf(&sh, "#!/bin/sh\n# $EMU of one flagscope run: \"$@\" under %s%s%s, each guest\n"
		     "# process counting its instructions into %s.<pid>\nexec",
		words.v[0], p->cpu ? " -cpu " : "", p->cpu ? p->cpu : "", p->counts);
	for (size_t i = 0; i < words.n; i++) {
		sb_addc(&sh, ' ');
		sh_quote(&sh, words.v[i]);
	}
	char *arg = xasprintf("%s,out=%s.", plugin, p->counts);
	sb_add(&sh, " -plugin ");
	sh_quote(&sh, arg);
	free(arg);
	sb_add(&sh, "\"$$\" \"$@\"\n");
	if (file_write(path, sh.buf, sh.len) || chmod(path, 0755)) {
		sb_addf(err, "%s: %s", path, strerror_lc(errno));
		goto out;
	}
	p->emu = xstrdup(path);
	rc = 0;
out:
	sl_release(&words);
	sb_release(&sh);
	return rc;
}

static char *plain_emu(const char *guest, const char *cpu, struct strbuf *err)
{
	struct strlist words = {0};
	struct strbuf sb = {0};

	if (qemu_command(guest, cpu, NULL, &words, err)) {
		sl_release(&words);
		return NULL;
	}
	/* used as `$EMU prog`: split on blanks, never unquoted */
	for (size_t i = 0; i < words.n; i++) {
		if (strpbrk(words.v[i], " \t\n'\"\\$`")) {
			sb_addf(err, "'%s' cannot be a word of $EMU", words.v[i]);
			sl_release(&words);
			sb_release(&sb);
			return NULL;
		}
		sb_addf(&sb, "%s%s", i ? " " : "", words.v[i]);
	}
	sl_release(&words);
	return sb_detach(&sb);
}

int qemu_plan_init(struct qemu_plan *p, const char *argv0, char *const guests[], const char *cpu,
		   const char *scratch, struct strbuf *why)
{
	const char *guest = argv0;
	struct strbuf reason = {0};
	int rc;

	memset(p, 0, sizeof(*p));
	rc = qemu_runs_natively(argv0, why);
	if (rc < 0)
		return -1;
	p->script = rc;
	if (p->script) {
		struct qemu_guest g;
		guest = NULL;
		for (size_t i = 0; guests && guests[i] && !guest; i++) {
			struct strbuf ignored = {0};
			if (!qemu_guest_read(guests[i], &g, &ignored))
				guest = guests[i];
			sb_release(&ignored);
		}
		if (!guest) {
			sb_addf(why, "%s runs natively, and the build has no guest program for its $EMU "
				     "(name it in the recipe's binaries =)", argv0);
			return -1;
		}
	}
	rc = qemu_cpu_can_run(guest, cpu, &p->cpu, &reason);
	if (rc <= 0) {
		sb_add(why, sb_str(&reason));
		sb_release(&reason);
		return rc;
	}
	if (reason.len)
		p->stand_in = sb_detach(&reason);
	p->counts = xasprintf("%s.counts", scratch);
	qemu_plan_counts(p, &(struct qemu_counts){0}, NULL, &reason); /* an earlier run's */
	sb_release(&reason);
	p->emu_plain = plain_emu(guest, p->cpu, why);
	if (!p->emu_plain)
		goto fail;
	if (p->script) {
		char *wrapper = xasprintf("%s.emu", scratch);
		int wrc = write_emu_wrapper(p, guest, wrapper, why);
		free(wrapper);
		if (wrc)
			goto fail;
	}
	return 1;
fail:
	qemu_plan_release(p);
	return -1;
}

int qemu_plan_counts(const struct qemu_plan *p, struct qemu_counts *c, int *nproc,
		     struct strbuf *err)
{
	char *dir = xstrdup(p->counts), *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : p->counts;
	size_t blen = strlen(base);
	int n = 0, have_main = 0, rc = 0;
	DIR *d;

	memset(c, 0, sizeof(*c));
	if (slash)
		*slash = '\0';
	d = opendir(slash ? (*dir ? dir : "/") : ".");
	for (struct dirent *e; d && (e = readdir(d));) {
		struct qemu_counts one;
		if (strncmp(e->d_name, base, blen) || (e->d_name[blen] && e->d_name[blen] != '.'))
			continue;
		char *path = slash ? xasprintf("%s/%s", *dir ? dir : "", e->d_name) : xstrdup(e->d_name);
		if (!rc)
			rc = qemu_counts_read(path, &one, err);
		unlink(path);
		free(path);
		if (rc)
			continue;
		have_main |= !e->d_name[blen];
		if (!n++) {
			memcpy(c->target, one.target, sizeof(c->target));
			memcpy(c->mode, one.mode, sizeof(c->mode));
		}
		c->insns += one.insns;
		for (int k = 0; k < INSN_NCLASSES; k++)
			c->by_class[k] += one.by_class[k];
	}
	if (d)
		closedir(d);
	free(dir);
	if (nproc)
		*nproc = n;
	if (rc)
		return rc;
	if (!p->script && !have_main) {
		sb_addf(err, "no instruction counts in %s (the guest did not reach exit)", p->counts);
		return -1;
	}
	if (p->script && !n) {
		sb_add(err, "the script started no guest program through $EMU, so nothing was "
			    "counted (write $EMU \"$prog\" ... in the recipe's script)");
		return -1;
	}
	return 0;
}

void qemu_plan_release(struct qemu_plan *p)
{
	if (p->counts) {
		struct strbuf ignored = {0};
		qemu_plan_counts(p, &(struct qemu_counts){0}, NULL, &ignored);
		sb_release(&ignored);
	}
	if (p->emu)
		unlink(p->emu);
	free(p->stand_in);
	free(p->counts);
	free(p->emu);
	free(p->emu_plain);
	memset(p, 0, sizeof(*p));
}
