/*
 * elf_arch.c - the ABI, ISA and extension an ELF file states for its
 * machine.  One const ops entry per architecture in arch_table[]; a machine
 * not listed is reported by number only.
 *
 * How to add an architecture: write a decode function that fills what the
 * file says (from e_flags, attributes or notes; never guess), add one
 * entry to arch_table[].
 */
#include "harness/elf_internal.h"

#include <stdlib.h>
#include <string.h>

#ifndef SHT_ARM_ATTRIBUTES
#define SHT_ARM_ATTRIBUTES 0x70000003 /* ARM build attributes */
#endif
#ifndef SHT_MIPS_ABIFLAGS
#define SHT_MIPS_ABIFLAGS 0x7000002a /* MIPS ABI, "MIPS ABI Flags" record */
#endif
/* EF_MIPS_ABI values (binutils include/elf/mips.h; glibc's elf.h lacks them). */
#define EF_MIPS_ABI_MASK 0x0000f000u
#define MIPS_ABI_O32 0x00001000u
#define MIPS_ABI_O64 0x00002000u
#define MIPS_ABI_EABI32 0x00003000u
#define MIPS_ABI_EABI64 0x00004000u
#define EF_MIPS_MACH_MASK 0x00ff0000u

struct arch_ops {
	unsigned machine;
	const char *name;
	void (*decode)(struct elf_reader *r);
};

