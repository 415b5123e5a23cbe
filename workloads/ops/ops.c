/*
 * ops.c - latency and parallelism of one arithmetic operation, in the
 * manner of lmbench 3's lat_ops and par_ops.
 *
 *   ops OP STEPS      OP is TYPE_NAME: TYPE int | int64 | float | double,
 *                     NAME add | mul | div | mod | bit (mod, bit: int, int64)
 *   ops list          the OP names, one a line
 *
 * Two measurements of OP, each STEPS operations long:
 *   latency      one dependent chain: every step needs the previous result
 *   parallelism  CHAINS independent chains of STEPS / CHAINS steps each,
 *                interleaved in one loop, so a CPU that overlaps
 *                operations finishes them sooner
 * stdout: "OP steps=N lat=HEX par=HEX", the final value of the dependent
 *         chain and the XOR of the independent chains' final values, as
 *         fixed-width bit patterns: identical on every correct build of
 *         every ABI (o32, n32, n64, x86_64), so the harness compares it
 *         with the baseline's
 * stderr: "OP latency: X ns", "OP throughput: X ns" (per operation, the
 *         independent chains) and "OP parallelism: X" (latency divided by
 *         throughput), timed with CLOCK_MONOTONIC; X has a fixed width
 *         (000000012.0353) so that printing it costs the same instructions
 *         whatever the time (the counts under QEMU are exact)
 *
 * What keeps the compiler from removing or reshaping the chains at -O3:
 *   - operands come from a volatile table read at run time, and STEPS from
 *     argv, so nothing can be folded into a constant;
 *   - every step ends with BARRIER(x), an empty asm that claims to change x
 *     in a register ("+r" for integers, the FP register class for float and
 *     double): the compiler must assume an unknown value after each step, so
 *     it can neither sum a chain in closed form (x + n*k) nor strength-reduce
 *     nor reassociate steps, and values bound to scalar registers by asm
 *     cannot be packed into vector lanes, so nothing is vectorised;
 *   - each measured loop is its own external noinline function
 *     (lat_int64_div, par_int64_div, ...), so objdump and `flagscope why`
 *     find the operation in it;
 *   - the results are printed; no -ffast-math is needed or assumed (float
 *     chains are exact IEEE arithmetic, the same on every target).
 * Integers: add, mul and bit on unsigned fixed-width types (wrap-around is
 * defined), div and mod on signed ones (as lmbench: signed division).  mod
 * adds a constant after each remainder so that the divisor never becomes 0
 * (lmbench ORs one in instead); div is x = s / x, which stays in [1, s].
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHAINS 8
#define NOINLINE __attribute__((noinline))

#define BARRIER_INT(x) __asm__ volatile("" : "+r"(x))
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__))
#define BARRIER_FP(x) __asm__ volatile("" : "+x"(x))
#elif defined(__mips__) && !defined(__mips_soft_float)
#define BARRIER_FP(x) __asm__ volatile("" : "+f"(x))
#elif defined(__aarch64__)
#define BARRIER_FP(x) __asm__ volatile("" : "+w"(x))
#else /* a memory round trip per step: slower, still exact */
#define BARRIER_FP(x) __asm__ volatile("" : "+m"(x))
#endif

/* The operands, read at run time: the compiler cannot know them. */
static volatile const struct {
	uint32_t i_add, i_mul, i_x;
	int32_t i_s, i_x_div, i_m, i_x_mod;
	uint64_t l_add, l_mul, l_x;
	int64_t l_s, l_x_div, l_m, l_x_mod;
	float f_add, f_mul, f_s, f_x;
	double d_add, d_mul, d_s, d_x;
} in = {
	.i_add = 0x9e3779b9u, .i_mul = 0x9e3779b1u, .i_x = 0x12345678u,
	.i_s = 2147483000, .i_x_div = 46337, .i_m = 65536, .i_x_mod = 100003,
	.l_add = UINT64_C(0x9e3779b97f4a7c15), .l_mul = UINT64_C(0x9e3779b97f4a7c13),
	.l_x = UINT64_C(0x0123456789abcdef),
	.l_s = INT64_C(0x3fffffffffffff00), .l_x_div = INT64_C(2147483659),
	.l_m = INT64_C(0x100000000), .l_x_mod = INT64_C(0x100000007),
	.f_add = 0.5f, .f_mul = 1.00000012f, .f_s = 3.0f, .f_x = 1.25f,
	.d_add = 0.5, .d_mul = 1.0000000000009095, .d_s = 3.0, .d_x = 1.25,
};

/* One step of each operation on x with the operand k (and m for mod). */
#define STEP_ADD(x, k, m) ((x) = (x) + (k))
#define STEP_MUL(x, k, m) ((x) = (x) * (k))
#define STEP_DIV(x, k, m) ((x) = (k) / (x))
#define STEP_MOD(x, k, m) ((x) = (k) % (x) + (m))
#define STEP_BIT(x, k, m) ((x) = (x) ^ (k))

