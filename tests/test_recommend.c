/*
 * test_recommend.c - analysis/recommend: a configuration that gave wrong
 * output on one workload is refused even though it is the fastest; the
 * best valid significant improvement is chosen with its evidence (and the
 * workload it was significantly worse on); with no significant
 * improvement the baseline is kept; an invalid baseline is an error; the
 * C++ driver and CHOST derived from compiler commands; a profile-guided
 * winner (pgo = gen-use) is left out of the flags and named in the
 * evidence and JSON's pgo_best; a higher score is an increase (not a
 * reduction), and an exact ratio names no interval; -march=native is
 * written as the CPU the builds recorded (else, for clang, the CPU the
 * building machine's compiler resolved, stored at build time; else this
 * machine's gcc says).
 */
#include "analysis/recommend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "tests/synthdb.h"
#include "tests/testlib.h"

static char *print(const struct recommendation *rec, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	T_CHECK(!recommend_print(f, rec, format), "format %s", format);
	fclose(f);
	return buf;
}

/* base; wrong: 30% faster everywhere but wrong output on w2; mixed: 15%
 * faster on w1, the same on w2 (its geometric mean ~8% better); clang: 2%
 * faster, compiled by a cross clang; split: 15% faster on w1 and
 * significantly 3% slower on w2 (its geometric mean still ~6% better, but
 * a mixed verdict, analysis/verdict.h: never chosen) */
static const char *const labels[] = {"base", "wrong", "mixed", "clang", "split"};
static const char *const cflags[] = {"-O2", "-O3 -ffast-math", "-O3 -march=native",
				     "-O2 -flto", "-O3 -funroll-loops"};

static void make_study(struct store *st, const char *dir, const char *name, int with_mixed)
{
	synth_open(st, dir, name, "s", "time", labels, cflags, with_mixed ? 5 : 2);
	synth_item(st, "s", "base", "w1", "ok", "time", "s", 1.0, 0.005, 12, 1000, 1);
	synth_item(st, "s", "base", "w2", "ok", "time", "s", 2.0, 0.005, 12, 1000, 2);
	synth_item(st, "s", "wrong", "w1", "ok", "time", "s", 0.7, 0.005, 12, 1000, 3);
	synth_item(st, "s", "wrong", "w2", "wrong_output", "time", "s", 1.4, 0.005, 12, 1000, 4);
	if (!with_mixed)
		return;
	synth_item(st, "s", "mixed", "w1", "ok", "time", "s", 0.85, 0.005, 12, 1000, 5);
	synth_item(st, "s", "mixed", "w2", "ok", "time", "s", 2.0, 0.005, 12, 1000, 6);
	synth_item(st, "s", "clang", "w1", "ok", "time", "s", 0.98, 0.005, 12, 1000, 7);
	synth_item(st, "s", "clang", "w2", "ok", "time", "s", 1.96, 0.005, 12, 1000, 8);
	synth_item(st, "s", "split", "w1", "ok", "time", "s", 0.85, 0.005, 12, 1000, 9);
	synth_item(st, "s", "split", "w2", "ok", "time", "s", 2.06, 0.005, 12, 1000, 10);
}

