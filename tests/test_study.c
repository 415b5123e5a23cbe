/*
 * test_study.c - study files: the format loads, and every error class gives
 * its file:line message before anything is built (the model's own checks,
 * then the names the harness checks: study_check_names()).  The libc names
 * of the model and the harness's libc registry agree; a recipe's bad
 * source names its recipe.ini and line.
 */
#include <math.h>

#include "flagsets/libc_kind.h"
#include "flagsets/study.h"
#include "harness/libc.h"
#include "harness/study_names.h"
#include "tests/testlib.h"

struct study_case {
	const char *name;
	const char *text;
	const char *want; /* NULL: loads; else a substring of the error */
	int line;         /* expected line in the message (0: no line) */
};

static const struct study_case cases[] = {
	{"good",
	 "; comment\n[study]\nname = t\nworkloads = crc32 nbody ; two\nrepeat = 3\n"
	 "baseline = gcc O2\n[axis cc]\ngcc = gcc\nclang = clang\n[axis opt]\nO2 = -O2\n"
	 "O3 = -O3 -funroll-loops\n[exclude]\nno-clang-unroll = clang O3\n",
	 NULL, 0},
	{"unknown key", "[study]\nworkloads = crc32\ncolour = red\n", "unknown key 'colour'", 3},
	{"pin and isolate", "[study]\nworkloads = crc32\npin = 0-1,3\nisolate = yes\nisolate_load = 1.5\n",
	 NULL, 0},
	{"pin not a list", "[study]\nworkloads = crc32\npin = 0-x\n", "pin: '0-x' is not a CPU list", 3},
	{"pin range backwards", "[study]\nworkloads = crc32\n\npin = 3-1\n", "pin: '3-1' is not a CPU list", 4},
	{"isolate not yes or no", "[study]\nworkloads = crc32\nisolate = maybe\n", "isolate is yes or no", 3},
	{"isolate_load negative", "[study]\nworkloads = crc32\nisolate_load = -1\n",
	 "isolate_load is a load average per core", 3},
	{"unknown section", "[study]\nworkloads = crc32\n[axes]\na = b\n", "unknown section [axes]", 4},
	{"duplicate level",
	 "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\n[axis other]\nO2 = -O2\n",
	 "level 'O2' is already defined at line 4", 6},
	{"baseline level unknown", "[study]\nworkloads = crc32\nbaseline = O9\n[axis opt]\nO2 = -O2\n",
	 "baseline names level 'O9'", 3},
	{"baseline two levels of one axis",
	 "[study]\nworkloads = crc32\nbaseline = O2 O3\n[axis opt]\nO2 = -O2\nO3 = -O3\n",
	 "two levels of axis 'opt'", 3},
	{"exclude level unknown",
	 "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\n[exclude]\nr = O2 clang\n",
	 "exclude rule 'r' names level 'clang'", 6},
	{"missing workload", "[study]\nworkloads = crc32 nosuchwork\n",
	 "unknown workload 'nosuchwork'", 2},
	{"no workloads", "; none\n[study]\nname = x\n", "no workloads", 3},
	{"bad repeat", "[study]\nworkloads = crc32\nrepeat = many\n", "repeat must be", 3},
	{"bad max_seconds", "[study]\nworkloads = crc32\nmax_seconds = -1\n",
	 "max_seconds must be a positive number of seconds", 3},
	{"bad link level", "[study]\nworkloads = crc32\n[axis link]\nshared = \n",
	 "neither static nor dynamic", 4},
	{"empty compiler", "[study]\nworkloads = crc32\n[axis cc]\ngcc = \n", "has no command", 4},
	{"syntax", "[study]\nworkloads = crc32\nthis line is wrong\n", "not a 'key = value' line", 3},
	{"outside section", "workloads = crc32\n", "outside any section", 1},
	{"unknown meter", "[study]\nworkloads = crc32\nmeters = rusage stopwatch\n",
	 "unknown meter 'stopwatch'", 3},
	{"axis without levels", "[study]\nworkloads = crc32\n[axis opt]\n[exclude]\n", "has no levels", 3},
	{"exclude without levels",
	 "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\n[exclude]\nr =\n", "lists no levels", 6},
	{"unknown level key", "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\nO2.colour = red\n",
	 "unknown level key 'colour'", 5},
	{"level key before its level", "[study]\nworkloads = crc32\n[axis opt]\nO3.cpu = R4000\nO3 = -O3\n",
	 "which [axis opt] does not define above it", 4},
	{"unknown libc", "[study]\nworkloads = crc32\n[axis libc]\nbionic =\n",
	 "libc level 'bionic' is not a C library flagscope knows", 4},
	{"warmup 0", "[study]\nworkloads = crc32\nwarmup = 0\n", "warmup must be a whole number from 1", 3},
	{"bad timeout", "[study]\nworkloads = crc32\ntimeout = -3\n", "timeout must be a positive", 3},
	{"bad max_repeat", "[study]\nworkloads = crc32\nmax_repeat = 1\n", "max_repeat must be", 3},
	{"bad target", "[study]\nworkloads = crc32\ntarget = 150%\n", "target must be a relative", 3},
	{"bad tie_margin", "[study]\nworkloads = crc32\nrepeat = 5\ntie_margin = 0%\n",
	 "tie_margin must be a relative difference such as 1% or 0.01, not '0%'", 4},
	{"bad port", "[study]\nworkloads = crc32\n[run]\nhost = b\nport = 99999\n", "port must be", 5},
	{"unknown run key", "[study]\nworkloads = crc32\n[run]\ncolour = red\n",
	 "unknown key 'colour' in [run]", 4},
	/* reserved axes: a value that cannot mean anything there is refused
	 * with what to write, never passed to the compiler */
	{"libc value names another libc", "[study]\nworkloads = crc32\n[axis libc]\nmusl = glibc\n",
	 "libc level 'musl' has 'glibc' in its value, which is not a compiler flag", 4},
	{"libc value names the driver", "[study]\nworkloads = crc32\n[axis libc]\nmusl = musl-gcc\n",
	 "write 'musl ='", 4},
	{"link value contradicts", "[study]\nworkloads = crc32\n[axis link]\nstatic =\ndynamic = static\n",
	 "link level 'dynamic' has 'static' in its value, which contradicts it", 5},
	{"dynamic adds -static", "[study]\nworkloads = crc32\n[axis link]\ndynamic = -static\n",
	 "link level 'dynamic' has '-static'", 4},
	{"link value on a continuation line",
	 "[study]\nworkloads = crc32\n[axis link]\nstatic = -Wl,-O1\n  dynamic\n",
	 "link level 'static' has 'dynamic'", 4},
	{"compiler value is a flag", "[study]\nworkloads = crc32\n[axis cc]\ngcc = -O2\n",
	 "not a compiler command (write the command first", 4},
	{"target value is a flag", "[study]\nworkloads = crc32\n[axis target]\nn64 = -mabi=64\n",
	 "not a target triple (write a triple, e.g. 'n64 = mips64el-linux-gnuabi64'", 4},
	{"target value is a word", "[study]\nworkloads = crc32\n[axis target]\nmips = mips\n",
	 "'mips = native' for this machine", 4},
	{"cpu value is a flag", "[study]\nworkloads = crc32\n[axis cpu]\nl2f = -cpu Loongson-2F\n",
	 "not a CPU model", 4},
	{"ldflags value is its name", "[study]\nworkloads = crc32\n[axis ldflags]\nstatic = static\n",
	 "e.g. 'static = -static', or use [axis link]", 4},
	{"flags value is its name", "[study]\nworkloads = crc32\n[axis opt]\nO2 = O2\n",
	 "level 'O2' has the value 'O2', which the compiler would take as a file name", 4},
	/* a word that is not a flag (nor a path, nor a flag's argument)
	 * would reach the compiler as an input file */
	{"flags value is a word", "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\nfast = O3\n",
	 "level 'fast' has the value 'O3', which the compiler would take as a file name (the value adds CFLAGS: write the flags it stands for, e.g. 'fast = -O3')",
	 5},
	/* a newcomer's shell habits: quotes stay in the value (issue 28) */
	{"flags value in quotes", "[study]\nworkloads = crc32\n[axis opt]\nO3 = \"-O3 -march=x86-64-v3\"\n",
	 "whose quotes the compiler would get as part of the flags (a value is not read by a shell: write 'O3 = -O3 -march=x86-64-v3')",
	 4},
	{"assignment in quotes", "[study]\nworkloads = crc32\n[axis opt]\nO2 = CFLAGS=\"-O2\"\n",
	 "write 'O2 = -O2')", 4},
	{"flags value has a word after a flag",
	 "[study]\nworkloads = crc32\n[axis opt]\nO3 = -O3 funroll-loops\n",
	 "level 'O3' has 'funroll-loops' in its value, which the compiler would take as a file name", 4},
	{"a flag's own argument", "[study]\nworkloads = crc32\n[axis opt]\n"
	 "inc = -include stdio.h -I /usr/include -Xlinker --no-relax -mllvm -x=1 -Wl,-O1\n",
	 NULL, 0},
	{"linkage in a flags axis", "[study]\nworkloads = crc32\n[axis linkage]\nstatic = -static\ndyn = dynamic\n",
	 "or use [axis link]", 5},
	{"compilers in a flags axis", "[study]\nworkloads = crc32\n[axis compiler]\ngcc = gcc\n",
	 "the axis of compilers is [axis cc]", 4},
	{"libc value is a word", "[study]\nworkloads = crc32\n[axis libc]\nglibc = gnu\n",
	 "libc level 'glibc' has 'gnu' in its value, which the compiler would take as a file name", 4},
	{"link value is a word", "[study]\nworkloads = crc32\n[axis link]\nstatic = all\n",
	 "link level 'static' has 'all' in its value, which the linker would take as a file name", 4},
	{"workload named twice", "[study]\nworkloads = crc32 nbody crc32\n",
	 "workload 'crc32' is named twice (name it once)", 2},
	{"study key given twice", "[study]\nworkloads = crc32\nrepeat = 3\nworkloads = nbody\n",
	 "'workloads' is already set at line 2 (one line per key: continue a long value on indented lines)", 4},
	{"exclude rule names two levels of one axis",
	 "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\nO3 = -O3\nOs = -Os\n[exclude]\nx = O3 Os\n",
	 "exclude rule 'x' names two levels of axis 'opt' ('O3' and 'Os'): no configuration has both, so it excludes nothing (write one rule per level)",
	 8},
	{"level name with a blank", "[study]\nworkloads = crc32\n[axis opt]\nO 2 = -O2\n",
	 "level name 'O 2' has a blank (baseline, [exclude] and compare name levels by words: write e.g. 'O_2')",
	 4},
	{"axis name with extra blanks is the axis", "[study]\nworkloads = crc32\n[axis  link ]\nstatic = static\n",
	 NULL, 0},
	{"pgo levels", "[study]\nworkloads = crc32\n[axis pgo]\nnone =\ngen-use =\n", NULL, 0},
	{"bad pgo level", "[study]\nworkloads = crc32\n[axis pgo]\nnone =\nfdo =\n",
	 "pgo level 'fdo' is neither none nor gen-use (name the levels 'none' and 'gen-use')", 5},
	{"pgo value is a flag", "[study]\nworkloads = crc32\n[axis pgo]\ngen-use = -fprofile-use\n",
	 "pgo level 'gen-use' has '-fprofile-use' in its value", 4},
	{"pgo on boards",
	 "[study]\nworkloads = crc32\n[axis pgo]\nnone =\ngen-use =\n[run]\nhost = u@board\n",
	 "pgo level 'gen-use' is not supported with [run] boards", 5},
};

