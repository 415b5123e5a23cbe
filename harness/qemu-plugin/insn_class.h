/*
 * insn_class.h - classify one guest instruction word by its opcode bits, for
 * the instruction-count plugin's breakdown.  Header-only so the plugin and
 * tests/test_qemu.c share the one table of rules.
 *
 * Classes are exclusive; every instruction is in exactly one:
 *   load    reads memory (integer, FP and SIMD loads, load-linked, atomics)
 *   store   writes memory only
 *   branch  changes control flow (jumps, calls, returns, conditional branches)
 *   muldiv  integer multiply or divide (MIPS HI/LO and Loongson .g forms)
 *   fp      floating point and SIMD on the FP/vector unit (MIPS COP1,
 *           COP1X arithmetic, Loongson MMI on COP2; AArch64 FP/AdvSIMD)
 *   other   everything else (ALU, moves, system, prefetch, cache)
 * Decoding by bits rather than by qemu_plugin_insn_disas() strings keeps the
 * result independent of which disassembler QEMU was built with.  MIPS rules
 * cover MIPS I..IV, MIPS32/64 r1/r2 and Loongson 2E/2F; R6 re-encodings and
 * MIPS16/microMIPS are not decoded (they fall into "other").
 */
#ifndef FLAGSCOPE_INSN_CLASS_H
#define FLAGSCOPE_INSN_CLASS_H

#include <stdint.h>

enum insn_class {
	INSN_LOAD,
	INSN_STORE,
	INSN_BRANCH,
	INSN_MULDIV,
	INSN_FP,
	INSN_OTHER,
	INSN_NCLASSES
};

/* key names used in the plugin's output file, indexed by enum insn_class */
static const char *const insn_class_names[INSN_NCLASSES] = {
	[INSN_LOAD] = "loads",
	[INSN_STORE] = "stores",
	[INSN_BRANCH] = "branches",
	[INSN_MULDIV] = "muldiv",
	[INSN_FP] = "fp",
	[INSN_OTHER] = "other",
};

static inline enum insn_class insn_class_mips(uint32_t w)
{
	unsigned op = w >> 26, rs = (w >> 21) & 0x1f, rt = (w >> 16) & 0x1f, funct = w & 0x3f;

	switch (op) {
	case 0x00: /* SPECIAL */
		if (funct == 0x08 || funct == 0x09) /* jr, jalr */
			return INSN_BRANCH;
		if (funct >= 0x18 && funct <= 0x1f) /* (d)mult(u), (d)div(u) */
			return INSN_MULDIV;
		return INSN_OTHER;
	case 0x01: /* REGIMM: bltz bgez bltzl bgezl, and their -al forms */
		return (rt <= 0x03 || (rt >= 0x10 && rt <= 0x13)) ? INSN_BRANCH : INSN_OTHER;
	case 0x02: case 0x03: /* j, jal */
	case 0x04: case 0x05: case 0x06: case 0x07: /* beq bne blez bgtz */
	case 0x14: case 0x15: case 0x16: case 0x17: /* the branch-likely forms */
		return INSN_BRANCH;
	case 0x11: /* COP1 */
		return rs == 0x08 ? INSN_BRANCH : INSN_FP; /* bc1f/bc1t(l) */
	case 0x12: /* COP2: Loongson 2E/2F multimedia on FP registers */
		return INSN_FP;
	case 0x13: /* COP1X */
		switch (funct) {
		case 0x00: case 0x01: case 0x05: return INSN_LOAD;   /* lwxc1 ldxc1 luxc1 */
		case 0x08: case 0x09: case 0x0d: return INSN_STORE;  /* swxc1 sdxc1 suxc1 */
		case 0x0f: return INSN_OTHER;                       /* prefx */
		default: return INSN_FP;                            /* madd.fmt ... */
		}
	case 0x1c: /* SPECIAL2 */
		if (funct <= 0x02 || funct == 0x04 || funct == 0x05) /* madd maddu mul msub msubu */
			return INSN_MULDIV;
		if ((funct >= 0x10 && funct <= 0x17) || (funct >= 0x1c && funct <= 0x1f))
			return INSN_MULDIV; /* Loongson 2F (d)mult(u).g (d)div(u).g (d)mod(u).g */
		if (funct >= 0x18 && funct <= 0x1b)
			return INSN_FP; /* Loongson 2F fused (n)madd/(n)msub.fmt */
		return INSN_OTHER; /* clz clo dclz dclo sdbbp */
	case 0x1a: case 0x1b: /* ldl ldr */
	case 0x20: case 0x21: case 0x22: case 0x23: /* lb lh lwl lw */
	case 0x24: case 0x25: case 0x26: case 0x27: /* lbu lhu lwr lwu */
	case 0x30: case 0x31: case 0x32: /* ll lwc1 lwc2 */
	case 0x34: case 0x35: case 0x36: case 0x37: /* lld ldc1 ldc2 ld */
		return INSN_LOAD;
	case 0x28: case 0x29: case 0x2a: case 0x2b: /* sb sh swl sw */
	case 0x2c: case 0x2d: case 0x2e: /* sdl sdr swr */
	case 0x38: case 0x39: case 0x3a: /* sc swc1 swc2 */
	case 0x3c: case 0x3d: case 0x3e: case 0x3f: /* scd sdc1 sdc2 sd */
		return INSN_STORE;
	default: /* ALU immediates, pref, cache, SPECIAL3 (ext/ins/rdhwr) */
		return INSN_OTHER;
	}
}

static inline enum insn_class insn_class_aarch64(uint32_t w)
{
	unsigned op0 = (w >> 25) & 0xf;

	if ((op0 & 0x5) == 0x4) { /* x1x0: loads and stores */
		if ((w & 0x3b000000) == 0x18000000) /* load literal */
			return INSN_LOAD;
		if ((w & 0x38000000) == 0x38000000) { /* load/store register group */
			unsigned v = (w >> 26) & 1, opc = (w >> 22) & 3;
			if ((w & (1u << 21)) && !(w & (1u << 24)) && ((w >> 10) & 3) == 0)
				return INSN_LOAD; /* atomic memory operations read */
			if (v ? !(opc & 1) : opc == 0)
				return INSN_STORE;
			return INSN_LOAD; /* ldr, ldrs*, and prfm (counted as a load) */
		}
		/* pairs, exclusives, SIMD structures: bit 22 is L */
		return (w & (1u << 22)) ? INSN_LOAD : INSN_STORE;
	}
	if ((op0 & 0xe) == 0xa) { /* 101x: branches, exceptions, system */
		if ((w & 0x7c000000) == 0x14000000 || /* b, bl */
		    (w & 0x7e000000) == 0x34000000 || /* cbz, cbnz */
		    (w & 0x7e000000) == 0x36000000 || /* tbz, tbnz */
		    (w & 0xfe000000) == 0x54000000 || /* b.cond */
		    (w & 0xfe000000) == 0xd6000000)   /* br, blr, ret */
			return INSN_BRANCH;
		return INSN_OTHER;
	}
	if ((w & 0x1f000000) == 0x1b000000) /* data processing, 3 source */
		return INSN_MULDIV;
	if ((w & 0x7fe0f800) == 0x1ac00800) /* udiv, sdiv */
		return INSN_MULDIV;
	if ((op0 & 0x7) == 0x7) /* x111: scalar FP and AdvSIMD */
		return INSN_FP;
	return INSN_OTHER;
}

#endif
