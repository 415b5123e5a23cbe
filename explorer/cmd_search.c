/*
 * cmd_search.c - flagscope search: the best flag set for a study's
 * workloads under a budget, every candidate built, verified, run and
 * validated through the real pipeline; then minimised, confirmed against
 * -O2 and -O3, and written as a make.conf fragment.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/verdict.h"
#include "analysis/why.h"
#include "base/outcome.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"
#include "search/confirm.h"
#include "search/minimise.h"
#include "search/output.h"
#include "search/pipeline.h"
#include "search/search.h"
#include "explorer/study_path.h"
#include "harness/machine.h"
#include "harness/meter_cachegrind.h"
#include "pipeline/parts.h"
#include "pipeline/pipeline.h"

static format_set search_formats(struct strbuf *err); /* writers[], below */

static struct {
	const char *space, *strategy, *budget, *metric, *db, *format, *output, *tolerance;
	int seed, jobs, batch, repeat, minimise_repeat, confirm_repeat, no_minimise, quiet, force;
} opt;

static const struct option_spec search_options[] = {
	{"space", 0, OPT_STRING, &opt.space, "FILE", "a space file restricting or extending the compiler's flags"},
	{"strategy", 's', OPT_STRING, &opt.strategy, "NAME", "ce, ga, random, exhaustive or ensemble (default ensemble)",
	 .def = "ensemble"},
	{"budget", 'b', OPT_STRING, &opt.budget, "N[evals|h|m|s]", "evaluations, or time spent measuring (default 100 evals)",
	 .def = "100"},
	{"metric", 'm', OPT_CHOICE, &opt.metric, "NAME", "objective (default insns when valgrind is installed, else time)", search_objective_names},
	{"seed", 0, OPT_INT, &opt.seed, "S", "random seed (default 1); the same seed replays the same search",
	 .def = "1"},
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database holding the search state (default ./flagscope.db)",
	 .def = "flagscope.db"},
	{"jobs", 'j', OPT_COUNT, &opt.jobs, "N", "builds and profiles at a time (default: the number of CPUs)"},
	{"batch", 0, OPT_COUNT, &opt.batch, "N", "most candidates evaluated together (default 8)",
	 .def = "8"},
	{"repeat", 'r', OPT_COUNT, &opt.repeat, "N", "measured runs per candidate with --metric time (default: the study's)"},
	{"tolerance", 't', OPT_STRING, &opt.tolerance, "PCT", "smallest change that counts: minimisation keeps a flag whose removal costs PCT% or more (time: and is significant) (default 0.5)",
	 .def = "0.5"},
	{"minimise-repeat", 0, OPT_COUNT, &opt.minimise_repeat, "N", "with --metric time: interleaved runs per flag set in each minimisation measurement (default 10)",
	 .def = "10"},
	{"no-minimise", 0, OPT_FLAG, &opt.no_minimise, NULL, "keep the best flag set as found"},
	{"confirm-repeat", 0, OPT_INT, &opt.confirm_repeat, "N", "interleaved runs confirming against -O2 and -O3 (default 10, 0: skip)",
	 .def = "10"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "what to print", NULL, search_formats,
	 .def = "text"},
	{"output", 'o', OPT_STRING, &opt.output, "FILE", "also write the make.conf fragment there"},
	{"quiet", 'q', OPT_FLAG, &opt.quiet, NULL, "no progress lines"},
	{"force", 0, OPT_FLAG, &opt.force, NULL, "start even when the study's isolate = yes finds the machine busy"},
	{NULL},
};

