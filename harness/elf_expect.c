/*
 * elf_expect.c - what a target triple and a configuration's flags ask an
 * ELF file to say about its machine, and the comparison (see elf.h).
 *
 * The -march table below was measured: each value compiled with Debian 12's
 * mips64el-linux-gnuabi64-gcc 12.2 at -mabi=32, n32 and 64 and its e_flags
 * and .MIPS.abiflags read back.  A value that is not listed compares no ISA.
 *
 * How to add an architecture: a family, its triples in triples[], and the
 * flags it reads in apply_flags().
 */
#include "harness/elf.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "harness/switches.h"

enum family { FAM_NONE, FAM_X86, FAM_MIPS, FAM_AARCH64, FAM_ARM, FAM_RISCV, FAM_OTHER };

/* Triple architectures (the part before the first '-'), longest first
 * where one is a prefix of another. */
static const struct triple_arch {
	const char *arch;
	int prefix; /* 1: arch is a prefix (i386..i686, armv7l, thumbv7) */
	enum family fam;
	unsigned machine;
	const char *machine_name;
	int bits;         /* 0: depends on the ABI */
	const char *data; /* NULL: "el" at the end says lsb, else msb */
} triples[] = {
	{"x86_64", 0, FAM_X86, EM_X86_64, "x86-64", 64, "lsb"},
	{"amd64", 0, FAM_X86, EM_X86_64, "x86-64", 64, "lsb"},
	{"i386", 0, FAM_X86, EM_386, "i386", 32, "lsb"},
	{"i486", 0, FAM_X86, EM_386, "i386", 32, "lsb"},
	{"i586", 0, FAM_X86, EM_386, "i386", 32, "lsb"},
	{"i686", 0, FAM_X86, EM_386, "i386", 32, "lsb"},
	{"mipsisa64", 1, FAM_MIPS, EM_MIPS, "mips", 0, NULL},
	{"mips64", 1, FAM_MIPS, EM_MIPS, "mips", 0, NULL},
	{"mipsisa32", 1, FAM_MIPS, EM_MIPS, "mips", 32, NULL},
	{"mips", 1, FAM_MIPS, EM_MIPS, "mips", 32, NULL},
	{"aarch64_be", 0, FAM_AARCH64, EM_AARCH64, "aarch64", 64, "msb"},
	{"aarch64", 0, FAM_AARCH64, EM_AARCH64, "aarch64", 64, "lsb"},
	{"arm64", 0, FAM_AARCH64, EM_AARCH64, "aarch64", 64, "lsb"},
	{"armeb", 0, FAM_ARM, EM_ARM, "arm", 32, "msb"},
	{"arm", 1, FAM_ARM, EM_ARM, "arm", 32, "lsb"},
	{"thumb", 1, FAM_ARM, EM_ARM, "arm", 32, "lsb"},
	{"riscv64", 0, FAM_RISCV, EM_RISCV, "riscv", 64, "lsb"},
	{"riscv32", 0, FAM_RISCV, EM_RISCV, "riscv", 32, "lsb"},
	{"powerpc64le", 0, FAM_OTHER, EM_PPC64, "powerpc64", 64, "lsb"},
	{"ppc64le", 0, FAM_OTHER, EM_PPC64, "powerpc64", 64, "lsb"},
	{"powerpc64", 0, FAM_OTHER, EM_PPC64, "powerpc64", 64, "msb"},
	{"ppc64", 0, FAM_OTHER, EM_PPC64, "powerpc64", 64, "msb"},
	{"powerpcle", 0, FAM_OTHER, EM_PPC, "powerpc", 32, "lsb"},
	{"powerpc", 0, FAM_OTHER, EM_PPC, "powerpc", 32, "msb"},
	{"s390x", 0, FAM_OTHER, EM_S390, "s390", 64, "msb"},
	{"sparc64", 0, FAM_OTHER, EM_SPARCV9, "sparc64", 64, "msb"},
	{"loongarch64", 0, FAM_OTHER, EM_LOONGARCH, "loongarch", 64, "lsb"},
};

/* -march= (and -mipsN) values: the EF_MIPS_ARCH level and the extension
 * (EF_MIPS_MACH, else .MIPS.abiflags isa_ext) GCC 12 writes for them. */
