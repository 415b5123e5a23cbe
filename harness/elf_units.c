/*
 * elf_units.c - the compile units of an ELF file and the switches each
 * recorded (see elf.h for where they come from).
 *
 * DWARF of a linked file is read by libdw directly.  A relocatable
 * object's DWARF refers to its strings through relocations (RELA: the
 * offset is in the relocation, not in .debug_info), so it goes through
 * libdwfl, which applies them; where libdwfl cannot (no backend for the
 * machine) and the object has RELA relocations for its DWARF, DWARF is not
 * used rather than read wrong.
 */
#include "harness/elf_internal.h"
#include "harness/switches.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

struct unit_list {
	struct elf_unit *v;
	char **raw; /* the unit's whole DW_AT_producer, parallel to v */
	size_t n, cap;
};

static struct elf_unit *unit_add(struct unit_list *ul, char *raw)
{
	if (ul->n == ul->cap) {
		ul->cap = ul->cap ? 2 * ul->cap : 16;
		ul->v = xrealloc(ul->v, ul->cap * sizeof(*ul->v));
		ul->raw = xrealloc(ul->raw, ul->cap * sizeof(*ul->raw));
	}
	memset(&ul->v[ul->n], 0, sizeof(ul->v[ul->n]));
	ul->raw[ul->n] = raw;
	return &ul->v[ul->n++];
}

static void units_from_dwarf(Dwarf *dw, struct unit_list *ul)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	uint8_t unit_type;

	while (dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &die, NULL) == 0) {
		Dwarf_Attribute at;
		Dwarf_Word lang = 0;
		const char *name = dwarf_diename(&die);
		const char *producer = dwarf_formstring(dwarf_attr(&die, DW_AT_producer, &at));
		const char *dir = dwarf_formstring(dwarf_attr(&die, DW_AT_comp_dir, &at));
		struct elf_unit *u;

		if (unit_type == DW_UT_type || unit_type == DW_UT_split_type)
			continue;
		u = unit_add(ul, producer ? xstrdup(producer) : NULL);
		if (dwarf_formudata(dwarf_attr(&die, DW_AT_language, &at), &lang) == 0 &&
		    lang == DW_LANG_Mips_Assembler)
			u->assembler = 1;
		if (name && *name) {
			u->name = xstrdup(name);
			if (name[0] == '/')
				u->path = xstrdup(name);
			else if (dir && dir[0] == '/')
				u->path = xasprintf("%s/%s", dir, name);
		}
		if (producer && !u->assembler)
			switches_split_producer(producer, &u->producer, &u->switches);
		else if (producer)
			u->producer = xstrdup(producer);
	}
}

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1; /* only the file itself: no search of /usr/lib/debug */
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Whether DWARF sections are the target of RELA relocations. */
static int dwarf_has_rela(struct elf_reader *r)
{
	for (size_t i = 1; i < r->shnum; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(r->elf, i);
		const char *name = scn ? elf_section_name(r, scn, &sh) : NULL;
		if (name && sh.sh_type == SHT_RELA && str_starts_with(name, ".rela.debug_"))
			return 1;
	}
	return 0;
}

static void relocatable_units(struct elf_reader *r, struct unit_list *ul)
{
	/* libdwfl relocates in place: it gets its own copy. */
	char *image = xmalloc(r->size);
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw = NULL;

	memcpy(image, r->image, r->size);
	if (dwfl) {
		dwfl_report_begin(dwfl);
		mod = dwfl_report_offline_memory(dwfl, "object", "object", image, r->size);
		if (dwfl_report_end(dwfl, NULL, NULL) == 0 && mod)
			dw = dwfl_module_getdwarf(mod, &bias);
		if (dw)
			units_from_dwarf(dw, ul);
		dwfl_end(dwfl);
	}
	free(image);
	if (!dw && !dwarf_has_rela(r)) {
		Dwarf *plain = dwarf_begin_elf(r->elf, DWARF_C_READ, NULL);
		if (plain) {
			units_from_dwarf(plain, ul);
			dwarf_end(plain);
		}
	}
}

void elf_symtab_file_names(Elf *elf, Elf_Scn *symtab, struct strlist *names)
{
	GElf_Shdr sh;
	Elf_Data *d;
	size_t count, entsize;

	if (!symtab || !gelf_getshdr(symtab, &sh) || sh.sh_type != SHT_SYMTAB)
		return;
	d = elf_getdata(symtab, NULL);
	entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!d || !entsize)
		return;
	count = d->d_size / entsize;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *name;
		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FILE)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name && *name)
			sl_push(names, name);
	}
}

/* The names of the STT_FILE symbols of the symbol table, in order. */
static void file_symbols(struct elf_reader *r, struct strlist *names)
{
	elf_symtab_file_names(r->elf, elf_find_section(r, NULL, SHT_SYMTAB), names);
}

