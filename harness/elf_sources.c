/*
 * elf_sources.c - which of a file's units that recorded nothing are the
 * program's own (see elf.h): the names of a source tree, of a C library's
 * objects, and the check that puts them together.
 *
 * Why names and not paths: GCC and clang write only the source's last path
 * component into STT_FILE, so a unit the symbol table alone names has no
 * folder.  Measured on Debian 12: the static glibc, musl-gcc, dietlibc and
 * cross glibc objects are named "printf.o", "vfprintf.lo", "start.S" (never
 * a tree's "x.c"), while a musl built by flagscope's sysroot builder names
 * its objects "printf.c", "strerror.c": those names come from the sysroot's
 * own archives (elf_library_names) so that a tree with its own strerror.c,
 * unused in this link, is no false alarm.
 */
#include "harness/elf.h"
#include "harness/elf_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>

#define MAX_SOURCES 200000
#define MAX_DEPTH 32

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int has_suffix(const char *name, const char *const *suffixes, size_t n)
{
	const char *dot = strrchr(name, '.');
	if (!dot || dot == name)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(dot, suffixes[i]))
			return 1;
	return 0;
}

static const char *const source_suffixes[] = {".c", ".cc", ".cpp", ".cxx"};

int elf_is_source_name(const char *name)
{
	return has_suffix(name, source_suffixes, ARRAY_SIZE(source_suffixes));
}

static void walk_sources(const char *dir, int depth, struct strlist *names, size_t *seen)
{
	DIR *d = depth < MAX_DEPTH ? opendir(dir) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d)) && *seen < MAX_SOURCES) {
		struct stat st;
		char *path;
		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		/* lstat: a symbolic link to a folder is not followed (no loops) */
		if (!lstat(path, &st)) {
			if (S_ISDIR(st.st_mode)) {
				walk_sources(path, depth + 1, names, seen);
			} else if (S_ISREG(st.st_mode) &&
				   has_suffix(e->d_name, source_suffixes, ARRAY_SIZE(source_suffixes))) {
				(*seen)++;
				sl_push(names, e->d_name);
			}
		}
		free(path);
	}
	if (d)
		closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort and drop repeats, in place. */
static void sort_unique(struct strlist *sl)
{
	size_t n = 0;

	if (!sl->n)
		return;
	qsort(sl->v, sl->n, sizeof(*sl->v), cmp_str);
	for (size_t i = 0; i < sl->n; i++) {
		if (n && !strcmp(sl->v[n - 1], sl->v[i])) {
			free(sl->v[i]);
			continue;
		}
		sl->v[n++] = sl->v[i];
	}
	sl->n = n;
}

int elf_source_names(const char *dir, struct strlist *names)
{
	struct strlist found = {0};
	size_t seen = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	closedir(d);
	walk_sources(dir, 0, &found, &seen);
	for (size_t i = 0; i < found.n; i++)
		sl_push(names, found.v[i]);
	sl_release(&found);
	sort_unique(names);
	return 0;
}

static void object_file_names(Elf *elf, struct strlist *names)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		struct strlist all = {0};
		elf_symtab_file_names(elf, scn, &all);
		for (size_t i = 0; i < all.n; i++)
			sl_push(names, last_component(all.v[i]));
		sl_release(&all);
	}
}

/* Every object of an archive, or the object itself. */
static void library_file_names(const char *path, struct strlist *names)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *top, *member;
	Elf_Cmd cmd = ELF_C_READ;

	if (fd < 0)
		return;
	top = elf_begin(fd, ELF_C_READ, NULL);
	if (top && elf_kind(top) == ELF_K_AR) {
		while ((member = elf_begin(fd, cmd, top))) {
			if (elf_kind(member) == ELF_K_ELF)
				object_file_names(member, names);
			cmd = elf_next(member);
			elf_end(member);
		}
	} else if (top && elf_kind(top) == ELF_K_ELF) {
		object_file_names(top, names);
	}
	if (top)
		elf_end(top);
	close(fd);
}

int elf_library_names(const char *dir, struct strlist *names)
{
	static const char *const suffixes[] = {".o", ".a"};
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return -1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		closedir(d);
		return -1;
	}
	while ((e = readdir(d))) {
		char *path;
		if (e->d_name[0] == '.' || !has_suffix(e->d_name, suffixes, ARRAY_SIZE(suffixes)))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		library_file_names(path, names);
		free(path);
	}
	closedir(d);
	sort_unique(names);
	return 0;
}

void elf_facts_source_dirs(const struct elf_facts *f, struct strlist *dirs)
{
	for (size_t i = 0; i < f->nunits; i++) {
		const struct elf_unit *u = &f->units[i];
		const char *slash = u->path ? strrchr(u->path, '/') : NULL;
		char *dir;
		if (!u->switches || !slash)
			continue;
		dir = xstrndup(u->path, slash > u->path ? (size_t)(slash - u->path) : 1);
		if (sl_find(dirs, dir) < 0)
			sl_push_owned(dirs, dir);
		else
			free(dir);
	}
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The last path components of a list, sorted, for bsearch. */
static const char **sorted_names(const struct strlist *sl, size_t *n)
{
	const char **v = xcalloc(sl && sl->n ? sl->n : 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; sl && i < sl->n; i++)
		v[(*n)++] = last_component(sl->v[i]);
	qsort(v, *n, sizeof(*v), cmp_cstr);
	return v;
}

int elf_facts_check_sources(const struct elf_facts *f, const struct strlist *sources,
			    const struct strlist *library, struct strlist *mismatches)
{
	const char **src, **lib;
	size_t nsrc, nlib;
	int found = 0;

	for (size_t i = 0; i < f->nunits; i++)
		if (f->units[i].origin == ELF_UNIT_RECORD && f->units[i].anonymous &&
		    f->units[i].switches)
			return 0;
	src = sorted_names(sources, &nsrc);
	lib = sorted_names(library, &nlib);
	for (size_t i = 0; i < f->nunits; i++) {
		const struct elf_unit *u = &f->units[i];
		const char *name = last_component(u->name);
		if (u->origin != ELF_UNIT_SYMTAB ||
		    !bsearch(&name, src, nsrc, sizeof(*src), cmp_cstr) ||
		    bsearch(&name, lib, nlib, sizeof(*lib), cmp_cstr))
			continue;
		sl_push_owned(mismatches, xasprintf("unit %s: no switches recorded (nothing proves "
						    "its flags)", u->name));
		found++;
	}
	free(src);
	free(lib);
	return found;
}