const struct command_spec search_cmd = {
	.name = "search",
	.usage = "STUDY [options]",
	.summary = "Search the compiler's optimisation flags for the set that makes the study's\n"
		   "workloads best (geometric mean of the metric relative to the study's baseline),\n"
		   "within a budget.  Every candidate goes through the real pipeline: built,\n"
		   "flags verified in the binaries, run, output checked against the baseline's;\n"
		   "a candidate that breaks any workload is rejected and its flags are reported\n"
		   "as unsafe.  The best set is minimised (every flag whose removal does not\n"
		   "significantly change the objective goes), confirmed against -O2 and -O3 with\n"
		   "interleaved runs, and printed as a make.conf fragment.",
	.details = "The space is what `CC -Q --help=optimizers -O<level>` lists at the baseline's\n"
		   "level (clang: a built-in list), minus flags that change the ABI; flags the\n"
		   "compiler rejects are probed once and remembered.  When it rejects or crashes\n"
		   "on a candidate of several flags, compiles alone find which to blame: they are\n"
		   "remembered and left out of every later candidate.  Search state lives in the\n"
		   "database: running the same search again resumes it, and no flag set is built\n"
		   "or run twice, across strategies and searches.  Minimisation with insns or\n"
		   "size compares single exact values (the metric is deterministic); with time it\n"
		   "measures the removals again, interleaved with the best set, and drops a flag\n"
		   "only when no workload is slower by Mann-Whitney (p < 0.05) and at least the\n"
		   "tolerance; with too few runs for any p below 0.05 (under 4 a side) it drops\n"
		   "nothing.  The confirmation's verdicts are report's on the same runs (the one\n"
		   "rule, doc/statistics.md; with this machine's calibrated floors where the\n"
		   "database holds them, as report takes them by default).  A study with\n"
		   "layouts = N (doc/layout.md) has the confirmation and the minimisation with\n"
		   "time build every flag set and the baseline N times, differing only in code\n"
		   "addresses, run each `repeat` times and judge with layout as a random effect,\n"
		   "as report does (N times the builds and runs of those steps); the exploration\n"
		   "stays one build per flag set.  Without ld.lld it says so once and uses one\n"
		   "layout.  The logs of the batches' builds\n"
		   "and runs are in DB.search/.  The study's pin = runs every measured program\n"
		   "on those CPUs, and isolate = yes refuses to start on a busy machine unless\n"
		   "--force, as flagscope run does.  SIGINT, SIGTERM and SIGHUP stop it as they\n"
		   "stop flagscope run (the batch in flight killed, everything measured kept).\n"
		   "Exit status: 0 done, 1 interrupted, 2 bad\n"
		   "input, a pin this process may not use, a busy machine, a pipeline that\n"
		   "cannot run, or results that could not be stored (a full disk, a read-only\n"
		   "or locked database: one line says which; run again to resume).",
	.opts = search_options,
};

static volatile sig_atomic_t stop;

/* The pipeline measuring a batch stops after its run in flight too. */
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	pipeline_interrupted = 1;
}

/* "100", "100evals", "2h", "30m", "90s" */
static int parse_budget(const char *s, size_t *evals, double *seconds)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v > 0))
		return -1;
	if (!*end || !strcmp(end, "evals") || !strcmp(end, "e")) {
		if (v != floor(v))
			return -1;
		*evals = (size_t)v;
	} else if (!strcmp(end, "h")) {
		*seconds = v * 3600;
	} else if (!strcmp(end, "m")) {
		*seconds = v * 60;
	} else if (!strcmp(end, "s")) {
		*seconds = v;
	} else {
		return -1;
	}
	return 0;
}

static void progress(void *user, size_t evals, const char *flags, const struct eval_result *r,
		     int cached, double best)
{
	const size_t *budget = user;
	if (opt.quiet || !*flags)
		return;
	char total[32] = "";
	if (*budget)
		snprintf(total, sizeof(total), "/%zu", *budget);
	if (r->status == OUTCOME_OK)
		fprintf(stderr, "flagscope: [eval %zu%s] %.4f%s (best %.4f): %s\n", evals, total,
			r->obj, cached ? " cached" : "", best, flags);
	else
		fprintf(stderr, "flagscope: [eval %zu%s] rejected, %s%s: %s: %s\n", evals, total,
			outcome_name(r->status), cached ? " (cached)" : "", flags, r->detail);
}

