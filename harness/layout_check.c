/* layout_check.c - see layout_check.h */
#include "harness/layout_check.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fn {
	char *name;
	size_t order; /* index in the symbol table: a stable sort */
	GElf_Addr addr;
	GElf_Xword size;
	const unsigned char *bytes; /* NULL when not in the file (NOBITS) */
};

/* bytes [start, end) that a relocation patched: an address field */
struct span {
	GElf_Addr start, end;
};

struct fn_table {
	int fd;
	Elf *elf;
	struct fn *v;
	size_t n;
	struct span *reloc; /* sorted by start */
	size_t nreloc;
};

/* a matched function's address in each file */
struct pair {
	GElf_Addr plain, variant;
};

static int cmp_name_order(const void *pa, const void *pb)
{
	const struct fn *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The bytes of a function, from its section's data. */
static const unsigned char *fn_bytes(Elf *elf, const GElf_Sym *sym)
{
	Elf_Scn *scn = elf_getscn(elf, sym->st_shndx);
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return NULL;
	Elf_Data *d = elf_rawdata(scn, NULL);
	GElf_Addr off = sym->st_value - sh.sh_addr;
	if (!d || !d->d_buf || sym->st_value < sh.sh_addr || off + sym->st_size > d->d_size)
		return NULL;
	return (const unsigned char *)d->d_buf + off;
}

static void add_symbols(struct fn_table *t, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; d && i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !sym.st_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		const char *name = elf_strptr(t->elf, sh->sh_link, sym.st_name);
		t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
		t->v[t->n++] = (struct fn){xstrdup(name ? name : ""), i, sym.st_value,
					   sym.st_size, fn_bytes(t->elf, &sym)};
	}
}

static int cmp_span(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;
	return (a->start > b->start) - (a->start < b->start);
}

/* The bytes a relocation of type at offset may change.  x86-64's 64-bit
 * types (R_X86_64_64, DTPMOD64, DTPOFF64, TPOFF64, PC64, GOTOFF64, GOT64
 * to PLTOFF64, SIZE64) patch 8.  Its relaxable types name an instruction
 * the linker may rewrite, and two linkers rewrite differently (GNU ld
 * turns a GOT load in a static program into `mov $imm32`, lld into `lea`):
 * GOTPCRELX, REX_GOTPCRELX, GOTTPOFF and GOTPC32_TLSDESC from the
 * instruction's REX prefix (3 bytes before the field), TLSGD's and
 * TLSLD's whole sequence with its call, TLSDESC_CALL's call.  Every other
 * type of every machine patches a 4-byte field: rel32/abs32, or the
 * instruction word a RISC relocation patches bits of. */
#define RELOC_SPAN_MAX 16
static struct span reloc_span(GElf_Half machine, unsigned type, GElf_Addr at)
{
	if (machine == EM_X86_64) {
		if (type == 1 || (type >= 16 && type <= 18) || (type >= 24 && type <= 31) || type == 33)
			return (struct span){at, at + 8};
		if (type == 41 || type == 42 || type == 22 || type == 34)
			return (struct span){at - 3, at + 4};
		if (type == 19) /* data16 lea x@tlsgd(%rip); data16 data16 rex64 call */
			return (struct span){at - 4, at + 12};
		if (type == 20) /* lea x@tlsld(%rip); call */
			return (struct span){at - 3, at + 9};
		if (type == 35) /* call *(%rax) */
			return (struct span){at, at + 2};
	}
	return (struct span){at, at + 4};
}

/* The relocations an --emit-relocs link kept for executable sections: in
 * a linked file their r_offset is the address of the field. */
static void add_relocs(struct fn_table *t, Elf_Scn *scn, const GElf_Shdr *sh, GElf_Half machine)
{
	GElf_Shdr target;
	Elf_Scn *tscn = elf_getscn(t->elf, sh->sh_info);
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !tscn || !gelf_getshdr(tscn, &target) || !(target.sh_flags & SHF_EXECINSTR))
		return;
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	t->reloc = xrealloc(t->reloc, (t->nreloc + n + 1) * sizeof(*t->reloc));
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Rel rel;
		if (sh->sh_type == SHT_RELA ? !gelf_getrela(d, (int)i, &r)
					    : !gelf_getrel(d, (int)i, &rel))
			continue;
		if (sh->sh_type == SHT_REL)
			r.r_offset = rel.r_offset, r.r_info = rel.r_info;
		if (!GELF_R_TYPE(r.r_info)) /* R_*_NONE patches nothing */
			continue;
		t->reloc[t->nreloc++] = reloc_span(machine, GELF_R_TYPE(r.r_info), r.r_offset);
	}
}