static const struct mips_arch {
	const char *march, *isa, *ext;
} mips_archs[] = {
	{"mips1", "mips1", ""},		 {"r2000", "mips1", ""},	 {"r3000", "mips1", ""},
	{"r3900", "mips1", "3900"},	 {"mips2", "mips2", ""},	 {"r6000", "mips2", ""},
	{"mips3", "mips3", ""},		 {"r4000", "mips3", ""},	 {"r4400", "mips3", ""},
	{"r4600", "mips3", ""},		 {"vr4300", "mips3", ""},	 {"r4650", "mips3", "4650"},
	{"vr4100", "mips3", "4100"},	 {"vr4111", "mips3", "4111"},	 {"vr4120", "mips3", "4120"},
	{"vr4130", "mips3", "4120"},	 {"loongson2e", "mips3", "loongson-2e"},
	{"loongson2f", "mips3", "loongson-2f"},
	{"mips4", "mips4", ""},		 {"r5000", "mips4", ""},	 {"vr5000", "mips4", ""},
	{"r8000", "mips4", ""},		 {"r12000", "mips4", ""},	 {"rm7000", "mips4", ""},
	{"r10000", "mips4", "10000"},	 {"vr5400", "mips4", "5400"},	 {"vr5500", "mips4", "5500"},
	{"rm9000", "mips4", "9000"},	 {"mips32", "mips32", ""},	 {"4kc", "mips32", ""},
	{"mips32r2", "mips32r2", ""},	 {"mips32r3", "mips32r2", ""},	 {"mips32r5", "mips32r2", ""},
	{"24kf2_1", "mips32r2", ""},	 {"74kc", "mips32r2", ""},	 {"1004kc", "mips32r2", ""},
	{"m14k", "mips32r2", ""},	 {"p5600", "mips32r2", ""},	 {"mips32r6", "mips32r6", ""},
	{"mips64", "mips64", ""},	 {"5kc", "mips64", ""},		 {"20kc", "mips64", ""},
	{"sb1", "mips64", "sb1"},	 {"xlr", "mips64", "xlr"},	 {"xlp", "mips64", "xlr"},
	{"mips64r2", "mips64r2", ""},	 {"mips64r3", "mips64r2", ""},	 {"mips64r5", "mips64r2", ""},
	{"loongson3a", "mips64r2", "gs464"}, {"gs464", "mips64r2", "gs464"},
	{"gs464e", "mips64r2", "gs464e"}, {"gs264e", "mips64r2", "gs264e"},
	{"octeon", "mips64r2", "octeon"}, {"octeon2", "mips64r2", "octeon2"},
	{"octeon3", "mips64r2", "octeon3"}, {"mips64r6", "mips64r6", ""}, {"i6400", "mips64r6", ""},
};

/* Which MIPS ISAs each one contains (itself included), to tell a higher
 * ISA from a different one. */
static const struct mips_isa {
	const char *isa;
	const char *contains;
} mips_isas[] = {
	{"mips1", " mips1 "},
	{"mips2", " mips1 mips2 "},
	{"mips3", " mips1 mips2 mips3 "},
	{"mips4", " mips1 mips2 mips3 mips4 "},
	{"mips5", " mips1 mips2 mips3 mips4 mips5 "},
	{"mips32", " mips1 mips2 mips32 "},
	{"mips32r2", " mips1 mips2 mips32 mips32r2 "},
	{"mips64", " mips1 mips2 mips3 mips4 mips5 mips32 mips64 "},
	{"mips64r2", " mips1 mips2 mips3 mips4 mips5 mips32 mips32r2 mips64 mips64r2 "},
	{"mips32r6", " mips32r6 "},
	{"mips64r6", " mips32r6 mips64r6 "},
};

static const char *const x86_levels[] = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};

/* The last flag of each kind, as given (pointers into the split words,
 * which are released before the expectation is used: items keep only
 * static strings and copies). */
struct flag_words {
	const char *triple, *mode, *abi, *march, *endian, *soft, *single, *fpr, *float_abi,
		*nan, *odd_spreg;
};

static void item_set(struct elf_expect_item *it, const char *want, const char *why)
{
	it->want = want;
	snprintf(it->why, sizeof(it->why), "%s", why);
}

/* -mips3, -mips64r2: GCC's other spelling of -march=; not -mips16 or
 * -mips3d, which are ASEs. */
static int is_mips_level(const char *flag)
{
	if (!str_starts_with(flag, "-mips"))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(mips_archs); i++)
		if (str_starts_with(mips_archs[i].march, "mips") && !strcmp(flag + 1, mips_archs[i].march))
			return 1;
	return 0;
}