static unsigned read_u32(const struct elf_facts *f, const unsigned char *p)
{
	if (!strcmp(f->data, "lsb"))
		return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
	return (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static unsigned read_u16(const struct elf_facts *f, const unsigned char *p)
{
	return !strcmp(f->data, "lsb") ? (unsigned)(p[0] | p[1] << 8) : (unsigned)(p[0] << 8 | p[1]);
}

struct named_value {
	unsigned value;
	const char *name;
};

static const char *value_name(const struct named_value *t, size_t n, unsigned v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == v)
			return t[i].name;
	return NULL;
}

/* EF_MIPS_ARCH levels. */
static const struct named_value mips_isas[] = {
	{0x00000000, "mips1"},	  {0x10000000, "mips2"},    {0x20000000, "mips3"},
	{0x30000000, "mips4"},	  {0x40000000, "mips5"},    {0x50000000, "mips32"},
	{0x60000000, "mips64"},	  {0x70000000, "mips32r2"}, {0x80000000, "mips64r2"},
	{0x90000000, "mips32r6"}, {0xa0000000, "mips64r6"},
};

/* EF_MIPS_MACH values (binutils include/elf/mips.h, named as readelf does). */
static const struct named_value mips_machs[] = {
	{0x00810000, "3900"},	     {0x00820000, "4010"},	   {0x00830000, "4100"},
	{0x00840000, "allegrex"},    {0x00850000, "4650"},	   {0x00870000, "4120"},
	{0x00880000, "4111"},	     {0x008a0000, "sb1"},	   {0x008b0000, "octeon"},
	{0x008c0000, "xlr"},	     {0x008d0000, "octeon2"},	   {0x008e0000, "octeon3"},
	{0x00910000, "5400"},	     {0x00920000, "5900"},	   {0x00930000, "interaptiv-mr2"},
	{0x00980000, "5500"},	     {0x00990000, "9000"},	   {0x00a00000, "loongson-2e"},
	{0x00a10000, "loongson-2f"}, {0x00a20000, "gs464"},	   {0x00a30000, "gs464e"},
	{0x00a40000, "gs264e"},
};

/* .MIPS.abiflags isa_ext values (MIPS_AFL_EXT_*). */
static const struct named_value mips_afl_exts[] = {
	{1, "xlr"},	     {2, "octeon2"},	 {3, "octeonp"},     {4, "loongson-3a"},
	{5, "octeon"},	     {6, "5900"},	 {7, "4650"},	     {8, "4010"},
	{9, "4100"},	     {10, "3900"},	 {11, "10000"},	     {12, "sb1"},
	{13, "4111"},	     {14, "4120"},	 {15, "5400"},	     {16, "5500"},
	{17, "loongson-2e"}, {18, "loongson-2f"}, {19, "octeon3"}, {20, "interaptiv-mr2"},
};

/* .MIPS.abiflags fp_abi values (Val_GNU_MIPS_ABI_FP_*). */
static const struct named_value mips_fp_abis[] = {
	{0, "any"}, {1, "double"}, {2, "single"}, {3, "soft"},
	{4, "old-64"}, {5, "xx"}, {6, "64"}, {7, "64a"},
};

static void decode_mips(struct elf_reader *r)
{
	struct elf_facts *f = r->f;
	unsigned flags = (unsigned)f->e_flags;
	const char *s;
	Elf_Scn *scn;

	switch (flags & EF_MIPS_ABI_MASK) {
	case MIPS_ABI_O32:
		f->abi = "o32";
		break;
	case MIPS_ABI_O64:
		f->abi = "o64";
		break;
	case MIPS_ABI_EABI32:
		f->abi = "eabi32";
		break;
	case MIPS_ABI_EABI64:
		f->abi = "eabi64";
		break;
	default:
		f->abi = flags & EF_MIPS_ABI2 ? "n32" : f->bits == 64 ? "n64" : "o32";
	}
	s = value_name(mips_isas, ARRAY_SIZE(mips_isas), flags & EF_MIPS_ARCH);
	if (s)
		f->isa = xstrdup(s);
	s = value_name(mips_machs, ARRAY_SIZE(mips_machs), flags & EF_MIPS_MACH_MASK);
	if (s)
		f->ext = xstrdup(s);
	f->pic = !!(flags & EF_MIPS_PIC);
	f->cpic = !!(flags & EF_MIPS_CPIC);
	f->nan = flags & EF_MIPS_NAN2008 ? "2008" : "legacy";

	/* Elf_MIPS_ABIFlags_v0: version u16, isa_level, isa_rev, gpr_size,
	 * cpr1_size, cpr2_size, fp_abi (u8 each), isa_ext, ases, flags1, flags2
	 * (u32 each): 24 bytes in the file's byte order. */
	scn = elf_find_section(r, ".MIPS.abiflags", SHT_MIPS_ABIFLAGS);
	const Elf_Data *d = scn ? elf_section_bytes(scn) : NULL;
	if (d && d->d_size >= 24) {
		const unsigned char *p = d->d_buf;
		if (read_u16(f, p) != 0)
			return;
		f->fpabi = value_name(mips_fp_abis, ARRAY_SIZE(mips_fp_abis), p[7]);
		s = value_name(mips_afl_exts, ARRAY_SIZE(mips_afl_exts), read_u32(f, p + 8));
		if (s && !f->ext)
			f->ext = xstrdup(s);
	}
}

/* The GNU property note: (type u32, size u32, data, padding to the word
 * size) records inside an NT_GNU_PROPERTY_TYPE_0 "GNU" note.  Calls fn for
 * each u32 property. */
static void gnu_properties(struct elf_reader *r,
			   void (*fn)(struct elf_facts *f, unsigned type, unsigned value))
{
	Elf_Scn *scn = elf_find_section(r, ".note.gnu.property", 0);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t off = 0, name_off, desc_off, next;
	size_t align = r->f->bits == 64 ? 8 : 4;
	GElf_Nhdr nh;

	if (!d || !d->d_buf)
		return;
	while (off < d->d_size && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		const unsigned char *desc = (const unsigned char *)d->d_buf + desc_off;
		if (nh.n_type == NT_GNU_PROPERTY_TYPE_0 && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + name_off, "GNU", 4)) {
			size_t p = 0;
			while (nh.n_descsz >= 8 && p <= nh.n_descsz - 8) {
				unsigned type = read_u32(r->f, desc + p);
				unsigned size = read_u32(r->f, desc + p + 4);
				if (size > nh.n_descsz - p - 8)
					break;
				if (size == 4)
					fn(r->f, type, read_u32(r->f, desc + p + 8));
				p += 8 + ((size + align - 1) & ~(align - 1));
			}
		}
		off = next;
	}
}

static void add_word(char **list, const char *word)
{
	char *old = *list;
	*list = old ? xasprintf("%s,%s", old, word) : xstrdup(word);
	free(old);
}

static void x86_property(struct elf_facts *f, unsigned type, unsigned value)
{
	static const char *const levels[] = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};
	if (type == GNU_PROPERTY_X86_ISA_1_NEEDED) {
		for (int i = ARRAY_SIZE(levels) - 1; i >= 0; i--)
			if (value & (1u << i)) {
				free(f->isa);
				f->isa = xstrdup(levels[i]);
				break;
			}
	}
	if (type == GNU_PROPERTY_X86_FEATURE_1_AND) {
		if (value & GNU_PROPERTY_X86_FEATURE_1_IBT)
			add_word(&f->ext, "ibt");
		if (value & GNU_PROPERTY_X86_FEATURE_1_SHSTK)
			add_word(&f->ext, "shstk");
	}
}

