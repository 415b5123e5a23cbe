/*
 * json.h - JSON objects and arrays written into a strbuf, one call per
 * member or element.  The writer places the commas: a member or element
 * gets one unless it opens its object or array (the text before it ends
 * in '{', '[' or ':', or there is none), so a caller neither counts nor
 * passes "first" along; it only opens and closes what it writes.  key is
 * the member's name, or NULL for an array's element (or a whole
 * document).  Strings are escaped by sb_add_json() (util.h); NULL is
 * written "".  Output is compact: no blanks between tokens.
 *
 *	json_open(sb, NULL, '{');
 *	json_put_str(sb, "name", name);
 *	json_open(sb, "runs", '[');
 *	for (...) json_put_str(sb, NULL, run[i]);
 *	json_close(sb, ']');
 *	json_close(sb, '}');
 */
#ifndef FLAGSCOPE_JSON_H
#define FLAGSCOPE_JSON_H

#include "base/util.h"

/* The comma and "key": before a value written by other means (a
 * writer of its own that appends one whole JSON value). */
void json_key(struct strbuf *sb, const char *key);
/* An object ('{') or array ('[') as member key (or an element). */
void json_open(struct strbuf *sb, const char *key, char bracket);
/* Close it: '}' or ']'. */
void json_close(struct strbuf *sb, char bracket);
void json_put_str(struct strbuf *sb, const char *key, const char *value);
void json_put_bool(struct strbuf *sb, const char *key, int value);
/* A number as %.6g; one that is not finite (NaN, inf) as null. */
void json_put_num(struct strbuf *sb, const char *key, double value);
/* A literal value printed by fmt (a number in a format of its own, %zu,
 * %.3f; or null), written as it is. */
void json_put_fmt(struct strbuf *sb, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