static void test_refuses_wrong_output(const char *dir)
{
	struct store st;
	make_study(&st, dir, "rec.db", 1);
	/* the clang configuration's compiler is a cross compiler */
	sqlite3_exec(st.db, "UPDATE configs SET cc='clang-14 --target=aarch64-linux-gnu' "
			    "WHERE label='clang'", NULL, NULL, NULL);
	/* mixed's -march=native: GCC recorded the CPU it found in the DWARF
	 * producer of the build (harness/elf facts) */
	sqlite3_exec(st.db, "UPDATE builds SET facts='[{\"file\":\"w1\",\"units\":[{\"name\":"
			    "\"w1.c\",\"switches\":\"-march=skylake -mtune=skylake -O3\"}]}]' "
			    "WHERE config_id='id-mixed' AND workload='w1'", NULL, NULL, NULL);
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(rec.beats && !strcmp(rec.r.configs[rec.chosen].label, "mixed"),
		"chosen %s (the fastest, 'wrong', must be refused)",
		rec.r.configs[rec.chosen].label);
	char *mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "COMMON_FLAGS=\"-O3 -march=skylake\"\n") &&
		strstr(mc, "# note: -march=native is -march=skylake, as GCC recorded it in the "
			   "measured builds\n") &&
		strstr(mc, "CFLAGS=\"${COMMON_FLAGS}\"\n") &&
		strstr(mc, "CXXFLAGS=\"${COMMON_FLAGS}\"\n") && strstr(mc, "LDFLAGS=\"${LDFLAGS}\"\n"),
		"make.conf variables:\n%s", mc);
	T_CHECK(!strstr(mc, "\nCC=") && !strstr(mc, "CHOST"), "gcc, native: no CC, no CHOST");
	T_CHECK(strstr(mc, "# refused wrong: wrong_output: w2: output differs"),
		"refusal with its reason:\n%s", mc);
	T_CHECK(strstr(mc, "# significantly worse on: none\n") &&
			strstr(mc, "# not chosen split: mixed: -1") && strstr(mc, "% w1, +") &&
			strstr(mc, "% w2\n"),
		"a mixed verdict is not chosen:\n%s", mc);
	T_CHECK(strstr(mc, "# chosen: mixed; geometric-mean time ratio"), "evidence:\n%s", mc);
	for (const char *l = mc; *l; l = strchr(l, '\n') + 1) {
		/* every line is a comment or VAR="..." */
		T_CHECK(*l == '#' || strstr(l, "=\"") == strpbrk(l, "="), "line: %.60s", l);
		if (!strchr(l, '\n'))
			break;
	}
	free(mc);
	char *js = print(&rec, "json");
	T_CHECK(strstr(js, "\"recommended\":\"mixed\"") && strstr(js, "\"beats_baseline\":true") &&
		strstr(js, "\"refused\":[{\"label\":\"wrong\",\"status\":\"wrong_output\""),
		"json: %s", js);
	free(js);
	char *sh = print(&rec, "shell");
	T_CHECK(strstr(sh, "export CFLAGS='-O3 -march=skylake'\n") && strstr(sh, "export CC='gcc'"),
		"shell: %s", sh);
	free(sh);
	recommend_release(&rec);
	/* builds that recorded nothing: this machine's gcc resolves it */
	sqlite3_exec(st.db, "UPDATE builds SET facts='[]'", NULL, NULL, NULL);
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!strstr(rec.cflags, "=native") && strstr(rec.cflags, "-O3 -march=") &&
			strstr(rec.native_note, "as this machine's compiler resolves it"),
		"gcc -march=native -Q --help=target: '%s' (%s)", rec.cflags,
		rec.native_note ? rec.native_note : "no note");
	recommend_release(&rec);
	/* clang records the literal -march=native in DWARF; the pipeline stored
	 * what it resolved to on the machine that built (native.ID): a CPU
	 * that need not be this machine's, and the features native differed
	 * in there, which belong to -march (the -mtune is not asked for) */
	sqlite3_exec(st.db, "UPDATE configs SET cc='clang' WHERE label='mixed'; "
			    "UPDATE builds SET facts='[{\"file\":\"w1\",\"units\":[{\"name\":"
			    "\"w1.c\",\"switches\":\"-O3 -march=native\"}]}]' "
			    "WHERE config_id='id-mixed'", NULL, NULL, NULL);
	store_put_fact(&st, "s", "native.id-mixed",
		       "-march=sapphirerapids -mno-avx512f -mshstk -mtune=icelake-server");
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(rec.cflags, "-O3 -march=sapphirerapids -mno-avx512f -mshstk") &&
			rec.native_note &&
			strstr(rec.native_note, "-march=native is -march=sapphirerapids -mno-avx512f "
						"-mshstk, as the compiler resolved it on the machine "
						"that built them"),
		"clang -march=native from the build fact: '%s' (%s)", rec.cflags,
		rec.native_note ? rec.native_note : "no note");
	recommend_release(&rec);
	/* without the fact clang's builds say nothing: this machine's clang
	 * makes it explicit (base/native_cpu.h); a compiler that is not here
	 * cannot, and the flag is kept, with a note */
	sqlite3_exec(st.db, "DELETE FROM facts WHERE key='native.id-mixed'", NULL, NULL, NULL);
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	char *clang = path_lookup("clang");
	T_CHECK(!clang || (!strstr(rec.cflags, "=native") && rec.native_note &&
			   strstr(rec.native_note, "as this machine's compiler resolves it")),
		"clang without the fact: '%s' (%s)", rec.cflags,
		rec.native_note ? rec.native_note : "no note");
	recommend_release(&rec);
	free(clang);
	sqlite3_exec(st.db, "UPDATE configs SET cc='flagscope-no-such-cc' WHERE label='mixed'",
		     NULL, NULL, NULL);
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(strstr(rec.cflags, "-march=native") && rec.native_note &&
			strstr(rec.native_note, "is kept"),
		"a compiler not here, without the fact: '%s' (%s)", rec.cflags,
		rec.native_note ? rec.native_note : "no note");
	recommend_release(&rec);

	/* with mixed's results gone (not built: refused), the cross clang is
	 * the only valid configuration that beats the baseline */
	sqlite3_exec(st.db, "DELETE FROM runs WHERE config_id='id-mixed'; "
			    "DELETE FROM builds WHERE config_id='id-mixed'", NULL, NULL, NULL);
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(rec.r.configs[rec.chosen].label, "clang"), "chosen %s",
		rec.r.configs[rec.chosen].label);
	mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "CC=\"clang-14 --target=aarch64-linux-gnu\"\n") &&
		strstr(mc, "CXX=\"clang++-14 --target=aarch64-linux-gnu\"\n") &&
		strstr(mc, "CHOST=\"aarch64-linux-gnu\"\n") &&
		strstr(mc, "# refused mixed: unsupported: w1: not built"),
		"cross target:\n%s", mc);
	free(mc);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