/* Probe every flag word of the space this toolchain has not been asked
 * about and remember the answers; then everything known bad, probed or
 * learned by earlier searches, to *bad. */
static void probe_space(struct evalcache *ec, struct space *sp, const char *tc_id,
			struct known_bad *bad)
{
	struct strlist probed = {0}, rejected = {0}, todo = {0}, said = {0};
	evalcache_probes_get(ec, tc_id, &probed, &rejected);
	for (size_t d = 0; d < sp->ndims; d++)
		for (unsigned v = 0; v < sp->dims[d].nvals; v++) {
			const char *w = sp->dims[d].vals[v];
			if (*w && sp->dims[d].kind != DIM_LEVEL && sl_find(&probed, w) < 0 &&
			    sl_find(&todo, w) < 0)
				sl_push(&todo, w);
		}
	if (todo.n && !opt.quiet)
		fprintf(stderr, "flagscope: asking %s about %zu flags (once per compiler)\n", sp->cc,
			todo.n);
	space_probe_flags(sp->cc, &todo, opt.jobs, &said);
	for (size_t i = 0; i < todo.n; i++) {
		const char *msg = "";
		size_t fl = strlen(todo.v[i]);
		for (size_t k = 0; k < said.n; k++)
			if (!strncmp(said.v[k], todo.v[i], fl) && !strncmp(said.v[k] + fl, ": ", 2))
				msg = said.v[k] + fl + 2;
		evalcache_probe_put(ec, tc_id, todo.v[i], msg);
		if (*msg)
			sl_push_owned(&rejected, xasprintf("%s: %s", todo.v[i], msg));
	}
	for (size_t i = 0; i < rejected.n; i++) {
		char *word = xstrndup(rejected.v[i], strcspn(rejected.v[i], ":"));
		const char *why = rejected.v[i] + strlen(word);
		known_bad_add(bad, word, str_starts_with(why, ": ") ? why + 2 : why);
		free(word);
	}
	sl_release(&probed);
	sl_release(&rejected);
	sl_release(&todo);
	sl_release(&said);
}

/* text: the report, then the make.conf fragment it leads to */
static void search_text(FILE *out, const struct search_report *rep)
{
	search_report_text(out, rep);
	fputc('\n', out);
	search_make_conf(out, rep);
}

static const struct search_writer {
	enum format format;
	void (*print)(FILE *out, const struct search_report *rep);
} writers[] = {
	{FORMAT_TEXT, search_text},
	{FORMAT_JSON, search_report_json},
	{FORMAT_MAKE_CONF, search_make_conf},
};

static format_set search_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("search formats", writers, err);
}

static int write_outputs(const struct search_report *rep)
{
	const struct search_writer *w = FORMAT_WRITER(writers, opt.format);
	if (w) /* the option parser took only writers' formats */
		w->print(stdout, rep);
	if (opt.output) {
		/* never over a results database (results_args.h) */
		FILE *f = results_output_open(opt.output);
		if (!f)
			return 2;
		search_make_conf(f, rep);
		return results_output_close(f, opt.output) ? 2 : 0;
	}
	return 0;
}

struct session {
	struct search_pipeline pl;
	struct evalcache ec;
	struct space sp;
	struct search_result res;
	struct confirmation conf;
	struct known_bad bad; /* grows when the pipeline learns */
	char id[17];
	unsigned char *minimal;
	char *minimal_flags;
	char *minimal_how;
	struct minimise_result min;
	struct unsafe_flag *unsafe;
	size_t nunsafe;
	char **trace;
	double *trace_obj;
	size_t ntrace;
};

static void session_release(struct session *s)
{
	search_result_release(&s->res);
	confirmation_release(&s->conf);
	free(s->minimal);
	free(s->minimal_flags);
	free(s->minimal_how);
	unsafe_flags_free(s->unsafe, s->nunsafe);
	for (size_t i = 0; i < s->ntrace; i++)
		free(s->trace[i]);
	free(s->trace);
	free(s->trace_obj);
	space_release(&s->sp);
	known_bad_release(&s->bad);
	evalcache_close(&s->ec);
	search_pipeline_release(&s->pl);
}

