/*
 * test_matrix.c - expansion: every combination minus the excluded ones,
 * flags in axis order, the baseline, stable ids.
 */
#include "flagsets/matrix.h"
#include "tests/testlib.h"

static int load(const char *dir, const char *text, struct study *s, struct matrix *m,
		struct strbuf *err)
{
	char *path = test_write(dir, "m.study", text);
	int rc = study_load(path, s, err);
	free(path);
	if (rc)
		return rc;
	return matrix_expand(s, m, err);
}

/* config_label_find: levels in any order, as baseline = names them */
struct match_case {
	const char *want;
	int index;	  /* -1: refused */
	const char *why; /* a substring of the refusal */
};

static const char *const match_labels[] = {"gcc O2 static", "gcc O3 static", "gcc12 O2 static",
					   "gcc O2 dynamic"};

static const struct match_case match_cases[] = {
	{"gcc12", 2, NULL},
	{"O2 gcc12", 2, NULL},
	{"static O2 gcc12", 2, NULL},
	{"gcc O2 dynamic", 3, NULL},
	{"dynamic", 3, NULL},
	{"O3", 1, NULL},
	{"O2", -1, "'O2' matches 3 configurations: 'gcc O2 static', 'gcc12 O2 static', 'gcc O2 dynamic'"},
	{"gcc static", -1, "name one more of its levels"},
	{"clang", -1, "no configuration has the level 'clang' (its configurations: 'gcc O2 static'"},
	{"gcc12 O3", -1, "no configuration has the levels 'gcc12 O3'"},
	{"gcc1", -1, "no configuration has the level 'gcc1'"},
};

static void check_label_match(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];
		struct strbuf err = {0};
		int got = config_label_find(match_labels, ARRAY_SIZE(match_labels), c->want, &err);
		T_CHECK(got == c->index, "'%s': index %d, want %d (%s)", c->want, got, c->index,
			sb_str(&err));
		T_CHECK(c->why ? strstr(sb_str(&err), c->why) != NULL : !err.len,
			"'%s': message '%s', want '%s'", c->want, sb_str(&err), c->why ? c->why : "");
		sb_release(&err);
	}
	/* an exact label is the only match, though its words are in another too */
	const char *const spaced[] = {"gcc 12", "gcc 12 lto"};
	struct strbuf err = {0};
	T_CHECK(config_label_find(spaced, 2, "gcc 12", &err) == 0, "exact label: %s", sb_str(&err));
	sb_release(&err);
}

