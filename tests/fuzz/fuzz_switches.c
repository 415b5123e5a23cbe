/*
 * fuzz_switches.c - libFuzzer target for harness/switches: the input is a
 * recorded line, then (after the first NUL, if any) the expected flags.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/switches.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *recorded = xstrndup((const char *)data, size);
	size_t n = strlen(recorded);
	char *expect = xstrndup(n < size ? (const char *)data + n + 1 : "-O2 -march=x86-64",
				n < size ? size - n - 1 : 17);
	char *producer = NULL, *switches = NULL, *source;
	struct strlist m = {0}, words = {0};
	char key[64];

	switches_split(recorded, &words);
	for (size_t i = 0; i < words.n; i++)
		switches_key(words.v[i], key, sizeof(key));
	switches_split_producer(recorded, &producer, &switches);
	source = switches_source_name(switches ? switches : recorded);
	switches_check("unit fuzz.c", switches, expect, &m);
	switches_check("unit fuzz.c", recorded, recorded, &m);
	free(source);
	free(producer);
	free(switches);
	sl_release(&m);
	sl_release(&words);
	free(expect);
	free(recorded);
	return 0;
}
