/* cmd_workload.c - flagscope workload new: a recipe skeleton for a source
 * tree or a Debian package, built by `[build] system =` (workloads/buildsys.h),
 * with its programs and runs left for the user. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "base/ini.h"
#include "base/paths.h"
#include "harness/fetch.h"
#include "workloads/buildsys.h"
#include "workloads/recipe.h"
#include "workloads/searchpath.h"

static struct {
	const char *source;
	const char *system;
	const char *dir;
	int force;
} opt;

static const char *const system_choices[] = {"autotools", "cmake", "meson", "make", NULL};

static const struct option_spec workload_options[] = {
	{"source", 's', OPT_STRING, &opt.source, "SPEC",
	 "where the source comes from: debian:PKG, local:PATH, url:URL sha256=HEX, git:URL commit=HASH"},
	{"system", 0, OPT_CHOICE, &opt.system, "SYSTEM",
	 "the build system (default: guessed from the source tree)", system_choices},
	{"dir", 'd', OPT_STRING, &opt.dir, "DIR",
	 "write DIR/NAME/recipe.ini (default: the first writable folder of the search path)"},
	{"force", 'f', OPT_FLAG, &opt.force, NULL, "replace an existing recipe.ini"},
	{NULL},
};

const struct command_spec workload_cmd = {
	.name = "workload",
	.usage = "new NAME --source SPEC [--system autotools|cmake|meson|make] [--dir DIR]",
	.summary = "Write a recipe skeleton for a program of yours or a Debian package: its\n"
		   "source and build system (guessed from the unpacked tree when --system is\n"
		   "not given: configure, CMakeLists.txt, meson.build, Makefile, in that order),\n"
		   "with the programs to verify and the runs left for you to fill in.  A\n"
		   "configure that Autoconf did not make and that names cmake or meson, or takes\n"
		   "no --prefix or --host (a stub, a wrapper), is passed over; one that names\n"
		   "cmake or meson means that system when the tree has its file.  system =\n"
		   "autotools never runs such a configure: with configure.ac it runs autoreconf.",
	.details = "The source is fetched once to guess the system (into the cache, where the\n"
		   "first build finds it).  A relative local:PATH is taken from the current\n"
		   "folder.  Without --dir the recipe goes to the first writable folder of the\n"
		   "search path ($FLAGSCOPE_PATH's workloads/, else\n"
		   "$XDG_DATA_HOME/flagscope/workloads), where `flagscope run` finds it.\n"
		   "The recipe's format is in doc/recipe-format.md (installed:\n"
		   "PREFIX/share/doc/flagscope/recipe-format.md).  When the new recipe shadows\n"
		   "another of the same name, is hidden by one, or is not on the search\n"
		   "path as seen from the current folder, a note on stderr says so.\n"
		   "Exit status: 0 written, 1 the source could not be fetched (nothing is\n"
		   "written; --system writes the recipe without fetching) or the recipe\n"
		   "exists (see --force), 2 bad usage.",
	.opts = workload_options,
};

/* Where a new recipe goes when --dir is not given: the first writable
 * folder of the search path ($FLAGSCOPE_PATH's, then the user's), so
 * `flagscope run` finds it there; NULL when none is writable. */
static char *default_dir(void)
{
	struct searchpath sp;
	searchpath_init(&sp, SP_WORKLOADS, NULL);
	char *dir = searchpath_first_writable(&sp);
	searchpath_release(&sp);
	return dir;
}

static int valid_name(const char *name)
{
	if (!*name || name[0] == '.' || strlen(name) > 64)
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return 0;
	return 1;
}

struct system_hints {
	const char *name;
	const char *options; /* an example of options = */
	const char *targets; /* what targets = names */
	const char *where;   /* where binaries are */
};

static const struct system_hints hints[] = {
	{"autotools", "--disable-nls", "make targets, e.g. src/prog",
	 "relative to the build folder (configure's out-of-tree build), e.g. src/prog"},
	{"cmake", "-DBUILD_TESTING=OFF", "CMake target names, e.g. prog",
	 "relative to the build folder (CMake's binary dir), e.g. prog or tools/prog"},
	{"meson", "-Dtests=false", "ninja's output paths, e.g. src/prog",
	 "relative to the build folder (meson's build dir), e.g. src/prog"},
	{"make", "PREFIX=/usr", "make targets, e.g. prog",
	 "relative to the top of the tree (make builds in a copy of it), e.g. prog"},
};