static void read_flags(const struct strlist *w, struct flag_words *fw)
{
	for (size_t i = 0; i < w->n; i++) {
		const char *s = w->v[i];
		if (str_starts_with(s, "--target="))
			fw->triple = s + 9;
		else if ((!strcmp(s, "-target") || !strcmp(s, "--target")) && i + 1 < w->n)
			fw->triple = w->v[++i];
		else if (!strcmp(s, "-m32") || !strcmp(s, "-m64") || !strcmp(s, "-mx32"))
			fw->mode = s;
		else if (str_starts_with(s, "-mabi="))
			fw->abi = s;
		else if (str_starts_with(s, "-march="))
			fw->march = s;
		else if (is_mips_level(s))
			fw->march = s;
		else if (!strcmp(s, "-EL") || !strcmp(s, "-EB") || !strcmp(s, "-mel") ||
			 !strcmp(s, "-meb") || !strcmp(s, "-mlittle-endian") ||
			 !strcmp(s, "-mbig-endian"))
			fw->endian = s;
		else if (!strcmp(s, "-msoft-float") || !strcmp(s, "-mhard-float"))
			fw->soft = s;
		else if (!strcmp(s, "-msingle-float") || !strcmp(s, "-mdouble-float"))
			fw->single = s;
		else if (!strcmp(s, "-mfp32") || !strcmp(s, "-mfpxx") || !strcmp(s, "-mfp64"))
			fw->fpr = s;
		else if (!strcmp(s, "-modd-spreg") || !strcmp(s, "-mno-odd-spreg"))
			fw->odd_spreg = s;
		else if (str_starts_with(s, "-mfloat-abi="))
			fw->float_abi = s;
		else if (str_starts_with(s, "-mnan="))
			fw->nan = s;
	}
}

static const struct triple_arch *triple_lookup(const char *triple)
{
	size_t n = strcspn(triple, "-");
	for (size_t i = 0; i < ARRAY_SIZE(triples); i++) {
		size_t m = strlen(triples[i].arch);
		if (triples[i].prefix ? n >= m && !strncmp(triple, triples[i].arch, m)
				      : n == m && !strncmp(triple, triples[i].arch, m))
			return &triples[i];
	}
	return NULL;
}

/* The triple's own facts: machine, class, byte order, default ABI. */
static enum family apply_triple(const char *triple, const char *why, struct elf_expect *e)
{
	const struct triple_arch *t = triple_lookup(triple);
	size_t n = strcspn(triple, "-");

	if (!t)
		return FAM_NONE;
	e->machine = t->machine;
	item_set(&e->machine_name, t->machine_name, why);
	if (t->bits)
		item_set(&e->klass, t->bits == 64 ? "ELF64" : "ELF32", why);
	if (t->data)
		item_set(&e->data, t->data, why);
	else
		item_set(&e->data, n >= 2 && !strncmp(triple + n - 2, "el", 2) ? "lsb" : "msb", why);
	switch (t->fam) {
	case FAM_X86:
		if (strstr(triple, "gnux32")) {
			item_set(&e->klass, "ELF32", why);
			item_set(&e->abi, "x32", why);
		} else {
			item_set(&e->abi, t->bits == 64 ? "lp64" : "ilp32", why);
		}
		break;
	case FAM_MIPS:
		if (t->bits == 32) {
			item_set(&e->abi, "o32", why);
		} else if (strstr(triple, "gnuabi64")) {
			item_set(&e->abi, "n64", why);
			item_set(&e->klass, "ELF64", why);
		} else if (strstr(triple, "gnuabin32")) {
			item_set(&e->abi, "n32", why);
			item_set(&e->klass, "ELF32", why);
		}
		break;
	case FAM_AARCH64:
		item_set(&e->abi, "lp64", why);
		break;
	case FAM_ARM:
		if (strstr(triple, "gnueabihf"))
			item_set(&e->fpabi, "hard", why);
		else if (strstr(triple, "gnueabi"))
			item_set(&e->fpabi, "soft", why);
		break;
	default:
		break;
	}
	return t->fam;
}

static enum family family_of(unsigned machine)
{
	switch (machine) {
	case EM_X86_64:
	case EM_386:
		return FAM_X86;
	case EM_MIPS:
		return FAM_MIPS;
	case EM_AARCH64:
		return FAM_AARCH64;
	case EM_ARM:
		return FAM_ARM;
	case EM_RISCV:
		return FAM_RISCV;
	}
	return FAM_OTHER;
}