static void test_keeps_baseline(const char *dir)
{
	struct store st;
	make_study(&st, dir, "keep.db", 0);
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!rec.beats && rec.r.configs[rec.chosen].is_baseline, "baseline kept");
	char *mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "no configuration beat the baseline base significantly") &&
		strstr(mc, "COMMON_FLAGS=\"-O2\""), "%s", mc);
	free(mc);
	recommend_release(&rec);
	/* a baseline that fails leaves nothing to measure against */
	sqlite3_exec(st.db, "UPDATE runs SET status='crashed', detail='killed by signal 11' "
			    "WHERE config_id='id-base' AND workload='w1' AND rep=0",
		     NULL, NULL, NULL);
	T_CHECK(recommend_compute(&st, "s", "time", NULL, &rec, &err) == -1 &&
		strstr(sb_str(&err), "the baseline base is not valid (crashed: w1: killed"),
		"%s", sb_str(&err));
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

static void test_compilers(void)
{
	static const struct {
		const char *cc, *cxx, *chost;
	} cases[] = {
		{"gcc", "g++", NULL},
		{"gcc-12", "g++-12", NULL},
		{"/usr/bin/clang-14", "/usr/bin/clang++-14", NULL},
		{"cc", "c++", NULL},
		{"mips64el-linux-gnuabi64-gcc-12", "mips64el-linux-gnuabi64-g++-12",
		 "mips64el-linux-gnuabi64"},
		{"aarch64-linux-gnu-gcc", "aarch64-linux-gnu-g++", "aarch64-linux-gnu"},
		{"clang --target=mipsel-linux-gnu -fuse-ld=lld", "clang++ --target=mipsel-linux-gnu "
		 "-fuse-ld=lld", "mipsel-linux-gnu"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *cxx = recommend_cxx(cases[i].cc), *chost = recommend_chost(cases[i].cc);
		T_CHECK(!strcmp(cxx, cases[i].cxx), "%s -> %s", cases[i].cc, cxx);
		T_CHECK(cases[i].chost ? chost && !strcmp(chost, cases[i].chost) : !chost,
			"%s -> CHOST %s", cases[i].cc, chost ? chost : "(none)");
		free(cxx);
		free(chost);
	}
	/* this machine's own triple is not a cross target */
	struct utsname u;
	uname(&u);
	char *native = xasprintf("%s-linux-gnu-gcc", u.machine), *c = recommend_chost(native);
	T_CHECK(!c, "%s is native, CHOST %s", native, c);
	free(c);
	free(native);
	T_CHECK(!strcmp(recommend_metric("size"), "size.text") && !recommend_metric("speed"),
		"metric kinds");
}

/* The default metric is the study's (insns for an emulated study), rss
 * reads mem.res and falls back to maxrss, and CHOST comes from the stored
 * target triple even when the compiler command does not name it. */
static void test_metrics_and_target(const char *dir)
{
	static const char *const l[] = {"n64", "n64-O3"};
	struct store st;
	synth_open(&st, dir, "emu.db", "e", "insns", l, NULL, 2);
	for (int c = 0; c < 2; c++) {
		synth_item(&st, "e", l[c], "crc32", "ok", "insns", "insn", c ? 900 : 1000, 0, 1, 100,
			   1);
		synth_item(&st, "e", l[c], "crc32", "ok", "maxrss", "KiB", c ? 1800 : 2000, 0.001, 1,
			   100, 2);
	}
	sqlite3_exec(st.db, "UPDATE configs SET cc='gcc-12', target='mips64el-linux-gnuabi64', "
			    "cpu='Loongson-2F', libc='musl', sysroot='/c/sysroot/1', "
			    "notes='-ffp-contract=off (no FMA in QEMU 7.2)'",
		     NULL, NULL, NULL);
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "e", NULL, NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(rec.r.metric, "insns") && rec.beats &&
		!strcmp(rec.r.configs[rec.chosen].label, "n64-O3"),
		"default metric insns: %s chose %s", rec.r.metric, rec.r.configs[rec.chosen].label);
	T_CHECK(rec.chost && !strcmp(rec.chost, "mips64el-linux-gnuabi64"), "CHOST %s", rec.chost);
	char *mc = print(&rec, "make.conf");
	/* an exact ratio has no interval to name */
	T_CHECK(strstr(mc, "ratio to the baseline n64: 0.900 (exact),\n#   a 10.0% reduction\n"),
		"%s", mc);
	T_CHECK(strstr(mc, "CHOST=\"mips64el-linux-gnuabi64\"\n") &&
		strstr(mc, "# insns: instructions counted by QEMU (TCG plugin), not timed; "
			   "deterministic") &&
		strstr(mc, ", libc musl, target mips64el-linux-gnuabi64 (CPU Loongson-2F), sysroot "
			   "/c/sysroot/1") && strstr(mc, "# added by the harness: -ffp-contract=off"),
		"%s", mc);
	free(mc);
	recommend_release(&rec);
	T_CHECK(!strcmp(recommend_metric("insns"), "insns") && !strcmp(recommend_metric("rss"),
								       "mem.res"), "kinds");

	/* rss without the memory meter: maxrss, and the output says why */
	T_CHECK(!recommend_compute(&st, "e", recommend_metric("rss"), NULL, &rec, &err), "%s",
		sb_str(&err));
	T_CHECK(!strcmp(rec.r.metric, "maxrss") && rec.metric_note &&
		strstr(rec.metric_note, "forking parent"), "fallback: %s", rec.r.metric);
	/* one run of maxrss is no test: the baseline stays */
	T_CHECK(!rec.beats, "one run of a noisy metric never beats the baseline");
	mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "# note: mem.res (VmHWM at exit) is not stored"), "%s", mc);
	free(mc);
	recommend_release(&rec);
	/* with mem.res stored it is used */
	for (int c = 0; c < 2; c++)
		for (int rep = 1; rep <= 6; rep++) {
			struct store_metric m = {"mem.res", (c ? 1500 : 2000) + rep, "KiB"};
			store_put_run(&st, "e", synth_id(l[c]), "crc32", "", rep, "ok", "", &m, 1);
		}
	T_CHECK(!recommend_compute(&st, "e", recommend_metric("rss"), NULL, &rec, &err), "%s",
		sb_str(&err));
	T_CHECK(!strcmp(rec.r.metric, "mem.res") && !rec.metric_note && rec.beats,
		"mem.res: %s beats %d", rec.r.metric, rec.beats);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

