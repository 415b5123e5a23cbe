/*
 * layout.h - the run-time layout of a measured run (issue 27): whether the
 * kernel randomises its addresses, and how big its environment is.
 *
 * Why it matters: where the stack lands (relative to the program's data,
 * mod 4096) can move a program's time by several percent without any
 * change to its code.  With ASLR on, every run gets a new stack place, so
 * repetitions sample it.  With ASLR off (setarch -R, many boards, some
 * containers) every run of a binary with the same environment lands in the
 * same place, and all repetitions measure one layout; so there the runner
 * pads the environment by a different amount each run (the stack starts
 * below the environment strings), in 16-byte steps over one 4 KiB page,
 * the stack's alignment and the aliasing period.
 *
 * Contract:
 *  - layout_aslr() is 1 when the kernel randomises the address space of
 *    programs this process starts (/proc/sys/kernel/randomize_va_space
 *    not 0 and this process's personality without ADDR_NO_RANDOMIZE,
 *    which children inherit), 0 when it does not, -1 when it cannot tell
 *    (counted as on: nothing is padded).
 *  - layout_choose() fills l for the next run: aslr from layout_aslr(),
 *    pad 0 when ASLR is on or unknown (the environment stays exactly as
 *    before), else the next of LAYOUT_PAD_STEPS paddings (LAYOUT_PAD_MIN
 *    and up in 16-byte steps, so 256 stack places mod 4096,
 *    each once per LAYOUT_PAD_STEPS runs, in a fixed scrambled order shared
 *    by all threads).  env_bytes is left for layout_env_finish().
 *  - layout_pad_entry() returns a heap "FLAGSCOPE_LAYOUT_PAD=xxx" string
 *    taking exactly pad bytes with its NUL, or NULL when pad is 0 (or too
 *    small to hold the name): the caller frees it.
 *  - layout_env_finish() sets l->env_bytes to the bytes env's strings take
 *    on the new program's stack (each string and its NUL).
 *  - layout_describe() appends nothing when !l->known, else "aslr=on|off|unknown env=N pad=N" to out;
 *    the form stored with each run (store.h, runs.layout).
 * Nothing here exits or prints.
 */
#ifndef FLAGSCOPE_LAYOUT_H
#define FLAGSCOPE_LAYOUT_H

#include <stddef.h>

#include "base/util.h"

#define LAYOUT_PAD_STEPS 256 /* 4096 / 16 */
#define LAYOUT_PAD_MIN 32    /* room for the entry's name */

struct run_layout {
	int known;        /* 0: the runner did not say (remote, emulated): nothing recorded */
	int aslr;         /* 1 on, 0 off, -1 unknown */
	size_t pad;       /* bytes of padding added to the environment (0: none) */
	size_t env_bytes; /* bytes of the environment strings, padding included */
};

int layout_aslr(void);
void layout_choose(struct run_layout *l);
/* The next padding of that order, whatever ASLR is here: a board's
 * runner passes it to the board's helper, which pads only where the
 * board's ASLR is off (harness/remote-helper/helper.c, -p). */
size_t layout_pad_next(void);
char *layout_pad_entry(size_t pad);
void layout_env_finish(struct run_layout *l, char *const *env);
void layout_describe(const struct run_layout *l, struct strbuf *out);

#endif