/* A value naming its level's own meaning is taken as that meaning: the
 * word leaves the level's value, so the compiler never sees it. */
struct value_case {
	const char *name;
	const char *text;
	const char *level;
	const char *value; /* the level's value once loaded */
};

static const struct value_case value_cases[] = {
	{"musl = musl", "[study]\nworkloads = crc32\n[axis libc]\nglibc = glibc\nmusl = musl\n", "musl", ""},
	{"glibc = glibc", "[study]\nworkloads = crc32\n[axis libc]\nglibc = glibc\n", "glibc", ""},
	{"musl with flags", "[study]\nworkloads = crc32\n[axis libc]\nmusl = musl -Os\n", "musl", "-Os"},
	{"static = static", "[study]\nworkloads = crc32\n[axis link]\nstatic = static\n", "static", ""},
	{"dynamic = dynamic", "[study]\nworkloads = crc32\n[axis link]\ndynamic = dynamic\n", "dynamic",
	 ""},
	{"static with flags", "[study]\nworkloads = crc32\n[axis link]\nstatic = -static -Wl,-O1\n",
	 "static", "-static -Wl,-O1"},
	{"gcc = gcc", "[study]\nworkloads = crc32\n[axis cc]\ngcc = gcc\n", "gcc", "gcc"},
	{"target native", "[study]\nworkloads = crc32\n[axis target]\nhere = native\n", "here",
	 "native"},
	{"target triple", "[study]\nworkloads = crc32\n[axis target]\n"
	 "mips64el-linux-gnuabi64 = mips64el-linux-gnuabi64\n", "mips64el-linux-gnuabi64",
	 "mips64el-linux-gnuabi64"},
	{"cpu model", "[study]\nworkloads = crc32\n[axis cpu]\nLoongson-2F = Loongson-2F\n",
	 "Loongson-2F", "Loongson-2F"},
	{"flags", "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\n", "O2", "-O2"},
	{"gen-use = gen-use", "[study]\nworkloads = crc32\n[axis pgo]\ngen-use = gen-use\n", "gen-use",
	 ""},
};