static void apply_x86(const struct flag_words *fw, struct elf_expect *e)
{
	if (fw->mode) {
		int m32 = !strcmp(fw->mode, "-m32"), x32 = !strcmp(fw->mode, "-mx32");
		e->machine = m32 ? EM_386 : EM_X86_64;
		item_set(&e->machine_name, m32 ? "i386" : "x86-64", fw->mode);
		item_set(&e->klass, m32 || x32 ? "ELF32" : "ELF64", fw->mode);
		item_set(&e->abi, m32 ? "ilp32" : x32 ? "x32" : "lp64", fw->mode);
	}
	if (fw->march)
		for (size_t i = 0; i < ARRAY_SIZE(x86_levels); i++)
			if (!strcmp(fw->march + 7, x86_levels[i])) {
				item_set(&e->isa, x86_levels[i], fw->march);
				e->isa_at_most = 1;
			}
}

/* file_abi: the ABI the file states, to read -mfp32/-mfpxx by when neither
 * the triple nor -mabi= says (verify without --target). */
static void apply_mips(const struct flag_words *fw, const char *file_abi, struct elf_expect *e)
{
	const char *abi;

	if (fw->abi) {
		static const struct {
			const char *v, *abi, *klass;
		} abis[] = {{"32", "o32", "ELF32"}, {"o64", "o64", "ELF32"},
			    {"n32", "n32", "ELF32"}, {"64", "n64", "ELF64"}};
		e->abi.want = NULL; /* eabi and others: not compared */
		for (size_t i = 0; i < ARRAY_SIZE(abis); i++)
			if (!strcmp(fw->abi + 6, abis[i].v)) {
				item_set(&e->abi, abis[i].abi, fw->abi);
				item_set(&e->klass, abis[i].klass, fw->abi);
			}
	}
	if (fw->endian)
		item_set(&e->data, !strcmp(fw->endian, "-EL") || !strcmp(fw->endian, "-mel") ||
					   !strcmp(fw->endian, "-mlittle-endian")
				   ? "lsb" : "msb",
			 fw->endian);
	if (fw->march) {
		const char *v = fw->march[2] == 'a' ? fw->march + 7 : fw->march + 1; /* -mips3: mips3 */
		for (size_t i = 0; i < ARRAY_SIZE(mips_archs); i++)
			if (!strcmp(v, mips_archs[i].march)) {
				item_set(&e->isa, mips_archs[i].isa, fw->march);
				item_set(&e->ext, mips_archs[i].ext, fw->march);
			}
	}
	/* The FP ABI, as .MIPS.abiflags states it: soft or single whatever
	 * the registers; else o32 by -mfp32/-mfpxx/-mfp64, n32/n64 "double". */
	abi = e->abi.want ? e->abi.want : file_abi;
	if (fw->soft && !strcmp(fw->soft, "-msoft-float")) {
		item_set(&e->fpabi, "soft", fw->soft);
	} else if (fw->single && !strcmp(fw->single, "-msingle-float")) {
		item_set(&e->fpabi, "single", fw->single);
	} else if (abi && strcmp(abi, "o32")) {
		const char *why = fw->soft ? fw->soft : fw->single ? fw->single : fw->fpr;
		if (why)
			item_set(&e->fpabi, "double", why);
	} else if (fw->fpr && abi) {
		const char *fp = !strcmp(fw->fpr, "-mfp32") ? "double"
				 : !strcmp(fw->fpr, "-mfpxx") ? "xx"
				 : fw->odd_spreg && !strcmp(fw->odd_spreg, "-mno-odd-spreg") ? "64a"
											 : "64";
		item_set(&e->fpabi, fp, fw->fpr);
	} else if (fw->soft || fw->single) {
		item_set(&e->fpabi, "hard", fw->soft ? fw->soft : fw->single);
	}
	if (fw->nan && !strcmp(fw->nan, "-mnan=2008"))
		item_set(&e->nan, "2008", fw->nan);
	else if (fw->nan && !strcmp(fw->nan, "-mnan=legacy"))
		item_set(&e->nan, "legacy", fw->nan);
}

