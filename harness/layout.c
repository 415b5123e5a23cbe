/* layout.c - the run-time layout of a measured run (layout.h says what) */
#include "harness/layout.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>

#define PAD_NAME "FLAGSCOPE_LAYOUT_PAD="

int layout_aslr(void)
{
	int persona = personality(0xffffffff);
	if (persona != -1 && (persona & ADDR_NO_RANDOMIZE))
		return 0;
	char *text = file_read("/proc/sys/kernel/randomize_va_space", NULL);
	if (!text)
		return -1;
	int on = atoi(text) != 0;
	free(text);
	return on;
}

/* One counter for all worker threads: paddings follow each other across
 * the study's runs, so each configuration's repetitions (interleaved with
 * the others') still meet many of them.  Multiplying by an odd number mod
 * LAYOUT_PAD_STEPS visits every step once per LAYOUT_PAD_STEPS runs, far
 * apart from one run to the next. */
static atomic_uint pad_counter;

size_t layout_pad_next(void)
{
	unsigned k = atomic_fetch_add(&pad_counter, 1);
	return LAYOUT_PAD_MIN + 16 * ((k * 157u) % LAYOUT_PAD_STEPS);
}

void layout_choose(struct run_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->known = 1;
	l->aslr = layout_aslr();
	if (l->aslr != 0)
		return;
	l->pad = layout_pad_next();
}

char *layout_pad_entry(size_t pad)
{
	size_t name = strlen(PAD_NAME);
	if (pad < name + 1)
		return NULL;
	char *e = xmalloc(pad);
	memcpy(e, PAD_NAME, name);
	memset(e + name, 'x', pad - name - 1);
	e[pad - 1] = '\0';
	return e;
}

void layout_env_finish(struct run_layout *l, char *const *env)
{
	l->env_bytes = 0;
	for (; env && *env; env++)
		l->env_bytes += strlen(*env) + 1;
}

void layout_describe(const struct run_layout *l, struct strbuf *out)
{
	if (!l->known)
		return;
	sb_addf(out, "aslr=%s env=%zu pad=%zu",
		l->aslr > 0 ? "on" : l->aslr == 0 ? "off" : "unknown", l->env_bytes, l->pad);
}
