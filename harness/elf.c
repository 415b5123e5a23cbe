/* elf.c - see elf.h.  Architecture attributes are in elf_arch.c, compile
 * units in elf_units.c; this file checks the layout and reads the rest. */
#include "harness/elf.h"
#include "harness/elf_internal.h"
#include "harness/switches.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

static void facts_init(struct elf_facts *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	f->file = xstrdup(name);
	f->is_static = -1;
	f->pic = -1;
	f->cpic = -1;
}

void elf_facts_release(struct elf_facts *f)
{
	if (!f)
		return;
	free(f->file);
	free(f->interp);
	free(f->runpath);
	free(f->isa);
	free(f->ext);
	sl_release(&f->needed);
	sl_release(&f->compilers);
	for (size_t i = 0; i < f->nunits; i++) {
		free(f->units[i].name);
		free(f->units[i].path);
		free(f->units[i].producer);
		free(f->units[i].switches);
	}
	free(f->units);
	for (size_t i = 0; i < f->nsections; i++)
		free(f->sections[i].name);
	free(f->sections);
	memset(f, 0, sizeof(*f));
	f->is_static = -1;
}

int elf_reader_fail(struct elf_reader *r, const char *fmt, ...)
{
	char reason[512]; /* reasons are one short line; a longer one is cut */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	sb_addf(r->err, "not a valid ELF: %s", reason);
	return -1;
}

static int libelf_fail(struct elf_reader *r, const char *what)
{
	return elf_reader_fail(r, "%s (%s)", what, elf_errmsg(-1));
}

struct extent {
	unsigned long long off, end;
	size_t index;
};

static int extent_cmp(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* Every section's bytes lie inside the file and no two sections share
 * bytes; names resolve inside the section name table. */
static int check_sections(struct elf_reader *r)
{
	struct extent *ext;
	size_t n = 0, shentsize;
	int rc = 0;
	GElf_Ehdr eh;

	if (elf_getshdrnum(r->elf, &r->shnum))
		return libelf_fail(r, "cannot count the sections");
	if (!gelf_getehdr(r->elf, &eh))
		return libelf_fail(r, "unreadable ELF header");
	/* libelf quietly sees no sections when their table lies outside the
	 * image: that is a truncated file, not one without sections. */
	shentsize = gelf_fsize(r->elf, ELF_T_SHDR, 1, EV_CURRENT);
	if (eh.e_shoff || eh.e_shnum) {
		if (eh.e_shentsize != shentsize)
			return elf_reader_fail(r, "section header size %u, not %zu", eh.e_shentsize,
					       shentsize);
		if (eh.e_shnum && r->shnum != eh.e_shnum)
			return elf_reader_fail(r, "%u section headers announced, %zu readable",
					       eh.e_shnum, r->shnum);
		if (!r->shnum || eh.e_shoff > r->size || (r->size - eh.e_shoff) / shentsize < r->shnum)
			return elf_reader_fail(r, "the section header table (offset %llu, %zu "
					       "entries) extends past the end of the file (%zu bytes)",
					       (unsigned long long)eh.e_shoff, r->shnum, r->size);
	}
	if (r->shnum && elf_getshdrstrndx(r->elf, &r->shstrndx))
		return libelf_fail(r, "no section name table");
	if (r->shnum && r->shstrndx >= r->shnum)
		return elf_reader_fail(r, "section name table index %zu out of range (%zu sections)",
				       r->shstrndx, r->shnum);
	ext = xcalloc(r->shnum ? r->shnum : 1, sizeof(*ext));
	for (size_t i = 1; i < r->shnum && !rc; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(r->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh)) {
			rc = libelf_fail(r, "unreadable section header");
			break;
		}
		if (sh.sh_name && r->shstrndx && !elf_strptr(r->elf, r->shstrndx, sh.sh_name)) {
			rc = elf_reader_fail(r, "section %zu has its name outside the name table", i);
			break;
		}
		if (sh.sh_type == SHT_NOBITS || sh.sh_type == SHT_NULL || !sh.sh_size)
			continue;
		if (sh.sh_offset > r->size || sh.sh_size > r->size - sh.sh_offset) {
			rc = elf_reader_fail(r, "section %zu (offset %llu, %llu bytes) extends past "
					     "the end of the file (%zu bytes)", i,
					     (unsigned long long)sh.sh_offset,
					     (unsigned long long)sh.sh_size, r->size);
			break;
		}
		ext[n++] = (struct extent){sh.sh_offset, sh.sh_offset + sh.sh_size, i};
	}
	qsort(ext, n, sizeof(*ext), extent_cmp);
	for (size_t i = 1; i < n && !rc; i++)
		if (ext[i].off < ext[i - 1].end)
			rc = elf_reader_fail(r, "sections %zu and %zu overlap", ext[i - 1].index,
					     ext[i].index);
	free(ext);
	return rc;
}