static void apply_aarch64(const struct flag_words *fw, struct elf_expect *e)
{
	if (fw->abi && !strcmp(fw->abi, "-mabi=ilp32")) {
		item_set(&e->abi, "ilp32", fw->abi);
		item_set(&e->klass, "ELF32", fw->abi);
	} else if (fw->abi && !strcmp(fw->abi, "-mabi=lp64")) {
		item_set(&e->abi, "lp64", fw->abi);
		item_set(&e->klass, "ELF64", fw->abi);
	}
	if (fw->endian && strstr(fw->endian, "endian"))
		item_set(&e->data, !strcmp(fw->endian, "-mlittle-endian") ? "lsb" : "msb",
			 fw->endian);
}

static void apply_arm(const struct flag_words *fw, struct elf_expect *e)
{
	if (fw->float_abi)
		item_set(&e->fpabi, !strcmp(fw->float_abi, "-mfloat-abi=hard") ? "hard" : "soft",
			 fw->float_abi);
	if (fw->endian && strstr(fw->endian, "endian"))
		item_set(&e->data, !strcmp(fw->endian, "-mlittle-endian") ? "lsb" : "msb",
			 fw->endian);
}

static void apply_riscv(const struct flag_words *fw, struct elf_expect *e)
{
	static const char *const abis[] = {"ilp32", "ilp32f", "ilp32d", "lp64", "lp64f", "lp64d"};
	if (!fw->abi)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(abis); i++)
		if (!strcmp(fw->abi + 6, abis[i])) {
			item_set(&e->abi, abis[i], fw->abi);
			item_set(&e->klass, i < 3 ? "ELF32" : "ELF64", fw->abi);
		}
}

static void apply_flags(enum family fam, const struct flag_words *fw, const char *file_abi,
			struct elf_expect *e)
{
	switch (fam) {
	case FAM_X86:
		apply_x86(fw, e);
		break;
	case FAM_MIPS:
		apply_mips(fw, file_abi, e);
		break;
	case FAM_AARCH64:
		apply_aarch64(fw, e);
		break;
	case FAM_ARM:
		apply_arm(fw, e);
		break;
	case FAM_RISCV:
		apply_riscv(fw, e);
		break;
	default:
		break; /* -m32/-m64 of other machines change too much to guess */
	}
}

/* The machine flagscope was built for: what "native" means. */
static const char *native_triple(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return "x86_64-linux-gnux32";
#elif defined(__x86_64__)
	return "x86_64-linux-gnu";
#elif defined(__i386__)
	return "i686-linux-gnu";
#elif defined(__aarch64__) && defined(__AARCH64EB__)
	return "aarch64_be-linux-gnu";
#elif defined(__aarch64__)
	return "aarch64-linux-gnu";
#elif defined(__mips__) && defined(__MIPSEL__) && _MIPS_SIM == _ABI64
	return "mips64el-linux-gnuabi64";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64-linux-gnu";
#else
	return NULL; /* compare only what the flags say */
#endif
}

void elf_expect_derive(const char *target, const char *flags, struct elf_expect *e)
{
	struct strlist words = {0};
	struct flag_words fw = {0};
	enum family fam = FAM_NONE;
	char why[96];

	memset(e, 0, sizeof(*e));
	switches_split(flags ? flags : "", &words);
	read_flags(&words, &fw);
	if (!target && fw.triple) {
		target = fw.triple;
		snprintf(why, sizeof(why), "--target=%s", target);
	} else if (target) {
		snprintf(why, sizeof(why), "target %s", target);
	} else {
		target = native_triple();
		snprintf(why, sizeof(why), "native %s", target ? target : "");
	}
	if (target)
		fam = apply_triple(target, why, e);
	apply_flags(fam, &fw, NULL, e);
	sl_release(&words);
}

void elf_expect_for_file(const struct elf_facts *f, const char *flags, struct elf_expect *e)
{
	struct strlist words = {0};
	struct flag_words fw = {0};

	memset(e, 0, sizeof(*e));
	switches_split(flags ? flags : "", &words);
	read_flags(&words, &fw);
	apply_flags(family_of(f->machine), &fw, f->abi, e);
	sl_release(&words);
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "none";
}

static int differs(const struct elf_expect_item *it, const char *got)
{
	return it->want && strcmp(it->want, got ? got : "");
}

static int fp_differs(const char *want, const char *got)
{
	if (!want)
		return 0;
	if (!got)
		return 1;
	if (!strcmp(want, "hard"))
		return !strcmp(got, "soft") || !strcmp(got, "any");
	if (!strcmp(want, "64"))
		return strcmp(got, "64") && strcmp(got, "64a");
	return strcmp(want, got) != 0;
}

