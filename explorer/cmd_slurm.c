/*
 * cmd_slurm.c - flagscope slurm: a study as a Slurm job array, one shard
 * (flagscope run --shard I/N) per array task into its own database, and a
 * merge job that waits for them (flagscope merge).
 *
 * Written into the job folder (--dir, default ./flagscope-slurm-NAME):
 *   NAME.array.sbatch   the array 0..N-1; task I writes shard-I.db, its log
 *                       shard-I.log, its builds' logs into logs/WORKLOAD/
 *                       LABEL.log (run --logs: a node's own build cache is
 *                       out of the merge job's reach) and, when flagscope
 *                       run ends, its exit status in shard-I.status
 *   NAME.merge.sbatch   needs every shard's status (a shard killed by its
 *                       time limit has none) and merges the shard databases
 *                       into the output database; merge --logs finds the
 *                       builds' logs in logs/ (or else in its build cache)
 *   submit.sh           sbatch the array, then the merge with
 *                       --dependency=afterany on it (--submit does this)
 * Every value in the scripts is one quoted shell word (sh_quote); the
 * values sbatch reads from #SBATCH lines are checked instead.  The study,
 * its recipes and --source are checked here as run checks them
 * (study_plan_init); the shards get the study's [sources] from its file
 * and every --source as the plan resolved it.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/study_path.h"
#include "flagsets/study.h"
#include "harness/runner_ssh.h"
#include "harness/study_names.h"
#include "pipeline/pipeline.h"

static struct {
	int shards, submit, cpus, by_package;
	const char *partition, *time, *dir, *db, *run_args;
	struct strlist sources; /* --source NAME=SPEC */
} opt;

static const struct option_spec slurm_options[] = {
	{"shards", 'n', OPT_INT, &opt.shards, "N", "how many shards (array tasks); required"},
	{"partition", 'p', OPT_STRING, &opt.partition, "P", "the Slurm partition (default: the cluster's)"},
	{"time", 't', OPT_STRING, &opt.time, "T", "time limit of each task, e.g. 2:00:00"},
	{"cpus", 'c', OPT_INT, &opt.cpus, "N", "CPUs per task, also the shard's build jobs (default 1)",
	 .def = "1"},
	{"dir", 'd', OPT_STRING, &opt.dir, "PATH",
	 "job folder for scripts, logs and shard databases (default ./flagscope-slurm-NAME)"},
	{"db", 0, OPT_STRING, &opt.db, "PATH", "the merged results database (default ./flagscope.db)"},
	{"run-args", 0, OPT_STRING, &opt.run_args, "\"ARGS\"",
	 "more options for every flagscope run, e.g. \"--repeat 10\""},
	{"source", 0, OPT_LIST, &opt.sources, "NAME=SPEC",
	 "build workload NAME from SPEC (or with NAME.EXTRA=SPEC its recipe's source.EXTRA) in every "
	 "shard, as flagscope run --source (checked here as run checks it; a relative local: path made "
	 "absolute); repeatable"},
	{"by-package", 0, OPT_FLAG, &opt.by_package, NULL,
	 "shard by whole workloads (run --shard-by package): each task builds every configuration of "
	 "its packages, so they share one source fetch and build-dependency install"},
	{"submit", 0, OPT_FLAG, &opt.submit, NULL, "submit both jobs with sbatch and print their ids"},
	{NULL},
};

const struct command_spec slurm_cmd = {
	.name = "slurm",
	.usage = "STUDY --shards N [--partition P] [--time T] [--submit] [options]",
	.summary = "Write the sbatch scripts that run a study on a Slurm cluster: a job array of\n"
		   "N tasks, task I running `flagscope run STUDY --shard I/N` into its own\n"
		   "database, and a merge job that starts when the array is done and joins\n"
		   "them with `flagscope merge`.  --submit submits them.",
	.details = "The job folder and the merged database should be on storage every node\n"
		   "shares; FLAGSCOPE_HOME, FLAGSCOPE_CACHE and XDG_CACHE_HOME are written into\n"
		   "the scripts as they are now.  Each task keeps its builds' logs in\n"
		   "DIR/logs/WORKLOAD/LABEL.log (run --logs), so a node's own build cache may\n"
		   "be local; the merge job (merge --logs) takes them from there, and\n"
		   "report --pivot sweep names the logs of what broke.  --by-package (a sweep of\n"
		   "Debian packages) gives each task whole workloads, workload k to task k\n"
		   "mod N in study order, listed in the array script; a task killed\n"
		   "mid-package (even with SIGKILL) resumes at that package when run again.\n"
		   "Exit status: 0 written (and submitted),\n"
		   "2 bad input, 1 sbatch refused a job.",
	.opts = slurm_options,
};