/*
 * lat_NAME(x, k, m, n): n dependent steps from x.
 * par_NAME(x, k, m, n): n steps on each of the CHAINS values in x[].
 */
#define KERNELS(NAME, T, STEP, BAR)                                       \
	T lat_##NAME(T x, T k, T m, long n);                                  \
	void par_##NAME(T *x, T k, T m, long n);                              \
	NOINLINE T lat_##NAME(T x, T k, T m, long n)                          \
	{                                                                     \
		(void)m;                                                          \
		for (long i = 0; i < n; i++) {                                    \
			STEP(x, k, m);                                                \
			BAR(x);                                                       \
		}                                                                 \
		return x;                                                         \
	}                                                                     \
	NOINLINE void par_##NAME(T *x, T k, T m, long n)                      \
	{                                                                     \
		(void)m;                                                          \
		T a = x[0], b = x[1], c = x[2], d = x[3];                         \
		T e = x[4], f = x[5], g = x[6], h = x[7];                         \
		for (long i = 0; i < n; i++) {                                    \
			STEP(a, k, m); STEP(b, k, m); STEP(c, k, m); STEP(d, k, m);   \
			STEP(e, k, m); STEP(f, k, m); STEP(g, k, m); STEP(h, k, m);   \
			BAR(a); BAR(b); BAR(c); BAR(d);                               \
			BAR(e); BAR(f); BAR(g); BAR(h);                               \
		}                                                                 \
		x[0] = a; x[1] = b; x[2] = c; x[3] = d;                           \
		x[4] = e; x[5] = f; x[6] = g; x[7] = h;                           \
	}

KERNELS(int_add, uint32_t, STEP_ADD, BARRIER_INT)
KERNELS(int_mul, uint32_t, STEP_MUL, BARRIER_INT)
KERNELS(int_div, int32_t, STEP_DIV, BARRIER_INT)
KERNELS(int_mod, int32_t, STEP_MOD, BARRIER_INT)
KERNELS(int_bit, uint32_t, STEP_BIT, BARRIER_INT)
KERNELS(int64_add, uint64_t, STEP_ADD, BARRIER_INT)
KERNELS(int64_mul, uint64_t, STEP_MUL, BARRIER_INT)
KERNELS(int64_div, int64_t, STEP_DIV, BARRIER_INT)
KERNELS(int64_mod, int64_t, STEP_MOD, BARRIER_INT)
KERNELS(int64_bit, uint64_t, STEP_BIT, BARRIER_INT)
KERNELS(float_add, float, STEP_ADD, BARRIER_FP)
KERNELS(float_mul, float, STEP_MUL, BARRIER_FP)
KERNELS(float_div, float, STEP_DIV, BARRIER_FP)
KERNELS(double_add, double, STEP_ADD, BARRIER_FP)
KERNELS(double_mul, double, STEP_MUL, BARRIER_FP)
KERNELS(double_div, double, STEP_DIV, BARRIER_FP)

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The bit pattern of a value of any of the four types, widened. */
static uint64_t bits32(uint32_t v) { return v; }
static uint64_t bitsf(float v) { uint32_t u; memcpy(&u, &v, sizeof u); return u; }
static uint64_t bitsd(double v) { uint64_t u; memcpy(&u, &v, sizeof u); return u; }
#define BITS_uint32_t(v) bits32(v)
#define BITS_int32_t(v) bits32((uint32_t)(v))
#define BITS_uint64_t(v) ((uint64_t)(v))
#define BITS_int64_t(v) ((uint64_t)(v))
#define BITS_float(v) bitsf(v)
#define BITS_double(v) bitsd(v)

struct result {
	uint64_t lat, par; /* bit patterns of the final values */
	double lat_ns, par_ns; /* nanoseconds per operation */
};

/*
 * RUNNER(NAME, T, X0, K, M, DX): measure NAME from the start value X0
 * (chain i of the parallel run starts at X0 + i * DX) with operands K, M.
 */
#define RUNNER(NAME, T, X0, K, M, DX)                                     \
	static void run_##NAME(long steps, struct result *r)                  \
	{                                                                     \
		T x0 = X0, k = K, m = M, x[CHAINS];                               \
		long per_chain = steps / CHAINS;                                  \
		double t0 = now_ns();                                             \
		T last = lat_##NAME(x0, k, m, steps);                             \
		double t1 = now_ns();                                             \
		for (int i = 0; i < CHAINS; i++)                                  \
			x[i] = x0 + (T)i * (DX);                                      \
		par_##NAME(x, k, m, per_chain);                                   \
		double t2 = now_ns();                                             \
		r->lat = BITS_##T(last);                                          \
		r->par = 0;                                                       \
		for (int i = 0; i < CHAINS; i++)                                  \
			r->par ^= BITS_##T(x[i]) << i;                                \
		r->lat_ns = (t1 - t0) / steps;                                    \
		r->par_ns = (t2 - t1) / ((double)per_chain * CHAINS);             \
	}