static void decode_x86_64(struct elf_reader *r)
{
	r->f->abi = r->f->bits == 64 ? "lp64" : "x32";
	gnu_properties(r, x86_property);
}

static void decode_i386(struct elf_reader *r)
{
	r->f->abi = "ilp32";
	gnu_properties(r, x86_property);
}

static void aarch64_property(struct elf_facts *f, unsigned type, unsigned value)
{
	if (type != GNU_PROPERTY_AARCH64_FEATURE_1_AND)
		return;
	if (value & GNU_PROPERTY_AARCH64_FEATURE_1_BTI)
		add_word(&f->ext, "bti");
	if (value & GNU_PROPERTY_AARCH64_FEATURE_1_PAC)
		add_word(&f->ext, "pac");
}

static void decode_aarch64(struct elf_reader *r)
{
	r->f->abi = r->f->bits == 64 ? "lp64" : "ilp32";
	gnu_properties(r, aarch64_property);
}

/* ULEB128 at *p (below end); 0 when it runs off the end or past 32 bits. */
static int read_uleb(const unsigned char **p, const unsigned char *end, unsigned *out)
{
	unsigned v = 0;
	for (int shift = 0; *p < end && shift < 35; shift += 7) {
		unsigned char b = *(*p)++;
		v |= (unsigned)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return 1;
		}
	}
	return 0;
}

/* Skip a NUL-terminated string at *p; 0 when unterminated. */
static int skip_ntbs(const unsigned char **p, const unsigned char *end, const char **s)
{
	const unsigned char *nul = memchr(*p, 0, (size_t)(end - *p));
	if (!nul)
		return 0;
	*s = (const char *)*p;
	*p = nul + 1;
	return 1;
}

/* Tag_CPU_arch values (ARM ABI addenda, "Build Attributes"). */
static const char *const arm_archs[] = {
	"armv3", "armv4", "armv4t", "armv5t", "armv5te", "armv5tej", "armv6", "armv6kz",
	"armv6t2", "armv6k", "armv7", "armv6-m", "armv6s-m", "armv7e-m", "armv8", "armv8-r",
	"armv8-m.base", "armv8-m.main", "armv8.1-a", "armv8.2-a", "armv8.3-a", "armv8.1-m.main",
	"armv9",
};
/* Tag_FP_arch values. */
static const char *const arm_fps[] = {
	NULL, "vfpv1", "vfpv2", "vfpv3", "vfpv3-d16", "vfpv4", "vfpv4-d16", "fp-armv8",
	"fp-armv8-d16",
};

/*
 * The "aeabi" file attributes of .ARM.attributes: 'A', then sections of
 * <u32 length><vendor NTBS><sub-sections>, each sub-section <u8 tag><u32
 * length><attributes>, an attribute a ULEB tag and a ULEB or string value
 * (strings: tags 4, 5, 67 and odd tags above 32; tag 32 is both).  Only
 * the file scope (tag 1) is read: a linked file's attributes are those of
 * the whole file.  Every length is checked against the section.
 */