/* mixed made profile-guided: the 2% of clang is the choice, mixed's 6%
 * is named with what it needs */
static void test_pgo_left_out(const char *dir)
{
	struct store st;
	make_study(&st, dir, "pgo.db", 1);
	sqlite3_exec(st.db, "UPDATE configs SET pgo=1 WHERE label='mixed'", NULL, NULL, NULL);
	store_put_fact(&st, "s", "pgo.train.w1", "[train] w1 small; measured: [run] w1");
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(rec.beats && !strcmp(rec.r.configs[rec.chosen].label, "clang") &&
			rec.pgo_best >= 0 && !strcmp(rec.r.configs[rec.pgo_best].label, "mixed"),
		"chosen %s, pgo_best %d", rec.r.configs[rec.chosen].label, rec.pgo_best);
	char *mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "COMMON_FLAGS=\"-O2 -flto\"") &&
			strstr(mc, "# profile-guided: better still is mixed (pgo gen-use)") &&
			strstr(mc, "its flags alone (-O3 -march=native) are not it") &&
			strstr(mc, "#   trained on w1: [train] w1 small; measured: [run] w1\n"),
		"make.conf:\n%s", mc);
	free(mc);
	char *json = print(&rec, "json");
	T_CHECK(strstr(json, "\"recommended\":\"clang\"") && strstr(json, "\"pgo\":false") &&
			strstr(json, "\"pgo_best\":{\"label\":\"mixed\",\"ratio\":0.9") &&
			strstr(json, "\"trained_on\":[\"w1: [train] w1 small; measured: [run] w1\"]"),
		"json:\n%s", json);
	free(json);
	recommend_release(&rec);
	/* without a profile-guided configuration: null */
	sqlite3_exec(st.db, "UPDATE configs SET pgo=0", NULL, NULL, NULL);
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	json = print(&rec, "json");
	T_CHECK(strstr(json, "\"recommended\":\"mixed\"") && strstr(json, "\"pgo_best\":null"),
		"json:\n%s", json);
	free(json);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

