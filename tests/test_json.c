/*
 * test_json.c - the JSON writer (base/json.h): commas only between
 * members and elements, at any depth and after a listing's own "[";
 * strings escaped, NULL written "", numbers that are not finite null.
 * Expected: every document below is written exactly as given.
 */
#include <math.h>

#include "base/json.h"
#include "tests/testlib.h"

static void nested(struct strbuf *sb)
{
	json_open(sb, NULL, '{');
	json_put_str(sb, "name", "a \"b\"\n");
	json_put_str(sb, "none", NULL);
	json_put_bool(sb, "here", 1);
	json_open(sb, "runs", '[');
	json_put_str(sb, NULL, "x");
	json_open(sb, NULL, '{');
	json_put_num(sb, "p", 0.25);
	json_put_num(sb, "gm", NAN);
	json_put_num(sb, "hi", INFINITY);
	json_close(sb, '}');
	json_open(sb, NULL, '[');
	json_close(sb, ']');
	json_close(sb, ']');
	json_open(sb, "empty", '{');
	json_close(sb, '}');
	json_put_fmt(sb, "n", "%zu", (size_t)3);
	json_put_fmt(sb, "elapsed", "%.3f", 1.5);
	json_key(sb, "raw"); /* a value another writer appends whole */
	sb_add(sb, "{\"x\": 1}");
	json_put_bool(sb, "after", 0);
	json_close(sb, '}');
}

static void rows(struct strbuf *sb)
{
	/* a listing opened by its own text, rows added one by one */
	sb_add(sb, "[");
	for (int i = 0; i < 3; i++) {
		json_open(sb, NULL, '{');
		json_put_fmt(sb, "i", "%d", i);
		json_put_bool(sb, "odd", i % 2);
		json_close(sb, '}');
	}
	sb_add(sb, "]\n");
}

static void escapes(struct strbuf *sb)
{
	json_open(sb, NULL, '[');
	json_put_str(sb, NULL, "tab\there\\ \x01");
	json_put_str(sb, NULL, "");
	json_close(sb, ']');
}

static const struct {
	const char *name;
	void (*write)(struct strbuf *sb);
	const char *want;
} cases[] = {
	{"nested", nested,
	 "{\"name\":\"a \\\"b\\\"\\n\",\"none\":\"\",\"here\":true,\"runs\":[\"x\",{\"p\":0.25,"
	 "\"gm\":null,\"hi\":null},[]],\"empty\":{},\"n\":3,\"elapsed\":1.500,"
	 "\"raw\":{\"x\": 1},\"after\":false}"},
	{"rows", rows, "[{\"i\":0,\"odd\":false},{\"i\":1,\"odd\":true},{\"i\":2,\"odd\":false}]\n"},
	{"escapes", escapes, "[\"tab\\there\\\\ \\u0001\",\"\"]"},
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = {0};
		cases[i].write(&sb);
		T_CHECK(!strcmp(sb_str(&sb), cases[i].want), "%s: '%s', want '%s'", cases[i].name,
			sb_str(&sb), cases[i].want);
		sb_release(&sb);
	}
	return test_summary("test_json");
}