/* The one source file a relocatable object's symbol table names, or NULL. */
static char *only_file_symbol(const struct strlist *names)
{
	for (size_t i = 1; i < names->n; i++)
		if (strcmp(names->v[i], names->v[0]))
			return NULL;
	return names->n ? xstrdup(names->v[0]) : NULL;
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int cmp_last_component(const void *a, const void *b)
{
	return strcmp(last_component(*(const char *const *)a),
		      last_component(*(const char *const *)b));
}

/* Each STT_FILE symbol that no unit of its name accounts for becomes a unit
 * of its own: n symbols "util.c" and m units named util.c (DWARF names may
 * carry a folder, STT_FILE names from GCC and clang do not) leave n - m.
 * Sorting both keeps hostile symbol counts from making this quadratic. */
static void units_from_symbols(struct unit_list *ul, struct strlist *symbols)
{
	size_t nnamed = 0, j = 0;
	const char **named = xcalloc(ul->n ? ul->n : 1, sizeof(*named));

	for (size_t i = 0; i < ul->n; i++)
		if (ul->v[i].name)
			named[nnamed++] = ul->v[i].name;
	if (!symbols->n) {
		free(named);
		return;
	}
	qsort(named, nnamed, sizeof(*named), cmp_last_component);
	qsort(symbols->v, symbols->n, sizeof(*symbols->v), cmp_last_component);
	for (size_t i = 0; i < symbols->n;) {
		const char *name = last_component(symbols->v[i]);
		size_t k = i, covered = 0;
		while (k < symbols->n && !strcmp(last_component(symbols->v[k]), name))
			k++;
		while (j < nnamed && strcmp(last_component(named[j]), name) < 0)
			j++;
		while (j < nnamed && !strcmp(last_component(named[j]), name)) {
			covered++;
			j++;
		}
		for (size_t n = i + covered; n < k; n++) {
			struct elf_unit *u = unit_add(ul, NULL);
			u->name = xstrdup(symbols->v[n]);
			u->origin = ELF_UNIT_SYMTAB;
		}
		i = k;
	}
	free(named);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct named_index {
	const char *name;
	size_t unit;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named_index *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->unit > y->unit) - (x->unit < y->unit);
}

/* The DWARF unit a clang line belongs to: one named source that recorded
 * nothing (it gets the line), or one that recorded the same switches (the
 * line adds nothing: *same is set).  ndwarf when none.  At most a few units
 * of one name are looked at, so hostile input cannot make this quadratic. */
static size_t unit_named(const struct unit_list *ul, const struct named_index *byname,
			 size_t nnamed, const char *source, const char *switches, int *same)
{
	struct named_index key = {.name = source, .unit = 0};
	size_t lo = 0, hi = nnamed;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_named(&byname[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < nnamed && k < lo + 16 && !strcmp(byname[k].name, source); k++) {
		const struct elf_unit *u = &ul->v[byname[k].unit];
		if (u->assembler)
			continue;
		if (!u->switches)
			return byname[k].unit;
		if (!strcmp(u->switches, switches)) {
			*same = 1;
			return byname[k].unit;
		}
	}
	return SIZE_MAX;
}

/* Give each .GCC.command.line string to the DWARF unit it belongs to, or
 * make it a unit of its own. */
static void units_from_command_lines(struct unit_list *ul, const struct strlist *lines)
{
	size_t ndwarf = ul->n, nraw = 0, nnamed = 0;
	char **raw = xcalloc(ndwarf ? ndwarf : 1, sizeof(*raw));
	struct named_index *byname = xcalloc(ndwarf ? ndwarf : 1, sizeof(*byname));

	for (size_t i = 0; i < ndwarf; i++) {
		if (ul->raw[i])
			raw[nraw++] = ul->raw[i];
		if (ul->v[i].name)
			byname[nnamed++] = (struct named_index){ul->v[i].name, i};
	}
	qsort(raw, nraw, sizeof(*raw), cmp_str);
	qsort(byname, nnamed, sizeof(*byname), cmp_named);
	for (size_t i = 0; i < lines->n; i++) {
		const char *line = lines->v[i];
		char *producer = NULL, *switches = NULL, *source;
		size_t j = SIZE_MAX;
		int same = 0;

		if (bsearch(&line, raw, nraw, sizeof(*raw), cmp_str))
			continue; /* the same string as a DWARF unit's producer */
		if (!switches_split_producer(line, &producer, &switches)) {
			free(producer);
			free(switches);
			continue;
		}
		source = switches_source_name(switches);
		if (source)
			j = unit_named(ul, byname, nnamed, source, switches, &same);
		if (same) {
			free(source);
			free(producer);
			free(switches);
			continue;
		}
		/* unit_add may move ul->v: byname keeps names, not pointers to units */
		struct elf_unit *u = j != SIZE_MAX ? &ul->v[j] : unit_add(ul, NULL);
		if (j == SIZE_MAX)
			u->origin = ELF_UNIT_RECORD;
		if (!u->name && source) {
			u->name = source;
			source = NULL;
		}
		free(source);
		free(u->producer);
		u->producer = producer;
		u->switches = switches;
	}
	free(byname);
	free(raw);
}

void elf_units_read(struct elf_reader *r)
{
	struct elf_facts *f = r->f;
	struct unit_list ul = {0};
	struct strlist lines = {0}, symbols = {0};
	GElf_Ehdr eh;
	int rel = gelf_getehdr(r->elf, &eh) && eh.e_type == ET_REL;

	if (rel) {
		relocatable_units(r, &ul);
	} else {
		Dwarf *dw = dwarf_begin_elf(r->elf, DWARF_C_READ, NULL);
		if (dw) {
			units_from_dwarf(dw, &ul);
			dwarf_end(dw);
		}
	}
	elf_section_strings(elf_find_section(r, ".GCC.command.line", 0), &lines, 0);
	units_from_command_lines(&ul, &lines);
	sl_release(&lines);

	/* A relocatable object with one unit and one file symbol: that is its
	 * name even without DWARF. */
	file_symbols(r, &symbols);
	if (rel && ul.n == 1 && !ul.v[0].name)
		ul.v[0].name = only_file_symbol(&symbols);
	units_from_symbols(&ul, &symbols);
	sl_release(&symbols);
	for (size_t i = 0; i < ul.n; i++) {
		if (!ul.v[i].name) {
			ul.v[i].name = xasprintf("unit %zu", i + 1);
			ul.v[i].anonymous = 1;
		}
		free(ul.raw[i]);
	}
	free(ul.raw);
	f->units = ul.v;
	f->nunits = ul.n;
}