/* Known-bad flags this search masked rather than dropped (learned after
 * it began, or failing only together) are left out too: say so. */
static void note_masked(struct session *s)
{
	for (size_t e = 0; e < s->bad.flags.n; e++) {
		const char *f = s->bad.flags.v[e];
		size_t fl = strlen(f);
		int listed = 0;
		for (size_t i = 0; i < s->sp.dropped.n && !listed; i++)
			listed = !strncmp(s->sp.dropped.v[i], f, fl) && s->sp.dropped.v[i][fl] == ':';
		struct strlist w = {0};
		sl_split_ws(&w, f);
		int in_space = 1;
		for (size_t k = 0; k < w.n && in_space; k++) {
			unsigned char *pt = xcalloc(s->sp.ndims ? s->sp.ndims : 1, 1);
			in_space = !space_parse_point(&s->sp, w.v[k], pt);
			free(pt);
		}
		if (!listed && in_space)
			sl_push_owned(&s->sp.dropped,
				      xasprintf("%s: the compiler rejects or crashes on %s (left out of candidates): %s",
						f, w.n > 1 ? "them together" : "it", s->bad.why.v[e]));
		sl_release(&w);
	}
}

static int finish(struct session *s, const char *id, double tol, int have_confirm)
{
	note_masked(s);
	s->unsafe = search_unsafe_flags(&s->ec, &s->nunsafe);
	evalcache_trace_get(&s->ec, id, &s->trace, &s->trace_obj, &s->ntrace);
	/* an earlier session with a larger budget went further: not this one */
	for (; s->ntrace > s->res.evals; s->ntrace--)
		free(s->trace[s->ntrace - 1]);
	struct search_report rep = {
		.id = id, .strategy = opt.strategy, .seed = (uint64_t)opt.seed, .pl = &s->pl,
		.sp = &s->sp, .res = &s->res, .minimal_flags = s->minimal_flags,
		.minimal_obj = s->min.obj, .minimal_how = s->minimal_how,
		.minimal_vs_best = s->min.vs_best, .minimal_lo = s->min.lo, .minimal_hi = s->min.hi,
		.tolerance = tol,
		.confirm = have_confirm ? &s->conf : NULL, .unsafe = s->unsafe,
		.nunsafe = s->nunsafe, .trace_flags = s->trace, .trace_obj = s->trace_obj,
		.ntrace = s->ntrace,
	};
	return write_outputs(&rep);
}

/* Runs too few for Mann-Whitney to find anything at 0.05 (verdict.h):
 * said before measuring, as flagscope run says it of a study. */
static void say_power(const char *option, int runs, const char *what)
{
	if (runs > 0 && !verdict_can_be_significant((size_t)runs, (size_t)runs, 0.05))
		warn_msg("--%s %d: with %d runs a side no workload can be significant at 0.05, so %s "
			 "(it needs %zu runs a side: leave --%s out, default 10)",
			 option, runs, runs, what, verdict_min_runs(0.05), option);
}

/* " of each of 3 layout variants" when the verdicts build them, else "" */
static const char *layouts_words(const struct search_pipeline *pl)
{
	static char words[64];
	words[0] = 0;
	if (pl->layouts > 1)
		snprintf(words, sizeof(words), " of each of %d layout variants", pl->layouts);
	return words;
}

/* Deterministic metrics: one exact value per flag set says it all; time:
 * fresh interleaved measurements and a significance test (minimise.h). */