const char *elf_section_name(struct elf_reader *r, Elf_Scn *scn, GElf_Shdr *sh)
{
	const char *name;

	if (!gelf_getshdr(scn, sh))
		return NULL;
	if (!r->shstrndx)
		return "";
	name = elf_strptr(r->elf, r->shstrndx, sh->sh_name);
	return name ? name : "";
}

/* The bytes of a section, bounds-checked; NULL when empty or NOBITS. */
const Elf_Data *elf_section_bytes(Elf_Scn *scn)
{
	Elf_Data *d = elf_rawdata(scn, NULL);
	return d && d->d_buf && d->d_size ? d : NULL;
}

Elf_Scn *elf_find_section(struct elf_reader *r, const char *want, unsigned type)
{
	for (size_t i = 1; i < r->shnum; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(r->elf, i);
		const char *name = scn ? elf_section_name(r, scn, &sh) : NULL;
		if (!name)
			continue;
		if ((want && !strcmp(name, want)) || (type && sh.sh_type == type))
			return scn;
	}
	return NULL;
}

/* Each NUL-terminated string of a section, once each, in order; a last
 * string without its NUL still counts (the bytes are bounded). */
void elf_section_strings(Elf_Scn *scn, struct strlist *out, int dedupe)
{
	const Elf_Data *d = scn ? elf_section_bytes(scn) : NULL;
	const char *p, *end;

	if (!d)
		return;
	p = d->d_buf;
	end = p + d->d_size;
	while (p < end) {
		size_t n = strnlen(p, (size_t)(end - p));
		if (n) {
			char *s = xstrndup(p, n);
			str_trim(s);
			if (*s && (!dedupe || sl_find(out, s) < 0))
				sl_push_owned(out, s);
			else
				free(s);
		}
		p += n + 1;
	}
}

static int read_program_headers(struct elf_reader *r)
{
	struct elf_facts *f = r->f;
	size_t phnum;

	if (elf_getphdrnum(r->elf, &phnum))
		return libelf_fail(r, "cannot count the program headers");
	if (phnum) {
		GElf_Ehdr eh;
		size_t entsize = gelf_fsize(r->elf, ELF_T_PHDR, 1, EV_CURRENT);
		if (!gelf_getehdr(r->elf, &eh))
			return libelf_fail(r, "unreadable ELF header");
		if (eh.e_phentsize != entsize)
			return elf_reader_fail(r, "program header size %u, not %zu", eh.e_phentsize,
					       entsize);
		if (eh.e_phoff > r->size || (r->size - eh.e_phoff) / entsize < phnum)
			return elf_reader_fail(r, "the program header table (offset %llu, %zu "
					       "entries) extends past the end of the file",
					       (unsigned long long)eh.e_phoff, phnum);
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(r->elf, (int)i, &ph))
			return libelf_fail(r, "unreadable program header");
		if (ph.p_filesz && (ph.p_offset > r->size || ph.p_filesz > r->size - ph.p_offset))
			return elf_reader_fail(r, "program header %zu extends past the end of the file",
					       i);
		if (ph.p_type == PT_INTERP && !r->has_interp) {
			const char *s = r->image + ph.p_offset;
			size_t n = strnlen(s, ph.p_filesz);
			GElf_Shdr sh;
			Elf_Scn *scn = elf_find_section(r, ".interp", 0);
			r->has_interp = 1;
			/* A separate debuginfo file keeps the program headers but
			 * not the bytes they point to (.interp is NOBITS). */
			if (scn && gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOBITS)
				continue;
			if (!ph.p_filesz || n == ph.p_filesz)
				return elf_reader_fail(r, "the interpreter path is not terminated");
			f->interp = xstrndup(s, n);
		}
	}
	return 0;
}

static int read_dynamic(struct elf_reader *r, int *pie_flag)
{
	struct elf_facts *f = r->f;
	Elf_Scn *scn = elf_find_section(r, NULL, SHT_DYNAMIC);
	GElf_Shdr sh;
	Elf_Data *d;
	size_t count;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d)
		return libelf_fail(r, "unreadable dynamic section");
	count = d->d_size / gelf_fsize(r->elf, ELF_T_DYN, 1, EV_CURRENT);
	for (size_t i = 0; i < count; i++) {
		GElf_Dyn dyn;
		const char *s;
		if (!gelf_getdyn(d, (int)i, &dyn))
			return libelf_fail(r, "unreadable dynamic entry");
		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_PIE))
			*pie_flag = 1;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH)
			continue;
		s = elf_strptr(r->elf, sh.sh_link, dyn.d_un.d_val);
		if (!s)
			return elf_reader_fail(r, "dynamic entry %zu names a string outside its table",
					       i);
		if (dyn.d_tag == DT_NEEDED) {
			sl_push(&f->needed, s);
		} else if (dyn.d_tag == DT_RUNPATH || !f->runpath) {
			free(f->runpath);
			f->runpath = xstrdup(s);
		}
	}
	return 0;
}