/* A study of two configurations l (l[0] the baseline) on one workload
 * w, metric around mu[0] and mu[1] */
static void two_configs(struct store *st, const char *dir, const char *db, const char *study,
			const char *const l[2], const char *metric, const char *unit,
			const double mu[2], uint64_t seed)
{
	synth_open(st, dir, db, study, metric, l, NULL, 2);
	for (int c = 0; c < 2; c++)
		synth_item(st, study, l[c], "w", "ok", metric, unit, mu[c], 0.005, 12, 100,
			   seed + (uint64_t)c);
}

/* a higher-is-better metric: 20% more is an increase, and it wins */
static void test_higher_better(const char *dir)
{
	static const char *const l[] = {"base", "more"};
	struct store st;
	two_configs(&st, dir, "score.db", "h", l, "score", "1/s", (const double[]){100, 120}, 3);
	store_put_fact(&st, "h", "higher_better.score", "1");
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "h", NULL, NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(rec.beats && !strcmp(rec.r.configs[rec.chosen].label, "more"), "chosen %s",
		rec.r.configs[rec.chosen].label);
	char *mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "(higher is better)") && strstr(mc, "% increase (95% interval)\n"),
		"%s", mc);
	free(mc);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

/* run --noise-floor's copy of the baseline is never the choice, however
 * its noise falls: its flags are the baseline's and its gain is noise */
static void test_noise_floor_never_chosen(const char *dir)
{
	static const char *const l[] = {"O2", "O2 (noise floor)"};
	struct store st;
	two_configs(&st, dir, "noise.db", "n", l, "time", "s", (const double[]){1.0, 0.9}, 5);
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "n", NULL, NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!rec.beats && !strcmp(rec.r.configs[rec.chosen].label, "O2"),
		"chosen %s: the noise floor must not be", rec.r.configs[rec.chosen].label);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

/* builds but no runs (run --build-only): one line that says nothing was
 * measured, not "the baseline is not valid (ok)" with advice to fix it */
