/*
 * test_recommend_distro.c - analysis/recommend_distro on a synthetic study
 * (baseline x86-64 O2; x86-64-v3 O2 10% faster everywhere; x86-64 O3 as
 * fast as the baseline but 20% faster on one workload; O2 -flto=auto fails
 * to build gz).  Expected:
 *   - COMMON_FLAGS is the global choice, -march=x86-64-v3 -O2;
 *   - the one workload that prefers -O3 significantly (mp3, gentoo =
 *     media-sound/lame) gets exactly one env file and one package.env line;
 *     gz and plain (no atom) get none;
 *   - when the workload preferring -O3 has no atom (plain), it gets its env
 *     file but no package.env line, and a comment says why;
 *   - -O3 and -flto=auto are labelled outside the devmanual's set, LTO is
 *     offered with gz on its no-lto list, CPU_FLAGS_X86 is not set;
 *   - dpkg-buildflags appends -march=x86-64-v3 (not -O2, nor -march=x86-64:
 *     Debian amd64's default, said in a comment) and LTO as optimize=+lto;
 *   - when x86-64-v3 O2 is a profile-guided build (pgo = gen-use), it is
 *     not the choice in package.env or dpkg-buildflags (nor any env file):
 *     x86-64 O3 is, and the evidence names the profile-guided winner, what
 *     it needs and its training run (JSON: test_recommend.c);
 *   - a workload's own best with -march=native gets the CPU its builds
 *     recorded (-march=skylake) in its env file and debian/rules lines.
 */
#include "analysis/recommend_distro.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/synthdb.h"
#include "tests/testlib.h"

static const char *const labels[] = {"x86-64 O2", "x86-64-v3 O2", "x86-64 O3", "x86-64 O2 lto"};
static const char *const cflags[] = {"-march=x86-64 -O2", "-march=x86-64-v3 -O2",
				     "-march=x86-64 -O3", "-march=x86-64 -O2 -flto=auto"};
static const char *const workloads[] = {"gz", "mp3", "plain"};

static void write_recipe(const char *dir, const char *name, const char *gentoo)
{
	char *sub = xasprintf("%s/workloads/%s", dir, name);
	mkdir_p(sub, 0755);
	/* plain is no Debian package either */
	char *text = xasprintf("; %s: a recipe the test reads the atom of\n[workload]\n"
			       "description = test\nsource = %s%s\n%s%s%s[build]\n"
			       "script = true\nbinaries = x\n[run]\nargs = x\n",
			       name, strcmp(name, "plain") ? "debian:" : "local:/src/", name,
			       gentoo ? "gentoo = " : "", gentoo ? gentoo : "",
			       gentoo ? "\n" : "");
	free(test_write(sub, "recipe.ini", text));
	free(text);
	free(sub);
}

/* o3_on: the workload on which x86-64 O3 is 20% faster than the rest */
static void make_study(struct store *st, const char *dir, const char *o3_on)
{
	synth_open(st, dir, "distro.db", "d", "time", labels, cflags, 4);
	uint64_t seed = 1;
	for (size_t w = 0; w < ARRAY_SIZE(workloads); w++) {
		const char *n = workloads[w];
		double o3 = !strcmp(n, o3_on) ? 0.80 : 1.0;
		synth_item(st, "d", labels[0], n, "ok", "time", "s", 1.0, 0.004, 10, 1000, seed++);
		synth_item(st, "d", labels[1], n, "ok", "time", "s", 0.90, 0.004, 10, 1010, seed++);
		synth_item(st, "d", labels[2], n, "ok", "time", "s", o3, 0.004, 10, 1300, seed++);
		if (!strcmp(n, "gz"))
			synth_build_failed(st, "d", labels[3], n,
					   "LTO link failed: lto1: fatal error: bytecode stream");
		else
			synth_item(st, "d", labels[3], n, "ok", "time", "s", 0.97, 0.004, 10, 990,
				   seed++);
	}
}

static const struct distro_file *file(const struct distro_file *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

/* Lines that are not comments and not empty. */
static size_t active_lines(const char *text)
{
	size_t k = 0;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		k += len && *p != '#';
		p += len + (e != NULL);
	}
	return k;
}

/* The advice on the study where o3_on prefers -O3, and its Gentoo files;
 * pgo: the label of a configuration made profile-guided, or NULL. */