/* "left" then its comment in a column, as the bundled recipes align them */
static void commented(struct strbuf *sb, const char *left, const char *comment)
{
	size_t n = strlen(left);
	sb_add(sb, left);
	do
		sb_addc(sb, ' ');
	while (++n < 30);
	sb_addf(sb, "; %s\n", comment);
}

/* A recipe's [workload] source and gentoo, as written. */
struct recipe_atom {
	char *source, *gentoo;
};

static int atom_item(void *user, const char *section, const char *name, const char *value,
		     int line, int continued, struct strbuf *err)
{
	struct recipe_atom *a = user;
	(void)line;
	(void)err;
	if (strcmp(section, "workload") || continued)
		return 0;
	if (!strcmp(name, "source") && !a->source)
		a->source = xstrdup(value);
	else if (!strcmp(name, "gentoo") && !a->gentoo)
		a->gentoo = xstrdup(value);
	return 0;
}

/* The debian: source package spec names (heap), or NULL for another kind. */
static char *debian_name(const char *spec)
{
	struct source_spec s;
	struct strbuf err = {0};
	char *name = NULL;
	if (!source_parse(spec, &s, &err)) {
		if (!strcmp(s.ops->name, "debian"))
			name = xstrdup(s.location);
		source_spec_release(&s);
	}
	sb_release(&err);
	return name;
}

/* The Gentoo atom another recipe on the search path gives the same Debian
 * source package (debian:gzip: the bundled gzip's app-arch/gzip), and in
 * *from that recipe's name; NULL when none does (heap strings). */
static char *known_atom(const char *pkg, char **from)
{
	struct searchpath sp;
	struct sp_entry *e = NULL;
	size_t n = 0;
	char *atom = NULL;
	searchpath_init(&sp, SP_WORKLOADS, ".");
	if (!searchpath_list(&sp, &e, &n))
		for (size_t i = 0; i < n && !atom; i++) {
			struct recipe_atom a = {0};
			struct strbuf err = {0};
			char *ini = xasprintf("%s/recipe.ini", e[i].path);
			ini_load(ini, atom_item, &a, &err); /* a broken recipe just says nothing */
			char *other = a.source && a.gentoo ? debian_name(a.source) : NULL;
			if (other && !strcmp(other, pkg)) {
				atom = a.gentoo;
				a.gentoo = NULL;
				*from = xstrdup(e[i].name);
			}
			free(other);
			free(ini);
			free(a.source);
			free(a.gentoo);
			sb_release(&err);
		}
	sp_entries_free(e, n);
	searchpath_release(&sp);
	return atom;
}

/* The commented gentoo = line: recommend --format package.env names the
 * package only when the recipe does, and the writer rarely knows the key. */
static void gentoo_line(struct strbuf *sb, const char *name, const char *spec)
{
	char *pkg = debian_name(spec), *from = NULL;
	char *atom = pkg ? known_atom(pkg, &from) : NULL;
	char *left = atom ? xasprintf("; gentoo = %s", atom)
			  : xasprintf("; gentoo = CATEGORY/%s", pkg ? pkg : name);
	char *what = atom ? xasprintf("the Gentoo package, as the %s recipe says: for recommend "
				      "--format package.env", from)
		     : xasprintf("if Gentoo packages it%s: recommend --format package.env names it",
				 pkg ? " (its name may differ from Debian's)" : "");
	commented(sb, left, what);
	free(what);
	free(left);
	free(atom);
	free(from);
	free(pkg);
}