/* Values sbatch reads itself from #SBATCH lines: no blanks, no newlines. */
static int sbatch_value_ok(const char *v)
{
	if (!*v)
		return 0;
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_.,:+=/", *p))
			return 0;
	return 1;
}

/* Paths on #SBATCH lines: sbatch splits at blanks and expands %. */
static int sbatch_path_ok(const char *v)
{
	for (const char *p = v; *p; p++)
		if (isspace((unsigned char)*p) || iscntrl((unsigned char)*p) || strchr("%\"'\\", *p))
			return 0;
	return 1;
}

static char *absolute(const char *path)
{
	char buf[PATH_MAX];
	if (path[0] == '/')
		return xstrdup(path);
	if (!getcwd(buf, sizeof(buf)))
		return xstrdup(path);
	return xasprintf("%s/%s", buf, path);
}

static void quoted_line(struct strbuf *sb, const char *before, const char *word, const char *after)
{
	sb_add(sb, before);
	sh_quote(sb, word);
	sb_add(sb, after);
}

static void write_header(struct strbuf *sb, const char *job, const char *log, const char *study)
{
	sb_addf(sb, "#!/bin/sh\n# written by flagscope slurm for the study %s\n", study);
	sb_addf(sb, "#SBATCH --job-name=%s\n#SBATCH --output=%s\n", job, log);
	if (opt.partition)
		sb_addf(sb, "#SBATCH --partition=%s\n", opt.partition);
	if (opt.time)
		sb_addf(sb, "#SBATCH --time=%s\n", opt.time);
}

static void write_env(struct strbuf *sb)
{
	const char *const vars[] = {"FLAGSCOPE_HOME", "FLAGSCOPE_CACHE", "XDG_CACHE_HOME"};
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
		if (getenv(vars[i])) {
			sb_addf(sb, "export %s=", vars[i]);
			sh_quote(sb, getenv(vars[i]));
			sb_addc(sb, '\n');
		}
}

static int write_script(const char *path, const struct strbuf *sb)
{
	if (file_write(path, sb->buf, sb->len) || chmod(path, 0755)) {
		error_msg("%s: cannot write it (check the job folder is writable)", path);
		return -1;
	}
	return 0;
}

struct job {
	char *self, *study_path, *dir, *db, *array, *merge, *submit, *name;
	struct strlist packages; /* --by-package: per task its workloads, "a b" */
	struct strlist sources; /* NAME=SPEC for every shard, SPEC as run resolved it */
};