static struct distro_file *advise(const char *dir, const char *study_file, const char *o3_on,
				  const char *pgo, struct distro_advice *a, size_t *n)
{
	struct store st;
	struct strbuf err = {0};
	make_study(&st, dir, o3_on);
	if (pgo) {
		char *sql = xasprintf("UPDATE configs SET pgo=1 WHERE label='%s'", pgo);
		T_CHECK(sqlite3_exec(st.db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s", sql);
		free(sql);
		store_put_fact(&st, "d", "pgo.train.mp3", "train (-V 9 short.wav); measured: run");
	}
	T_CHECK(!recommend_distro_compute(&st, "d", NULL, NULL, study_file, NULL, a, &err), "%s",
		sb_str(&err));
	store_close(&st);
	sb_release(&err);
	return recommend_distro_files(a, "package.env", n);
}

static void test_one_prefers_o3(const char *dir, const char *study_file)
{
	struct distro_advice a;
	size_t n;
	struct distro_file *f = advise(dir, study_file, "mp3", NULL, &a, &n);
	const struct distro_file *mk = file(f, n, "make.conf.fragment"),
				 *pe = file(f, n, "package.env");
	T_CHECK(mk && pe, "files missing");
	T_CHECK(mk && strstr(mk->text, "COMMON_FLAGS=\"-march=x86-64-v3 -O2\"\n"), "make.conf:\n%s",
		mk ? mk->text : "");
	size_t envs = 0;
	for (size_t i = 0; i < n; i++)
		envs += str_starts_with(f[i].name, "env/") && strcmp(f[i].name, "env/no-lto.conf");
	T_CHECK(envs == 1 && file(f, n, "env/mp3.conf"), "%zu env files", envs);
	/* -O3 is outside the devmanual's set: said on the line (portage's
	 * grabdict drops a '#' word and what follows), not only in env/ */
	T_CHECK(pe && active_lines(pe->text) == 1 &&
			strstr(pe->text, "\nmedia-sound/lame mp3.conf  # -O3: outside the flags "
					 "Gentoo's devmanual calls reasonable\n"),
		"package.env:\n%s", pe ? pe->text : "");
	const struct distro_file *env = file(f, n, "env/mp3.conf");
	T_CHECK(env && strstr(env->text, "CFLAGS=\"-march=x86-64 -O3\"") &&
			strstr(env->text, "reasonable") && strstr(env->text, ": -O3\n"),
		"env:\n%s", env ? env->text : "");
	/* LTO offered with its no-lto list; CPU_FLAGS_X86 kept out of the flags */
	/* the offer says whether LTO's gain is significant: 3% on mp3 and plain */
	T_CHECK(mk && strstr(mk->text, "over the 2 workload(s) it built and ran (significantly "
				       "better on 2, worse on 0); it failed on 1"),
		"LTO offer:\n%s", mk ? mk->text : "");
	T_CHECK(mk && strstr(mk->text, "#   gz: build_failed: LTO link failed") &&
			!strstr(mk->text, "\nCPU_FLAGS_X86"), "make.conf:\n%s", mk ? mk->text : "");
	T_CHECK(pe && strstr(pe->text, "#app-arch/gzip no-lto.conf"), "package.env:\n%s",
		pe ? pe->text : "");
	T_CHECK(file(f, n, "env/no-lto.conf") != NULL, "no env/no-lto.conf");
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(n >= 1 && !strcmp(f[0].name, "debian-rules.mk") && strstr(f[0].text, "export DEB_CFLAGS_MAINT_APPEND += -march=x86-64-v3\n") &&
			strstr(f[0].text, "#   export DEB_CFLAGS_MAINT_APPEND += -O3\n") &&
			strstr(f[0].text, "#   # left out: -march=x86-64, Debian amd64's default "
					  "already\n") &&
			strstr(f[0].text, "debian/rules of mp3 (workload mp3)") &&
			strstr(f[0].text, "keep optimize=-lto in their debian/rules: gz") &&
			strstr(f[0].text, "\n# LTO: the best -flto configuration is x86-64 O2 lto") &&
			strstr(f[0].text, "\n# to use it, its lines instead of the above:\n#   # left "
					  "out: -march=x86-64, Debian amd64's default already\n"
					  "#   export DEB_BUILD_MAINT_OPTIONS += optimize=+lto\n"),
		"dpkg:\n%s", n ? f[0].text : "");
	/* gz broke under LTO: its debian/rules lines take LTO out again */
	const struct distro_file *mk_lto = file(f, n, "no-lto.mk");
	T_CHECK(n == 2 && mk_lto &&
			strstr(mk_lto->text, "export DEB_CFLAGS_MAINT_STRIP += -flto=auto\n") &&
			strstr(mk_lto->text, "export DEB_BUILD_MAINT_OPTIONS += optimize=-lto\n") &&
			strstr(mk_lto->text, "#   gz: build_failed: LTO link failed") &&
			strstr(f[0].text, "include no-lto.mk in the debian/rules of: gz\n"),
		"%zu files, no-lto.mk:\n%s", n, mk_lto ? mk_lto->text : "");
	distro_files_free(f, n);
	T_CHECK(!recommend_distro_files(&a, "nope", &n) && n == 0, "unknown format");
	recommend_distro_release(&a);
}

static void test_no_atom_no_line(const char *dir, const char *study_file)
{
	struct distro_advice a;
	size_t n;
	struct distro_file *f = advise(dir, study_file, "plain", NULL, &a, &n);
	const struct distro_file *pe = file(f, n, "package.env");
	T_CHECK(file(f, n, "env/plain.conf") && pe && active_lines(pe->text) == 0 &&
			strstr(pe->text, "# plain: no line: its recipe names no Gentoo package"),
		"package.env:\n%s", pe ? pe->text : "");
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(n >= 1 && !strcmp(f[0].name, "debian-rules.mk") && strstr(f[0].text, "\n# plain (its recipe names no Debian source "
					    "package): its own best x86-64 O3,"),
		"dpkg:\n%s", n ? f[0].text : "");
	distro_files_free(f, n);
	recommend_distro_release(&a);
}

static void test_pgo_winner_left_out(const char *dir, const char *study_file)
{
	struct distro_advice a;
	size_t n;
	struct distro_file *f = advise(dir, study_file, "mp3", "x86-64-v3 O2", &a, &n);
	const struct ranking *r = &a.rec.r;
	T_CHECK(a.rec.pgo_best >= 0 && !strcmp(r->configs[a.rec.pgo_best].label, "x86-64-v3 O2"),
		"pgo_best %d", a.rec.pgo_best);
	T_CHECK(!strcmp(r->configs[a.rec.chosen].label, "x86-64 O3"), "chosen %s",
		r->configs[a.rec.chosen].label);
	const struct distro_file *mk = file(f, n, "make.conf.fragment");
	T_CHECK(mk && strstr(mk->text, "COMMON_FLAGS=\"-march=x86-64 -O3\"\n") &&
			strstr(mk->text, "# profile-guided: better still is x86-64-v3 O2") &&
			strstr(mk->text, "-fprofile-use") &&
			strstr(mk->text, "#   trained on mp3: train (-V 9 short.wav)"),
		"make.conf:\n%s", mk ? mk->text : "");
	for (size_t i = 0; i < n; i++)
		T_CHECK(!strstr(f[i].text, "CFLAGS=\"-march=x86-64-v3"), "%s carries the profile-guided "
			"flags:\n%s", f[i].name, f[i].text);
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(n >= 1 && !strcmp(f[0].name, "debian-rules.mk") && strstr(f[0].text, "# profile-guided: better still") &&
			!strstr(f[0].text, "APPEND += -march=x86-64-v3"), "dpkg:\n%s", n ? f[0].text : "");
	distro_files_free(f, n);
	recommend_distro_release(&a);
}

/* A workload's own best built with -march=native gets the CPU GCC
 * recorded in its builds in its env file and debian/rules lines, with a
 * note, not a flag left out */
static void test_native_made_explicit(const char *dir, const char *study_file)
{
	struct store st;
	struct strbuf err = {0};
	struct distro_advice a;
	size_t n;
	make_study(&st, dir, "mp3");
	sqlite3_exec(st.db, "UPDATE configs SET cflags='-march=native -O3' WHERE label='x86-64 O3';"
			    "UPDATE builds SET facts='[{\"units\":[{\"switches\":\"-march=skylake "
			    "-mtune=generic -O3\"}]}]' WHERE config_id='id-x86-64-O3'",
		     NULL, NULL, NULL);
	T_CHECK(!recommend_distro_compute(&st, "d", NULL, NULL, study_file, NULL, &a, &err), "%s",
		sb_str(&err));
	struct distro_file *f = recommend_distro_files(&a, "package.env", &n);
	const struct distro_file *env = file(f, n, "env/mp3.conf");
	T_CHECK(env && strstr(env->text, "CFLAGS=\"-march=skylake -O3\"") &&
			strstr(env->text, "# note: -march=native is -march=skylake, as GCC recorded") &&
			!strstr(env->text, "left out"),
		"env/mp3.conf:\n%s", env ? env->text : "");
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(n >= 1 && !strcmp(f[0].name, "debian-rules.mk") && strstr(f[0].text, "#   export DEB_CFLAGS_MAINT_APPEND += -march=skylake -O3\n"),
		"dpkg:\n%s", n ? f[0].text : "");
	distro_files_free(f, n);
	recommend_distro_release(&a);
	store_close(&st);
	sb_release(&err);
}

/* 1 when make and dpkg-buildflags are here, else 0 after saying SKIP */
static int dpkg_here(const char *what)
{
	char *dpkg = path_lookup("dpkg-buildflags"), *make = path_lookup("make");
	int here = dpkg && make;
	free(dpkg);
	free(make);
	if (!here)
		printf("SKIP: %s needs make and dpkg-buildflags\n", what);
	return here;
}

/* debian-rules.mk through make and dpkg-buildflags, included after a
 * debian/rules' own settings (hardening=+all, -Wall): its flags, and with
 * the LTO offer's lines uncommented -flto, must reach CFLAGS without
 * dropping the package's own (an "=" replaced them: hardening=+all and
 * -Wall were lost) */
static void dpkg_round_trip(const char *dir, const char *mk, const char *want_cflags,
			    const char *what)
{
	char *path = xasprintf("%s/debian-rules.mk", dir);
	T_CHECK(!file_write(path, mk, strlen(mk)), "write %s", path);
	free(path);
	free(test_write(dir, "rules.mk",
			"export DEB_BUILD_MAINT_OPTIONS = hardening=+all\n"
			"export DEB_CFLAGS_MAINT_APPEND = -Wall\n"
			"include debian-rules.mk\n"
			"show:\n"
			"\t@echo \"CFLAGS=$$(dpkg-buildflags --get CFLAGS)\"\n"
			"\t@echo \"LDFLAGS=$$(dpkg-buildflags --get LDFLAGS)\"\n"));
	char *cmd = xasprintf("make -s -C '%s' -f rules.mk show", dir), *out = NULL;
	int rc = run_shell_capture(cmd, &out);
	T_CHECK(rc == 0 && out && strstr(out, want_cflags) && strstr(out, " -Wall") &&
			strstr(out, "-Wl,-z,now"),
		"%s: make + dpkg-buildflags: exit %d:\n%s\nfrom:\n%s", what, rc, out ? out : "", mk);
	free(out);
	free(cmd);
}

static void test_dpkg_buildflags(const char *dir, const char *study_file)
{
	if (!dpkg_here("the debian/rules round trip"))
		return;
	struct distro_advice a;
	size_t n;
	struct distro_file *f = advise(dir, study_file, "mp3", NULL, &a, &n);
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(n >= 1 && !strcmp(f[0].name, "debian-rules.mk"), "debian-rules.mk first");
	if (n >= 1) {
		dpkg_round_trip(dir, f[0].text, " -march=x86-64-v3", "the choice");
		/* the LTO offer: its commented lines taken instead of the choice's */
		struct strbuf lto = {0};
		const char *o = strstr(f[0].text, "# to use it, its lines instead of the above:\n");
		T_CHECK(o != NULL, "no LTO offer:\n%s", f[0].text);
		for (const char *l = o ? strchr(o, '\n') + 1 : ""; str_starts_with(l, "#   ");
		     l = strchr(l, '\n') + 1) {
			const char *e = strchr(l, '\n');
			if (str_starts_with(l, "#   export "))
				sb_addf(&lto, "%.*s\n", (int)(e - l - 4), l + 4);
		}
		dpkg_round_trip(dir, sb_str(&lto), "-flto=auto", "the LTO offer");
		sb_release(&lto);
	}
	distro_files_free(f, n);
	recommend_distro_release(&a);
}

/* ---- what breaks: a sweep (issue 30) ----
 * baseline O2; O3 fails gz's test suite; -ffast-math fails mp3's build
 * and plain's tests; x86-64-v3 O3 (a -march the baseline does not set)
 * breaks plain's output.  Expected: env/no-O3.conf (-O2 back) with
 * app-arch/gzip's package.env line, env/no-fast-math.conf
 * (-fno-fast-math) with media-sound/lame's and a comment for plain (no
 * atom), env/no-x86-64-v3-O3.conf with the baseline's CFLAGS whole
 * (-march=x86-64-v3 has no opposite the baseline names); lines commented
 * (none of them is the choice); NAME.mk files whose DEB_*_MAINT_STRIP
 * takes -O3 out of a global DEB_CFLAGS_APPEND = -O3. */
static const char *const sweep_labels[] = {"O2", "O3", "fast-math", "v3 O3"};
static const char *const sweep_cflags[] = {"-O2", "-O3", "-O2 -ffast-math",
					   "-march=x86-64-v3 -O3"};

static void sweep_failed(struct store *st, const char *label, const char *w, const char *status,
			 const char *detail)
{
	struct store_build b = {
		.study = "sw", .config_id = synth_id(label), .workload = w, .key = "k",
		.status = status, .detail = detail, .facts = "[]", .seconds = 1,
	};
	store_put_build(st, &b);
}

static void make_sweep(struct store *st, const char *dir)
{
	synth_open(st, dir, "sweep.db", "sw", "time", sweep_labels, sweep_cflags, 4);
	uint64_t seed = 100;
	for (size_t w = 0; w < ARRAY_SIZE(workloads); w++)
		for (size_t k = 0; k < 4; k++)
			synth_item(st, "sw", sweep_labels[k], workloads[w],
				   k == 3 && !strcmp(workloads[w], "plain") ? "wrong_output" : "ok",
				   "time", "s", 1.0, 0.004, 5, 1000, seed++);
	sweep_failed(st, "O3", "gz", "tests_failed", "FAIL: test-zlib");
	sweep_failed(st, "fast-math", "mp3", "build_failed",
		     "lame.c:12:2: error: #error \"needs IEEE NaNs\"\nmake: *** Error 1");
	sweep_failed(st, "fast-math", "plain", "tests_failed", "t_nan t_inf");
}

static void sweep_round_trip(const char *dir, const char *mk)
{
	if (!dpkg_here("the no-O3.mk round trip"))
		return;
	free(test_write(dir, "no-O3.mk", mk));
	free(test_write(dir, "rules-sweep.mk", "include no-O3.mk\nshow:\n"
					       "\t@echo \"CFLAGS=$$(dpkg-buildflags --get CFLAGS)\"\n"));
	/* the distribution's global choice -O3, as a builder's environment sets it */
	char *cmd = xasprintf("DEB_CFLAGS_APPEND='-O3 -pipe' make -s -C '%s' -f rules-sweep.mk show",
			      dir), *out = NULL;
	int rc = run_shell_capture(cmd, &out);
	T_CHECK(rc == 0 && out && !strstr(out, "-O3") && strstr(out, "-O2") && strstr(out, "-pipe"),
		"no-O3.mk under DEB_CFLAGS_APPEND=-O3: exit %d: %s", rc, out ? out : "");
	free(out);
	free(cmd);
}

static void test_sweep_breaks(const char *dir, const char *study_file)
{
	struct store st;
	struct strbuf err = {0};
	struct distro_advice a;
	size_t n;
	make_sweep(&st, dir);
	T_CHECK(!recommend_distro_compute(&st, "sw", NULL, NULL, study_file, NULL, &a, &err), "%s",
		sb_str(&err));
	T_CHECK(a.nbreaks == 3, "%zu configurations broke something", a.nbreaks);
	struct distro_file *f = recommend_distro_files(&a, "package.env", &n);
	const struct distro_file *pe = file(f, n, "package.env"), *o3 = file(f, n, "env/no-O3.conf"),
				 *fm = file(f, n, "env/no-fast-math.conf"),
				 *v3 = file(f, n, "env/no-x86-64-v3-O3.conf");
	T_CHECK(pe && strstr(pe->text, "\n#app-arch/gzip no-O3.conf\n") &&
			strstr(pe->text, "\n#media-sound/lame no-fast-math.conf\n") &&
			strstr(pe->text, "\n# plain: no line: its recipe names no Gentoo package") &&
			!strstr(pe->text, "#media-sound/lame no-O3") &&
			!strstr(pe->text, "#app-arch/gzip no-fast-math"),
		"package.env:\n%s", pe ? pe->text : "");
	T_CHECK(o3 && strstr(o3->text, "CFLAGS=\"${CFLAGS} -O2\"\n") &&
			strstr(o3->text, "#   gz: tests_failed: FAIL: test-zlib\n") &&
			!strstr(o3->text, "mp3"),
		"env/no-O3.conf:\n%s", o3 ? o3->text : "");
	T_CHECK(fm && strstr(fm->text, "CFLAGS=\"${CFLAGS} -fno-fast-math\"\n") &&
			strstr(fm->text, "#   mp3: build_failed: lame.c:12:2: error: #error") &&
			!strstr(fm->text, "Error 1") && strstr(fm->text, "#   plain: tests_failed: t_nan"),
		"env/no-fast-math.conf:\n%s", fm ? fm->text : "");
	T_CHECK(v3 && strstr(v3->text, "CFLAGS=\"-O2\"\n") &&
			strstr(v3->text, "plain: wrong_output"),
		"env/no-x86-64-v3-O3.conf:\n%s", v3 ? v3->text : "");
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	const struct distro_file *mk = file(f, n, "no-O3.mk");
	T_CHECK(mk && strstr(mk->text, "export DEB_CFLAGS_MAINT_STRIP += -O3\n") &&
			strstr(f[0].text, "include no-fast-math.mk in the debian/rules of: mp3 "
					  "plain\n"),
		"dpkg-buildflags:\n%s", mk ? mk->text : f[0].text);
	if (mk)
		sweep_round_trip(dir, mk->text);
	distro_files_free(f, n);
	recommend_distro_release(&a);
	store_close(&st);
	sb_release(&err);
}

/* debian-rules.mk and NAME.mk in dir/debian-flags, included by the
 * debian/rules of a source package `source` (its debian/changelog names
 * it): the CFLAGS dpkg-buildflags gives there */
static char *dpkg_cflags_of(const char *dir, const struct distro_file *f, size_t n,
			    const char *source)
{
	char *flags = xasprintf("%s/debian-flags", dir), *pkg = xasprintf("%s/%s", dir, source);
	char *deb = xasprintf("%s/debian", pkg);
	mkdir_p(flags, 0755);
	mkdir_p(deb, 0755);
	for (size_t i = 0; i < n; i++)
		free(test_write(flags, f[i].name, f[i].text));
	char *log = xasprintf("%s (1.0-1) unstable; urgency=low\n\n  * test\n\n -- T <t@example.org>"
			      "  Mon, 01 Jan 2024 00:00:00 +0000\n", source);
	free(test_write(deb, "changelog", log));
	char *rules = xasprintf("include %s/debian-rules.mk\nshow:\n"
				"\t@echo \"$$(dpkg-buildflags --get CFLAGS)\"\n", flags);
	free(test_write(deb, "rules", rules));
	char *cmd = xasprintf("cd '%s' && make -s -f debian/rules show", pkg), *out = NULL;
	int rc = run_shell_capture(cmd, &out);
	T_CHECK(rc == 0, "%s: exit %d: %s", cmd, rc, out ? out : "");
	free(cmd);
	free(rules);
	free(deb);
	free(log);
	free(pkg);
	free(flags);
	return out;
}

/* recommend --choose O3 on the sweep: O3 is the global choice (the rule
 * keeps the baseline: nothing beat it), so gz, which broke under it, gets
 * its package.env line for real and its debian/rules lines (the
 * baseline's, by its source name) while the -ffast-math lines stay
 * comments; popt (no recipe: a Debian source package) gets the guessed
 * atom "*\/popt" with a comment saying it is one, libtasn1-6 (no valid
 * Gentoo name) a comment only; an unknown label is refused in one line
 * naming the labels. */
static void test_sweep_choose(const char *dir, const char *study_file)
{
	struct store st;
	struct strbuf err = {0};
	struct distro_advice a;
	size_t n;
	make_sweep(&st, dir);
	static const char *const bare[] = {"popt", "libtasn1-6"};
	for (size_t w = 0; w < ARRAY_SIZE(bare); w++) {
		for (size_t k = 0; k < 4; k++)
			synth_item(&st, "sw", sweep_labels[k], bare[w], "ok", "time", "s", 1.0, 0.004,
				   5, 1000, 300 + 4 * w + k);
		sweep_failed(&st, "fast-math", bare[w], "tests_failed", "t_nan");
	}
	T_CHECK(recommend_distro_compute(&st, "sw", NULL, NULL, study_file, "O4", &a, &err) == -1 &&
			strstr(sb_str(&err), "'O2', 'O3', 'fast-math', 'v3 O3'") &&
			!strchr(sb_str(&err), '\n'),
		"--choose O4: %s", sb_str(&err));
	recommend_distro_release(&a);
	sb_release(&err);
	T_CHECK(!recommend_distro_compute(&st, "sw", NULL, NULL, study_file, "O3", &a, &err), "%s",
		sb_str(&err));
	struct distro_file *f = recommend_distro_files(&a, "package.env", &n);
	const struct distro_file *pe = file(f, n, "package.env"),
				 *mc = file(f, n, "make.conf.fragment");
	T_CHECK(mc && strstr(mc->text, "COMMON_FLAGS=\"-O3\"\n") &&
			strstr(mc->text, "# chosen with --choose: O3 (the rule's choice: O2)\n"),
		"make.conf.fragment:\n%s", mc ? mc->text : "");
	T_CHECK(pe && strstr(pe->text, "\napp-arch/gzip no-O3.conf\n") &&
			strstr(pe->text, "\n#media-sound/lame no-fast-math.conf\n") &&
			strstr(pe->text, "\n# popt: a Debian package built without a recipe: "
					       "*/popt is a guess") &&
			strstr(pe->text, "\n#*/popt no-fast-math.conf\n") &&
			strstr(pe->text, "# libtasn1-6: no line:") && !strstr(pe->text, "*/libtasn1"),
		"package.env:\n%s", pe ? pe->text : "");
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(strstr(f[0].text, "ifeq (,$(filter gz,$(DEB_SOURCE)))\n") &&
			strstr(f[0].text, "include $(flagscope_dir)no-O3.mk\nendif\n"),
		"debian-rules.mk:\n%s", f[0].text);
	if (dpkg_here("the --choose debian/rules round trip")) {
		char *gz = dpkg_cflags_of(dir, f, n, "gz"), *mp3 = dpkg_cflags_of(dir, f, n, "mp3");
		T_CHECK(gz && !strstr(gz, "-O3") && strstr(gz, "-O2"), "gz (broke under O3): %s",
			gz ? gz : "");
		T_CHECK(mp3 && strstr(mp3, "-O3"), "mp3 (fine under O3): %s", mp3 ? mp3 : "");
		free(gz);
		free(mp3);
	}
	distro_files_free(f, n);
	recommend_distro_release(&a);
	store_close(&st);
	sb_release(&err);
}

/* ---- a package that fails at the baseline too (issue 30) ----
 * A sweep as system = debian stores it (no [run]: builds with size.text
 * and the test step's tests.time): popt passes everywhere; cjson fails
 * its tests under -ffast-math only; sed fails panic-tests and
 * follow-symlinks at the baseline already (its builds ran as root) and
 * under O3 the same two, under -ffast-math misc-nan beside them, under
 * -flto=auto lto-odr beside them; bzip2
 * does not build at the baseline nor under O3.  Expected: the advice is
 * computed (the baseline is not refused for sed); no env/no-O3.conf
 * (O3 broke nothing the baseline did not); env/no-fast-math.conf names
 * cjson, and sed failing misc-nan (panic-tests and follow-symlinks said
 * to fail at the baseline too); the LTO offer's no-lto list names sed
 * for lto-odr alone; --choose O3 keeps
 * sed and bzip2 out of no-O3 files and says they fail at the baseline too. */
static void base_build(struct store *st, const char *label, const char *w, const char *status,
		       const char *detail, double tests)
{
	sweep_failed(st, label, w, status, detail);
	struct store_metric m[] = {{"size.text", 1000, "B"}, {"tests.time", tests, "s"}};
	if (strcmp(status, "build_failed"))
		store_put_build_sizes(st, "sw", synth_id(label), w, m, tests > 0 ? 2 : 1);
}

static const char *const base_labels[] = {"O2", "O3", "fast-math", "lto"};
static const char *const base_cflags[] = {"-O2", "-O3", "-O2 -ffast-math", "-O2 -flto=auto"};

static void make_base_fails(struct store *st, const char *dir)
{
	synth_open(st, dir, "basefails.db", "sw", "time", base_labels, base_cflags, 4);
	static const char *const sed_base = "tests failed: panic-tests follow-symlinks | log: "
					    "/c/sed/tests.log";
	for (size_t k = 0; k < 4; k++) {
		base_build(st, base_labels[k], "popt", "ok", "", 5 + 0.1 * (double)k);
		base_build(st, base_labels[k], "cjson", k == 2 ? "tests_failed" : "ok",
			   k == 2 ? "tests failed: misc_tests | log: /c/cjson/tests.log" : "",
			   k == 2 ? 0 : 1);
		base_build(st, base_labels[k], "sed", "tests_failed",
			   k == 2   ? "tests failed: follow-symlinks misc-nan panic-tests | log: "
				      "/c/sed/tests.log"
			   : k == 3 ? "tests failed: panic-tests lto-odr follow-symlinks | log: "
				      "/c/sed/tests.log"
				    : sed_base, 0);
		if (k < 2)
			base_build(st, base_labels[k], "bzip2", "build_failed",
				   "bzip2.c:1:1: error: no", 0);
		else
			base_build(st, base_labels[k], "bzip2", "ok", "", 2);
	}
}

static void test_fails_at_baseline(const char *dir, const char *study_file)
{
	struct store st;
	struct strbuf err = {0};
	struct distro_advice a;
	size_t n;
	make_base_fails(&st, dir);
	T_CHECK(!recommend_distro_compute(&st, "sw", NULL, NULL, study_file, NULL, &a, &err),
		"a package failing at the baseline refused the advice: %s", sb_str(&err));
	struct distro_file *f = recommend_distro_files(&a, "package.env", &n);
	const struct distro_file *o3 = file(f, n, "env/no-O3.conf"),
				 *fm = file(f, n, "env/no-fast-math.conf");
	T_CHECK(!o3, "O3 broke nothing the baseline did not:\n%s", o3 ? o3->text : "");
	T_CHECK(fm && strstr(fm->text, "#   cjson: tests_failed: tests failed: misc_tests") &&
			strstr(fm->text, "#   sed: tests_failed: tests failed: misc-nan (panic-tests "
					 "follow-symlinks fail at the baseline too) | log: ") &&
			!strstr(fm->text, "bzip2"),
		"env/no-fast-math.conf:\n%s", fm ? fm->text : "");
	T_CHECK(a.lto == 3 && a.no_lto.n == 1 && !strcmp(a.no_lto.v[0], "sed") &&
			strstr(a.no_lto_why.v[0], "tests failed: lto-odr (panic-tests "
						  "follow-symlinks fail at the baseline too)"),
		"the LTO offer's no-lto list: %zu, %s", a.no_lto.n,
		a.no_lto.n ? a.no_lto_why.v[0] : "");
	distro_files_free(f, n);
	f = recommend_distro_files(&a, "dpkg-buildflags", &n);
	T_CHECK(!file(f, n, "no-O3.mk") && strstr(f[0].text, "no-fast-math.mk in the debian/rules "
							 "of: cjson sed\n"),
		"dpkg-buildflags:\n%s", f[0].text);
	distro_files_free(f, n);
	recommend_distro_release(&a);
	sb_release(&err);
	T_CHECK(!recommend_distro_compute(&st, "sw", NULL, NULL, study_file, "O3", &a, &err), "%s",
		sb_str(&err));
	f = recommend_distro_files(&a, "package.env", &n);
	const struct distro_file *pe = file(f, n, "package.env"),
				 *mc = file(f, n, "make.conf.fragment");
	T_CHECK(pe && !strstr(pe->text, "no-O3") && mc && !strstr(mc->text, "refused O3"),
		"--choose O3 blames O3:\n%s\n%s", mc ? mc->text : "", pe ? pe->text : "");
	T_CHECK(mc && strstr(mc->text, "sed") && strstr(mc->text, "fails at the baseline too"),
		"--choose O3: sed's failure said to be the baseline's too:\n%s", mc ? mc->text : "");
	distro_files_free(f, n);
	recommend_distro_release(&a);
	store_close(&st);
	sb_release(&err);
}

static void test_reasonable(void)
{
	static const struct {
		const char *flag;
		int ok;
	} cases[] = {{"-O2", 1}, {"-Os", 1}, {"-march=x86-64-v3", 1}, {"-mtune=generic", 1},
		     {"-pipe", 1}, {"-fomit-frame-pointer", 1}, {"-O3", 0}, {"-flto=auto", 0},
		     {"-ffast-math", 0}, {"-mavx2", 0}};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		T_CHECK(recommend_gentoo_reasonable(cases[i].flag) == cases[i].ok, "%s",
			cases[i].flag);
}

int main(void)
{
	char *dir = test_tmpdir("test_recommend_distro");
	write_recipe(dir, "gz", "app-arch/gzip");
	write_recipe(dir, "mp3", "media-sound/lame");
	write_recipe(dir, "plain", NULL);
	char *study_file = test_write(dir, "s.study", "; only its folder matters\n");
	test_one_prefers_o3(dir, study_file);
	test_no_atom_no_line(dir, study_file);
	test_pgo_winner_left_out(dir, study_file);
	test_native_made_explicit(dir, study_file);
	test_reasonable();
	test_dpkg_buildflags(dir, study_file);
	test_sweep_breaks(dir, study_file);
	test_sweep_choose(dir, study_file);
	test_fails_at_baseline(dir, study_file);
	free(study_file);
	free(dir);
	return test_summary("test_recommend_distro");
}