/* 1 when addr is inside one of t's address fields */
static int in_reloc(const struct fn_table *t, GElf_Addr addr)
{
	size_t lo = 0, hi = t->nreloc; /* the first span starting after addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->reloc[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* spans overlap (a TLS sequence holds its call's field) but none is
	 * longer than RELOC_SPAN_MAX: only those starting that close count */
	for (size_t i = lo; i > 0 && t->reloc[i - 1].start + RELOC_SPAN_MAX > addr; i--)
		if (addr < t->reloc[i - 1].end)
			return 1;
	return 0;
}

static int table_open(struct fn_table *t, const char *path, struct strbuf *why)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE || (t->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 ||
	    !(t->elf = elf_begin(t->fd, ELF_C_READ, NULL)) || elf_kind(t->elf) != ELF_K_ELF) {
		sb_addf(why, "%s: not an ELF file libelf can read", path);
		return -1;
	}
	GElf_Ehdr eh;
	GElf_Half machine = gelf_getehdr(t->elf, &eh) ? eh.e_machine : EM_NONE;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(t->elf, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			add_symbols(t, scn, &sh);
		else if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL)
			add_relocs(t, scn, &sh, machine);
	}
	if (t->nreloc)
		qsort(t->reloc, t->nreloc, sizeof(*t->reloc), cmp_span);
	if (!t->n) {
		sb_addf(why, "%s: no function symbols (stripped?): cannot compare layouts", path);
		return -1;
	}
	qsort(t->v, t->n, sizeof(*t->v), cmp_name_order);
	return 0;
}

static void table_close(struct fn_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	free(t->reloc);
	if (t->elf)
		elf_end(t->elf);
	if (t->fd >= 0)
		close(t->fd);
}

/* a's and b's bytes, b's address fields aside (layout_check.h) */
static void compare_bytes(const struct fn *a, const struct fn *b, const struct fn_table *tb,
			  struct layout_diff *d)
{
	for (GElf_Xword k = 0; a->bytes && b->bytes && k < a->size; k++) {
		if (a->bytes[k] == b->bytes[k])
			continue;
		if (in_reloc(tb, b->addr + k)) {
			d->address_bytes++;
			continue;
		}
		if (!d->other_bytes++)
			snprintf(d->first_other, sizeof(d->first_other), "%.64s+0x%llx", a->name,
				 (unsigned long long)k);
	}
}

static void compare_fn(const struct fn *a, const struct fn *b, const struct fn_table *tb,
		       struct layout_diff *d)
{
	d->functions++;
	d->moved += a->addr != b->addr;
	if (a->size != b->size) {
		d->resized++;
		return;
	}
	d->code_bytes += a->size;
	compare_bytes(a, b, tb, d);
}

static int cmp_pair(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;
	return (a->plain > b->plain) - (a->plain < b->plain);
}

/* whether the matched functions follow each other in another order */
static int pairs_reordered(struct pair *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_pair);
	for (size_t i = 1; i < n; i++)
		if (v[i].variant < v[i - 1].variant)
			return 1;
	return 0;
}

/* 1 when a and b are the same code but for b's address fields */
static int same_code(const struct fn *a, const struct fn *b, const struct fn_table *tb)
{
	struct layout_diff scratch = {0};
	if (a->size != b->size)
		return 0;
	compare_bytes(a, b, tb, &scratch);
	return !scratch.other_bytes;
}

/* The functions of one name: one each, or several (static functions of
 * several files).  The symbol tables of two linkers list same-named
 * locals in other orders, so each of a's is paired with the first of b's
 * left that is the same code, else of the same size, else any; what is
 * left over is in one file only. */
