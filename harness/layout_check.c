/* layout_check.c - see layout_check.h */
#include "harness/layout_check.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fn {
	char *name;
	size_t order; /* index in the symbol table: pairs same-named statics */
	size_t occurrence;
	GElf_Addr addr;
	GElf_Xword size;
	const unsigned char *bytes; /* NULL when not in the file (NOBITS) */
};

struct fn_table {
	int fd;
	Elf *elf;
	struct fn *v;
	size_t n;
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
		t->v[t->n++] = (struct fn){xstrdup(name ? name : ""), i, 0, sym.st_value,
					   sym.st_size, fn_bytes(t->elf, &sym)};
	}
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
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(t->elf, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			add_symbols(t, scn, &sh);
	}
	if (!t->n) {
		sb_addf(why, "%s: no function symbols (stripped?): cannot compare layouts", path);
		return -1;
	}
	qsort(t->v, t->n, sizeof(*t->v), cmp_name_order);
	for (size_t i = 1; i < t->n; i++)
		if (!strcmp(t->v[i].name, t->v[i - 1].name))
			t->v[i].occurrence = t->v[i - 1].occurrence + 1;
	return 0;
}

static void table_close(struct fn_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	if (t->elf)
		elf_end(t->elf);
	if (t->fd >= 0)
		close(t->fd);
}

static int cmp_fn(const struct fn *a, const struct fn *b)
{
	int c = strcmp(a->name, b->name);
	return c ? c : (a->occurrence > b->occurrence) - (a->occurrence < b->occurrence);
}

static void compare_fn(const struct fn *a, const struct fn *b, struct layout_diff *d)
{
	d->functions++;
	d->moved += a->addr != b->addr;
	if (a->size != b->size) {
		d->resized++;
		return;
	}
	d->code_bytes += a->size;
	for (GElf_Xword k = 0; a->bytes && b->bytes && k < a->size; k++)
		d->bytes_differ += a->bytes[k] != b->bytes[k];
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
	/* both sorted by (name, occurrence): one merge walk */
	for (size_t i = 0, j = 0; !rc && (i < a.n || j < b.n);) {
		int c = i == a.n ? 1 : j == b.n ? -1 : cmp_fn(&a.v[i], &b.v[j]);
		if (c) {
			d->only_one++;
			c < 0 ? i++ : j++;
			continue;
		}
		compare_fn(&a.v[i++], &b.v[j++], d);
	}
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
	else if (!d->moved)
		sb_addf(why, "none of %zu functions moved (the same layout as the plain build)",
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
	sb_addf(why, "%zu functions, same sizes, %zu moved, %.0f%% of their bytes differ",
		d.functions, d.moved,
		d.code_bytes ? 100.0 * (double)d.bytes_differ / (double)d.code_bytes : 0.0);
	return 1;
}