static void check_value_case(const char *dir, const struct value_case *c)
{
	char *path = test_write(dir, "value.study", c->text);
	struct study s;
	struct strbuf err = {0};
	size_t a, l;
	if (study_load(path, &s, &err)) {
		T_CHECK(0, "%s: should load, got: %s", c->name, sb_str(&err));
	} else if (study_find_level(&s, c->level, &a, &l)) {
		T_CHECK(0, "%s: no level %s", c->name, c->level);
	} else {
		T_CHECK(!strcmp(s.axes[a].levels[l].value, c->value), "%s: value '%s', want '%s'",
			c->name, s.axes[a].levels[l].value, c->value);
	}
	study_release(&s);
	sb_release(&err);
	free(path);
}

static void check_case(const char *dir, const struct study_case *c)
{
	char *path = test_write(dir, "case.study", c->text);
	struct study s;
	struct strbuf err = {0};
	int rc = study_load(path, &s, &err);
	if (!rc)
		rc = study_check_names(&s, &err);
	if (!c->want) {
		T_CHECK(rc == 0, "%s: should load, got: %s", c->name, sb_str(&err));
	} else {
		T_CHECK(rc == -1, "%s: should fail", c->name);
		T_CHECK(strstr(sb_str(&err), c->want), "%s: message '%s' lacks '%s'", c->name,
			sb_str(&err), c->want);
		if (c->line) {
			char *where = xasprintf("%s:%d: ", path, c->line);
			T_CHECK(strstr(sb_str(&err), where), "%s: message '%s' lacks '%s'", c->name,
				sb_str(&err), where);
			free(where);
		}
		/* one line per error, each "file:..." */
		T_CHECK(str_starts_with(sb_str(&err), path), "%s: message does not start with the file",
			c->name);
	}
	study_release(&s);
	sb_release(&err);
	free(path);
}

