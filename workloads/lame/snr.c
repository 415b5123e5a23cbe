/*
 * snr.c - the signal-to-noise ratio of a decoded PCM WAV file against a
 * reference one, for LAME's tolerant check: an MP3 that differs from the
 * reference byte for byte (FMA contraction under -march=x86-64-v3) is
 * accepted when its decoded sound is within the stated SNR.
 * usage: snr REF.wav GOT.wav MIN_DB   (exit 0 when SNR >= MIN_DB)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the samples of the "data" chunk of a 16-bit PCM WAV file */
static short *read_wav(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char hdr[12], ck[8];
	if (!f || fread(hdr, 1, 12, f) != 12 || memcmp(hdr, "RIFF", 4) || memcmp(hdr + 8, "WAVE", 4)) {
		fprintf(stderr, "snr: %s: not a WAV file\n", path);
		exit(2);
	}
	while (fread(ck, 1, 8, f) == 8) {
		unsigned long len = ck[4] | ck[5] << 8 | ck[6] << 16 | (unsigned long)ck[7] << 24;
		if (memcmp(ck, "data", 4)) {
			fseek(f, (long)(len + (len & 1)), SEEK_CUR);
			continue;
		}
		short *s = malloc(len + 2);
		*n = fread(s, 1, len, f) / 2;
		fclose(f);
		return s;
	}
	fprintf(stderr, "snr: %s: no data chunk\n", path);
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: snr REF.wav GOT.wav MIN_DB\n");
		return 2;
	}
	size_t nr, ng;
	short *r = read_wav(argv[1], &nr), *g = read_wav(argv[2], &ng);
	double min_db = atof(argv[3]), sig = 0, noise = 0;
	size_t n = nr < ng ? nr : ng;
	for (size_t i = 0; i < n; i++) {
		double d = (double)g[i] - r[i];
		sig += (double)r[i] * r[i];
		noise += d * d;
	}
	/* a length difference is noise too: the missing samples count whole */
	for (size_t i = n; i < nr; i++)
		noise += (double)r[i] * r[i];
	double db = noise > 0 ? 10 * log10(sig / noise) : INFINITY;
	printf("decoded PCM SNR %.1f dB against the reference (tolerance %.0f dB)\n", db, min_db);
	return db >= min_db ? 0 : 1;
}
