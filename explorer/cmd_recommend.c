/*
 * cmd_recommend.c - flagscope recommend: the configuration to use, among
 * those valid on every workload, as a make.conf fragment with its
 * evidence (the rule is in analysis/recommend.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recommend.h"
#include "analysis/recommend_distro.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"

static struct {
	struct results_opts r;
	const char *metric, *format, *dir, *choose;
	int allow_incomplete;
} opt;

static const struct option_spec recommend_options[] = {
	RESULTS_OPTIONS(&opt.r.db, &opt.r.study, &opt.r.alpha, &opt.r.min_effect),
	{"metric", 'm', OPT_STRING, &opt.metric, "WHAT",
	 "optimise for time (wall time), size (.text), rss (mem.res: peak resident memory at "
	 "exit), insns (instructions), or a metric selector such as libcbench/malloc_big1 "
	 "(default: the metric the study ranks by)"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL,
	 recommend_formats, .def = "make.conf"},
	{"output", 'o', OPT_STRING, &opt.dir, "FILE|DIR",
	 "write to FILE instead of stdout (never over a results database or a study file); "
	 "package.env, dpkg-buildflags: write the files into "
	 "DIR (created) instead of printing them one after another with a '# ==> NAME <==' "
	 "header each"},
	{"choose", 0, OPT_STRING, &opt.choose, "LABEL",
	 "the configuration the distribution ships, by its label, whatever the rule would "
	 "choose (valid on every workload or not): its flags are written, and the packages "
	 "that broke under it get their package.env lines and debian/rules lines for real "
	 "(other configurations' stay comments); an unknown label is refused with the "
	 "study's labels, one that built nowhere too"},
	{"allow-incomplete", 0, OPT_FLAG, &opt.allow_incomplete, NULL,
	 "recommend from a study that is incomplete (its run stopped before the end, a shard "
	 "not merged, runs waiting to be made again); refused without it"},
	{NULL},
};

const struct command_spec recommend_cmd = {
	.name = "recommend",
	.usage = "[--db X] [--study NAME] [--alpha P] [--min-effect X]\n"
		 "       [--metric time|size|rss|insns|SELECTOR] [--output FILE|DIR]\n"
		 "       [--format FMT] [--choose LABEL] [--allow-incomplete]",
	.summary = "Recommend the best configuration of a stored study as a Gentoo-style\n"
		   "make.conf fragment (COMMON_FLAGS, CFLAGS, CXXFLAGS, LDFLAGS, CHOST for cross\n"
		   "targets) whose comments give the evidence; or as Gentoo's make.conf,\n"
		   "package.env and env/ files with per-package choices and the LTO offer, or\n"
		   "as the lines of a Debian package's debian/rules.",
	.details = "Only configurations valid on every workload are eligible: builds ok with\n"
		   "their flags verified, right output, no failure, not noisy.  Among them the\n"
		   "best significant improvement over the baseline wins; when none improves\n"
		   "significantly, the baseline is recommended and the output says so.\n"
		   "A profile-guided configuration (pgo = gen-use) is never written: its flags\n"
		   "alone are not what was measured.  The best one without a profile is; when a\n"
		   "gen-use one was better still, the evidence names it, what it needs\n"
		   "(-fprofile-generate, the recipe's training run, -fprofile-use\n"
		   "-fprofile-correction) and the training runs (JSON: \"pgo_best\").\n"
		   "\n"
		   "--metric takes what report --metric takes: METRIC, WORKLOAD, WORKLOAD/RUN,\n"
		   "WORKLOAD/METRIC or WORKLOAD/RUN/METRIC; rss falls back to maxrss (wait4,\n"
		   "which counts the forking parent too) when the study has no mem.res.\n"
		   "\n"
		   "--format package.env: Gentoo's files.  make.conf.fragment has COMMON_FLAGS\n"
		   "(CFLAGS, CXXFLAGS, FCFLAGS, FFLAGS from it) of the choice above, with its\n"
		   "evidence and the best -flto configuration offered in comments with the\n"
		   "workloads that failed under it.  Each workload whose own best configuration\n"
		   "beats that choice significantly on it (geometric mean over its runs, the\n"
		   "interval clear of 1 by --min-effect) gets env/NAME.conf (its CFLAGS) and,\n"
		   "when its recipe names its Gentoo package (gentoo = media-libs/flac), the\n"
		   "package.env line 'media-libs/flac flac.conf' (without one, a Debian\n"
		   "source package gets '*/NAME', its Debian name in any category, which\n"
		   "portage accepts, with a comment that it is a guess; else a comment, no\n"
		   "line).  env/no-lto.conf and its package.env lines (commented out unless the\n"
		   "choice has -flto) cover the no-lto list.  Flags are written as measured but\n"
		   "for -march=native/-mtune=native: in every format they become the CPU the\n"
		   "building machine resolved (stored at build time; else the CPU GCC\n"
		   "recorded in the measured builds' DWARF, with the features in which\n"
		   "native differed from it; else what this machine's compiler makes of\n"
		   "it), with a note, which also says when a CPU the compiler cannot name\n"
		   "kept x86-64 plus feature switches (one neither says is\n"
		   "left out of these files as not explicit); flags outside\n"
		   "Gentoo's devmanual's reasonable set (-O2 -Os -march= -mtune= -pipe\n"
		   "-fomit-frame-pointer) are named in a comment (package.env: on the line);\n"
		   "CPU_FLAGS_X86 is never put in the flags.  Copy make.conf.fragment into\n"
		   "/etc/portage/make.conf, package.env to /etc/portage/package.env, env/\n"
		   "to /etc/portage/env/.\n"
		   "--format dpkg-buildflags: debian-rules.mk, the 'export\n"
		   "DEB_CFLAGS_MAINT_APPEND += ...' lines for debian/rules, to include after\n"
		   "the package's own DEB_*_MAINT_* settings, which they add to (-O2 is\n"
		   "dpkg's own, so is -march=x86-64 -mtune=generic on amd64, said in a\n"
		   "comment; -flto becomes DEB_BUILD_MAINT_OPTIONS += optimize=+lto) with\n"
		   "the evidence as comments, then per Debian source package with its own\n"
		   "better flags the same lines, commented, for that package's debian/rules,\n"
		   "and the LTO offer as package.env makes it, with its lines commented.\n"
		   "What breaks (a sweep, report --pivot sweep): each configuration under which\n"
		   "packages broke (build failed, tests failed, wrong output, ...) that were\n"
		   "fine at the baseline is a need named after the flags it adds: -O3 no-O3,\n"
		   "-flto=auto no-lto, -ffast-math no-fast-math.  package.env writes\n"
		   "env/NAME.conf (the evidence, then the undoing flags appended: the\n"
		   "baseline's -O, -fno-X for -fX; else the baseline's CFLAGS) and each\n"
		   "broken package's line (commented unless it is the choice);\n"
		   "dpkg-buildflags writes NAME.mk for their debian/rules (export\n"
		   "DEB_CFLAGS_MAINT_STRIP += -O3, DEB_BUILD_MAINT_OPTIONS += optimize=-lto).\n"
		   "--choose LABEL makes that configuration the choice (say which one the\n"
		   "distribution ships: the rule never picks one that broke a package): its\n"
		   "breaking packages' package.env lines are active, and debian-rules.mk\n"
		   "gives them, by their source name (DEB_SOURCE), the baseline's lines and\n"
		   "their NAME.mk instead of the choice's.\n"
		   "A sweep with no [run] results is ranked by tests.time, else size.text.\n"
		   "Without -o DIR both print their files to stdout, each after a line\n"
		   "'# ==> NAME <=='; with it they are written as DIR/NAME.  The other\n"
		   "formats write one file: -o FILE (flagscope recommend -o make.conf).\n"
		   "Exit status: 0 printed, 1 the study is incomplete (without\n"
		   "--allow-incomplete), 2 bad usage, no such study, an invalid baseline,\n"
		   "a file that cannot be written.",
	.opts = recommend_options,
};

