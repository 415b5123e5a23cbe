/*
 * cc_features.h - the instruction-set feature switches a GCC -march=CPU
 * does not already imply.  GCC records -march=native in a DWARF producer
 * as "-march=CPU" followed by every feature switch it resolved (-mmmx
 * -mpopcnt ... -mno-sse4a ...); on a virtual machine those differ from
 * what -march=CPU alone gives (here native is rocketlake with AMX and
 * without PKU), so -march=CPU alone is not what was measured.
 *
 * It lives in base because analysis (recommend, reading recorded
 * switches) and harness (what native means at build time) both ask it.
 */
#ifndef FLAGSCOPE_CC_FEATURES_H
#define FLAGSCOPE_CC_FEATURES_H

/* The feature words GCC put after words[0] == "-march=CPU" (or -mcpu=):
 * the run of following "-mX" / "-mno-X" words without '=' that are not
 * another -march=, -mcpu= or -mtune=.  Returns how many there are
 * (words[1 .. n]). */
unsigned cc_features_after(char *const *words, unsigned nwords);

/* Of features ("-mavx2 -mno-sse4a -mamx-tile"), the words whose state
 * differs from what `CC cpu_opt -Q --help=target` reports cpu_opt
 * ("-march=rocketlake") gives, in features' order, joined by spaces ("" when
 * none differ); a word the compiler does not list is kept.  cc is a
 * compiler command, maybe with options ("gcc-12", "gcc -m32").  Heap
 * string; NULL when the compiler does not answer (not GCC, not here): the
 * caller keeps every word then. */
char *cc_features_beyond(const char *cc, const char *cpu_opt, const char *features);

#endif