static int write_scripts(const struct job *j)
{
	struct strbuf a = {0}, m = {0}, s = {0};
	char *log = xasprintf("%s/shard-%%a.log", j->dir);
	char *job = xasprintf("flagscope-%s", j->name);
	write_header(&a, job, log, j->name);
	sb_addf(&a, "#SBATCH --array=0-%d\n#SBATCH --cpus-per-task=%d\n", opt.shards - 1, opt.cpus);
	for (size_t i = 0; i < j->packages.n; i++)
		sb_addf(&a, "# task %zu: %s\n", i, j->packages.v[i]);
	write_env(&a);
	sb_add(&a, "i=$SLURM_ARRAY_TASK_ID\n");
	quoted_line(&a, "dir=", j->dir, "\n");
	quoted_line(&a, "", j->self, " run ");
	sh_quote(&a, j->study_path);
	sb_addf(&a, " --shard \"$i/%d\"%s --db \"$dir/shard-$i.db\" --logs \"$dir/logs\" -j %d -q",
		opt.shards,
		opt.by_package ? " --shard-by package" : "", opt.cpus);
	for (size_t i = 0; i < j->sources.n; i++) {
		sb_add(&a, " --source ");
		sh_quote(&a, j->sources.v[i]);
	}
	if (opt.run_args) {
		struct strlist words = {0};
		sl_split_ws(&words, opt.run_args);
		for (size_t i = 0; i < words.n; i++) {
			sb_addc(&a, ' ');
			sh_quote(&a, words.v[i]);
		}
		sl_release(&words);
	}
	sb_add(&a, " && rc=0 || rc=$?\necho \"$rc\" >\"$dir/shard-$i.status\"\nexit \"$rc\"\n");

	free(log);
	log = xasprintf("%s/merge.log", j->dir);
	char *mjob = xasprintf("%s-merge", job);
	write_header(&m, mjob, log, j->name);
	write_env(&m);
	quoted_line(&m, "dir=", j->dir, "\nmissing=0\n");
	sb_addf(&m, "i=0\nwhile [ $i -lt %d ]; do\n", opt.shards);
	sb_add(&m, "\tif [ ! -f \"$dir/shard-$i.status\" ] || [ ! -f \"$dir/shard-$i.db\" ]; then\n"
		   "\t\techo \"flagscope: shard $i did not finish (see $dir/shard-$i.log)\" >&2\n"
		   "\t\tmissing=1\n"
		   "\telif [ \"$(cat \"$dir/shard-$i.status\")\" = 2 ]; then\n"
		   "\t\techo \"flagscope: shard $i refused its input (see $dir/shard-$i.log)\" >&2\n"
		   "\t\tmissing=1\n\tfi\n\ti=$((i + 1))\ndone\n[ $missing = 0 ] || exit 1\n");
	quoted_line(&m, "exec ", j->self, " merge --logs \"$dir/logs\" ");
	sh_quote(&m, j->db);
	for (int i = 0; i < opt.shards; i++)
		sb_addf(&m, " \"$dir/shard-%d.db\"", i);
	sb_addc(&m, '\n');

	sb_add(&s, "#!/bin/sh\n# submit the shards, then the merge once they are done\nset -e\n");
	quoted_line(&s, "jid=$(sbatch --parsable ", j->array, ")\n");
	quoted_line(&s, "sbatch --parsable --dependency=\"afterany:${jid%%;*}\" ", j->merge, "\n");

	int rc = write_script(j->array, &a) || write_script(j->merge, &m) ||
		 write_script(j->submit, &s);
	free(log);
	free(job);
	free(mjob);
	sb_release(&a);
	sb_release(&m);
	sb_release(&s);
	return rc ? -1 : 0;
}

static int submit(const struct job *j)
{
	char *out = NULL;
	char *array[] = {"sbatch", "--parsable", j->array, NULL};
	int rc = run_capture(array, &out);
	if (rc) {
		error_msg("sbatch %s: %s (is Slurm reachable from here?)", j->array,
			  out && *out ? str_trim(out) : rc < 0 ? "cannot run sbatch" : "refused");
		free(out);
		return 1;
	}
	char *id = str_trim(out);
	id[strcspn(id, ";\n")] = '\0';
	char *dep = xasprintf("--dependency=afterany:%s", id);
	char *merge[] = {"sbatch", "--parsable", dep, j->merge, NULL};
	char *out2 = NULL;
	rc = run_capture(merge, &out2);
	if (rc)
		error_msg("sbatch %s: %s", j->merge, out2 && *out2 ? str_trim(out2) : "refused");
	else
		printf("submitted: array job %s (%d shards), merge job %s into %s\n", id, opt.shards,
		       str_trim(out2), j->db);
	free(dep);
	free(out);
	free(out2);
	return rc ? 1 : 0;
}

/* --by-package: task i's workloads, as run --shard-by package picks
 * them (pipeline.h); -1 after saying so when a task would have none */
static int package_shards(const struct study_plan *p, struct strlist *out)
{
	if ((size_t)opt.shards > p->nworkloads) {
		error_msg("slurm: --by-package with %d shards but %zu workloads: a task would have "
			  "none (give --shards %zu or fewer)", opt.shards, p->nworkloads,
			  p->nworkloads);
		return -1;
	}
	for (int i = 0; i < opt.shards; i++) {
		struct strlist mine = {0};
		for (size_t w = (size_t)i; w < p->nworkloads; w += (size_t)opt.shards)
			sl_push(&mine, p->workloads[w].recipe.name);
		sl_push_owned(out, sl_join(&mine, " "));
		sl_release(&mine);
	}
	return 0;
}

/* The source --source NAME overrode in r, as the plan resolved it: its
 * main source when NAME is r's name, with extra set its source.EXTRA when
 * NAME is r.EXTRA; NULL when NAME is neither. */
