/*
 * cmd_merge.c - flagscope merge: the databases of one study's shards
 * (flagscope run --shard I/N, flagscope slurm) joined into one.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/merge.h"
#include "analysis/pivot_sweep.h"
#include "analysis/results.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "harness/build.h"
#include "harness/machine.h"
#include "pipeline/build_logs.h"

static struct {
	int quiet, mixed;
	const char *logs;
} opt;

static const struct option_spec merge_options[] = {
	{"quiet", 'q', OPT_FLAG, &opt.quiet, NULL, "no line per database"},
	{"allow-mixed-machines", 0, OPT_FLAG, &opt.mixed, NULL,
	 "merge shards measured on machines that differ (CPU, cores, kernel, ...)"},
	{"logs", 0, OPT_STRING, &opt.logs, "DIR",
	 "copy every merged build's log to DIR/WORKLOAD/LABEL.log, from the folder its shard kept it "
	 "in (run --logs, as flagscope slurm's shards do) or else from this machine's build cache, "
	 "and record DIR in OUT.db (report --pivot sweep names the logs of what broke)"},
	{NULL},
};

const struct command_spec merge_cmd = {
	.name = "merge",
	.usage = "[--logs DIR] OUT.db IN.db...",
	.summary = "Join the results databases of one study's shards into OUT.db (made when\n"
		   "missing; when it exists, its rows count as merged first).  Rows it lacks are\n"
		   "added, identical rows are skipped, and a row that another database has with\n"
		   "other values (same configuration, workload, run, repetition and metric, a\n"
		   "different value) is a conflict: the first is kept and the conflict reported.",
	.details = "Refused before anything is written: databases of different studies (all\n"
		   "must hold the same studies with the same configurations); shards measured\n"
		   "on machines that differ in CPU model, cores, frequency governor, boost,\n"
		   "kernel or virtualisation (their ratios would compare machines), unless\n"
		   "--allow-mixed-machines; a database with a table flagscope does not make, a\n"
		   "view or a trigger (merge copies rows into its own schema and never runs a\n"
		   "database's schema text).  Exit status: 0 merged, 1 merged with conflicts,\n"
		   "2 bad input or refused.",
	.opts = merge_options,
};

/* The folders the databases' shards kept their build logs in (run
 * --logs; the fact build_logs): every input's, and the output's own last */
static void log_folders(const struct strlist *dbs, struct strlist *from)
{
	struct strbuf err = {0};
	for (size_t i = 1; i <= dbs->n; i++) {
		const char *db = dbs->v[i < dbs->n ? i : 0]; /* pos.v[0] is the output */
		if (merge_fact_values(db, BUILD_LOGS_FACT, from, &err))
			sb_release(&err); /* read a moment ago by the merge: not missing */
	}
	sb_release(&err);
}

/* --logs: every build's log of the merged database, from the shards' log
 * folders first, this machine's build cache after, and DIR recorded as
 * each study's fact build_logs.  0, or -1 after saying what failed. */
static int copy_logs(struct store *st, const char *dir, const struct strlist *dbs)
{
	struct build_logs_count n = {0};
	struct strlist from = {0};
	size_t nb;
	int rc = 0;
	if (mkdir_p(dir, 0755)) {
		error_msg("%s: cannot make the log folder (check --logs)", dir);
		return -1;
	}
	log_folders(dbs, &from);
	struct store_build_ref *b = store_builds_keyed(st, &nb);
	char *abs = realpath(dir, NULL);
	for (size_t i = 0; i < nb && !rc; i++)
		rc = build_log_keep(dir, b[i].workload, b[i].label, b[i].key, &from, &n) ||
				     store_put_fact(st, b[i].study, BUILD_LOGS_FACT, abs ? abs : dir)
			     ? -1
			     : 0;
	if (!rc) {
		char *said = build_logs_summary(dir, &n);
		puts(said);
		free(said);
	}
	store_build_refs_free(b, nb);
	sl_release(&from);
	free(abs);
	return rc;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void describe(const char *sig, struct strbuf *out)
{
	if (!*sig) {
		sb_add(out, "no study");
		return;
	}
	char *copy = xstrdup(sig);
	int first = 1;
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strrchr(l, ':');
		size_t ids = 0;
		for (char *p = colon; p && *p; p++)
			ids += *p == ' ';
		sb_addf(out, "%sstudy '%.*s' (%zu configuration%s)", first ? "" : ", ",
			(int)(colon - l - 6), l + 6, ids, ids == 1 ? "" : "s");
		first = 0;
	}
	free(copy);
}

/* Every input against the output's studies (or the first input's when the
 * output has none yet), before anything is written. */
static int check_inputs(const char *out, const struct strlist *ins)
{
	struct strbuf ref = {0}, err = {0};
	const char *ref_name = NULL;
	int rc = 0;
	if (file_exists(out)) {
		if (merge_signature(out, &ref, &err)) {
			error_msg("%s", sb_str(&err));
			rc = 2;
		}
		ref_name = out;
	}
	for (size_t i = 1; i < ins->n && !rc; i++) {
		struct strbuf sig = {0};
		if (same_file(ins->v[i], out)) {
			error_msg("%s: is the output itself (name another OUT.db)", ins->v[i]);
			rc = 2;
		} else if (merge_signature(ins->v[i], &sig, &err) ||
			   results_shard_unfinished(ins->v[i], &err)) {
			error_msg("%s", sb_str(&err));
			rc = 2;
		} else if (!ref_name || !ref.len) {
			sb_release(&ref);
			ref = sig;
			sig = (struct strbuf){0};
			ref_name = ins->v[i];
		} else if (strcmp(sig.buf ? sig.buf : "", ref.buf)) {
			struct strbuf a = {0}, b = {0};
			describe(sb_str(&sig), &a);
			describe(sb_str(&ref), &b);
			error_msg("%s: holds %s, not the %s of %s (merge the shards of one study only)",
				  ins->v[i], a.buf, b.buf, ref_name);
			sb_release(&a);
			sb_release(&b);
			rc = 2;
		}
		sb_release(&sig);
	}
	sb_release(&ref);
	sb_release(&err);
	return rc;
}