static void read_sections(struct elf_reader *r)
{
	struct elf_facts *f = r->f;

	f->sections = xcalloc(r->shnum ? r->shnum : 1, sizeof(*f->sections));
	for (size_t i = 1; i < r->shnum; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(r->elf, i);
		const char *name = scn ? elf_section_name(r, scn, &sh) : NULL;
		struct elf_section *s;
		if (!name || !*name)
			continue;
		s = &f->sections[f->nsections++];
		s->name = xstrdup(name);
		s->size = sh.sh_size;
		s->alloc = !!(sh.sh_flags & SHF_ALLOC);
		if (s->alloc)
			f->total_size += sh.sh_size;
	}
}

static const char *type_name(unsigned type, int interp, int pie_flag)
{
	switch (type) {
	case ET_REL:
		return "relocatable";
	case ET_EXEC:
		return "executable";
	case ET_DYN:
		return interp || pie_flag ? "pie" : "shared";
	case ET_CORE:
		return "core";
	}
	return "unknown";
}

static const char *osabi_name(unsigned osabi)
{
	switch (osabi) {
	case ELFOSABI_SYSV:
		return "sysv";
	case ELFOSABI_GNU:
		return "gnu";
	case ELFOSABI_FREEBSD:
		return "freebsd";
	case ELFOSABI_NETBSD:
		return "netbsd";
	case ELFOSABI_ARM:
		return "arm";
	case ELFOSABI_STANDALONE:
		return "standalone";
	}
	return NULL;
}

static int read_header(struct elf_reader *r)
{
	struct elf_facts *f = r->f;
	const unsigned char *id = (const unsigned char *)r->image;
	GElf_Ehdr eh;

	if (!r->size)
		return elf_reader_fail(r, "the file is empty");
	if (r->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG))
		return elf_reader_fail(r, "no ELF magic number");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return elf_reader_fail(r, "unknown class %u", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return elf_reader_fail(r, "unknown data encoding %u", id[EI_DATA]);
	if (r->size < (id[EI_CLASS] == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr)))
		return elf_reader_fail(r, "truncated in the ELF header (%zu bytes)", r->size);
	r->elf = elf_memory(r->copy, r->size);
	if (!r->elf)
		return libelf_fail(r, "libelf cannot open it");
	if (elf_kind(r->elf) != ELF_K_ELF)
		return elf_reader_fail(r, "not an ELF object");
	if (!gelf_getehdr(r->elf, &eh))
		return libelf_fail(r, "unreadable ELF header");
	f->bits = id[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	f->data = id[EI_DATA] == ELFDATA2LSB ? "lsb" : "msb";
	f->machine = eh.e_machine;
	f->osabi = id[EI_OSABI];
	f->osabi_name = osabi_name(f->osabi);
	f->entry = eh.e_entry;
	f->e_flags = eh.e_flags;
	f->type = type_name(eh.e_type, 0, 0);
	return 0;
}

int elf_facts_read_memory(const char *name, const void *data, size_t size,
			  struct elf_facts *f, struct strbuf *err)
{
	struct elf_reader r = {.f = f, .err = err, .size = size};
	int pie_flag = 0, rc;
	GElf_Ehdr eh;

	facts_init(f, name);
	f->file_size = size;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return elf_reader_fail(&r, "libelf is out of date");
	/* libelf may convert data in place, and libdwfl applies relocations in
	 * place: they work on a private copy. */
	r.copy = xmalloc(size ? size : 1);
	if (size)
		memcpy(r.copy, data, size);
	r.image = r.copy;
	rc = read_header(&r);
	if (!rc)
		rc = check_sections(&r);
	if (!rc)
		rc = read_program_headers(&r);
	if (!rc)
		rc = read_dynamic(&r, &pie_flag);
	if (!rc && gelf_getehdr(r.elf, &eh)) {
		f->type = type_name(eh.e_type, r.has_interp, pie_flag);
		if (eh.e_type == ET_EXEC || (eh.e_type == ET_DYN && !strcmp(f->type, "pie")))
			f->is_static = !r.has_interp && !f->needed.n;
		else if (eh.e_type == ET_DYN)
			f->is_static = 0;
		read_sections(&r);
		elf_section_strings(elf_find_section(&r, ".comment", 0), &f->compilers, 1);
		elf_arch_read(&r);
		elf_units_read(&r);
	}
	if (r.elf)
		elf_end(r.elf);
	free(r.copy);
	if (rc) {
		elf_facts_release(f);
		return -1;
	}
	return 0;
}

