/* libc.c - see libc.h */
#include "harness/libc.h"

#include <fcntl.h>
#include <gelf.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/registry.h"
#include "flagsets/libc_kind.h"

int elf_defines_symbol(const char *path, const char *name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	int found = -1;
	Elf_Scn *scn = NULL;
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		if (found < 0)
			found = 0;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n && found != 1; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			const char *s = elf_strptr(e, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name))
				found = 1;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

static int have_command(const char *name)
{
	char *cmd = xasprintf("command -v %s >/dev/null 2>&1", name);
	int ok = run_shell_capture(cmd, NULL) == 0;
	free(cmd);
	return ok;
}

/* A static binary names its libc by symbols only that libc defines; a
 * dynamic one by its interpreter. */
static int check_by(const char *path, const struct elf_facts *f, const char *libc,
		    const char *interp_part, const char *symbol, struct strbuf *why)
{
	if (f->interp)
		return strstr(f->interp, interp_part) ? 0
		       : (sb_addf(why, "linked against %s, not %s", f->interp, libc), -1);
	int has = elf_defines_symbol(path, symbol);
	if (has == 1)
		return 0;
	if (has < 0) {
		sb_addf(why, "stripped: cannot tell its libc is %s", libc);
		return -1;
	}
	sb_addf(why, "static, but without %s's %s: not linked against %s", libc, symbol, libc);
	return -1;
}

static int glibc_driver(const char *cc, int link, char **cmd, struct strbuf *why)
{
	(void)link;
	(void)why;
	*cmd = xstrdup(cc);
	return 0;
}

static int glibc_check(const char *path, const struct elf_facts *f, struct strbuf *why)
{
	return check_by(path, f, "glibc", "ld-linux", "__libc_setup_tls", why);
}

static int musl_driver(const char *cc, int link, char **cmd, struct strbuf *why)
{
	(void)link;
	if (!have_command("musl-gcc")) {
		sb_add(why, "musl-gcc is not installed (apt-get install musl-tools)");
		return -1;
	}
	/* musl-gcc is a wrapper around gcc (REALGCC); other compilers would
	 * need their own musl sysroot */
	if (!strstr(cc, "gcc")) {
		sb_addf(why, "musl-gcc wraps gcc, not '%s'", cc);
		return -1;
	}
	*cmd = strcmp(cc, "gcc") ? xasprintf("env REALGCC=%s musl-gcc", cc) : xstrdup("musl-gcc");
	return 0;
}

static int musl_check(const char *path, const struct elf_facts *f, struct strbuf *why)
{
	return check_by(path, f, "musl", "ld-musl", "__init_libc", why);
}

static int diet_driver(const char *cc, int link, char **cmd, struct strbuf *why)
{
	if (!have_command("diet")) {
		sb_add(why, "diet is not installed (apt-get install dietlibc-dev)");
		return -1;
	}
	if (link == 0) {
		glob_t g;
		int shared = !glob("/usr/lib/diet/lib-*/libc.so", 0, NULL, &g);
		if (shared)
			globfree(&g);
		if (!shared) {
			sb_add(why, "dietlibc has no shared library on this machine (Debian's dietlibc-dev is static only)");
			return -1;
		}
	}
	*cmd = xasprintf("diet %s", cc);
	return 0;
}

static int diet_check(const char *path, const struct elf_facts *f, struct strbuf *why)
{
	return check_by(path, f, "dietlibc", "diet",
			"__you_tried_to_link_a_dietlibc_object_against_glibc", why);
}

static const struct libc_ops libc_glibc = {
	.name = "glibc",
	.cross = LIBC_CROSS_DISTRO,
	.cross_help = "Debian's cross libc",
	.driver = glibc_driver,
	.check = glibc_check,
};

static const struct libc_ops libc_musl = {
	.name = "musl",
	.cross = LIBC_CROSS_SYSROOT,
	.cross_help = "a built sysroot",
	.driver = musl_driver,
	.check = musl_check,
};

static const struct libc_ops libc_diet = {
	.name = "dietlibc",
	.driver = diet_driver,
	.check = diet_check,
};

static const struct libc_ops *const libcs[] = {
	&libc_glibc,
	&libc_musl,
	&libc_diet,
};

int libcs_check(struct strbuf *err)
{
	const char *names[ARRAY_SIZE(libcs)];
	int bad = 0;
	for (size_t i = 0; i < ARRAY_SIZE(libcs); i++) {
		names[i] = libcs[i]->name;
		bad |= registry_require(libcs[i]->driver && libcs[i]->check, "libcs",
					libcs[i]->name, "lacks driver or check", err);
		bad |= registry_require(libcs[i]->cross == LIBC_CROSS_NONE || libcs[i]->cross_help,
					"libcs", libcs[i]->name, "cross-compiles but says not how", err);
		/* the model names the same libcs (a study's libc axis) */
		bad |= registry_require(libc_kind_known(libcs[i]->name), "libcs",
					libcs[i]->name, "is not a libc kind of flagsets/libc_kind.c", err);
	}
	return registry_check("libcs", names, ARRAY_SIZE(libcs), err) || bad ? -1 : 0;
}

enum libc_cross libc_cross_kind(const char *name)
{
	const struct libc_ops *l = name ? libc_lookup(name) : NULL;
	return !name ? LIBC_CROSS_SYSROOT : l ? l->cross : LIBC_CROSS_NONE;
}

char *libc_cross_names(void)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < ARRAY_SIZE(libcs); i++)
		if (libcs[i]->cross != LIBC_CROSS_NONE)
			sb_addf(&sb, "%s%s (%s)", sb.len ? " or " : "", libcs[i]->name,
				libcs[i]->cross_help);
	return sb_detach(&sb);
}

const struct libc_ops *libc_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(libcs); i++)
		if (!strcmp(libcs[i]->name, name))
			return libcs[i];
	return NULL;
}

const char *libc_names(void)
{
	return libc_kind_names();
}
