/* native_cpu_live.c - the resolver of native_cpu.h fed by the compiler
 * here: it runs it, nothing more */
#include <stdlib.h>
#include <string.h>

#include "base/native_cpu.h"
#include "base/util.h"

static int live_ask(void *ctx, const char *flags, enum native_job job, char **out)
{
	const struct strlist *cc = ctx;
	struct strlist argv = {0};
	for (size_t i = 0; i < cc->n; i++)
		sl_push(&argv, cc->v[i]);
	sl_split_ws(&argv, flags ? flags : "");
	sl_split_ws(&argv, native_job_words(job));
	char **v = xcalloc(argv.n + 1, sizeof(char *));
	memcpy(v, argv.v, argv.n * sizeof(char *));
	*out = NULL;
	int rc = cc->n ? run_capture(v, out) : -1;
	free(v);
	sl_release(&argv);
	return rc == 0 ? 0 : -1;
}

struct native_oracle native_oracle_live(const char *command)
{
	struct strlist *cc = xcalloc(1, sizeof(*cc));
	sl_split_ws(cc, command ? command : "");
	return (struct native_oracle){.ask = live_ask, .ctx = cc};
}

void native_oracle_live_release(struct native_oracle *o)
{
	sl_release(o->ctx);
	free(o->ctx);
	o->ctx = NULL;
}

/* A -march=native, -mcpu=native or -mtune=native word */
static int native_word(const char *w)
{
	static const char *const opts[] = {"-march=", "-mcpu=", "-mtune="};
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (str_starts_with(w, opts[i]) && !strcmp(w + strlen(opts[i]), "native"))
			return 1;
	return 0;
}

/* Each word of cflags, the native ones made explicit where they can be
 * (NULL in forms[i] where not, or not native); the notes into notes */
static void resolve_words(const char *command, struct strlist *w, char ***forms,
			  struct strlist *notes)
{
	struct native_oracle o = native_oracle_live(command);
	*forms = xcalloc(w->n + 1, sizeof(char *));
	for (size_t i = 0; i < w->n; i++) {
		if (!native_word(w->v[i]))
			continue;
		int first = sl_find(w, w->v[i]);
		if (first != (int)i) { /* said twice: the same answer */
			(*forms)[i] = (*forms)[first] ? xstrdup((*forms)[first]) : NULL;
			continue;
		}
		struct native_form f;
		native_resolve(&o, w->v[i], &f);
		(*forms)[i] = f.flags;
		f.flags = NULL;
		if (f.note)
			sl_push(notes, f.note);
		native_form_release(&f);
	}
	native_oracle_live_release(&o);
}

static char *joined_notes(struct strlist *notes, const char *sep)
{
	char *s = notes->n ? sl_join(notes, sep) : NULL;
	sl_release(notes);
	return s;
}

char *native_cpu_flags(const char *command, const char *cflags, char **note)
{
	struct strlist w = {0}, notes = {0}, found = {0};
	char **forms;
	sl_split_ws(&w, cflags ? cflags : "");
	resolve_words(command, &w, &forms, &notes);
	for (size_t i = 0; i < w.n; i++)
		if (forms[i])
			sl_push_owned(&found, forms[i]);
	char *res = found.n ? sl_join(&found, " ") : NULL;
	char *n = joined_notes(&notes, "\n");
	if (note)
		*note = n;
	else
		free(n);
	free(forms);
	sl_release(&w);
	sl_release(&found);
	return res;
}

char *native_cpu_explicit(const char *command, const char *cflags, char **note)
{
	struct strlist w = {0}, notes = {0};
	char **forms;
	sl_split_ws(&w, cflags ? cflags : "");
	resolve_words(command, &w, &forms, &notes);
	for (size_t i = 0; i < w.n; i++)
		if (forms[i]) {
			free(w.v[i]);
			w.v[i] = forms[i];
		}
	char *res = sl_join(&w, " ");
	char *n = joined_notes(&notes, "; ");
	if (note)
		*note = n;
	else
		free(n);
	free(forms);
	sl_release(&w);
	return res;
}