RUNNER(int_add, uint32_t, in.i_x, in.i_add, 0, 1)
RUNNER(int_mul, uint32_t, in.i_x | 1, in.i_mul, 0, 2)
RUNNER(int_div, int32_t, in.i_x_div, in.i_s, 0, 1)
RUNNER(int_mod, int32_t, in.i_x_mod, in.i_s, in.i_m, 1)
RUNNER(int_bit, uint32_t, in.i_x, in.i_add, 0, 1)
RUNNER(int64_add, uint64_t, in.l_x, in.l_add, 0, 1)
RUNNER(int64_mul, uint64_t, in.l_x | 1, in.l_mul, 0, 2)
RUNNER(int64_div, int64_t, in.l_x_div, in.l_s, 0, 1)
RUNNER(int64_mod, int64_t, in.l_x_mod, in.l_s, in.l_m, 1)
RUNNER(int64_bit, uint64_t, in.l_x, in.l_add, 0, 1)
RUNNER(float_add, float, in.f_x, in.f_add, 0, 0.125f)
RUNNER(float_mul, float, in.f_x, in.f_mul, 0, 0.125f)
RUNNER(float_div, float, in.f_x, in.f_s, 0, 0.125f)
RUNNER(double_add, double, in.d_x, in.d_add, 0, 0.125)
RUNNER(double_mul, double, in.d_x, in.d_mul, 0, 0.125)
RUNNER(double_div, double, in.d_x, in.d_s, 0, 0.125)

static const struct op {
	const char *name;
	void (*run)(long steps, struct result *r);
} ops[] = {
#define OP(NAME) { #NAME, run_##NAME }
	OP(int_add), OP(int_mul), OP(int_div), OP(int_mod), OP(int_bit),
	OP(int64_add), OP(int64_mul), OP(int64_div), OP(int64_mod), OP(int64_bit),
	OP(float_add), OP(float_mul), OP(float_div),
	OP(double_add), OP(double_mul), OP(double_div),
#undef OP
};
#define NOPS (sizeof ops / sizeof ops[0])

/*
 * fixed4(out, v): v >= 0 as "DDDDDDDDD.DDDD", nine integer digits with
 * leading zeros and four decimals, by a loop of fixed length on 32-bit
 * integers, so that every value costs the same instructions: printf's %f
 * takes more or fewer steps for different times, which would make the
 * instruction counts under QEMU differ from run to run.
 */
static void fixed4(char out[16], double v)
{
	if (!(v >= 0))
		v = 0;
	if (v > 999999999.0)
		v = 999999999.0;
	int32_t ip = (int32_t)v;
	int32_t fp = (int32_t)((v - ip) * 10000.0);
	out[14] = 0;
	out[9] = '.';
	for (int d = 13; d > 9; d--, fp /= 10)
		out[d] = (char)('0' + fp % 10);
	for (int d = 8; d >= 0; d--, ip /= 10)
		out[d] = (char)('0' + ip % 10);
}

static int usage(void)
{
	fprintf(stderr, "usage: ops OP STEPS | ops list  (OP: `ops list`; STEPS >= %d)\n", CHAINS);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < NOPS; i++)
			puts(ops[i].name);
		return 0;
	}
	if (argc != 3)
		return usage();
	char *end;
	long steps = strtol(argv[2], &end, 10);
	if (*end || steps < CHAINS)
		return usage();
	for (size_t i = 0; i < NOPS; i++) {
		if (strcmp(argv[1], ops[i].name) != 0)
			continue;
		struct result r;
		ops[i].run(steps, &r);
		printf("%s steps=%ld lat=%016" PRIx64 " par=%016" PRIx64 "\n",
		       ops[i].name, steps, r.lat, r.par);
		char lat[16], par[16], ratio[16];
		fixed4(lat, r.lat_ns);
		fixed4(par, r.par_ns);
		fixed4(ratio, r.par_ns > 0 ? r.lat_ns / r.par_ns : 0);
		fprintf(stderr, "%s latency: %s ns\n", ops[i].name, lat);
		fprintf(stderr, "%s throughput: %s ns\n", ops[i].name, par);
		fprintf(stderr, "%s parallelism: %s\n", ops[i].name, ratio);
		return 0;
	}
	fprintf(stderr, "ops: unknown operation '%s' (`ops list` names them)\n", argv[1]);
	return 2;
}
