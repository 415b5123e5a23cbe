/*
 * test_recipe_train.c - a recipe's training runs ([train], [train NAME],
 * train =) for profile-guided builds: which one is used, and every error
 * class with its recipe.ini:line message (a training run equal to a
 * measured run is refused).
 */
#include "workloads/recipe.h"
#include "tests/testlib.h"

#define HEAD "[workload]\ndescription = t\n%s[build]\nscript = true\nbinaries = w\n[run]\nargs = w 64\n"

struct train_case {
	const char *name;
	const char *workload_keys; /* lines in [workload] */
	const char *tail;          /* sections after [run] */
	const char *want;          /* NULL: loads, then train_args; else a substring of the error */
	int line;                  /* of the error (0: none) */
	const char *train_args;    /* the training run's args when it loads; NULL: none */
};

static const struct train_case cases[] = {
	{"no training run", "", "", NULL, 0, NULL},
	{"one [train]", "", "[train]\nargs = w 4\n", NULL, 0, "w 4"},
	{"the first by default", "", "[train small]\nargs = w 2\n[train big]\nargs = w 8\n", NULL, 0,
	 "w 2"},
	{"train = NAME", "train = big\n", "[train small]\nargs = w 2\n[train big]\nargs = w 8\n", NULL,
	 0, "w 8"},
	{"same args, another stdin", "", "[train]\nargs = w 64\nstdin = small.bin\n", NULL, 0, "w 64"},
	{"train = names nothing", "train = tiny\n", "[train]\nargs = w 4\n",
	 "train = tiny names no [train tiny] section", 3, NULL},
	{"identical to the measured run", "", "[train]\nargs = w   64\n",
	 "[train] runs what [run] measures (give the training run another, smaller input)", 9, NULL},
	{"no args", "", "[train]\ntimeout = 5\n", "[train] has no args", 9, NULL},
	{"a measuring key", "", "[train]\nargs = w 4\nexpect = x.out\n",
	 "unknown key 'expect' in a [train] section", 10, NULL},
};

static void check_case(const char *dir, const char *study, const struct train_case *c)
{
	char *head = xasprintf(HEAD, c->workload_keys);
	char *text = xasprintf("%s%s", head, c->tail);
	char *path = test_write(dir, "workloads/w/recipe.ini", text);
	struct recipe r;
	struct strbuf err = {0};
	int rc = recipe_load("w", study, &r, &err);
	if (!c->want) {
		const struct recipe_run *t = rc ? NULL : recipe_train_run(&r);
		T_CHECK(rc == 0, "%s: should load, got: %s", c->name, sb_str(&err));
		T_CHECK(c->train_args ? t && !strcmp(t->args, c->train_args) : !t,
			"%s: training run '%s', want '%s'", c->name, t ? t->args : "(none)",
			c->train_args ? c->train_args : "(none)");
		T_CHECK(r.nruns == 1, "%s: %zu measured runs, want 1", c->name, r.nruns);
	} else {
		char *where = c->line ? xasprintf("%s:%d: ", path, c->line) : xstrdup(path);
		T_CHECK(rc == -1 && strstr(sb_str(&err), c->want) &&
				str_starts_with(sb_str(&err), where) && !strchr(sb_str(&err), '\n'),
			"%s: message '%s', want '%s...%s'", c->name, sb_str(&err), where, c->want);
		free(where);
	}
	recipe_release(&r);
	sb_release(&err);
	free(path);
	free(text);
	free(head);
}

int main(void)
{
	char *dir = test_tmpdir("recipe_train");
	char *wdir = xasprintf("%s/workloads/w", dir);
	mkdir_p(wdir, 0755);
	char *study = test_write(dir, "t.study", "[study]\nworkloads = w\n");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		check_case(dir, study, &cases[i]);
	/* the fact the report stores */
	struct recipe_run t = {.name = "small", .args = "gzip -6", .stdin_file = "train.bin"};
	char *fact = recipe_run_fact("train", &t);
	T_CHECK(!strcmp(fact, "[train small] gzip -6 < train.bin"), "fact '%s'", fact);
	free(fact);
	free(study);
	free(wdir);
	free(dir);
	return test_summary("test_recipe_train");
}