int elf_facts_read(const char *path, struct elf_facts *f, struct strbuf *err)
{
	size_t len;
	char *buf = file_read(path, &len);
	int rc;

	if (!buf) {
		facts_init(f, path);
		sb_addf(err, "cannot read it (%s)", strerror_lc(errno));
		elf_facts_release(f);
		return -1;
	}
	rc = elf_facts_read_memory(path, buf, len, f, err);
	free(buf);
	return rc;
}

unsigned long long elf_facts_section_size(const struct elf_facts *f, const char *name)
{
	unsigned long long size = 0;

	for (size_t i = 0; i < f->nsections; i++)
		if (!strcmp(f->sections[i].name, name))
			size += f->sections[i].size;
	return size;
}

/* Whether the unit is one the caller asked to check. */
static int unit_in_scope(const struct elf_unit *u, const char *prefix)
{
	size_t n;

	if (!prefix || !u->path)
		return 1; /* nothing shows that it lies elsewhere */
	n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	return !strncmp(u->path, prefix, n) && (u->path[n] == '/' || !u->path[n]);
}

static int expects_switches(const char *expect, int *wants_static)
{
	struct strlist words = {0};
	int any = 0;
	char key[128];

	switches_split(expect ? expect : "", &words);
	for (size_t i = 0; i < words.n; i++) {
		if (!strcmp(words.v[i], "-static"))
			*wants_static = 1;
		if (switches_key(words.v[i], key, sizeof(key)))
			any = 1;
	}
	sl_release(&words);
	return any;
}

/* Asked for LTO, a GCC-built file must hold code GCC optimised at link
 * time (switches.h); clang's LTO leaves no such trace: its objects are
 * judged (elf_lto_check_tree). */
static int lto_check(const struct elf_facts *f, struct strlist *mismatches)
{
	int gcc = 0;
	for (size_t i = 0; i < f->nunits; i++) {
		const struct elf_unit *u = &f->units[i];
		if (u->switches && switches_is_ltrans(u->switches))
			return 0;
		gcc |= u->producer && str_starts_with(u->producer, "GNU ");
	}
	if (!gcc)
		return 0;
	sl_push(mismatches, "no LTO: no unit was optimised at link time (GCC records that code "
			    "as 'GNU GIMPLE ... -fltrans'; the link ran without -flto)");
	return 1;
}

int elf_facts_check(const struct elf_facts *f, const char *expect, int want_static,
		    const char *unit_prefix, struct strlist *mismatches)
{
	int found = 0, checked = 0, static_in_expect = 0;
	int any = expects_switches(expect, &static_in_expect);

	if (want_static < 0 && static_in_expect)
		want_static = 1;
	if (want_static >= 0 && f->is_static >= 0 && f->is_static != !!want_static) {
		if (want_static)
			sl_push_owned(mismatches, f->interp
				      ? xasprintf("static linking expected, dynamic (interpreter %s)",
						  f->interp)
				      : xstrdup("static linking expected, dynamic"));
		else
			sl_push(mismatches, "dynamic linking expected, static");
		found++;
	}
	if (!any)
		return found;
	for (size_t i = 0; i < f->nunits; i++) {
		const struct elf_unit *u = &f->units[i];
		char *label;
		if (u->assembler || u->origin == ELF_UNIT_SYMTAB || !unit_in_scope(u, unit_prefix))
			continue;
		/* libgcc's own startup code (crtfastmath.o, which -ffast-math links
		 * into every executable and shared library) records libgcc's
		 * flags, not the program's */
		if (switches_has(u->switches, "-fbuilding-libgcc"))
			continue;
		label = u->anonymous ? xstrdup(u->name) : xasprintf("unit %s", u->name);
		if (u->switches) {
			checked++;
			found += switches_check(label, u->switches, expect, mismatches);
		} else if (unit_prefix && u->path) {
			sl_push_owned(mismatches, xasprintf("%s: no switches recorded (nothing "
							    "proves its flags)", label));
			found++;
		}
		free(label);
	}
	if (switches_want_lto(expect) && f->nunits)
		found += lto_check(f, mismatches);
	if (!checked && !found) {
		sl_push_owned(mismatches,
			      xasprintf("no compile unit%s%s records its switches: the compiler did "
					"not get the configuration's CFLAGS, which carry -g and the "
					"switch recording, or the build strips its binaries (make its "
					"compile lines use $(CFLAGS), CXXFLAGS for C++; do not strip)",
					unit_prefix ? " under " : "", unit_prefix ? unit_prefix : ""));
		found++;
	}
	return found;
}