static void test_nothing_measured(const char *dir)
{
	static const char *const l[] = {"O2", "O1"};
	struct store st;
	synth_open(&st, dir, "built.db", "b", "time", l, NULL, 2);
	for (int c = 0; c < 2; c++)
		store_put_build(&st, &(struct store_build){
			.study = "b", .config_id = synth_id(l[c]), .workload = "w",
			.key = "synthetic-key", .status = "ok", .detail = "", .facts = "[]",
			.seconds = 1});
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(recommend_compute(&st, "b", NULL, NULL, &rec, &err), "nothing measured must fail");
	const char *e = sb_str(&err);
	T_CHECK(strstr(e, "nothing was measured in study b") && !strstr(e, "not valid") &&
		!strchr(e, '\n'), "%s", e);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

/* the evidence counts workloads and run sections apart: w1's two runs are
 * one workload (it said "measured on 3 workload(s)"), and they are said
 * run sections, not runs (which read as repetitions) */
static void test_counts_workloads_and_runs(const char *dir)
{
	static const char *const l[] = {"base", "fast"};
	struct store st;
	synth_open(&st, dir, "runs.db", "r", "time", l, NULL, 2);
	for (int c = 0; c < 2; c++) {
		double f = c ? 0.8 : 1.0;
		synth_run(&st, "r", l[c], "w1", "a", "ok", NULL, "time", "s", f, 0.005, 12, 100,
			  10 + (uint64_t)c);
		synth_run(&st, "r", l[c], "w1", "b", "ok", NULL, "time", "s", 2 * f, 0.005, 12, 100,
			  20 + (uint64_t)c);
		synth_item(&st, "r", l[c], "w2", "ok", "time", "s", 3 * f, 0.005, 12, 100,
			   30 + (uint64_t)c);
	}
	struct recommendation rec;
	struct strbuf err = {0};
	T_CHECK(!recommend_compute(&st, "r", NULL, NULL, &rec, &err), "%s", sb_str(&err));
	char *mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "# measured on 2 workloads, 3 run sections:\n"), "evidence:\n%s", mc);
	free(mc);
	recommend_release(&rec);
	/* one workload, one run: singular */
	sqlite3_exec(st.db, "DELETE FROM runs WHERE workload='w1'; "
			    "DELETE FROM builds WHERE workload='w1'", NULL, NULL, NULL);
	T_CHECK(!recommend_compute(&st, "r", NULL, NULL, &rec, &err), "%s", sb_str(&err));
	mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "# measured on 1 workload, 1 run section:\n"), "evidence:\n%s", mc);
	free(mc);
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

/* recommend_choose: clang (2% faster, improved, not the rule's best) by
 * hand still beats the baseline; wrong (refused by the rule) is written
 * with what it was not valid on; an unknown label lists the labels */
static void test_choose(const char *dir)
{
	struct store st;
	struct recommendation rec;
	struct strbuf err = {0};
	make_study(&st, dir, "choose.db", 1);
	T_CHECK(!recommend_compute(&st, "s", "time", NULL, &rec, &err), "%s", sb_str(&err));
	T_CHECK(!recommend_choose(&st, &rec, "clang", &err) && rec.beats &&
			!strcmp(rec.r.configs[rec.rule_choice].label, "mixed"),
		"clang by hand: beats %d, %s", rec.beats, sb_str(&err));
	T_CHECK(!recommend_choose(&st, &rec, "wrong", &err) && !rec.beats &&
			!strcmp(rec.cflags, "-O3 -ffast-math"),
		"wrong by hand: %s", rec.cflags);
	char *mc = print(&rec, "make.conf");
	T_CHECK(strstr(mc, "# chosen with --choose: wrong (the rule's choice: mixed)\n") &&
			strstr(mc, "#   not valid on every workload: wrong_output: w2:") &&
			strstr(mc, "#   w2                   wrong_output\n") &&
			strstr(mc, "COMMON_FLAGS=\"-O3 -ffast-math\"\n"),
		"make.conf:\n%s", mc);
	free(mc);
	T_CHECK(recommend_choose(&st, &rec, "nope", &err) == -1 &&
			strstr(sb_str(&err), "'base', 'wrong', 'mixed', 'clang', 'split')") &&
			!strcmp(rec.r.configs[rec.chosen].label, "wrong"),
		"unknown label: %s", sb_str(&err));
	recommend_release(&rec);
	sb_release(&err);
	store_close(&st);
}

int main(void)
{
	char *dir = test_tmpdir("test_recommend");
	test_nothing_measured(dir);
	test_counts_workloads_and_runs(dir);
	test_noise_floor_never_chosen(dir);
	test_refuses_wrong_output(dir);
	test_keeps_baseline(dir);
	test_compilers();
	test_metrics_and_target(dir);
	test_pgo_left_out(dir);
	test_higher_better(dir);
	test_choose(dir);
	free(dir);
	return test_summary("test_recommend");
}
