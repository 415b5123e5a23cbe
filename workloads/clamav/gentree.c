/*
 * gentree.c - the clamav workload's input: a directory tree of generated
 * files and a signature database that detects some of them.
 *
 * usage: gentree MEGABYTES      (in the input folder; writes the folders
 *                                tree/, pack/ and sigs/ and expected.txt)
 *
 * Everything comes from one fixed-seed generator, so the same MEGABYTES
 * gives byte-identical files on every machine.
 *
 *   tree/dNN/[dNN/]fNNN.{txt,bin,dat}  prose, random bytes and fixed-size
 *                                      records, sizes from 1 KiB to 2 MiB
 *   pack/packN/...                     files the input script turns into
 *                                      tree/archives/packN.tar.gz (ClamAV
 *                                      unpacks them to scan the members)
 *   sigs/flagscope.ndb                 body signatures: a byte pattern per
 *                                      signature, each planted in one file
 *                                      (static, ?? and nibble wildcards,
 *                                      {n-m} and * gaps, (aa|bb)
 *                                      alternatives, offsets 0, N and EOF-N),
 *                                      plus decoys planted nowhere and
 *                                      near misses (a pattern planted with
 *                                      its last byte changed: no detection)
 *   sigs/flagscope.hdb                 MD5 hash signatures (OpenSSL's MD5)
 *                                      of whole files, plus decoys of the
 *                                      right size with a wrong hash
 *   expected.txt                       the detections clamscan must print,
 *                                      sorted: "tree/PATH: NAME.UNOFFICIAL FOUND"
 *                                      (names from a database that is not
 *                                      signed get the .UNOFFICIAL suffix)
 *
 * A detected file carries exactly one signature (clamscan reports the first
 * match of a file, so two would make the name depend on match order).
 */
#include <errno.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

/* splitmix64 */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static size_t rnd_below(size_t n)
{
	return (size_t)(rnd() % n);
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "gentree: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "gentree: out of memory\n");
		exit(1);
	}
	return p;
}

static void mkdirs(const char *path)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			die("cannot make", buf);
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		die("cannot make", buf);
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		die("cannot write", path);
	return f;
}

/* ---- file contents ---- */

static const char *const words[] = {
	"the", "of", "scanner", "signature", "archive", "buffer", "kernel", "message",
	"compiler", "flag", "optimisation", "loop", "vector", "register", "cache",
	"database", "pattern", "offset", "header", "section", "entry", "table", "stream",
	"block", "window", "match", "engine", "virus", "clean", "report", "and", "a",
	"in", "to", "is", "was", "for", "with", "on", "by", "from", "which", "that",
};

static void fill_text(unsigned char *buf, size_t n)
{
	size_t i = 0, col = 0;
	while (i < n) {
		const char *w = words[rnd_below(sizeof(words) / sizeof(words[0]))];
		for (; *w && i < n; w++, i++, col++)
			buf[i] = (unsigned char)*w;
		if (i >= n)
			break;
		int r = (int)rnd_below(16);
		buf[i++] = col > 68 ? '\n' : r == 0 ? '.' : r == 1 ? ',' : ' ';
		if (col > 68)
			col = 0;
	}
}

static void fill_random(unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		uint64_t v = rnd();
		for (size_t k = 0; k < 8 && i + k < n; k++)
			buf[i + k] = (unsigned char)(v >> (8 * k));
	}
}

/* fixed 64-byte records: an id, a counter, a name, padding */
static void fill_records(unsigned char *buf, size_t n)
{
	uint32_t id = (uint32_t)rnd();
	for (size_t i = 0; i < n; i++) {
		size_t rec = i / 64, off = i % 64;
		unsigned char c;
		if (off < 4)
			c = (unsigned char)((id + rec) >> (8 * off));
		else if (off < 8)
			c = (unsigned char)(rec >> (8 * (off - 4)));
		else if (off < 40)
			c = (unsigned char)('A' + (rec * 7 + off) % 26);
		else
			c = 0;
		buf[i] = c;
	}
}

/* ---- signatures ---- */

enum sig_kind { SIG_STATIC, SIG_WILD, SIG_NIBBLE, SIG_GAP, SIG_STAR, SIG_ALT, SIG_KINDS };
enum sig_where { AT_ANY, AT_START, AT_OFFSET, AT_EOF };