/* The machine facts that say which machine measured (harness/machine.h);
 * the load and the times differ between any two runs */
static const enum machine_key identity_keys[] = {
	MACHINE_CPU, MACHINE_CORES, MACHINE_GOVERNOR, MACHINE_BOOST, MACHINE_KERNEL, MACHINE_VM,
};

static int identity_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(identity_keys); i++)
		if (!strcmp(key, machine_key_names[identity_keys[i]]))
			return 1;
	return 0;
}

/* The first identity fact of a study that b has with another value than
 * a, as "KEY 'A' in a, 'B' in b" (heap), or NULL when they agree */
static char *machine_difference(const struct strlist *a, const struct strlist *b)
{
	for (size_t i = 0; i < b->n; i++) {
		const char *tab = strchr(b->v[i], '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
		if (!tab2)
			continue;
		char *key = xstrndup(tab + 1, (size_t)(tab2 - tab - 1));
		size_t prefix = (size_t)(tab2 - b->v[i]) + 1;
		char *found = NULL;
		for (size_t k = 0; k < a->n && !found && identity_key(key); k++)
			if (!strncmp(a->v[k], b->v[i], prefix) && strcmp(a->v[k] + prefix, tab2 + 1))
				found = xasprintf("%s '%s' there, '%s' here", key, a->v[k] + prefix,
						  tab2 + 1);
		free(key);
		if (found)
			return found;
	}
	return NULL;
}

/* Every database's machine against the first one's (the output's when it
 * exists): 0, or 2 after saying which differs (1 with
 * --allow-mixed-machines: said as a warning, merged) */
static int check_machines(const struct strlist *dbs, size_t from)
{
	struct strlist first = {0};
	struct strbuf err = {0};
	const char *first_name = NULL;
	int rc = 0;
	for (size_t i = from; i < dbs->n && rc != 2; i++) {
		struct strlist rows = {0};
		if (merge_machine(dbs->v[i], &rows, &err)) {
			error_msg("%s", sb_str(&err));
			rc = 2;
		} else if (!first.n) {
			sl_release(&first);
			first = rows;
			rows = (struct strlist){0};
			first_name = dbs->v[i];
		} else {
			char *d = machine_difference(&first, &rows);
			if (d && opt.mixed)
				warn_msg("%s: measured on another machine than %s: %s (merged: "
					 "--allow-mixed-machines)",
					 dbs->v[i], first_name, d);
			else if (d)
				error_msg("%s: measured on another machine than %s: %s (merge the "
					  "shards of one machine, or pass --allow-mixed-machines)",
					  dbs->v[i], first_name, d);
			rc = d && !opt.mixed ? 2 : rc;
			free(d);
		}
		sl_release(&rows);
	}
	sl_release(&first);
	sb_release(&err);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	struct strlist pos = {0};
	int rc = options_parse(&merge_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (pos.n < 2) {
		error_msg("merge: give OUT.db and at least one IN.db (see flagscope merge --help)");
		sl_release(&pos);
		return 2;
	}
	/* pos.v[0] is the output; check_inputs reads pos.v[1..] */
	if ((rc = check_inputs(pos.v[0], &pos)) ||
	    (rc = check_machines(&pos, file_exists(pos.v[0]) ? 0 : 1))) {
		sl_release(&pos);
		return rc;
	}
	struct store st;
	struct strbuf err = {0};
	struct merge_report total = {0};
	if (store_open(&st, pos.v[0], 1, &err) || store_lock(&st, &err)) {
		error_msg("%s", sb_str(&err));
		store_close(&st);
		sb_release(&err);
		sl_release(&pos);
		return 2;
	}
	for (size_t i = 1; i < pos.n && !rc; i++) {
		struct merge_report one = {0};
		if (merge_database(&st, pos.v[i], &one, &err)) {
			error_msg("%s", sb_str(&err));
			rc = 2;
		} else if (!opt.quiet) {
			printf("%s: %ld rows added, %ld duplicates skipped, %ld conflicts\n", pos.v[i],
			       one.added, one.duplicates, one.conflicts);
		}
		total.added += one.added;
		total.duplicates += one.duplicates;
		total.conflicts += one.conflicts;
		for (size_t k = 0; k < one.lines.n; k++)
			warn_msg("%s: conflict: %s", pos.v[i], one.lines.v[k]);
		if (one.conflicts > (long)one.lines.n)
			warn_msg("%s: %ld more conflicts not shown", pos.v[i],
				 one.conflicts - (long)one.lines.n);
		merge_report_release(&one);
	}
	if (!rc) {
		printf("%s: %zu databases merged: %ld rows added, %ld duplicates, %ld conflicts%s\n",
		       pos.v[0], pos.n - 1, total.added, total.duplicates, total.conflicts,
		       total.conflicts ? " (the first value of each kept)" : "");
		rc = total.conflicts ? 1 : 0;
	}
	if (rc != 2 && opt.logs && copy_logs(&st, opt.logs, &pos))
		rc = 2;
	store_close(&st);
	sb_release(&err);
	sl_release(&pos);
	return rc;
}
