/*
 * memtouch - the memory meter's test program: makes a known amount of
 * memory resident and dirty, says what it did, and exits holding it.
 *
 * Usage: memtouch MIB [PAGES]
 *
 * 1. malloc(MIB MiB) and memset it to a non-zero byte: MIB MiB of heap (or
 *    of an anonymous mapping, as the libc decides) resident and dirty.
 * 2. mmap PAGES private anonymous pages (default 256) and write one byte
 *    in each: PAGES pages resident and dirty.
 * Nothing is freed: at exit the process holds MIB MiB + PAGES pages more
 * than an empty program, which is what a meter reading VmHWM and private
 * dirty memory at exit must find (within the libc's own overhead).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long mib = argc >= 2 ? atol(argv[1]) : 0;
	long pages = argc >= 3 ? atol(argv[2]) : 256;
	if (argc < 2 || argc > 3 || mib < 0 || pages < 0) {
		fprintf(stderr, "usage: memtouch MIB [PAGES]\n");
		return 2;
	}
	size_t bytes = (size_t)mib << 20;
	long pagesize = sysconf(_SC_PAGESIZE);
	unsigned long sum = 0;

	if (bytes > 0) {
		/* 0x5a, not 0: malloc+memset(0) may become calloc, which could
		 * leave the pages untouched */
		unsigned char *heap = malloc(bytes);
		if (!heap) {
			fprintf(stderr, "memtouch: cannot allocate %ld MiB\n", mib);
			return 1;
		}
		memset(heap, 0x5a, bytes);
		for (size_t o = 0; o < bytes; o += (size_t)pagesize)
			sum += heap[o];
	}
	if (pages > 0) {
		size_t len = (size_t)pages * (size_t)pagesize;
		unsigned char *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED) {
			perror("memtouch: mmap");
			return 1;
		}
		for (long p = 0; p < pages; p++)
			map[(size_t)p * (size_t)pagesize] = (unsigned char)(p | 1);
		for (long p = 0; p < pages; p++)
			sum += map[(size_t)p * (size_t)pagesize];
	}
	printf("malloc %lu bytes touched\n", (unsigned long)bytes);
	printf("mmap %ld pages of %ld bytes dirtied\n", pages, pagesize);
	printf("check %lu\n", sum);
	return 0;
}