struct sig {
	char name[64];
	char hex[512];          /* the signature's body in ClamAV's notation */
	unsigned char inst[256]; /* one instance of it, as planted */
	size_t inst_len;
	enum sig_where where;
	size_t offset; /* AT_OFFSET: from the start, AT_EOF: the end's distance */
};

static void hex_bytes(char *out, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* A run of random bytes that appears in no generated content by design:
 * 0xfe and 0xfd bytes never occur in the text and records, and a random
 * file matches 10+ given bytes with probability 2^-80. */
static void random_part(unsigned char *b, size_t n)
{
	fill_random(b, n);
	b[0] = 0xfe;
	b[n - 1] = 0xfd;
}

/* Make signature number i of kind k: its hex body and one instance. */
static void make_sig(struct sig *s, int i, enum sig_kind k, const char *prefix)
{
	unsigned char a[32], b[32];
	size_t na = 10 + rnd_below(14), nb = 8 + rnd_below(10);
	char ha[80], hb[80];
	random_part(a, na);
	random_part(b, nb);
	hex_bytes(ha, a, na);
	hex_bytes(hb, b, nb);
	snprintf(s->name, sizeof(s->name), "Flagscope.%s.%s%03d", prefix,
		 (const char *[]){"Static", "Wild", "Nibble", "Gap", "Star", "Alt"}[k], i);
	unsigned char *p = s->inst;
	memcpy(p, a, na);
	p += na;
	switch (k) {
	case SIG_STATIC:
		snprintf(s->hex, sizeof(s->hex), "%s%s", ha, hb);
		break;
	case SIG_WILD: /* two unknown bytes between the parts */
		snprintf(s->hex, sizeof(s->hex), "%s????%s", ha, hb);
		*p++ = (unsigned char)rnd();
		*p++ = (unsigned char)rnd();
		break;
	case SIG_NIBBLE: { /* a byte whose low nibble is unknown */
		unsigned char hi = (unsigned char)(rnd_below(16) << 4);
		snprintf(s->hex, sizeof(s->hex), "%s%x?%s", ha, hi >> 4, hb);
		*p++ = (unsigned char)(hi | rnd_below(16));
		break;
	}
	case SIG_GAP: { /* 4 to 40 unknown bytes */
		size_t gap = 4 + rnd_below(37);
		snprintf(s->hex, sizeof(s->hex), "%s{4-40}%s", ha, hb);
		fill_random(p, gap);
		p += gap;
		break;
	}
	case SIG_STAR: { /* any number of bytes: the instance puts 100 between */
		snprintf(s->hex, sizeof(s->hex), "%s*%s", ha, hb);
		fill_random(p, 100);
		p += 100;
		break;
	}
	case SIG_ALT: { /* one of three 2-byte alternatives */
		unsigned char alt[3][2];
		fill_random(&alt[0][0], sizeof(alt));
		alt[1][0] = (unsigned char)(alt[0][0] ^ 0x55);
		alt[2][0] = (unsigned char)(alt[0][0] ^ 0xaa);
		snprintf(s->hex, sizeof(s->hex), "%s(%02x%02x|%02x%02x|%02x%02x)%s", ha, alt[0][0],
			 alt[0][1], alt[1][0], alt[1][1], alt[2][0], alt[2][1], hb);
		size_t pick = rnd_below(3);
		*p++ = alt[pick][0];
		*p++ = alt[pick][1];
		break;
	}
	default:
		break;
	}
	memcpy(p, b, nb);
	p += nb;
	s->inst_len = (size_t)(p - s->inst);
	s->where = AT_ANY;
}

/* Offset field of an .ndb line */
static void sig_offset(const struct sig *s, char *out, size_t n)
{
	switch (s->where) {
	case AT_START:
		snprintf(out, n, "0");
		break;
	case AT_OFFSET:
		snprintf(out, n, "%zu", s->offset);
		break;
	case AT_EOF:
		snprintf(out, n, "EOF-%zu", s->offset);
		break;
	default:
		snprintf(out, n, "*");
	}
}

/* ---- the tree ---- */

struct file {
	char path[128]; /* relative to the input folder */
	size_t size;
	int kind; /* 0 text, 1 random, 2 records */
	int sig;  /* planted signature, -1 none */
	int near; /* planted near miss (its signature, -1 none) */
	int hdb;  /* detected by hash */
	int pack; /* in pack/packN (N), or -1 */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void md5_file(const unsigned char *buf, size_t n, char out[33])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	if (!EVP_Digest(buf, n, md, &len, EVP_md5(), NULL)) {
		fprintf(stderr, "gentree: OpenSSL MD5 failed\n");
		exit(1);
	}
	hex_bytes(out, md, len);
}

int main(int argc, char **argv)
{
	long mb = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	if (mb < 4 || mb > 4096) {
		fprintf(stderr, "usage: gentree MEGABYTES (4..4096)\n");
		return 2;
	}
	const size_t total = (size_t)mb << 20;
	const int npacks = 3;
	const int nsigs = 36;      /* planted ones, 6 of each kind */
	const int ndecoys = 240;   /* planted nowhere */
	const int nnear = 12;      /* planted with the last byte changed */
	const int nhdb = 24;       /* files detected by hash */
	const int nhdb_decoys = 60;

	/* files: sizes log-uniform-ish from 1 KiB to 2 MiB until the total */
	size_t cap = 256, n = 0, sum = 0;
	struct file *files = xmalloc(cap * sizeof(*files));
	while (sum < total) {
		if (n == cap)
			files = realloc(files, (cap *= 2) * sizeof(*files));
		if (!files)
			die("out of memory", "");
		struct file *f = &files[n];
		memset(f, 0, sizeof(*f));
		size_t size = (size_t)1024 << rnd_below(11);
		size += rnd_below(size);
		if (sum + size > total)
			size = total - sum < 1024 ? 1024 : total - sum;
		f->size = size;
		f->kind = (int)rnd_below(3);
		f->sig = f->near = -1;
		f->pack = -1;
		static const char *const ext[] = {"txt", "bin", "dat"};
		if (n % 29 == 7 && n / 29 < (size_t)npacks * 4) {
			/* every 29th file, while there are packs to fill: 4 per pack */
			f->pack = (int)((n / 29) % (size_t)npacks);
			snprintf(f->path, sizeof(f->path), "pack/pack%d/m%03zu.%s", f->pack, n,
				 ext[f->kind]);
		} else {
			size_t d1 = rnd_below(12), d2 = rnd_below(6);
			if (d2 < 3)
				snprintf(f->path, sizeof(f->path), "tree/d%02zu/d%02zu/f%04zu.%s", d1,
					 d2, n, ext[f->kind]);
			else
				snprintf(f->path, sizeof(f->path), "tree/d%02zu/f%04zu.%s", d1, n,
					 ext[f->kind]);
		}
		sum += size;
		n++;
	}
	if (n < (size_t)(nsigs + nnear + nhdb + npacks) * 2) {
		fprintf(stderr, "gentree: %ld MiB make only %zu files; ask for more\n", mb, n);
		return 2;
	}

	/* signatures */
	int nall = nsigs + ndecoys + nnear;
	struct sig *sigs = xmalloc((size_t)nall * sizeof(*sigs));
	for (int i = 0; i < nall; i++) {
		const char *prefix = i < nsigs ? "Planted" : i < nsigs + ndecoys ? "Decoy" : "Near";
		make_sig(&sigs[i], i, (enum sig_kind)(i % SIG_KINDS), prefix);
	}

	/* assign: planted signatures and near misses to distinct files outside
	 * the packs, except one planted signature per pack; hash signatures to
	 * other files */
	size_t next = 0;
	int *used = calloc(n, sizeof(int));
	if (!used)
		die("out of memory", "");
#define NEXT_FREE(cond)                                                  \
	do {                                                             \
		do                                                       \
			next = (next + 1 + rnd_below(5)) % n;            \
		while (used[next] || !(cond));                           \
		used[next] = 1;                                          \
	} while (0)
	for (int i = 0; i < nsigs; i++) {
		int want_pack = i < npacks ? i : -1;
		NEXT_FREE(files[next].pack == want_pack && files[next].size >= 4096);
		files[next].sig = i;
		/* positions: a few at the start, at a fixed offset, before the end */
		if (i % 9 == 4) {
			sigs[i].where = AT_START;
		} else if (i % 9 == 5) {
			sigs[i].where = AT_OFFSET;
			sigs[i].offset = 512 + rnd_below(2048);
		} else if (i % 9 == 6) {
			sigs[i].where = AT_EOF;
			sigs[i].offset = sigs[i].inst_len + rnd_below(300);
		}
	}
	for (int i = 0; i < nnear; i++) {
		NEXT_FREE(files[next].pack < 0 && files[next].size >= 4096);
		files[next].near = nsigs + ndecoys + i;
	}
	for (int i = 0; i < nhdb; i++) {
		NEXT_FREE(files[next].pack < 0);
		files[next].hdb = 1;
	}
#undef NEXT_FREE

	mkdirs("sigs");
	mkdirs("tree/archives");
	FILE *hdb = open_out("sigs/flagscope.hdb");
	size_t nexp = 0;
	char **expected = xmalloc((n + (size_t)npacks) * sizeof(char *));
	unsigned char *buf = xmalloc((size_t)4 << 20);
	for (size_t i = 0; i < n; i++) {
		struct file *f = &files[i];
		if (f->kind == 0)
			fill_text(buf, f->size);
		else if (f->kind == 1)
			fill_random(buf, f->size);
		else
			fill_records(buf, f->size);
		int s = f->sig >= 0 ? f->sig : f->near;
		if (s >= 0) {
			struct sig *g = &sigs[s];
			size_t at = g->where == AT_START    ? 0
				    : g->where == AT_OFFSET ? g->offset
				    : g->where == AT_EOF    ? f->size - g->offset
							    : rnd_below(f->size - g->inst_len);
			memcpy(buf + at, g->inst, g->inst_len);
			if (f->near >= 0)
				buf[at + g->inst_len - 1] ^= 0x01;
		}
		char *slash = strrchr(f->path, '/');
		*slash = '\0';
		mkdirs(f->path);
		*slash = '/';
		FILE *out = open_out(f->path);
		if (fwrite(buf, 1, f->size, out) != f->size || fclose(out))
			die("cannot write", f->path);
		char line[256];
		if (f->hdb) {
			char md5[33];
			md5_file(buf, f->size, md5);
			fprintf(hdb, "%s:%zu:Flagscope.Hash.File%04zu\n", md5, f->size, i);
			snprintf(line, sizeof(line), "%s: Flagscope.Hash.File%04zu.UNOFFICIAL FOUND",
				 f->path, i);
			expected[nexp++] = strdup(line);
		} else if (f->sig >= 0 && f->pack < 0) {
			snprintf(line, sizeof(line), "%s: %s.UNOFFICIAL FOUND", f->path,
				 sigs[f->sig].name);
			expected[nexp++] = strdup(line);
		} else if (f->sig >= 0) {
			snprintf(line, sizeof(line), "tree/archives/pack%d.tar.gz: %s.UNOFFICIAL FOUND",
				 f->pack, sigs[f->sig].name);
			expected[nexp++] = strdup(line);
		}
	}
	for (int i = 0; i < nhdb_decoys; i++) {
		/* a real file's size with a hash no file has */
		unsigned char md[16];
		char md5[33];
		fill_random(md, sizeof(md));
		hex_bytes(md5, md, sizeof(md));
		fprintf(hdb, "%s:%zu:Flagscope.Hash.Decoy%03d\n", md5, files[rnd_below(n)].size, i);
	}
	if (fclose(hdb))
		die("cannot write", "sigs/flagscope.hdb");

	FILE *ndb = open_out("sigs/flagscope.ndb");
	for (int i = 0; i < nall; i++) {
		char off[32];
		sig_offset(&sigs[i], off, sizeof(off));
		fprintf(ndb, "%s:0:%s:%s\n", sigs[i].name, off, sigs[i].hex);
	}
	if (fclose(ndb))
		die("cannot write", "sigs/flagscope.ndb");

	qsort(expected, nexp, sizeof(char *), cmp_str);
	FILE *exp = open_out("expected.txt");
	for (size_t i = 0; i < nexp; i++)
		fprintf(exp, "%s\n", expected[i]);
	if (fclose(exp))
		die("cannot write", "expected.txt");
	fprintf(stderr, "gentree: %zu files, %zu bytes, %d+%d+%d body and %d+%d hash signatures, "
			"%zu detections expected\n",
		n, sum, nsigs, ndecoys, nnear, nhdb, nhdb_decoys, nexp);
	return 0;
}
