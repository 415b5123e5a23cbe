/*
 * crc32 - integer and hashing workload of flagscope.
 *
 * Usage: crc32 MIB
 *
 * Fills MIB mebibytes with bytes from a xorshift64 generator, then hashes
 * the buffer five ways and prints one checksum per line:
 *   crc32-table   CRC-32 (IEEE, reflected), one table lookup per byte
 *   crc32-slice4  the same CRC four bytes at a time with four tables
 *   crc32-bitwise the same CRC one bit at a time (over the first 1/8)
 *   fnv1a-32 / fnv1a-64  FNV-1a over every byte
 *   mix64         a multiply-xorshift mixer over little-endian 64-bit words
 * The three CRC variants must agree; the program says so and fails if not.
 * Everything is integer arithmetic on bytes assembled explicitly, so the
 * output is the same on every compiler, libc and byte order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CRC_POLY 0xEDB88320u

static uint32_t crc_table[4][256];

static void crc_tables_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC_POLY & (0u - (c & 1u)));
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = crc_table[0][i];
		for (int t = 1; t < 4; t++) {
			c = crc_table[0][c & 0xff] ^ (c >> 8);
			crc_table[t][i] = c;
		}
	}
}

static uint32_t crc_bytewise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++)
		c = crc_table[0][(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static uint32_t crc_slice4(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		c ^= (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
		     (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		c = crc_table[3][c & 0xff] ^ crc_table[2][(c >> 8) & 0xff] ^
		    crc_table[1][(c >> 16) & 0xff] ^ crc_table[0][c >> 24];
	}
	for (; i < n; i++)
		c = crc_table[0][(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC_POLY & (0u - (c & 1u)));
	}
	return ~c;
}

static uint32_t fnv1a32(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
	uint64_t h = 14695981039346656037u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return h;
}

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Each word goes through a multiply-xorshift finaliser and is folded into a
 * running state with a rotate, so word order matters. */
static uint64_t mix64(const uint8_t *p, size_t n)
{
	uint64_t h = 0x243f6a8885a308d3u;
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint64_t w = load_le64(p + i);
		w ^= w >> 31;
		w *= 0x7fb5d329728ea185u;
		w ^= w >> 27;
		w *= 0x81dadef4bc2dd44du;
		w ^= w >> 33;
		h = ((h << 23) | (h >> 41)) ^ w;
		h *= 0x9e3779b97f4a7c15u;
	}
	return h ^ (h >> 29);
}

static void fill(uint8_t *buf, size_t n)
{
	uint64_t x = 0x9d2c5680a5b3c1e7u;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* a skewed byte distribution keeps the data from looking uniform */
		buf[i] = (uint8_t)((x >> 24) & ((x & 0x300) ? 0xff : 0x1f));
	}
}

int main(int argc, char **argv)
{
	if (argc != 2 || atol(argv[1]) <= 0) {
		fprintf(stderr, "usage: crc32 MIB\n");
		return 2;
	}
	size_t n = (size_t)atol(argv[1]) << 20;
	uint8_t *buf = malloc(n);
	if (!buf) {
		fprintf(stderr, "crc32: out of memory\n");
		return 1;
	}
	fill(buf, n);
	crc_tables_init();

	size_t nbit = n / 8;
	uint32_t c_table = crc_bytewise(buf, n);
	uint32_t c_slice = crc_slice4(buf, n);
	uint32_t c_bit = crc_bitwise(buf, nbit);
	uint32_t c_tpart = crc_bytewise(buf, nbit);

	printf("bytes %lu\n", (unsigned long)n);
	printf("crc32-table %08lx\n", (unsigned long)c_table);
	printf("crc32-slice4 %08lx\n", (unsigned long)c_slice);
	printf("crc32-bitwise %08lx (first %lu bytes)\n", (unsigned long)c_bit,
	       (unsigned long)nbit);
	printf("fnv1a-32 %08lx\n", (unsigned long)fnv1a32(buf, n));
	printf("fnv1a-64 %016llx\n", (unsigned long long)fnv1a64(buf, n));
	printf("mix64 %016llx\n", (unsigned long long)mix64(buf, n));
	free(buf);
	if (c_table != c_slice || c_bit != c_tpart) {
		printf("crc variants disagree\n");
		return 1;
	}
	printf("crc variants agree\n");
	return 0;
}