static void compare_group(const struct fn *a, size_t na, const struct fn *b, size_t nb,
			  const struct fn_table *tb, struct layout_diff *d, struct pair *pairs,
			  size_t *npairs)
{
	unsigned char *used = xcalloc(nb + 1, 1);
	for (size_t i = 0; i < na; i++) {
		size_t pick = nb;
		for (int pass = 0; pass < 3 && pick == nb; pass++)
			for (size_t j = 0; j < nb && pick == nb; j++)
				if (!used[j] && (pass == 2 || (pass == 1 && a[i].size == b[j].size) ||
						 (nb > 1 && same_code(&a[i], &b[j], tb))))
					pick = j;
		if (pick == nb) {
			d->only_one++;
			continue;
		}
		used[pick] = 1;
		pairs[(*npairs)++] = (struct pair){a[i].addr, b[pick].addr};
		compare_fn(&a[i], &b[pick], tb, d);
	}
	for (size_t j = 0; j < nb; j++)
		d->only_one += !used[j];
	free(used);
}

/* the length of the run of functions named as v[0] */
static size_t group_len(const struct fn *v, size_t n)
{
	size_t k = 1;
	while (k < n && !strcmp(v[k].name, v[0].name))
		k++;
	return k;
}

int layout_compare_files(const char *plain, const char *variant, struct layout_diff *d,
			 struct strbuf *why)
{
	struct fn_table a, b;
	int rc = table_open(&a, plain, why);
	if (!rc)
		rc = table_open(&b, variant, why);
	else
		memset(&b, 0, sizeof(b)), b.fd = -1;
	struct pair *pairs = xcalloc(a.n + 1, sizeof(*pairs));
	size_t npairs = 0;
	d->relocations += b.nreloc;
	/* both sorted by name: one merge walk over the runs of one name */
	for (size_t i = 0, j = 0; !rc && (i < a.n || j < b.n);) {
		int c = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.v[i].name, b.v[j].name);
		if (c) {
			d->only_one++;
			c < 0 ? i++ : j++;
			continue;
		}
		size_t na = group_len(a.v + i, a.n - i), nb = group_len(b.v + j, b.n - j);
		compare_group(a.v + i, na, b.v + j, nb, &b, d, pairs, &npairs);
		i += na;
		j += nb;
	}
	d->reordered |= pairs_reordered(pairs, npairs);
	free(pairs);
	table_close(&a);
	table_close(&b);
	return rc;
}

int layout_diff_ok(const struct layout_diff *d, struct strbuf *why)
{
	if (d->only_one)
		sb_addf(why, "%zu function(s) in one build only", d->only_one);
	else if (d->resized)
		sb_addf(why, "%zu of %zu functions changed size (other code, not another layout)",
			d->resized, d->functions);
	else if (d->other_bytes)
		sb_addf(why, "%zu of %zu bytes of code differ outside address fields, the first at %s "
			     "(other instructions, not another layout%s)",
			d->other_bytes, d->code_bytes, d->first_other,
			d->relocations ? "" : "; the variant kept no relocations to tell address "
					      "fields by: its link did not take LDFLAGS' --emit-relocs?");
	else if (!d->moved)
		sb_addf(why, "none of %zu functions moved (the same layout as variant 0)",
			d->functions);
	else
		return 1;
	return 0;
}

int layout_check_builds(const struct build *plain, const struct build *variant,
			struct strbuf *why)
{
	struct layout_diff d = {0};
	int rc = 0;
	for (size_t i = 0; i < plain->recipe->binaries.n && !rc; i++) {
		char *a = xasprintf("%s/%s", plain->out_dir, plain->recipe->binaries.v[i]);
		char *b = xasprintf("%s/%s", variant->out_dir, plain->recipe->binaries.v[i]);
		rc = layout_compare_files(a, b, &d, why);
		free(a);
		free(b);
	}
	if (rc)
		return -1;
	if (!layout_diff_ok(&d, why))
		return 0;
	sb_addf(why, "%zu functions, the same instructions (%zu address bytes of %zu differ), "
		     "%zu moved, in %s order",
		d.functions, d.address_bytes, d.code_bytes, d.moved,
		d.reordered ? "another" : "the same");
	return 1;
}
