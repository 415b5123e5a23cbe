/* validate.c - see validate.h */
#include "harness/validate.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

static void describe_byte(struct strbuf *sb, int c)
{
	if (c < 0)
		sb_add(sb, "end of file");
	else if (isprint(c))
		sb_addf(sb, "0x%02x '%c'", c, c);
	else
		sb_addf(sb, "0x%02x", c);
}

int validate_files(const char *label, const char *got, const char *want, struct strbuf *why)
{
	FILE *a = fopen(got, "rb"), *b = fopen(want, "rb");
	if (!a || !b) {
		sb_addf(why, "%s: cannot read %s: %s", label, !a ? got : want, strerror(errno));
		if (a)
			fclose(a);
		if (b)
			fclose(b);
		return -1;
	}
	long long off = 0;
	int ca, cb, rc = 0;
	char bufa[65536], bufb[65536];
	size_t na, nb;
	for (;;) {
		na = fread(bufa, 1, sizeof(bufa), a);
		nb = fread(bufb, 1, sizeof(bufb), b);
		size_t n = na < nb ? na : nb;
		if (memcmp(bufa, bufb, n)) {
			size_t i = 0;
			while (bufa[i] == bufb[i])
				i++;
			ca = (unsigned char)bufa[i];
			cb = (unsigned char)bufb[i];
			off += (long long)i;
			rc = 1;
			break;
		}
		off += (long long)n;
		if (na != nb) {
			ca = na > nb ? (unsigned char)bufa[n] : -1;
			cb = nb > na ? (unsigned char)bufb[n] : -1;
			rc = 1;
			break;
		}
		if (na == 0)
			break;
	}
	if (rc) {
		sb_addf(why, "%s differs from the reference at byte %lld: ", label, off);
		describe_byte(why, ca);
		sb_add(why, " instead of ");
		describe_byte(why, cb);
	}
	fclose(a);
	fclose(b);
	return rc;
}
