/*
 * test_layout.c - harness/layout.h: the padding entry's size, the padding
 * sequence (multiples of 16, every step once per LAYOUT_PAD_STEPS runs,
 * none when ASLR is on), the environment's size, the stored description,
 * and layout_aslr() against this process's personality.
 * Expected: all checks pass.
 */
#include <string.h>
#include <sys/personality.h>

#include "harness/layout.h"
#include "tests/testlib.h"

static void test_pad_entry(void)
{
	static const size_t pads[] = {LAYOUT_PAD_MIN, 48, 1040, 4096 + LAYOUT_PAD_MIN - 16};
	for (size_t i = 0; i < ARRAY_SIZE(pads); i++) {
		char *e = layout_pad_entry(pads[i]);
		T_CHECK(e && strlen(e) + 1 == pads[i], "pad %zu: entry of %zu bytes", pads[i],
			e ? strlen(e) + 1 : 0);
		T_CHECK(e && strchr(e, '=') && !strchr(strchr(e, '=') + 1, '='), "pad %zu: one NAME=VALUE",
			pads[i]);
		free(e);
	}
	T_CHECK(!layout_pad_entry(0), "pad 0: no entry");
	T_CHECK(!layout_pad_entry(8), "pad 8: too small for the name, no entry");
}

/* with ASLR off for this process (as under setarch -R), whatever the
 * machine's setting: the padding sequence */
static void test_sequence(void)
{
	struct run_layout l;
	int before = personality(0xffffffff);
	if (before == -1 || personality(before | ADDR_NO_RANDOMIZE) == -1) {
		printf("not checked: personality() refused here\n");
		return;
	}
	layout_choose(&l);
	T_CHECK(l.known && l.aslr == 0, "choose under ADDR_NO_RANDOMIZE: known %d aslr %d", l.known,
		l.aslr);
	unsigned char seen[LAYOUT_PAD_STEPS] = {0};
	size_t prev = l.pad;
	for (int i = 0; i < LAYOUT_PAD_STEPS; i++) {
		layout_choose(&l);
		size_t step = (l.pad - LAYOUT_PAD_MIN) / 16;
		T_CHECK(l.pad >= LAYOUT_PAD_MIN && l.pad % 16 == 0 && step < LAYOUT_PAD_STEPS,
			"pad %zu: a multiple of 16 from %d", l.pad, LAYOUT_PAD_MIN);
		if (step < LAYOUT_PAD_STEPS)
			seen[step]++;
		T_CHECK(l.pad != prev, "run %d: the same padding as the run before (%zu)", i, l.pad);
		prev = l.pad;
	}
	for (int s = 0; s < LAYOUT_PAD_STEPS; s++)
		T_CHECK(seen[s] == 1, "step %d used %d times in %d runs", s, seen[s], LAYOUT_PAD_STEPS);
	personality(before);
	layout_choose(&l);
	if (l.aslr == 1)
		T_CHECK(l.pad == 0, "ASLR on: no padding (%zu)", l.pad);
}

static void test_env_and_describe(void)
{
	char *pad = layout_pad_entry(64);
	char *const env[] = {"A=1", "LONGER=xyz", pad, NULL};
	struct run_layout l = {.known = 1, .aslr = 0, .pad = 64};
	layout_env_finish(&l, env);
	T_CHECK(l.env_bytes == 4 + 11 + 64, "env bytes %zu, want 79", l.env_bytes);
	struct strbuf sb = {0};
	layout_describe(&l, &sb);
	T_CHECK(sb.buf && !strcmp(sb.buf, "aslr=off env=79 pad=64"), "describe: '%s'", sb.buf ? sb.buf : "");
	sb_release(&sb);
	struct run_layout none = {0};
	layout_describe(&none, &sb);
	T_CHECK(!sb.len, "describe of an unknown layout: nothing, got '%s'", sb.buf ? sb.buf : "");
	sb_release(&sb);
	free(pad);
}

static void test_aslr_personality(void)
{
	int before = personality(0xffffffff);
	if (before == -1 || personality(before | ADDR_NO_RANDOMIZE) == -1) {
		printf("not checked: personality() refused here\n");
		return;
	}
	T_CHECK(layout_aslr() == 0, "ADDR_NO_RANDOMIZE set: layout_aslr() %d, want 0", layout_aslr());
	personality(before & ~ADDR_NO_RANDOMIZE);
	char *text = file_read("/proc/sys/kernel/randomize_va_space", NULL);
	if (text) {
		int want = atoi(text) != 0;
		T_CHECK(layout_aslr() == want, "personality clear: layout_aslr() %d, randomize_va_space %s",
			layout_aslr(), text);
		free(text);
	}
	personality(before);
}

int main(void)
{
	test_pad_entry();
	test_sequence();
	test_env_and_describe();
	test_aslr_personality();
	return test_summary("test_layout");
}