static int write_files(const struct distro_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!opt.dir) {
			printf("%s# ==> %s <==\n%s", i ? "\n" : "", f[i].name, f[i].text);
			continue;
		}
		char *path = xasprintf("%s/%s", opt.dir, f[i].name);
		char *slash = strrchr(path, '/');
		*slash = 0;
		int bad = mkdir_p(path, 0755);
		*slash = '/';
		if (bad || file_write(path, f[i].text, strlen(f[i].text))) {
			error_msg("%s: cannot write (%s; check -o DIR)", path, strerror_lc(errno));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

static int recommend_distro(struct store *st, const char *study, const char *metric,
			    const struct rank_options *ro)
{
	struct distro_advice a;
	struct strbuf err = {0};
	int rc = 2;
	if (recommend_distro_compute(st, study, metric, ro, NULL, opt.choose, &a, &err)) {
		error_msg("%s", sb_str(&err));
	} else {
		size_t n;
		struct distro_file *f = recommend_distro_files(&a, opt.format, &n);
		rc = write_files(f, n) ? 2 : 0;
		distro_files_free(f, n);
	}
	recommend_distro_release(&a);
	sb_release(&err);
	return rc;
}

/* Flags for a distribution are not chosen from partial results unless
 * asked: 1 after saying why. */
static int refuse_incomplete(struct store *st, const char *study)
{
	struct result_progress p;
	results_progress(st, study, &p);
	if (!p.known || p.complete || opt.allow_incomplete)
		return 0;
	error_msg("recommend: study %s is incomplete: %ld of %ld runs, so nothing is recommended "
		  "from it (run it again to resume, or pass --allow-incomplete)", study, p.done,
		  p.expected);
	return 1;
}

int cmd_recommend(int argc, char **argv)
{
	struct strbuf err = {0};
	struct rank_options ro;
	struct store st;
	char *study;
	int rc = results_command_start(&recommend_cmd, argc, argv, &opt.r, &ro, &st, &study);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (refuse_incomplete(&st, study)) {
		free(study);
		store_close(&st);
		return 1;
	}
	struct recommendation rec = {0};
	rc = 2;
	const char *metric = opt.metric && recommend_metric(opt.metric) ? recommend_metric(opt.metric)
								       : opt.metric;
	if (recommend_distro_format(opt.format)) {
		rc = recommend_distro(&st, study, metric, &ro);
	} else if (recommend_compute(&st, study, metric, &ro, &rec, &err) ||
		   (opt.choose && recommend_choose(&st, &rec, opt.choose, &err))) {
		error_msg("%s", sb_str(&err));
	} else {
		FILE *out = results_output_open(opt.dir);
		if (out) {
			recommend_print(out, &rec, opt.format);
			rc = results_output_close(out, opt.dir) ? 2 : 0;
		}
	}
	recommend_release(&rec);
	free(study);
	sb_release(&err);
	store_close(&st);
	return rc;
}
