/* elf_lto.c - clang's LTO proven from the build tree (see elf.h) */
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/elf.h"
#include "harness/switches.h"

/* nftw has no user pointer: one scan at a time per thread */
static _Thread_local struct elf_lto_objects *scanning;

/* The LLVM bitcode magics: raw 'BC' 0xC0DE, and the wrapper 0x0B17C0DE
 * (little-endian on disk) that Darwin-style tools put around it. */
static int bitcode_magic(const unsigned char m[4])
{
	static const unsigned char raw[4] = {'B', 'C', 0xC0, 0xDE},
				   wrapper[4] = {0xDE, 0xC0, 0x17, 0x0B};
	return !memcmp(m, raw, 4) || !memcmp(m, wrapper, 4);
}

static int scan_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	if (type == FTW_D && ftw->level > 0 && base[0] == '.' && strcmp(base, ".libs"))
		return FTW_SKIP_SUBTREE; /* .git, .deps: never objects */
	size_t len = strlen(base);
	if (type != FTW_F || !S_ISREG(st->st_mode) || len < 3 || strcmp(base + len - 2, ".o"))
		return FTW_CONTINUE;
	unsigned char m[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, m, sizeof(m)) : -1;
	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof(m))
		return FTW_CONTINUE;
	if (bitcode_magic(m)) {
		scanning->bitcode++;
	} else if (!memcmp(m, "\177ELF", 4)) {
		if (!scanning->machine++)
			scanning->first_machine = xstrdup(path);
	}
	return FTW_CONTINUE;
}

int elf_lto_objects_scan(const char *dir, struct elf_lto_objects *o)
{
	memset(o, 0, sizeof(*o));
	scanning = o;
	int rc = nftw(dir, scan_one, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	scanning = NULL;
	return rc ? -1 : 0;
}

void elf_lto_objects_release(struct elf_lto_objects *o)
{
	free(o->first_machine);
	memset(o, 0, sizeof(*o));
}

/* A file whose recorded units clang compiled and GCC none. */
static int built_by_clang(const struct elf_facts *f)
{
	int clang = 0;
	for (size_t i = 0; i < f->nunits; i++) {
		const char *p = f->units[i].producer;
		if (p && str_starts_with(p, "GNU "))
			return 0;
		clang |= p && strstr(p, "clang") != NULL;
	}
	return clang;
}

enum elf_lto_state elf_lto_check_tree(const struct elf_facts *f, const char *expect,
				      const char *tree, struct strlist *mismatches, char **why)
{
	*why = NULL;
	if (!switches_want_lto(expect) || !built_by_clang(f))
		return ELF_LTO_NOT_ASKED;
	struct elf_lto_objects o;
	if (!tree || elf_lto_objects_scan(tree, &o)) {
		*why = xasprintf("not judged: clang's LTO leaves no trace in the linked file and %s",
				 tree ? "the build tree cannot be read" : "no build tree was given");
		return ELF_LTO_NOT_JUDGED;
	}
	enum elf_lto_state s;
	if (o.bitcode) {
		*why = xasprintf("verified: %zu of the %zu objects under %s are LLVM bitcode "
				 "(clang -flto), so the link optimised them", o.bitcode,
				 o.bitcode + o.machine, tree);
		s = ELF_LTO_VERIFIED;
	} else if (o.machine) {
		const char *first = o.first_machine;
		if (str_starts_with(first, tree) && first[strlen(tree)] == '/')
			first += strlen(tree) + 1;
		*why = xasprintf("no LTO: none of the %zu objects under %s is LLVM bitcode (%s is "
				 "machine code: it was compiled without -flto)", o.machine, tree,
				 first);
		sl_push(mismatches, *why);
		s = ELF_LTO_MISSING;
	} else {
		*why = xasprintf("not judged: clang's LTO leaves no trace in the linked file and "
				 "%s holds no object file (a one-step compile and link keeps none)",
				 tree);
		s = ELF_LTO_NOT_JUDGED;
	}
	elf_lto_objects_release(&o);
	return s;
}

void elf_facts_json_add_lto(struct strbuf *out, const char *why)
{
	if (!why || !out->len || out->buf[out->len - 1] != '}')
		return;
	out->buf[--out->len] = '\0';
	sb_add(out, ",\"lto\":");
	sb_add_json(out, why);
	sb_addc(out, '}');
}
