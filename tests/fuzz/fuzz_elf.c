/*
 * fuzz_elf.c - libFuzzer target for harness/elf: any input gives facts or
 * "not a valid ELF: <reason>"; on facts, the check and the JSON walk run
 * too.  A crash, a leak, an out-of-bounds read (ASan), undefined behaviour
 * (UBSan) or a wrong error form is a finding.
 */
#include <stdint.h>
#include <string.h>

#include "harness/elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_facts f;
	struct strbuf err = {0};

	if (elf_facts_read_memory("fuzz", data, size, &f, &err) == 0) {
		struct strlist m = {0};
		struct strbuf js = {0};
		elf_facts_check(&f, "-O2 -march=mips3 -mabi=n32 -fno-inline", 1, "/src", &m);
		elf_facts_check(&f, "-O3", -1, NULL, &m);
		elf_facts_json(&f, &m, &js);
		sl_release(&m);
		sb_release(&js);
		elf_facts_release(&f);
	} else if (strncmp(sb_str(&err), "not a valid ELF: ", 17)) {
		__builtin_trap(); /* every failure must say why, in that form */
	}
	sb_release(&err);
	return 0;
}
