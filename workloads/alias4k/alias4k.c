/*
 * alias4k - the layout fixture: adds a global array into a stack array,
 * many times over, so its speed can depend only on where the stack landed
 * relative to the global (their address difference mod 4096).
 *
 * Usage: alias4k [REPS]   (default 100000)
 *
 * Why this shape: a load whose address matches an earlier in-flight store
 * in bits 11..0 may be held back until the store's full address is known
 * ("4K aliasing").  The hot loop stores to the stack array while loading
 * the global one, so whether its loads falsely wait on its stores depends
 * on (stack - global) mod 4096: on the environment size and the auxiliary
 * vector (which push the stack down), on ASLR, and on where the linker put
 * the global.  Issue 27 measured 0.065 s against 0.115-0.119 s on one
 * machine from that alone; whether a CPU shows it is what bench/layout.sh
 * measures.
 *
 * stdout is one checksum line, the same under every correct build, so
 * validation works; stderr says the layout this run had:
 *   alias4k: stack 0x7ffc... global 0x5555... delta 3232
 * where delta is (stack - global) mod 4096.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096 /* 16 KiB each: both arrays fit in L1 together */

static uint32_t global_src[N];

/* noinline and the barrier keep the loop a real load-load-store stream
 * over memory at every optimisation level, instead of one folded sum */
__attribute__((noinline)) static void add_into(uint32_t *dst, const uint32_t *src, int n)
{
	for (int i = 0; i < n; i++)
		dst[i] += src[i];
	__asm__ volatile("" : : "r"(dst) : "memory");
}

int main(int argc, char **argv)
{
	long reps = argc > 1 ? atol(argv[1]) : 100000;
	uint32_t stack_dst[N];
	uint32_t x = 2463534242u, sum = 0;

	if (argc > 2 || reps < 1) {
		fprintf(stderr, "usage: alias4k [REPS]\n");
		return 2;
	}
	for (int i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		global_src[i] = x;
		stack_dst[i] = (uint32_t)i;
	}
	for (long r = 0; r < reps; r++)
		add_into(stack_dst, global_src, N);
	for (int i = 0; i < N; i++)
		sum = sum * 31u + stack_dst[i];
	fprintf(stderr, "alias4k: stack %p global %p delta %lu\n", (void *)stack_dst,
		(void *)global_src, (unsigned long)(((uintptr_t)stack_dst - (uintptr_t)global_src) & 4095));
	printf("alias4k %ld %08x\n", reps, (unsigned)sum);
	return ferror(stdout) ? 1 : 0;
}
