/*
 * gencorpus.c - the compressor workloads' input: MIB mebibytes (default
 * 50) of mixed text and binary data on stdout, the same bytes on every
 * machine (a fixed-seed generator and integer arithmetic only).  A shorter
 * corpus is a prefix of a longer one.  gzip's recipe uses it from here;
 * lz4, zstd, xz and bzip2 through a symlink in their folders (the recipe
 * hash follows it, so editing this file remakes their inputs too).
 *
 * Blocks of 4 KiB to 256 KiB, each one kind: prose from a Zipf-weighted
 * vocabulary, log lines, C-like source, little-endian binary records with
 * small deltas, an 8-bit picture (gradients and noise), runs of repeated
 * bytes, and incompressible random bytes - so deflate meets long and short
 * matches, literals, and stored blocks.
 *
 *   cc -O2 -o gencorpus gencorpus.c && ./gencorpus 50 > corpus.bin
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x9e3779b97f4a7c15ULL;

/* splitmix64: a known-good 64-bit generator in a few lines */
static uint64_t next(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)((next() >> 32) * n >> 32);
}

static const char *const words[] = {
	"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
	"by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
	"an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
	"there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "compiler",
	"optimisation", "register", "allocation", "vector", "loop", "unrolling", "inlining",
	"function", "benchmark", "measurement", "variance", "processor", "cache", "memory",
	"branch", "prediction", "instruction", "pipeline", "latency", "throughput", "library",
	"static", "dynamic", "linking", "symbol", "relocation", "section", "header", "archive",
	"compression", "dictionary", "window", "match", "literal", "distance", "huffman", "tree",
	"frequency", "table", "stream", "block", "checksum", "sample", "signal", "frame",
	"river", "mountain", "winter", "harvest", "village", "market", "letter", "journey",
	"morning", "evening", "garden", "window", "kitchen", "library", "station", "bridge",
};

/* Zipf-like: small indices far more often */
static const char *word(void)
{
	uint32_t n = (uint32_t)(sizeof(words) / sizeof(words[0]));
	uint32_t r = below(n);
	return words[below(r + 1)];
}

struct out {
	unsigned char *buf;
	size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap)
		n = o->cap - o->len;
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static void putf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct out *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	put(o, line, n < 0 ? 0 : (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void prose(struct out *o)
{
	while (o->len < o->cap) {
		uint32_t n = 4 + below(20);
		for (uint32_t i = 0; i < n; i++) {
			const char *w = word();
			if (i == 0) {
				char c = (char)(w[0] - 32);
				put(o, &c, 1);
				w++;
			}
			putf(o, "%s%s", w, i + 1 < n ? (below(9) ? " " : ", ") : "");
		}
		putf(o, "%s", below(6) ? ". " : ".\n\n");
	}
}

static void logs(struct out *o)
{
	static const char *const level[] = {"INFO", "INFO", "INFO", "WARN", "DEBUG", "ERROR"};
	uint32_t t = below(86400);
	while (o->len < o->cap) {
		t += below(5);
		putf(o, "2024-03-%02u %02u:%02u:%02u.%03u worker%u[%u]: %s request id=%08x %s %s took %u us\n",
		     1 + t / 86400 % 28, t / 3600 % 24, t / 60 % 60, t % 60, below(1000), below(8),
		     1000 + below(50), level[below(6)], (unsigned)next(), word(), word(), below(100000));
	}
}

static void source(struct out *o)
{
	uint32_t depth = 1;
	putf(o, "static int %s_%s(struct %s *p, int n)\n{\n", word(), word(), word());
	while (o->len < o->cap) {
		for (uint32_t i = 0; i < depth; i++)
			put(o, "\t", 1);
		switch (below(5)) {
		case 0:
			putf(o, "for (int i = 0; i < n; i++) {\n");
			depth += depth < 6;
			break;
		case 1:
			if (depth > 1) {
				putf(o, "}\n");
				depth--;
				break;
			}
			/* fall through */
		case 2:
			putf(o, "p->%s[i] = %s_%s(p->%s, %u);\n", word(), word(), word(), word(), below(256));
			break;
		case 3:
			putf(o, "if (p->%s > %u)\n\treturn -%u;\n", word(), below(4096), below(40));
			break;
		default:
			putf(o, "/* %s %s %s */\n", word(), word(), word());
		}
	}
}

static void records(struct out *o)
{
	uint32_t id = (uint32_t)next();
	int32_t value = 0;
	while (o->len < o->cap) {
		unsigned char r[16];
		id += 1 + below(3);
		value += (int32_t)below(201) - 100;
		uint32_t flags = below(4) ? 0x11 : below(65536);
		for (int i = 0; i < 4; i++) {
			r[i] = (unsigned char)(id >> (8 * i));
			r[4 + i] = (unsigned char)((uint32_t)value >> (8 * i));
			r[8 + i] = (unsigned char)(flags >> (8 * i));
			r[12 + i] = (unsigned char)(i < 2 ? below(256) : 0);
		}
		put(o, r, sizeof(r));
	}
}

static void picture(struct out *o)
{
	uint32_t w = 256 + below(768);
	for (uint32_t y = 0; o->len < o->cap; y++)
		for (uint32_t x = 0; x < w && o->len < o->cap; x++) {
			unsigned char px = (unsigned char)((x * 255 / w + y) / 2 + below(8));
			put(o, &px, 1);
		}
}

static void runs(struct out *o)
{
	while (o->len < o->cap) {
		unsigned char c = below(3) ? 0 : (unsigned char)below(256);
		for (uint32_t n = 1 + below(2000); n-- && o->len < o->cap;)
			put(o, &c, 1);
	}
}

static void noise(struct out *o)
{
	while (o->len < o->cap) {
		uint64_t v = next();
		unsigned char b[8];
		for (int i = 0; i < 8; i++)
			b[i] = (unsigned char)(v >> (8 * i));
		put(o, b, sizeof(b));
	}
}

int main(int argc, char **argv)
{
	static void (*const kinds[])(struct out *) = {prose, prose, logs, source, records,
						      picture, runs, noise};
	long mib = argc > 1 ? strtol(argv[1], NULL, 10) : 50;
	if (mib < 1 || mib > 4096 || argc > 2) {
		fprintf(stderr, "usage: gencorpus [MIB]   (1..4096, default 50)\n");
		return 2;
	}
	size_t total = (size_t)mib << 20, done = 0;
	struct out o = {.buf = malloc(256 << 10)};
	if (!o.buf)
		return 1;
	while (done < total) {
		o.len = 0;
		o.cap = (size_t)(4 << 10) + below(252 << 10);
		if (o.cap > total - done)
			o.cap = total - done;
		kinds[below((uint32_t)(sizeof(kinds) / sizeof(kinds[0])))](&o);
		if (fwrite(o.buf, 1, o.len, stdout) != o.len)
			return 1;
		done += o.len;
	}
	free(o.buf);
	return fflush(stdout) ? 1 : 0;
}