static void arm_attributes(struct elf_reader *r)
{
	Elf_Scn *scn = elf_find_section(r, NULL, SHT_ARM_ATTRIBUTES);
	const Elf_Data *d = scn ? elf_section_bytes(scn) : NULL;
	if (!d || d->d_size < 1 || ((const unsigned char *)d->d_buf)[0] != 'A')
		return;
	const unsigned char *p = (const unsigned char *)d->d_buf + 1;
	const unsigned char *end = (const unsigned char *)d->d_buf + d->d_size;
	/* an attribute the file leaves out has the value 0 (the ABI's rule):
	 * no Tag_ABI_VFP_args means arguments in core registers */
	unsigned arch = ~0u, fp = 0, vfp_args = 0, simd = 0;
	int profile = 0, seen = 0;
	const char *cpu = NULL;
	while (end - p >= 4) {
		unsigned len = read_u32(r->f, p);
		if (len < 5 || len > (size_t)(end - p))
			return;
		const unsigned char *sec_end = p + len, *q = p + 4;
		const char *vendor;
		if (!skip_ntbs(&q, sec_end, &vendor))
			return;
		while (!strcmp(vendor, "aeabi") && sec_end - q >= 5) {
			unsigned tag = *q, sub = read_u32(r->f, q + 1);
			if (sub < 5 || sub > (size_t)(sec_end - q))
				return;
			const unsigned char *a = q + 5, *sub_end = q + sub;
			seen |= tag == 1;
			while (tag == 1 && a < sub_end) {
				unsigned t, v = 0;
				const char *str = NULL;
				if (!read_uleb(&a, sub_end, &t))
					return;
				int is_str = t == 4 || t == 5 || t == 67 || (t > 32 && (t & 1));
				if (t == 32 && !read_uleb(&a, sub_end, &v))
					return;
				if ((is_str || t == 32) ? !skip_ntbs(&a, sub_end, &str)
							: !read_uleb(&a, sub_end, &v))
					return;
				if (t == 5)
					cpu = str;
				else if (t == 6)
					arch = v;
				else if (t == 7)
					profile = (int)v;
				else if (t == 10)
					fp = v;
				else if (t == 12)
					simd = v;
				else if (t == 28)
					vfp_args = v;
			}
			q = sub_end;
		}
		p = sec_end;
	}
	struct elf_facts *f = r->f;
	if (!seen)
		return;
	if (arch < ARRAY_SIZE(arm_archs)) {
		char lower = profile == 'A' ? 'a' : profile == 'R' ? 'r' : profile == 'M' ? 'm' : 0;
		/* armv7 + A profile is "armv7-a", as -march spells it */
		f->isa = lower && !strchr(arm_archs[arch], '-') && !strchr(arm_archs[arch], '.')
			? xasprintf("%s-%c", arm_archs[arch], lower)
			: xstrdup(arm_archs[arch]);
	}
	if (cpu && *cpu) {
		char *w = xasprintf("cpu=%s", cpu);
		add_word(&f->ext, w);
		free(w);
	}
	if (fp && fp < ARRAY_SIZE(arm_fps))
		add_word(&f->ext, arm_fps[fp]);
	if (simd)
		add_word(&f->ext, "neon");
	if (!f->fpabi && vfp_args == 0)
		f->fpabi = fp ? "softfp" : "soft"; /* FP code, or none, args in core regs */
	else if (!f->fpabi && vfp_args == 1)
		f->fpabi = "hard";
}

static void decode_arm(struct elf_reader *r)
{
	static const char *const eabis[] = {"eabi0", "eabi1", "eabi2", "eabi3", "eabi4", "eabi5"};
	unsigned flags = (unsigned)r->f->e_flags;
	unsigned v = EF_ARM_EABI_VERSION(flags) >> 24;

	r->f->abi = v < ARRAY_SIZE(eabis) ? eabis[v] : NULL;
	if (flags & EF_ARM_ABI_FLOAT_HARD)
		r->f->fpabi = "hard";
	else if (flags & EF_ARM_ABI_FLOAT_SOFT)
		r->f->fpabi = "soft";
	arm_attributes(r);
}

static void decode_riscv(struct elf_reader *r)
{
	static const char *const abis32[] = {"ilp32", "ilp32f", "ilp32d", "ilp32q"};
	static const char *const abis64[] = {"lp64", "lp64f", "lp64d", "lp64q"};
	unsigned fl = ((unsigned)r->f->e_flags & EF_RISCV_FLOAT_ABI) >> 1;

	r->f->abi = (r->f->bits == 64 ? abis64 : abis32)[fl & 3];
	if (r->f->e_flags & EF_RISCV_RVC)
		add_word(&r->f->ext, "c");
}

static const struct arch_ops arch_table[] = {
	{.machine = EM_X86_64, .name = "x86-64", .decode = decode_x86_64},
	{.machine = EM_386, .name = "i386", .decode = decode_i386},
	{.machine = EM_MIPS, .name = "mips", .decode = decode_mips},
	{.machine = EM_AARCH64, .name = "aarch64", .decode = decode_aarch64},
	{.machine = EM_ARM, .name = "arm", .decode = decode_arm},
	{.machine = EM_RISCV, .name = "riscv", .decode = decode_riscv},
	{.machine = EM_PPC, .name = "powerpc"},
	{.machine = EM_PPC64, .name = "powerpc64"},
	{.machine = EM_S390, .name = "s390"},
	{.machine = EM_SPARCV9, .name = "sparc64"},
	{.machine = EM_LOONGARCH, .name = "loongarch"},
};

void elf_arch_read(struct elf_reader *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(arch_table); i++) {
		if (arch_table[i].machine != r->f->machine)
			continue;
		r->f->machine_name = arch_table[i].name;
		if (arch_table[i].decode)
			arch_table[i].decode(r);
		return;
	}
}