static int minimise(struct session *s, const struct evaluator *ev, double tol, struct strbuf *err)
{
	struct minimise_params mp = {.min_effect = tol, .alpha = 0.05,
				     .repeat = opt.minimise_repeat, .seed = (uint64_t)opt.seed};
	int noisy = s->pl.obj->noisy;
	s->minimal = xcalloc(s->sp.ndims ? s->sp.ndims : 1, 1);
	if (noisy)
		say_power("minimise-repeat", mp.repeat, "no removal can be judged and every flag stays");
	if (noisy && !opt.quiet)
		fprintf(stderr, "flagscope: minimising '%s': each removal measured again with %d interleaved runs against it%s\n",
			s->res.best_flags, mp.repeat, layouts_words(&s->pl));
	struct sampler sm = {.sample = search_pipeline_sample, .ctx = &s->pl};
	int rc = noisy ? search_minimise_noisy(&s->sp, &sm, s->res.best, &mp, s->minimal, &s->min, err)
		       : search_minimise_exact(&s->ec, &s->sp, ev, s->res.best, s->res.best_obj, &mp,
					       s->minimal, &s->min, err);
	if (rc)
		return -1;
	s->minimal_flags = space_render(&s->sp, s->minimal);
	if (noisy && s->pl.layouts > 1)
		s->minimal_how = xasprintf("no significant loss against the best set in %zu interleaved measurements of %d runs of each of %d layout variants: layout a random effect (Welch p >= 0.05 on the layouts' medians) or a change under %.2g%%; minimal/best %.4f [%.4f, %.4f]",
					   s->min.measurements, mp.repeat, s->pl.layouts, tol * 100,
					   s->min.vs_best, s->min.lo, s->min.hi);
	else if (noisy)
		s->minimal_how = xasprintf("no significant loss against the best set in %zu interleaved measurements of %d runs: Mann-Whitney p >= 0.05 or a change under %.2g%%; minimal/best %.4f [%.4f, %.4f]",
					   s->min.measurements, mp.repeat, tol * 100, s->min.vs_best,
					   s->min.lo, s->min.hi);
	else
		s->minimal_how = xasprintf("%s is deterministic: single exact values, within %.2g%% of the best set",
					   s->pl.metric, tol * 100);
	return 0;
}

static int run_search(struct session *s, const struct strategy_ops *strategy, size_t budget,
		      double seconds, double tol)
{
	struct strbuf err = {0};
	const char *id = s->id;
	struct evaluator ev = {.evaluate = search_pipeline_evaluate, .ctx = &s->pl};
	struct search_params p = {
		.strategy = strategy, .seed = (uint64_t)opt.seed, .budget = budget,
		.seconds = seconds, .batch = (size_t)opt.batch, .id = id, .bad = &s->bad,
		.stop = &stop, .progress = progress, .user = &budget,
	};
	if (!opt.quiet)
		fprintf(stderr, "flagscope: search %s: %s over %zu dimensions (2^%.1f flag sets), metric %s: %s\n",
			id, strategy->name, s->sp.ndims, space_log2_size(&s->sp), s->pl.metric,
			s->pl.obj->desc);
	int rc = 0, have_confirm = 0;
	if (search_run(&s->ec, &s->sp, &p, &ev, &s->res, &err)) {
		print_error_lines(sb_str(&err));
		rc = 2;
		goto out;
	}
	if (s->res.stopped) {
		error_msg("interrupted after %zu evaluations: everything measured is stored (run the same command again to resume)",
			  s->res.evals);
		rc = 1;
		goto out;
	}
	if (!opt.no_minimise && isfinite(s->res.best_obj) && *s->res.best_flags &&
	    minimise(s, &ev, tol, &err)) {
		print_error_lines(sb_str(&err));
		rc = stop ? 1 : 2;
		goto out;
	}
	if (opt.confirm_repeat > 0 && isfinite(s->res.best_obj)) {
		const char *flags = s->minimal_flags ? s->minimal_flags : s->res.best_flags;
		if (!opt.quiet)
			fprintf(stderr, "flagscope: confirming %s%s%s against -O2 and -O3 with %d interleaved runs%s\n",
				*flags ? "'" : "", *flags ? flags : "the baseline (no flag changed)",
				*flags ? "'" : "", opt.confirm_repeat, layouts_words(&s->pl));
		say_power("confirm-repeat", opt.confirm_repeat, "the confirmation can only say unchanged");
		if (search_confirm(&s->pl, flags, opt.confirm_repeat, &s->conf, &err)) {
			print_error_lines(sb_str(&err));
			rc = stop ? 1 : 2;
			goto out;
		}
		have_confirm = 1;
	}
	rc = finish(s, id, tol, have_confirm);
out:
	sb_release(&err);
	return rc;
}

