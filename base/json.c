/* json.c - see json.h */
#include "base/json.h"

#include <math.h>
#include <string.h>

void json_key(struct strbuf *sb, const char *key)
{
	char last = sb->len ? sb->buf[sb->len - 1] : '{';
	if (!strchr("{[:", last))
		sb_addc(sb, ',');
	if (key) {
		sb_add_json(sb, key);
		sb_addc(sb, ':');
	}
}

void json_open(struct strbuf *sb, const char *key, char bracket)
{
	json_key(sb, key);
	sb_addc(sb, bracket);
}

void json_close(struct strbuf *sb, char bracket)
{
	sb_addc(sb, bracket);
}

void json_put_str(struct strbuf *sb, const char *key, const char *value)
{
	json_key(sb, key);
	sb_add_json(sb, value);
}

void json_put_bool(struct strbuf *sb, const char *key, int value)
{
	json_key(sb, key);
	sb_add(sb, value ? "true" : "false");
}

void json_put_num(struct strbuf *sb, const char *key, double value)
{
	if (isfinite(value))
		json_put_fmt(sb, key, "%.6g", value);
	else
		json_put_fmt(sb, key, "null");
}

void json_put_fmt(struct strbuf *sb, const char *key, const char *fmt, ...)
{
	va_list ap;
	json_key(sb, key);
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}