static const char *resolved_source(const struct recipe *r, const char *name, size_t len,
				   int extra)
{
	size_t n = strlen(r->name);
	if (!extra)
		return n == len && !strncmp(r->name, name, len) ? r->source : NULL;
	if (n >= len || strncmp(r->name, name, n) || name[n] != '.')
		return NULL;
	for (size_t i = 0; i < r->nextra; i++)
		if (strlen(r->extra[i].name) == len - n - 1 &&
		    !strncmp(r->extra[i].name, name + n + 1, len - n - 1))
			return r->extra[i].spec;
	return NULL;
}

/* --source NAME=SPEC as the plan resolved it (a relative local: path is
 * the current folder's, which a shard's may not be) */
static void shard_sources(const struct study_plan *p, struct strlist *out)
{
	for (size_t i = 0; i < opt.sources.n; i++) {
		const char *arg = opt.sources.v[i];
		size_t len = strcspn(arg, "=");
		const char *spec = NULL;
		/* a workload whose own name has a dot is taken whole first, as
		 * run takes it */
		for (int extra = 0; extra < 2 && !spec; extra++)
			for (size_t w = 0; w < p->nworkloads && !spec; w++)
				spec = resolved_source(&p->workloads[w].recipe, arg, len, extra);
		if (spec)
			sl_push_owned(out, xasprintf("%.*s=%s", (int)len, arg, spec));
	}
}

int cmd_slurm(int argc, char **argv)
{
	struct strlist pos = {0};
	int rc = options_parse(&slurm_cmd, argc, argv, &pos);
	if (rc) {
		sl_release(&opt.sources);
		return rc > 0 ? 0 : 2;
	}
	rc = 2;
	struct study study = {0};
	struct strbuf err = {0};
	struct job j = {0};
	struct study_plan plan = {0};
	if (pos.n != 1 || opt.shards < 1 || opt.cpus < 1) {
		error_msg("slurm: give one STUDY, --shards N of at least 1 and --cpus of at least 1 "
			  "(see flagscope slurm --help)");
		goto out;
	}
	if ((opt.partition && !sbatch_value_ok(opt.partition)) ||
	    (opt.time && !sbatch_value_ok(opt.time))) {
		error_msg("slurm: --partition and --time take letters, digits and - _ . , : + = / "
			  "only (as sbatch reads them)");
		goto out;
	}
	char *path = NULL;
	if (study_path_resolve(pos.v[0], &path, &err)) {
		print_error_lines(sb_str(&err));
		goto out;
	}
	j.study_path = absolute(path);
	free(path);
	/* what run checks before it builds (the study, its recipes and the
	 * --source arguments): a shard should not be the first to find out */
	if (study_load(j.study_path, &study, &err) ||
	    study_plan_init(&plan, &study, &opt.sources, &err)) {
		print_error_lines(sb_str(&err));
		goto out;
	}
	shard_sources(&plan, &j.sources);
	if (opt.by_package && package_shards(&plan, &j.packages))
		goto out;
	/* a job name sbatch takes whatever the study is called */
	j.name = xstrdup(plan.study.name);
	for (char *p = j.name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '-';
	char *self = realpath("/proc/self/exe", NULL);
	j.self = self ? self : xstrdup("flagscope");
	char *dir = opt.dir ? xstrdup(opt.dir) : xasprintf("flagscope-slurm-%s", j.name);
	j.dir = absolute(dir);
	free(dir);
	j.db = absolute(opt.db ? opt.db : "flagscope.db");
	j.array = xasprintf("%s/%s.array.sbatch", j.dir, j.name);
	j.merge = xasprintf("%s/%s.merge.sbatch", j.dir, j.name);
	j.submit = xasprintf("%s/submit.sh", j.dir);
	if (!sbatch_path_ok(j.dir)) {
		error_msg("%s: sbatch cannot take this job folder (no blanks, quotes or %% in it; "
			  "choose another with --dir)",
			  j.dir);
		goto out;
	}
	if (mkdir_p(j.dir, 0755)) {
		error_msg("%s: cannot make the job folder (check the path)", j.dir);
		goto out;
	}
	if (write_scripts(&j))
		goto out;
	printf("wrote %s\n      %s\n      %s\n", j.array, j.merge, j.submit);
	rc = opt.submit ? submit(&j) : 0;
out:
	study_release(&study);
	study_plan_release(&plan);
	sl_release(&opt.sources);
	sl_release(&j.sources);
	sl_release(&j.packages);
	sb_release(&err);
	free(j.self);
	free(j.study_path);
	free(j.dir);
	free(j.db);
	free(j.array);
	free(j.merge);
	free(j.submit);
	free(j.name);
	sl_release(&pos);
	return rc;
}