int main(void)
{
	char *dir = test_tmpdir("matrix");
	struct study s;
	struct matrix m;
	struct strbuf err = {0};
	int rc = load(dir,
		      "[study]\nworkloads = crc32\nbaseline = O2 gcc\n[axis cc]\ngcc = gcc\nclang = clang\n"
		      "[axis opt]\nO2 = -O2\nO3 = -O3 -funroll-loops\n[axis link]\nstatic =\ndynamic =\n"
		      "[exclude]\nno = clang O3 static\n",
		      &s, &m, &err);
	T_CHECK(rc == 0, "%s", sb_str(&err));
	T_CHECK(m.n == 7 && m.excluded == 1, "n=%zu excluded=%zu", m.n, m.excluded);
	T_CHECK(m.baseline >= 0 && !strcmp(m.configs[m.baseline].label, "gcc O2 static"),
		"baseline %s", m.baseline >= 0 ? m.configs[m.baseline].label : "none");
	int saw_excluded = 0, ids_differ = 1;
	for (size_t i = 0; i < m.n; i++) {
		if (!strcmp(m.configs[i].label, "clang O3 static"))
			saw_excluded = 1;
		for (size_t j = i + 1; j < m.n; j++)
			if (!strcmp(m.configs[i].id, m.configs[j].id))
				ids_differ = 0;
	}
	T_CHECK(!saw_excluded, "the excluded combination is in the matrix");
	T_CHECK(ids_differ, "two configurations share an id");
	/* the odometer turns the last axis fastest; labels and flags in axis order */
	T_CHECK(!strcmp(m.configs[0].label, "gcc O2 static") &&
			!strcmp(m.configs[1].label, "gcc O2 dynamic"),
		"order %s, %s", m.configs[0].label, m.configs[1].label);
	T_CHECK(!strcmp(m.configs[2].cflags, "-O3 -funroll-loops"), "cflags '%s'",
		m.configs[2].cflags);
	T_CHECK(m.configs[0].link == 1 && !strcmp(m.configs[0].ldflags, "-static"),
		"static ldflags '%s'", m.configs[0].ldflags);
	T_CHECK(m.configs[1].link == 0 && !strcmp(m.configs[1].ldflags, ""), "dynamic ldflags '%s'",
		m.configs[1].ldflags);
	T_CHECK(!strcmp(m.configs[0].cc, "gcc") && !strcmp(m.configs[6].cc, "clang"), "cc");
	/* ids depend on what is built, not on level names */
	struct config c = {.cc = "gcc", .cflags = "-O2", .ldflags = "-static", .link = 1};
	config_compute_id(&c);
	T_CHECK(!strcmp(c.id, m.configs[0].id), "id of the same build differs");
	c.cflags = "-O2 ";
	config_compute_id(&c);
	T_CHECK(strcmp(c.id, m.configs[0].id), "id ignores cflags");
	matrix_release(&m);
	study_release(&s);

	/* the baseline may not be excluded */
	rc = load(dir, "[study]\nworkloads = crc32\nbaseline = O2\n[axis opt]\nO2 = -O2\nO3 = -O3\n"
		       "[exclude]\nx = O2\n",
		  &s, &m, &err);
	T_CHECK(rc == -1 && strstr(sb_str(&err), "baseline configuration (O2) is excluded by [exclude] rule 'x'"), "%s",
		sb_str(&err));
	study_release(&s);
	sb_release(&err);

	/* ... nor the implicit one (first levels), said at the rule's line */
	rc = load(dir, "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\nO3 = -O3\n"
		       "[exclude]\nno-o2 = O2\n",
		  &s, &m, &err);
	T_CHECK(rc == -1 && strstr(sb_str(&err), ".study:7: the baseline configuration (O2) is excluded by [exclude] rule 'no-o2'"),
		"%s", sb_str(&err));
	study_release(&s);
	sb_release(&err);

	/* two levels that build the same are refused */
	rc = load(dir, "[study]\nworkloads = crc32\n[axis opt]\nA = -O2\nB = -O2\n", &s, &m, &err);
	T_CHECK(rc == -1 && strstr(sb_str(&err), "same compiler and flags"), "%s", sb_str(&err));
	study_release(&s);
	sb_release(&err);

	/* the baseline by levels in any order, unnamed axes at their first level */
	rc = load(dir, "[study]\nworkloads = crc32\nbaseline = static gcc12\n[axis cc]\ngcc = gcc\n"
		       "gcc12 = gcc-12\n[axis opt]\nO2 = -O2\nO3 = -O3\n[axis link]\ndynamic =\n"
		       "static =\n",
		  &s, &m, &err);
	T_CHECK(rc == 0 && m.baseline >= 0 && !strcmp(m.configs[m.baseline].label, "gcc12 O2 static") &&
			m.configs[m.baseline].is_baseline,
		"baseline %s (%s)", m.baseline >= 0 ? m.configs[m.baseline].label : "none",
		sb_str(&err));
	matrix_release(&m);
	study_release(&s);
	check_label_match();

	/* pgo: gen-use is its own build (its own id), none keeps the id a
	 * study without the axis has; neither adds flags */
	rc = load(dir, "[study]\nworkloads = crc32\n[axis opt]\nO2 = -O2\n[axis pgo]\nnone =\ngen-use =\n",
		  &s, &m, &err);
	struct config plain = {.cc = "gcc", .cflags = "-O2", .ldflags = "", .link = -1};
	config_compute_id(&plain);
	T_CHECK(rc == 0 && m.n == 2 && !m.configs[0].pgo && m.configs[1].pgo &&
			!strcmp(m.configs[1].label, "O2 gen-use") && !strcmp(m.configs[1].cflags, "-O2") &&
			!strcmp(m.configs[0].id, plain.id) && strcmp(m.configs[1].id, plain.id),
		"pgo: %s", sb_str(&err));
	matrix_release(&m);
	study_release(&s);

	/* no axes: one default configuration, which is the baseline */
	rc = load(dir, "[study]\nworkloads = crc32\n", &s, &m, &err);
	T_CHECK(rc == 0 && m.n == 1 && m.baseline == 0 && !strcmp(m.configs[0].cc, "gcc"),
		"no axes: %s", sb_str(&err));
	matrix_release(&m);
	study_release(&s);
	sb_release(&err);

	/* `native` in a target axis is this machine: no triple, timed by default */
	rc = load(dir, "[study]\nworkloads = crc32\n[axis target]\nhere = native\n"
		       "mips = mips64el-linux-gnuabi64\n", &s, &m, &err);
	T_CHECK(rc == 0 && m.n == 2 && !m.configs[0].target && m.configs[1].target &&
			!strcmp(m.configs[1].target, "mips64el-linux-gnuabi64"),
		"native target: %s", sb_str(&err));
	T_CHECK(!strcmp(s.metric, "insns"), "a study with an emulated level ranks insns, not %s",
		s.metric);
	matrix_release(&m);
	study_release(&s);
	rc = load(dir, "[study]\nworkloads = crc32\n[axis target]\nhere = native\n", &s, &m, &err);
	T_CHECK(rc == 0 && !strcmp(s.metric, "time"), "only native: metric %s (%s)", s.metric,
		sb_str(&err));
	matrix_release(&m);
	study_release(&s);
	sb_release(&err);
	free(dir);
	return test_summary("test_matrix");
}