int cmd_search(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct session s;
	memset(&s, 0, sizeof(s));
	opt.jobs = cpu_count();
	opt.repeat = -1;
	int rc = options_parse(&search_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	const struct strategy_ops *strategy = strategy_lookup(opt.strategy);
	size_t budget = 0;
	double seconds = 0, tol = strtod(opt.tolerance, NULL) / 100;
	rc = 2;
	if (pos.n != 1) {
		error_msg("search: name one study (see flagscope search --help)");
		goto out;
	}
	if (!strategy) {
		error_msg("search: unknown strategy '%s' (known: %s)", opt.strategy, strategy_names());
		goto out;
	}
	if (parse_budget(opt.budget, &budget, &seconds)) {
		error_msg("search: budget '%s' is not N, Nevals, Nh, Nm or Ns (e.g. --budget 200 or --budget 2h)",
			  opt.budget);
		goto out;
	}
	if (!(tol >= 0) || opt.batch < 1 || opt.jobs < 1 || opt.minimise_repeat < 2) {
		error_msg("search: --tolerance, --batch and --jobs must be positive numbers, --minimise-repeat at least 2");
		goto out;
	}
	if (opt.output && results_output_refused(opt.output)) /* say so before the search */
		goto out;
	if (!opt.metric) {
		char *vg = cachegrind_valgrind_path();
		opt.metric = vg ? "insns" : "time";
		free(vg);
	}
	char *path = NULL;
	if (study_path_resolve(pos.v[0], &path, &err)) {
		print_error_lines(sb_str(&err));
		goto out_path;
	}
	s.pl.db = opt.db;
	s.pl.study_path = path;
	s.pl.metric = opt.metric;
	s.pl.jobs = opt.jobs;
	s.pl.stop = &stop;
	s.pl.ec = &s.ec;
	if (search_pipeline_init(&s.pl, &err) ||
	    machine_study_check(&s.pl.study, "search", NULL, opt.force, &err) ||
	    evalcache_open(&s.ec, opt.db, s.pl.context, s.pl.context_text, &err)) {
		print_error_lines(sb_str(&err));
		goto out_path;
	}
	if (s.pl.layouts_note) /* once, even under --quiet: the verdicts are weaker */
		warn_msg("%s", s.pl.layouts_note);
	s.pl.repeat = opt.repeat > 0 ? opt.repeat : s.pl.study.repeat;
	s.pl.bad = &s.bad;
	/* the id is of the space as loaded: dropping a flag found bad later
	 * does not make the search another one (search.h) */
	if (space_load(&s.sp, s.pl.base->cc, s.pl.level, opt.space, NULL, &err)) {
		print_error_lines(sb_str(&err));
		goto out_path;
	}
	probe_space(&s.ec, &s.sp, pipeline_toolchain_id(s.pl.tc), &s.bad);
	search_make_id(s.pl.context, opt.strategy, (uint64_t)opt.seed, &s.sp, s.id);
	search_prepare_space(&s.ec, s.id, &s.sp, &s.bad);
	if (!s.sp.ndims) {
		error_msg("%s: every flag of the space was rejected by %s (check the space file)",
			  opt.space ? opt.space : path, s.sp.cc);
		goto out_path;
	}
	/* no SA_RESTART: the wait for a batch must see the signal */
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	rc = run_search(&s, strategy, budget, seconds, tol);
out_path:
	free(path);
	session_release(&s);
out:
	sl_release(&pos);
	sb_release(&err);
	return rc;
}
