/* configcache.c - see configcache.h */
#include "harness/configcache.h"

#include <stdlib.h>
#include <string.h>

/* The -O levels whose builds ask configure the same questions: each
 * defines __OPTIMIZE__ and nothing else apart.  -O0 (no __OPTIMIZE__),
 * -Os and -Oz (__OPTIMIZE_SIZE__), -Og and -Ofast (-ffast-math:
 * __FAST_MATH__, other float results) answer differently and are a group
 * of their own: they were grouped with -O2 and got its answers. */
static int shares_answers(const char *word)
{
	static const char *const levels[] = {"-O", "-O1", "-O2", "-O3"};
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++)
		if (!strcmp(word, levels[i]))
			return 1;
	return 0;
}

void configcache_group(const struct build *b, char out[65])
{
	struct strbuf sb = {0};
	struct strlist words = {0};
	sl_split_ws(&words, b->cfg->cflags);
	sb_addf(&sb, "recipe=%s\nsource=%s\ntoolchain=%s\ncc=%s\nldflags=%s\nlink=%d\nlibc=%s\n"
		     "target=%s\nsysroot=%s\nflags=",
		b->recipe->hash, b->src_id, b->tc->id, b->cfg->cc, b->cfg->ldflags, b->cfg->link,
		b->cfg->libc ? b->cfg->libc : "", b->cfg->target ? b->cfg->target : "",
		b->cfg->sysroot ? b->cfg->sysroot : "");
	for (size_t i = 0; i < words.n; i++)
		if (!shares_answers(words.v[i]))
			sb_addf(&sb, "%s ", words.v[i]);
	/* an instrumented build's configure links the profiling runtime */
	if (b->pgo_phase != PGO_NONE)
		sb_addf(&sb, "\npgo=%d", (int)b->pgo_phase);
	sha256_hex(sb.buf, sb.len, out);
	sl_release(&words);
	sb_release(&sb);
}

static char *group_file(const struct build *b, const char *name)
{
	char g[65];
	configcache_group(b, g);
	return xasprintf("%s/configcache/%.32s/%s", flagscope_cache_dir(), g, name);
}

int configcache_ready(const struct build *b)
{
	char *valid = group_file(b, "valid");
	int ready = file_exists(valid);
	free(valid);
	return ready;
}

char *configcache_prepare(const struct build *b, int *seeded)
{
	char *path = xasprintf("%s/config.cache", b->out_dir);
	char *valid = group_file(b, "valid"), *seed = group_file(b, "seed");
	*seeded = 0;
	if (file_exists(valid)) {
		size_t len;
		char *text = file_read(seed, &len);
		if (text && !file_write(path, text, len))
			*seeded = 1;
		free(text);
	}
	free(valid);
	free(seed);
	return path;
}

/* config.status names the headers configure wrote: config_headers=" lib/config.h:..." */
static char *config_header_text(const char *out_dir)
{
	char *status = xasprintf("%s/config.status", out_dir);
	char *text = file_read(status, NULL);
	free(status);
	if (!text)
		return NULL;
	char *p = strstr(text, "config_headers=\"");
	struct strbuf all = {0};
	if (p) {
		p += strlen("config_headers=\"");
		char *end = strchr(p, '"');
		if (end)
			*end = '\0';
		struct strlist names = {0};
		sl_split_ws(&names, p);
		for (size_t i = 0; i < names.n; i++) {
			char *colon = strchr(names.v[i], ':');
			if (colon)
				*colon = '\0';
			char *h = xasprintf("%s/%s", out_dir, names.v[i]);
			char *content = file_read(h, NULL);
			sb_addf(&all, "== %s\n%s", names.v[i], content ? content : "(missing)\n");
			free(content);
			free(h);
		}
		sl_release(&names);
	}
	free(text);
	return all.len ? sb_detach(&all) : NULL;
}

void configcache_learn(const struct build *b)
{
	char *cache = xasprintf("%s/config.cache", b->out_dir);
	char *text = file_read(cache, NULL);
	char *header = text ? config_header_text(b->out_dir) : NULL;
	char *seed = group_file(b, "seed"), *hfile = group_file(b, "header");
	char *valid = group_file(b, "valid"), *invalid = group_file(b, "invalid");
	if (!header || file_exists(valid) || file_exists(invalid))
		goto out;
	char *dir = xstrdup(seed);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir, 0755);
	free(dir);
	char *known = file_read(hfile, NULL);
	if (!known) {
		/* the first of its group: keep its answers, without the ac_cv_env_
		 * lines (configure refuses a cache whose environment differs) */
		struct strbuf sb = {0};
		char *save, *line;
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strstr(line, "ac_cv_env_"))
				sb_addf(&sb, "%s\n", line);
		file_write(seed, sb_str(&sb), sb.len);
		file_write(hfile, header, strlen(header));
		sb_release(&sb);
	} else {
		/* the second: the same header proves the answers do not depend
		 * on the -O level */
		const char *verdict = strcmp(known, header) ? invalid : valid;
		file_write(verdict, "", 0);
	}
	free(known);
out:
	free(text);
	free(header);
	free(cache);
	free(seed);
	free(hfile);
	free(valid);
	free(invalid);
}