static void write_skeleton(struct strbuf *sb, const char *name, const char *spec,
			   const char *system, const char *why)
{
	const struct system_hints *h = NULL;
	for (size_t i = 0; system && i < ARRAY_SIZE(hints); i++)
		if (!strcmp(hints[i].name, system))
			h = &hints[i];
	sb_addf(sb,
		"; %s: <what it measures and what output it expects: say it here>\n"
		"; Written by `flagscope workload new`: fill in binaries and [run] (the\n"
		"; format is in %s), then run a\n"
		"; study that names %s in its workloads.\n"
		"[workload]\n"
		"description = %s (%s)\n"
		"source = %s\n"
		"slow = no\n",
		name, paths_recipe_doc(), name, name, spec, spec);
	gentoo_line(sb, name, spec);
	sb_add(sb, "\n[build]\n");
	char *left = NULL, *what = NULL;
	if (h) {
		left = xasprintf("system = %s", system);
		commented(sb, left, why);
		free(left);
		left = xasprintf("; options = %s", h->options);
		commented(sb, left, "the configure step's extra arguments");
		what = xasprintf("what to build: %s (default: everything)", h->targets);
		commented(sb, "; targets =", what);
		commented(sb, "; build_args =", "extra arguments of the build step (make, ninja)");
		commented(sb, "; subdir =", "where the build files are, if not at the top");
		free(what);
		what = xasprintf("TODO: the programs to verify and run, %s", h->where);
		commented(sb, "; binaries = PROGRAM", what);
	} else {
		what = xasprintf("TODO: autotools, cmake, meson or make (%s), or a script", why);
		commented(sb, "; system =", what);
		commented(sb, "; script = $CC $CFLAGS -o PROGRAM \"$SRC\"/*.c $LDFLAGS",
			  "a script: /bin/sh in an empty build folder");
		commented(sb, "; binaries = PROGRAM",
			  "TODO: the programs to verify and run, relative to the build folder");
	}
	free(left);
	free(what);
	sb_addc(sb, '\n');
	commented(sb, "; [input]", "optional: makes inputs once, in $IN, with the system's cc");
	sb_add(sb, "; script = ...\n\n");
	commented(sb, "; [run]", "TODO: how to run it; [run NAME] for several runs");
	commented(sb, "; args = PROGRAM ARGS",
		  "the first word is a program of the build folder; ${IN} is the input folder");
	commented(sb, "; stdin = FILE", "optional, relative to $IN");
	commented(sb, "; outputs = FILE",
		  "optional: files the run writes, compared with the baseline's like stdout");
	sb_add(sb, "; timeout = 60\n"
		   "; Every run's stdout (and outputs) must equal the baseline configuration's:\n"
		   "; a run that prints nothing and writes no outputs validates nothing, so\n"
		   "; make it print something deterministic (a checksum, a count).\n");
}

