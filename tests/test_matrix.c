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
	T_CHECK(rc == -1 && strstr(sb_str(&err), "baseline configuration is excluded"), "%s",
		sb_str(&err));
	study_release(&s);
	sb_release(&err);

	/* two levels that build the same are refused */
	rc = load(dir, "[study]\nworkloads = crc32\n[axis opt]\nA = -O2\nB = -O2\n", &s, &m, &err);
	T_CHECK(rc == -1 && strstr(sb_str(&err), "same compiler and flags"), "%s", sb_str(&err));
	study_release(&s);
	sb_release(&err);

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
