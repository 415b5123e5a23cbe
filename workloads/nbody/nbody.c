/*
 * nbody - floating-point workload of flagscope.
 *
 * Usage: nbody STEPS
 *
 * Integrates a fixed planetary system (a star and eight planets on slightly
 * eccentric, slightly inclined orbits, G = 1) with the velocity-Verlet
 * (kick-drift-kick) scheme for STEPS steps of DT, and prints the total
 * energy and angular momentum before and after.
 *
 * Printing: the values are rounded to DIGITS decimals with integer
 * arithmetic, so the output does not depend on the C library's printf.
 * DIGITS is chosen so that -O2, -O3, -march=x86-64-v2 and -v3 (where FMA
 * contraction changes the last bits of every step) with gcc and clang print
 * the same bytes; -ffast-math may legitimately print something else.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NBODY 9
#define DT 0.002
#define DIGITS 9

struct body {
	double x, y, z;
	double vx, vy, vz;
	double ax, ay, az;
	double m;
};

/* mass, orbital radius, eccentricity-like speed factor, inclination-like
 * height factor, starting angle in units of 1/64 turn */
static const struct {
	double m, r, speed, tilt;
	int angle;
} planets[NBODY - 1] = {
	{ 2.0e-4, 0.55, 1.02, 0.010, 3 },
	{ 9.0e-4, 0.90, 0.98, -0.020, 17 },
	{ 1.2e-3, 1.45, 1.03, 0.015, 29 },
	{ 3.0e-4, 2.30, 0.97, 0.030, 41 },
	{ 8.0e-3, 3.80, 1.01, -0.010, 50 },
	{ 2.5e-3, 6.20, 0.99, 0.020, 7 },
	{ 4.0e-4, 10.0, 1.04, -0.030, 61 },
	{ 5.0e-4, 16.0, 0.96, 0.010, 36 },
};

/* cos and sin of k/64 turn from a rotation applied k times, so the start
 * does not depend on the C library's trigonometry. */
static void turn(int k, double *c, double *s)
{
	const double c1 = 0.99518472667219688624; /* cos(2pi/64) */
	const double s1 = 0.09801714032956060199; /* sin(2pi/64) */
	double cc = 1.0, ss = 0.0;
	for (int i = 0; i < k; i++) {
		double t = cc * c1 - ss * s1;
		ss = ss * c1 + cc * s1;
		cc = t;
	}
	*c = cc;
	*s = ss;
}

static void setup(struct body *b)
{
	b[0] = (struct body){ .m = 1.0 };
	for (int i = 1; i < NBODY; i++) {
		double c, s;
		turn(planets[i - 1].angle, &c, &s);
		double r = planets[i - 1].r;
		double v = planets[i - 1].speed * sqrt((1.0 + planets[i - 1].m) / r);
		b[i] = (struct body){
			.x = r * c, .y = r * s, .z = r * planets[i - 1].tilt,
			.vx = -v * s, .vy = v * c, .vz = -v * planets[i - 1].tilt * c,
			.m = planets[i - 1].m,
		};
	}
	/* move to the centre-of-mass frame: no drift of the whole system */
	double px = 0, py = 0, pz = 0, mt = 0;
	for (int i = 0; i < NBODY; i++) {
		px += b[i].m * b[i].vx;
		py += b[i].m * b[i].vy;
		pz += b[i].m * b[i].vz;
		mt += b[i].m;
	}
	for (int i = 0; i < NBODY; i++) {
		b[i].vx -= px / mt;
		b[i].vy -= py / mt;
		b[i].vz -= pz / mt;
	}
}

static void accelerations(struct body *b)
{
	for (int i = 0; i < NBODY; i++)
		b[i].ax = b[i].ay = b[i].az = 0.0;
	for (int i = 0; i < NBODY; i++) {
		for (int j = i + 1; j < NBODY; j++) {
			double dx = b[j].x - b[i].x;
			double dy = b[j].y - b[i].y;
			double dz = b[j].z - b[i].z;
			double d2 = dx * dx + dy * dy + dz * dz;
			double inv = 1.0 / (d2 * sqrt(d2));
			double fi = b[j].m * inv, fj = b[i].m * inv;
			b[i].ax += dx * fi;
			b[i].ay += dy * fi;
			b[i].az += dz * fi;
			b[j].ax -= dx * fj;
			b[j].ay -= dy * fj;
			b[j].az -= dz * fj;
		}
	}
}

static void step(struct body *b)
{
	const double h = 0.5 * DT;
	for (int i = 0; i < NBODY; i++) {
		b[i].vx += h * b[i].ax;
		b[i].vy += h * b[i].ay;
		b[i].vz += h * b[i].az;
		b[i].x += DT * b[i].vx;
		b[i].y += DT * b[i].vy;
		b[i].z += DT * b[i].vz;
	}
	accelerations(b);
	for (int i = 0; i < NBODY; i++) {
		b[i].vx += h * b[i].ax;
		b[i].vy += h * b[i].ay;
		b[i].vz += h * b[i].az;
	}
}

static double energy(const struct body *b)
{
	double e = 0.0;
	for (int i = 0; i < NBODY; i++) {
		e += 0.5 * b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy +
				     b[i].vz * b[i].vz);
		for (int j = i + 1; j < NBODY; j++) {
			double dx = b[j].x - b[i].x;
			double dy = b[j].y - b[i].y;
			double dz = b[j].z - b[i].z;
			e -= b[i].m * b[j].m / sqrt(dx * dx + dy * dy + dz * dz);
		}
	}
	return e;
}

/* z component of the total angular momentum */
static double angular_momentum(const struct body *b)
{
	double l = 0.0;
	for (int i = 0; i < NBODY; i++)
		l += b[i].m * (b[i].x * b[i].vy - b[i].y * b[i].vx);
	return l;
}

/* v rounded to DIGITS decimals, printed with integer arithmetic */
static void print_fixed(const char *label, double v)
{
	double scale = 1.0;
	for (int i = 0; i < DIGITS; i++)
		scale *= 10.0;
	double a = (v < 0 ? -v : v) * scale + 0.5;
	uint64_t q = (uint64_t)a;
	uint64_t unit = (uint64_t)scale;
	printf("%s %s%llu.%0*llu\n", label, v < 0 && q ? "-" : "",
	       (unsigned long long)(q / unit), DIGITS,
	       (unsigned long long)(q % unit));
}

int main(int argc, char **argv)
{
	if (argc != 2 || atol(argv[1]) <= 0) {
		fprintf(stderr, "usage: nbody STEPS\n");
		return 2;
	}
	long steps = atol(argv[1]);
	struct body b[NBODY];

	setup(b);
	accelerations(b);
	printf("bodies %d steps %ld dt %d/1000\n", NBODY, steps, (int)(DT * 1000));
	print_fixed("energy-before(x1000)", energy(b) * 1000.0);
	print_fixed("angmom-before", angular_momentum(b));
	for (long s = 0; s < steps; s++)
		step(b);
	print_fixed("energy-after(x1000)", energy(b) * 1000.0);
	print_fixed("angmom-after", angular_momentum(b));
	return 0;
}