/* 1 when a and b are the same existing folder */
static int same_dir(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	int same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

/* Where the new recipe stands on the search path as seen from the current
 * folder (as `list workloads` sees it): a recipe that shadows a bundled
 * one, is hidden by another, or is not found at all surprises later. */
static void say_where(const char *name, const char *folder)
{
	struct searchpath sp;
	struct sp_entry *e = NULL;
	size_t n = 0;
	const struct sp_entry *hit = NULL;
	searchpath_init(&sp, SP_WORKLOADS, ".");
	if (!searchpath_list(&sp, &e, &n))
		for (size_t i = 0; i < n; i++)
			if (!strcmp(e[i].name, name))
				hit = &e[i];
	int hidden = 0;
	for (size_t i = 0; hit && i < hit->shadows.n; i++)
		hidden |= same_dir(hit->shadows.v[i], folder);
	if (hit && same_dir(hit->path, folder) && hit->shadows.n)
		warn_msg("workload new: it shadows %s: studies that name %s use the new recipe",
			 hit->shadows.v[0], name);
	else if (hidden)
		warn_msg("workload new: %s hides it (an earlier folder of the search path): rename the new one or remove that one",
			 hit->path);
	else if (!hit || !same_dir(hit->path, folder))
		warn_msg("workload new: %s is not on the search path as seen from here (a study finds it when it is in the workloads/ folder beside the study file, or in DIR/workloads for DIR in $FLAGSCOPE_PATH)",
			 folder);
	sp_entries_free(e, n);
	searchpath_release(&sp);
}

/* The build system of the tree at src_dir (NULL: none recognised) and,
 * into *why (heap), what it was guessed from and any mark passed over. */
static const char *guess_system(const char *src_dir, char **why)
{
	struct strbuf notes = {0};
	const char *mark = NULL;
	const struct buildsys_ops *ops = buildsys_guess(src_dir, &mark, &notes);
	if (ops)
		*why = xasprintf("guessed from the tree's %s%s%s", mark, notes.len ? "; " : "",
				 sb_str(&notes));
	else if (notes.len)
		*why = xasprintf("%s; no CMakeLists.txt, meson.build or Makefile at the tree's top",
				 sb_str(&notes));
	else
		*why = xstrdup("no configure, CMakeLists.txt, meson.build or Makefile at the tree's top");
	sb_release(&notes);
	return ops ? ops->name : NULL;
}

/* The line of text where "; system =" is, for the advice (0: none). */
static int system_line(const char *text)
{
	const char *at = strstr(text, "\n; system =");
	int line = 1;
	for (const char *c = text; at && c <= at; c++)
		line += *c == '\n';
	return at ? line : 0;
}

static int workload_new(const char *name)
{
	struct source_spec parsed;
	struct strbuf err = {0}, text = {0};
	char *src_dir = NULL, src_id[65];
	const char *system = opt.system, *why = "given with --system";
	char *guessed_why = NULL;
	int rc = 1;

	if (!valid_name(name)) {
		error_msg("workload new: '%s' is not a workload name (letters, digits, '.', '_', '-')", name);
		return 2;
	}
	if (!opt.source) {
		error_msg("workload new: --source is required (e.g. --source debian:%s)", name);
		return 2;
	}
	if (source_check(opt.source, &err) || source_parse(opt.source, &parsed, &err)) {
		error_msg("workload new: --source: %s", sb_str(&err));
		sb_release(&err);
		return 2;
	}
	/* a recipe's relative path would be taken from its own folder */
	char *spec = source_spec_anchored(opt.source, NULL);
	source_spec_release(&parsed);
	char *dir = opt.dir ? xstrdup(opt.dir) : default_dir();
	if (!dir) {
		error_msg("workload new: no writable folder on the search path (pass --dir DIR, or set FLAGSCOPE_PATH)");
		free(spec);
		return 1;
	}
	char *folder = xasprintf("%s/%s", dir, name);
	char *path = xasprintf("%s/recipe.ini", folder);
	if (file_exists(path) && !opt.force) {
		error_msg("workload new: %s exists (edit it, or --force to replace it)", path);
		goto out;
	}
	if (!system) {
		fprintf(stderr, "workload new: fetching %s to guess its build system\n", spec);
		/* a mistyped package or path would otherwise become a recipe
		 * whose every build fails */
		if (source_fetch(spec, folder, &src_dir, src_id, &err)) {
			error_msg("workload new: %s (give --system SYSTEM to write the recipe without fetching)",
				  sb_str(&err));
			goto out;
		}
		system = guess_system(src_dir, &guessed_why);
		why = guessed_why;
	}
	write_skeleton(&text, name, spec, system, why);
	int w = mkdir_p(folder, 0755);
	if (!w)
		w = file_write(path, text.buf, text.len);
	if (w) {
		error_msg("workload new: %s: cannot write it: %s (check that its folder can be written, or "
			  "give --dir DIR)", path, strerror_lc(-w));
		goto out;
	}
	printf("%s\n", path);
	fprintf(stderr, "workload new: wrote %s (system %s); fill in binaries and [run]\n", path,
		system ? system : "to fill in");
	if (!system && system_line(text.buf))
		warn_msg("workload new: %s:%d: no build system guessed: %s (set system = %s, or write a script)",
			 path, system_line(text.buf), why, buildsys_names());
	say_where(name, folder);
	rc = 0;
out:
	free(guessed_why);
	free(src_dir);
	free(spec);
	free(dir);
	free(folder);
	free(path);
	sb_release(&err);
	sb_release(&text);
	return rc;
}

int cmd_workload(int argc, char **argv)
{
	struct strlist pos = {0};
	int rc = options_parse(&workload_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (pos.n != 2 || strcmp(pos.v[0], "new")) {
		error_msg("workload: usage: flagscope %s %s", workload_cmd.name, workload_cmd.usage);
		sl_release(&pos);
		return 2;
	}
	rc = workload_new(pos.v[1]);
	sl_release(&pos);
	return rc;
}