static int mips_isa_contains(const char *isa, const char *other)
{
	char key[32];
	snprintf(key, sizeof(key), " %s ", other);
	for (size_t i = 0; i < ARRAY_SIZE(mips_isas); i++)
		if (!strcmp(mips_isas[i].isa, isa))
			return strstr(mips_isas[i].contains, key) != NULL;
	return 0;
}

static int x86_level(const char *isa)
{
	for (size_t i = 0; isa && i < ARRAY_SIZE(x86_levels); i++)
		if (!strcmp(isa, x86_levels[i]))
			return (int)i;
	return -1;
}

static int check_isa(const struct elf_facts *f, const struct elf_expect *e, struct strlist *m)
{
	const char *want = e->isa.want;

	if (!want)
		return 0;
	if (e->isa_at_most) {
		if (x86_level(f->isa) <= x86_level(want))
			return 0;
	} else if (f->isa && !strcmp(f->isa, want)) {
		return 0;
	}
	if (!f->isa)
		sl_push_owned(m, xasprintf("ISA not stated (e_flags 0x%llx), %s expected (%s)",
					   f->e_flags, want, e->isa.why));
	else if (e->isa_at_most || (f->machine == EM_MIPS && mips_isa_contains(f->isa, want)))
		sl_push_owned(m, xasprintf("ISA %s is above the %s that %s asks (an object built for "
					   "a later ISA was linked in)", f->isa, want, e->isa.why));
	else
		sl_push_owned(m, xasprintf("ISA %s, %s expected (%s)", f->isa, want, e->isa.why));
	return 1;
}

int elf_expect_check(const struct elf_facts *f, const struct elf_expect *e,
		     struct strlist *mismatches)
{
	int found = 0;
	char klass[8];

	if (e->machine && f->machine != e->machine) {
		if (f->machine_name)
			sl_push_owned(mismatches, xasprintf("machine %s, %s expected (%s)",
							    f->machine_name, e->machine_name.want,
							    e->machine_name.why));
		else
			sl_push_owned(mismatches, xasprintf("machine %u, %s expected (%s)", f->machine,
							    e->machine_name.want, e->machine_name.why));
		return 1;
	}
	snprintf(klass, sizeof(klass), "ELF%d", f->bits);
	if (differs(&e->klass, klass)) {
		sl_push_owned(mismatches, xasprintf("class %s, %s expected (%s)", klass, e->klass.want,
						    e->klass.why));
		found++;
	}
	if (differs(&e->data, f->data)) {
		sl_push_owned(mismatches,
			      xasprintf("byte order %s, %s expected (%s)",
					!strcmp(f->data, "lsb") ? "little-endian" : "big-endian",
					!strcmp(e->data.want, "lsb") ? "little-endian" : "big-endian",
					e->data.why));
		found++;
	}
	if (differs(&e->abi, f->abi)) {
		sl_push_owned(mismatches, xasprintf("ABI %s, %s expected (%s)", or_none(f->abi),
						    e->abi.want, e->abi.why));
		found++;
	}
	found += check_isa(f, e, mismatches);
	if (e->ext.want && f->machine == EM_MIPS && strcmp(e->ext.want, f->ext ? f->ext : "")) {
		if (!*e->ext.want)
			sl_push_owned(mismatches, xasprintf("machine extension %s, none expected (%s)",
							    f->ext, e->ext.why));
		else if (!f->ext)
			sl_push_owned(mismatches, xasprintf("machine extension %s absent (%s asks it)",
							    e->ext.want, e->ext.why));
		else
			sl_push_owned(mismatches, xasprintf("machine extension %s, %s expected (%s)",
							    f->ext, e->ext.want, e->ext.why));
		found++;
	}
	/* Arm states its float ABI only in EABI5 e_flags: a file that says
	 * nothing is not contradicted. */
	if (fp_differs(e->fpabi.want, f->fpabi) && (f->fpabi || f->machine != EM_ARM)) {
		sl_push_owned(mismatches, xasprintf("FP ABI %s, %s expected (%s)", or_none(f->fpabi),
						    !strcmp(e->fpabi.want, "hard") ? "hardware float"
										   : e->fpabi.want,
						    e->fpabi.why));
		found++;
	}
	if (differs(&e->nan, f->nan)) {
		sl_push_owned(mismatches, xasprintf("NaN encoding %s, %s expected (%s)",
						    or_none(f->nan), e->nan.want, e->nan.why));
		found++;
	}
	return found;
}
