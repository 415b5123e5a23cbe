/*
 * genwav.c - the lame workload's input: SECONDS (default 20) of 44.1 kHz
 * 16-bit stereo PCM as a WAV file on stdout, the same bytes on every machine:
 * a fixed-seed generator and integer arithmetic only (a fixed-point sine, no
 * libm, no floating point), so no compiler or CPU can change a sample.
 *
 * What LAME meets, in one-second scenes that cycle:
 *   chords of steady tones (tonal masking), a rising and a falling chirp
 *   (100 Hz - 12 kHz, both channels different), filtered noise bursts with
 *   sharp attacks (transients: short blocks), a click train, near-silence,
 *   and a mix of all of them; the channels differ so joint stereo works.
 *
 *   cc -O2 -o genwav genwav.c && ./genwav 20 > signal.wav
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RATE 44100

static uint64_t state = 0x2545f4914f6cdd1dULL;

/* xorshift64* */
static uint32_t rnd(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return (uint32_t)((state * 0x2545f4914f6cdd1dULL) >> 32);
}

/* sin(2*pi*phase/2^32) * 32767, from a 5th-order odd polynomial on the
 * quarter wave: sin(pi/2 x) ~ x (pi/2 - x^2 (0.6415927 - 0.0707963 x^2)),
 * exact slope at 0 and value and flat slope at 1; |error| < 2e-4.  Fixed
 * point: x and the coefficients in Q16. */
static int32_t isin(uint32_t phase)
{
	uint32_t quadrant = phase >> 30;
	int64_t x = (int64_t)((phase >> 14) & 0xffff); /* Q16 in [0, 1) */
	if (quadrant & 1)
		x = 65536 - x;
	int64_t x2 = (x * x) >> 16;
	int64_t poly = 102944 - ((x2 * (42047 - ((4640 * x2) >> 16))) >> 16); /* Q16 */
	int64_t s = (x * poly) >> 16;                                           /* Q16, <= 1.0 */
	int32_t v = (int32_t)((s * 32767) >> 16);
	return quadrant & 2 ? -v : v;
}

/* phase increment for a frequency in millihertz */
static uint32_t step(uint64_t mhz)
{
	return (uint32_t)((mhz << 32) / 1000 / RATE);
}

struct voice {
	uint32_t phase, inc;
};

static int32_t tone(struct voice *v)
{
	int32_t s = isin(v->phase);
	v->phase += v->inc;
	return s;
}

static int16_t clip(int64_t v)
{
	return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static void put16(uint32_t v)
{
	putchar((int)(v & 0xff));
	putchar((int)((v >> 8) & 0xff));
}

static void put32(uint32_t v)
{
	put16(v & 0xffff);
	put16(v >> 16);
}

int main(int argc, char **argv)
{
	long seconds = argc > 1 ? strtol(argv[1], NULL, 10) : 20;
	if (seconds < 1 || seconds > 3600 || argc > 2) {
		fprintf(stderr, "usage: genwav [SECONDS]   (1..3600, default 20)\n");
		return 2;
	}
	uint32_t frames = (uint32_t)seconds * RATE;
	uint32_t bytes = frames * 4;

	fputs("RIFF", stdout);
	put32(36 + bytes);
	fputs("WAVEfmt ", stdout);
	put32(16);
	put16(1);        /* PCM */
	put16(2);        /* channels */
	put32(RATE);
	put32(RATE * 4); /* byte rate */
	put16(4);        /* block align */
	put16(16);       /* bits */
	fputs("data", stdout);
	put32(bytes);

	/* A major and a minor chord, detuned between the channels */
	static const uint64_t chord_l[] = {261626, 329628, 391995, 523251};
	static const uint64_t chord_r[] = {220000, 261626, 329628, 440000};
	struct voice cl[4], cr[4], chirp_l = {0, 0}, chirp_r = {0, 0};
	for (int i = 0; i < 4; i++) {
		cl[i] = (struct voice){0, step(chord_l[i])};
		cr[i] = (struct voice){rnd(), step(chord_r[i] + 1500)};
	}
	int32_t lp_l = 0, lp_r = 0, env = 0;

	for (uint32_t n = 0; n < frames; n++) {
		uint32_t sec = n / RATE, in_sec = n % RATE;
		uint32_t scene = sec % 6;
		int64_t l = 0, r = 0;

		/* chirps sweep over each second: left up, right down */
		uint64_t up = 100000 + (uint64_t)in_sec * (12000000 - 100000) / RATE;
		uint64_t down = 12000000 - (uint64_t)in_sec * (12000000 - 100000) / RATE;
		chirp_l.inc = step(up);
		chirp_r.inc = step(down);
		int32_t cu = tone(&chirp_l), cd = tone(&chirp_r);

		int32_t chord_sum_l = 0, chord_sum_r = 0;
		for (int i = 0; i < 4; i++) {
			chord_sum_l += tone(&cl[i]);
			chord_sum_r += tone(&cr[i]);
		}

		/* noise, one-pole low-passed (left darker than right) */
		int32_t wl = (int32_t)(rnd() >> 16) - 32768, wr = (int32_t)(rnd() >> 16) - 32768;
		lp_l += (wl - lp_l) >> 3;
		lp_r += (wr - lp_r) >> 1;
		/* bursts: attack at every 1/8 s, exponential decay */
		if (in_sec % (RATE / 8) == 0)
			env = 32767;
		else
			env -= env >> 10;

		switch (scene) {
		case 0:
			l = chord_sum_l / 5;
			r = chord_sum_r / 5;
			break;
		case 1:
			l = cu / 2;
			r = cd / 2;
			break;
		case 2:
			l = ((int64_t)lp_l * env) >> 15;
			r = ((int64_t)lp_r * env) >> 16;
			break;
		case 3: /* clicks every 10 ms over a quiet tone */
			l = (in_sec % 441 < 3 ? 24000 : 0) + chord_sum_l / 40;
			r = (in_sec % 441 == 220 ? -24000 : 0) + chord_sum_r / 40;
			break;
		case 4: /* near silence: dither-level noise */
			l = wl >> 12;
			r = wr >> 12;
			break;
		default:
			l = chord_sum_l / 10 + cu / 5 + (((int64_t)lp_l * env) >> 16);
			r = chord_sum_r / 10 + cd / 5 + (((int64_t)lp_r * env) >> 16);
		}
		put16((uint16_t)clip(l));
		put16((uint16_t)clip(r));
	}
	return fflush(stdout) ? 1 : 0;
}