static void json_str_or_null(struct strbuf *out, const char *key, const char *v)
{
	sb_addf(out, ",\"%s\":", key);
	if (v)
		sb_add_json(out, v);
	else
		sb_add(out, "null");
}

static void json_tristate(struct strbuf *out, const char *key, int v)
{
	sb_addf(out, ",\"%s\":%s", key, v < 0 ? "null" : v ? "true" : "false");
}

static void json_strlist(struct strbuf *out, const char *key, const struct strlist *sl)
{
	sb_addf(out, ",\"%s\":[", key);
	for (size_t i = 0; sl && i < sl->n; i++) {
		if (i)
			sb_addc(out, ',');
		sb_add_json(out, sl->v[i]);
	}
	sb_addc(out, ']');
}

static int cmp_section_name(const void *a, const void *b)
{
	return strcmp((*(const struct elf_section *const *)a)->name,
		      (*(const struct elf_section *const *)b)->name);
}

/* Allocated sections by name, sizes of same-named sections (COMDAT groups
 * of an object) added up, so each key appears once. */
static void json_sections(struct strbuf *out, const struct elf_facts *f)
{
	const struct elf_section **v = xcalloc(f->nsections + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < f->nsections; i++)
		if (f->sections[i].alloc)
			v[n++] = &f->sections[i];
	qsort(v, n, sizeof(*v), cmp_section_name);
	for (size_t i = 0; i < n;) {
		unsigned long long size = 0;
		size_t j = i;
		for (; j < n && !strcmp(v[j]->name, v[i]->name); j++)
			size += v[j]->size;
		sb_add_json(out, v[i]->name);
		sb_addf(out, ":%llu,", size);
		i = j;
	}
	free(v);
}

void elf_facts_json(const struct elf_facts *f, const struct strlist *mismatches,
		    struct strbuf *out)
{
	sb_add(out, "{\"file\":");
	sb_add_json(out, f->file ? f->file : "");
	sb_addf(out, ",\"class\":\"ELF%d\",\"data\":\"%s\"", f->bits, f->data ? f->data : "");
	if (f->machine_name)
		json_str_or_null(out, "machine", f->machine_name);
	else
		sb_addf(out, ",\"machine\":%u", f->machine);
	if (f->osabi_name)
		json_str_or_null(out, "osabi", f->osabi_name);
	else
		sb_addf(out, ",\"osabi\":%u", f->osabi);
	json_str_or_null(out, "type", f->type);
	sb_addf(out, ",\"entry\":%llu,\"flags\":\"0x%llx\"", f->entry, f->e_flags);
	json_tristate(out, "static", f->is_static);
	json_str_or_null(out, "interp", f->interp);
	json_strlist(out, "needed", &f->needed);
	json_str_or_null(out, "runpath", f->runpath);
	json_str_or_null(out, "abi", f->abi);
	json_str_or_null(out, "isa", f->isa);
	json_str_or_null(out, "ext", f->ext);
	json_tristate(out, "pic", f->pic);
	json_tristate(out, "cpic", f->cpic);
	json_str_or_null(out, "nan", f->nan);
	json_str_or_null(out, "fpabi", f->fpabi);
	json_strlist(out, "compilers", &f->compilers);
	sb_add(out, ",\"units\":[");
	for (size_t i = 0; i < f->nunits; i++) {
		const struct elf_unit *u = &f->units[i];
		sb_add(out, i ? ",{\"name\":" : "{\"name\":");
		sb_add_json(out, u->name);
		json_str_or_null(out, "path", u->path);
		json_str_or_null(out, "producer", u->producer);
		json_str_or_null(out, "switches", u->switches);
		sb_addf(out, ",\"origin\":\"%s\"}", u->origin == ELF_UNIT_SYMTAB   ? "symtab"
						     : u->origin == ELF_UNIT_RECORD ? "record"
										    : "dwarf");
	}
	sb_add(out, "],\"sections\":{");
	json_sections(out, f);
	sb_addf(out, "\"total\":%llu},\"file_size\":%llu", f->total_size, f->file_size);
	json_strlist(out, "mismatches", mismatches);
	sb_addc(out, '}');
}