static void check_good_contents(const char *dir)
{
	char *path = test_write(dir, "good.study", cases[0].text);
	struct study s;
	struct strbuf err = {0};
	T_CHECK(!study_load(path, &s, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(s.name, "t"), "name %s", s.name);
	T_CHECK(s.workloads.n == 2 && !strcmp(s.workloads.v[1], "nbody"), "workloads");
	T_CHECK(s.repeat == 3 && !s.repeat_stable && !s.repeat_auto, "repeat %d", s.repeat);
	T_CHECK(s.naxes == 2 && s.axes[0].kind->kind == AXIS_CC, "axes");
	T_CHECK(!strcmp(s.axes[1].levels[1].value, "-O3 -funroll-loops"), "value '%s'",
		s.axes[1].levels[1].value);
	T_CHECK(s.nexcludes == 1 && s.excludes[0].levels.n == 2, "excludes");
	T_CHECK(s.baseline.n == 2, "baseline");
	study_release(&s);
	sb_release(&err);
	free(path);
}

static void check_continuation_and_long_line(const char *dir)
{
	char *path = test_write(dir, "cont.study",
				"[study]\nworkloads = crc32\n[axis opt]\nbig = -O2\n  -funroll-loops\n");
	struct study s;
	struct strbuf err = {0};
	T_CHECK(!study_load(path, &s, &err), "%s", sb_str(&err));
	T_CHECK(s.naxes == 1 && !strcmp(s.axes[0].levels[0].value, "-O2 -funroll-loops"),
		"continued value '%s'", s.naxes ? s.axes[0].levels[0].value : "");
	study_release(&s);
	sb_release(&err);
	free(path);

	struct strbuf text = {0};
	sb_add(&text, "[study]\nworkloads = crc32\n[axis opt]\nlong = ");
	for (int i = 0; i < 60; i++)
		sb_add(&text, "-fno-x ");
	sb_addc(&text, '\n');
	path = test_write(dir, "long.study", sb_str(&text));
	T_CHECK(study_load(path, &s, &err) == -1 && strstr(sb_str(&err), ":4: line longer"),
		"long line: %s", sb_str(&err));
	study_release(&s);
	sb_release(&err);
	sb_release(&text);
	free(path);
}

/* A study made in memory (search's batches) gets study_load's checks and
 * defaults: reduced to one configuration, its levels carry their keys and
 * read values, a level name taken twice and a value only the level's name
 * are refused as in a file, and the metric comes from the axes. */
static void check_in_memory(const char *dir)
{
	char *path = test_write(dir, "mem.study",
				"[study]\nname = m\nworkloads = crc32\ntimeout = 9\nmeters = rusage\n"
				"repeat = 7\nwarmup = 3\nbaseline = O2 n64\n[axis opt]\nO1 = -O1\nO2 = -O2\n"
				"[axis link]\nstatic = static\n[axis isa]\nnative = \n"
				"n64 = -mabi=64\nn64.target = mips64el-linux-gnuabi64\n[sources]\n"
				"crc32 = local:../crc\n");
	struct study from, s;
	struct strbuf err = {0};
	T_CHECK(!study_load(path, &from, &err), "%s", sb_str(&err));
	size_t levels[] = {1, 0, 1};
	T_CHECK(!study_init_reduced(&s, &from, levels, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(s.path, path) && s.workloads.n == 1 && s.timeout == 9 && s.meters.n == 1 &&
			s.nsources == 1 && s.sources[0].line == 19,
		"settings of the reduced study");
	T_CHECK(s.repeat == 5 && s.warmup == 1 && !s.baseline.n && !s.name && !s.metric,
		"the reduced study keeps study_load's defaults");
	T_CHECK(s.naxes == 3 && s.axes[0].nlevels == 1 && !strcmp(s.axes[0].levels[0].name, "O2") &&
			!strcmp(s.axes[1].levels[0].value, "") &&
			!strcmp(s.axes[2].levels[0].keys[LKEY_TARGET], "mips64el-linux-gnuabi64") &&
			s.axes[2].levels[0].line == 16,
		"reduced axes");
	T_CHECK(study_add_level(&s, "extra", &(struct level){.name = "O2", .value = "-O2"}, &err) == -1 &&
			strstr(sb_str(&err), "level 'O2' is already defined at line 11 in [axis opt]"),
		"a level name taken twice: '%s'", sb_str(&err));
	sb_release(&err);
	T_CHECK(!study_add_level(&s, "extra", &(struct level){.name = "base", .value = ""}, &err) &&
			!study_add_level(&s, "extra", &(struct level){.name = "c1", .value = "-funroll-loops"},
					 &err),
		"%s", sb_str(&err));
	sl_push(&s.baseline, "base");
	T_CHECK(!study_check(&s, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(s.name, "mem") && !strcmp(s.metric, "insns"), "defaults: name %s metric %s",
		s.name, s.metric);
	study_release(&s);

	size_t native[] = {0, 0, 0};
	T_CHECK(!study_init_reduced(&s, &from, native, &err), "%s", sb_str(&err));
	T_CHECK(!study_add_level(&s, "extra", &(struct level){.name = "same", .value = "same"}, &err) &&
			study_check(&s, &err) == -1 &&
			str_starts_with(sb_str(&err), path) &&
			strstr(sb_str(&err), "level 'same' has the value 'same'"),
		"a value that is only its level's name: '%s'", sb_str(&err));
	T_CHECK(!strcmp(s.metric, "time"), "native: metric %s", s.metric);
	study_release(&s);
	study_release(&from);
	sb_release(&err);
	free(path);
}

static void check_libc_names(void)
{
	size_t n = 0;
	for (; libc_kinds[n]; n++)
		T_CHECK(libc_lookup(libc_kinds[n]) && !strcmp(libc_lookup(libc_kinds[n])->name, libc_kinds[n]),
			"the harness has no libc_ops for '%s'", libc_kinds[n]);
	T_CHECK(n == 3 && !strcmp(libc_kind_names(), "glibc musl dietlibc") &&
			!strcmp(libc_names(), libc_kind_names()),
		"names '%s' / '%s'", libc_kind_names(), libc_names());
	T_CHECK(!libc_kind_known("bionic") && !libc_kind_known(NULL) && !libc_lookup("bionic"),
		"bionic is unknown to both");
}

static void check_recipe_source(void)
{
	struct recipe r = {.dir = "/w/x", .source = "url:http://h/x.tar.gz", .source_line = 3};
	struct strbuf err = {0};
	T_CHECK(recipe_check_names(&r, &err) == -1 &&
			str_starts_with(sb_str(&err), "/w/x/recipe.ini:3: ") && !strchr(sb_str(&err), '\n'),
		"bad source: '%s'", sb_str(&err));
	sb_release(&err);
	r.source = "bundled";
	T_CHECK(!recipe_check_names(&r, &err) && !err.len, "bundled: '%s'", sb_str(&err));
	sb_release(&err);
}

/* repeat = stable: a study file without `repeat` gets it, `repeat =
 * stable` says it, a number or auto does not; max_seconds is its cap;
 * tie_margin (1% unless set) its equivalence margin */
static void check_repeat_modes(const char *dir)
{
	static const struct {
		const char *line;
		int stable, autom, repeat;
		double max_seconds, tie_margin;
	} want[] = {
		{"", 1, 0, 5, 300, 0.01}, {"repeat = stable\nmax_seconds = 60\n", 1, 0, 5, 60, 0.01},
		{"repeat = 4\n", 0, 0, 4, 300, 0.01}, {"repeat = auto\n", 0, 1, 5, 300, 0.01},
		{"tie_margin = 3%\n", 1, 0, 5, 300, 0.03}, {"tie_margin = 0.05\n", 1, 0, 5, 300, 0.05},
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		char *text = xasprintf("[study]\nworkloads = crc32\n%s", want[i].line);
		char *path = test_write(dir, "repeat.study", text);
		struct study s;
		struct strbuf err = {0};
		T_CHECK(!study_load(path, &s, &err) && s.repeat_stable == want[i].stable &&
				s.repeat_auto == want[i].autom && s.repeat == want[i].repeat &&
				s.max_seconds == want[i].max_seconds &&
				fabs(s.tie_margin - want[i].tie_margin) < 1e-12,
			"'%s': stable %d auto %d repeat %d max_seconds %g tie_margin %g %s",
			want[i].line, s.repeat_stable, s.repeat_auto, s.repeat, s.max_seconds,
			s.tie_margin, sb_str(&err));
		study_release(&s);
		sb_release(&err);
		free(path);
		free(text);
	}
	struct study mem;
	study_init(&mem, "in-memory");
	T_CHECK(!mem.repeat_stable, "an in-memory study (search's batches) keeps fixed repeats");
	study_release(&mem);
}

int main(void)
{
	char *dir = test_tmpdir("study");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		check_case(dir, &cases[i]);
	for (size_t i = 0; i < ARRAY_SIZE(value_cases); i++)
		check_value_case(dir, &value_cases[i]);
	check_good_contents(dir);
	check_continuation_and_long_line(dir);
	check_in_memory(dir);
	check_repeat_modes(dir);
	struct study s;
	struct strbuf err = {0};
	T_CHECK(study_load("/nonexistent/x.study", &s, &err) == -1 &&
			strstr(sb_str(&err), "cannot read"),
		"missing file: %s", sb_str(&err));
	study_release(&s);
	sb_release(&err);
	check_libc_names();
	check_recipe_source();
	free(dir);
	return test_summary("test_study");
}
