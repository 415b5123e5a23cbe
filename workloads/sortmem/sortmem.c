/*
 * sortmem - memory-bound and branchy workload of flagscope.
 *
 * Usage: sortmem KI
 *
 * Works on n = KI * 1024 pseudo-random 32-bit keys (xorshift32) and prints
 * a checksum line for each of four phases:
 *   quicksort  median-of-three quicksort with an insertion-sort cut-off
 *   mergesort  bottom-up mergesort of the same keys (must agree with it)
 *   hash       a chained hash table whose nodes are linked in shuffled
 *              order: n inserts of keys that repeat, n lookups
 *   chase      pointer chasing through one random cycle over n entries
 *              (4 MiB at n = 1Mi: larger than L2, so most steps miss)
 * Only integer arithmetic and the program's own algorithms are used (no
 * qsort), so the output is the same under every compiler and libc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 2463534242u;

static uint32_t next32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* uniform enough in [0, n) for a workload; n < 2^32 */
static uint32_t below(uint32_t n)
{
	return (uint32_t)(((uint64_t)next32() * n) >> 32);
}

static void *xalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "sortmem: out of memory\n");
		exit(1);
	}
	return p;
}

static void insertion_sort(uint32_t *a, long lo, long hi)
{
	for (long i = lo + 1; i <= hi; i++) {
		uint32_t v = a[i];
		long j = i - 1;
		while (j >= lo && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}

static void swap32(uint32_t *a, long i, long j)
{
	uint32_t t = a[i];
	a[i] = a[j];
	a[j] = t;
}

/* Recurses into the smaller part and loops on the larger, so the depth is
 * at most log2(n). */
static void quicksort(uint32_t *a, long lo, long hi)
{
	while (hi - lo > 16) {
		long mid = lo + (hi - lo) / 2;
		if (a[mid] < a[lo])
			swap32(a, mid, lo);
		if (a[hi] < a[lo])
			swap32(a, hi, lo);
		if (a[hi] < a[mid])
			swap32(a, hi, mid);
		uint32_t pivot = a[mid];
		long i = lo, j = hi;
		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j)
				swap32(a, i++, j--);
		}
		if (j - lo < hi - i) {
			quicksort(a, lo, j);
			lo = i;
		} else {
			quicksort(a, i, hi);
			hi = j;
		}
	}
	insertion_sort(a, lo, hi);
}

static void mergesort(uint32_t *a, uint32_t *tmp, long n)
{
	uint32_t *src = a, *dst = tmp;
	for (long width = 1; width < n; width *= 2) {
		for (long lo = 0; lo < n; lo += 2 * width) {
			long mid = lo + width < n ? lo + width : n;
			long hi = lo + 2 * width < n ? lo + 2 * width : n;
			long i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, (size_t)n * sizeof *a);
}

static uint64_t sorted_sum(const uint32_t *a, long n, long *distinct)
{
	uint64_t s = 0;
	*distinct = n > 0;
	for (long i = 0; i < n; i++) {
		s = s * 1000003u + a[i];
		if (i > 0 && a[i] != a[i - 1])
			++*distinct;
		if (i > 0 && a[i] < a[i - 1])
			return 0; /* not sorted: no checksum matches 0 by chance here */
	}
	return s;
}

struct node {
	struct node *next;
	uint32_t key;
	uint32_t count;
};

static void hash_phase(long n)
{
	long nbuckets = 1;
	while (nbuckets < n / 2)
		nbuckets *= 2;
	struct node **bucket = xalloc((size_t)nbuckets * sizeof *bucket);
	struct node *pool = xalloc((size_t)n * sizeof *pool);
	uint32_t *order = xalloc((size_t)n * sizeof *order);
	for (long i = 0; i < nbuckets; i++)
		bucket[i] = NULL;
	/* nodes are taken from the pool in shuffled order so that chains
	 * jump around memory like a long-lived heap */
	for (long i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (long i = n - 1; i > 0; i--) {
		uint32_t j = below((uint32_t)i + 1);
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	long used = 0, maxchain = 0;
	uint32_t keyspace = (uint32_t)n * 2u;
	for (long i = 0; i < n; i++) {
		uint32_t key = below(keyspace) * 2654435761u;
		uint32_t h = (key ^ key >> 15) & (uint32_t)(nbuckets - 1);
		struct node *p = bucket[h];
		long len = 0;
		while (p && p->key != key) {
			p = p->next;
			len++;
		}
		if (p) {
			p->count++;
			continue;
		}
		p = &pool[order[used++]];
		p->key = key;
		p->count = 1;
		p->next = bucket[h];
		bucket[h] = p;
		if (len + 1 > maxchain)
			maxchain = len + 1;
	}
	long hits = 0;
	uint64_t counted = 0;
	for (long i = 0; i < n; i++) {
		uint32_t key = below(keyspace) * 2654435761u;
		uint32_t h = (key ^ key >> 15) & (uint32_t)(nbuckets - 1);
		for (struct node *p = bucket[h]; p; p = p->next) {
			if (p->key == key) {
				hits++;
				counted += p->count;
				break;
			}
		}
	}
	printf("hash buckets %ld distinct %ld maxchain %ld hits %ld counted %llu\n",
	       nbuckets, used, maxchain, hits, (unsigned long long)counted);
	free(order);
	free(pool);
	free(bucket);
}

static void chase_phase(long n)
{
	long m = n;
	uint32_t *next = xalloc((size_t)m * sizeof *next);
	for (long i = 0; i < m; i++)
		next[i] = (uint32_t)i;
	/* Sattolo's shuffle: the permutation is a single cycle through all m */
	for (long i = m - 1; i > 0; i--) {
		uint32_t j = below((uint32_t)i);
		uint32_t t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	uint32_t at = 0;
	uint64_t sum = 0;
	long steps = m + m / 2;
	for (long s = 0; s < steps; s++) {
		at = next[at];
		sum += at ^ (uint32_t)s;
	}
	printf("chase entries %ld steps %ld at %lu sum %llu\n", m, steps,
	       (unsigned long)at, (unsigned long long)sum);
	free(next);
}

int main(int argc, char **argv)
{
	if (argc != 2 || atol(argv[1]) <= 0 || atol(argv[1]) > 65536) {
		fprintf(stderr, "usage: sortmem KI   (1..65536)\n");
		return 2;
	}
	long n = atol(argv[1]) * 1024;
	uint32_t *a = xalloc((size_t)n * sizeof *a);
	uint32_t *b = xalloc((size_t)n * sizeof *b);
	uint32_t *tmp = xalloc((size_t)n * sizeof *tmp);
	for (long i = 0; i < n; i++)
		a[i] = b[i] = next32() >> (i & 7); /* small keys repeat */

	long da, db;
	quicksort(a, 0, n - 1);
	uint64_t sa = sorted_sum(a, n, &da);
	printf("quicksort n %ld distinct %ld sum %016llx\n", n, da, (unsigned long long)sa);
	mergesort(b, tmp, n);
	uint64_t sb = sorted_sum(b, n, &db);
	printf("mergesort n %ld distinct %ld sum %016llx\n", n, db, (unsigned long long)sb);
	int same = memcmp(a, b, (size_t)n * sizeof *a) == 0;
	free(tmp);
	free(b);
	free(a);

	hash_phase(n);
	chase_phase(n);
	printf("sorts %s\n", same ? "agree" : "DISAGREE");
	return same ? 0 : 1;
}
