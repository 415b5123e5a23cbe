/* recommend_native.c - -march=native and -mtune=native made explicit in a
 * recommendation (see recommend.h) */
#include <stdlib.h>
#include <string.h>

#include "analysis/recommend.h"
#include "analysis/results.h"
#include "base/native_cpu.h"

/* The last word of switches that starts with opt ("-march=") and is not
 * opt "native", with the feature words GCC put after a -march=/-mcpu=
 * word where cc says -march=CPU alone would differ (base/native_cpu.h;
 * all of them when cc cannot say); heap, or NULL */
static char *last_explicit(const char *switches, const char *opt, const char *cc)
{
	struct strlist w = {0};
	char *found = NULL;
	sl_split_ws(&w, switches);
	for (size_t i = 0; i < w.n; i++) {
		if (!str_starts_with(w.v[i], opt) || !strcmp(w.v[i] + strlen(opt), "native"))
			continue;
		free(found);
		unsigned nf = strcmp(opt, "-mtune=")
				      ? native_switches_after(w.v + i, (unsigned)(w.n - i))
				      : 0;
		struct native_oracle o = native_oracle_live(cc);
		found = native_resolve_recorded(&o, w.v + i, nf + 1);
		native_oracle_live_release(&o);
	}
	sl_release(&w);
	return found;
}

/* opt as GCC recorded it in the DWARF producer of one of the
 * configuration's good builds (harness/elf facts: units[].switches), where
 * -march=native reads as the CPU it found; heap, or NULL */
static char *recorded(struct store *st, const char *study, const char *config_id,
		      const char *opt, const char *cc)
{
	sqlite3_stmt *s;
	char *found = NULL;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT json_extract(u.value, '$.switches') FROM builds b, "
			       "json_each(b.facts) e, json_each(e.value, '$.units') u WHERE "
			       "b.study=? AND b.config_id=? AND b.status='ok' AND json_valid(b.facts) "
			       "AND json_type(e.value)='object' AND "
			       "instr(json_extract(u.value, '$.switches'), ?) > 0",
			       -1, &s, NULL) != SQLITE_OK)
		return NULL;
	const char *const args[] = {study, config_id, opt};
	for (int i = 0; i < 3; i++)
		sqlite3_bind_text(s, i + 1, args[i], -1, SQLITE_STATIC);
	while (!found && sqlite3_step(s) == SQLITE_ROW)
		found = last_explicit((const char *)sqlite3_column_text(s, 0), opt, cc);
	sqlite3_finalize(s);
	return found;
}

/* opt as the compiler resolved it on the machine that built the
 * configuration, recorded at build time (the fact native.ID, e.g.
 * "-march=znver3 -mshstk -mno-mwaitx -mtune=znver3": base/native_cpu.h),
 * with the feature flags that follow it (they belong to -march= and
 * -mcpu=); heap, or NULL */
static char *built_with(struct store *st, const char *study, const char *config_id,
			const char *opt)
{
	char *key = xasprintf("native.%s", config_id);
	char *fact = results_fact(st, study, key);
	struct strlist w = {0}, out = {0};
	sl_split_ws(&w, fact ? fact : "");
	static const char *const cpu_opts[] = {"-march=", "-mcpu=", "-mtune="};
	for (size_t i = 0; i < w.n && !out.n; i++) {
		if (!str_starts_with(w.v[i], opt) || !strcmp(w.v[i] + strlen(opt), "native"))
			continue;
		sl_push(&out, w.v[i]);
		for (size_t j = i + 1; j < w.n && strcmp(opt, "-mtune="); j++) {
			int cpu = 0;
			for (size_t k = 0; k < ARRAY_SIZE(cpu_opts); k++)
				cpu |= str_starts_with(w.v[j], cpu_opts[k]);
			if (cpu)
				break;
			sl_push(&out, w.v[j]);
		}
	}
	char *found = out.n ? sl_join(&out, " ") : NULL;
	sl_release(&w);
	sl_release(&out);
	free(fact);
	free(key);
	return found;
}

/* word ("-march=native") as this machine's cc makes it explicit
 * (base/native_cpu.h), with the resolver's note on a fallback or a
 * refusal in *why; heap, or NULL */
static char *asked(const char *cc, const char *word, char **why)
{
	struct native_oracle o = native_oracle_live(cc);
	struct native_form f;
	native_resolve(&o, word, &f);
	native_oracle_live_release(&o);
	char *found = f.flags;
	*why = f.note;
	f.flags = f.note = NULL;
	native_form_release(&f);
	return found;
}

/* The building machine's note on how its native was made explicit (the
 * fact native_note.ID), the part that names word; heap, or NULL */
static char *built_note(struct store *st, const char *study, const char *config_id,
			const char *word)
{
	char *key = xasprintf("native_note.%s", config_id);
	char *fact = results_fact(st, study, key), *found = NULL;
	for (char *n = fact; n && *n && !found;) { /* one note a line */
		size_t len = strcspn(n, "\n");
		if (str_starts_with(n, word) && n[strlen(word)] == ':')
			found = xstrndup(n, len);
		n += len + strspn(n + len, "\n");
	}
	free(fact);
	free(key);
	return found;
}

char *recommend_explicit_cflags(struct store *st, const char *study, const struct rank_config *c,
				char **note)
{
	struct strlist w = {0}, notes = {0};
	sl_split_ws(&w, c->cflags);
	for (size_t i = 0; i < w.n; i++) {
		size_t n = strlen(w.v[i]);
		if (!str_starts_with(w.v[i], "-m") || n < 8 || strcmp(w.v[i] + n - 7, "=native"))
			continue;
		char *opt = xstrndup(w.v[i], n - strlen("native"));
		/* the build fact first: it has the features native differs in
		 * (GCC's DWARF has them too, as -m words of its own) */
		char *x = built_with(st, study, c->id, opt);
		char *why = x ? built_note(st, study, c->id, w.v[i]) : NULL;
		const char *how = "as the compiler resolved it on the machine that built them "
				  "(recorded at build time)";
		if (!x && (x = recorded(st, study, c->id, opt, c->cc)))
			how = "as GCC recorded it in the measured builds";
		if (!x) {
			x = asked(c->cc, w.v[i], &why);
			how = "as this machine's compiler resolves it (the builds recorded none)";
		}
		if (x) {
			sl_push_owned(&notes, xasprintf("%s is %s, %s", w.v[i], x, how));
			free(w.v[i]);
			w.v[i] = x;
		} else if (!why) {
			sl_push_owned(&notes, xasprintf("%s is kept: neither the builds nor %s "
							"say which CPU it is", w.v[i], c->cc));
		}
		if (why)
			sl_push_owned(&notes, why);
		free(opt);
	}
	*note = notes.n ? sl_join(&notes, "; ") : NULL;
	char *flags = sl_join(&w, " ");
	sl_release(&w);
	sl_release(&notes);
	return flags;
}
