/* cmd_list.c - flagscope list toolchains|workloads|presets */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "flagsets/study.h"
#include "harness/study_names.h"
#include "harness/toolchain.h"
#include "workloads/recipe.h"

static const char *const format_choices[] = {"text", "json", NULL};

static struct {
	const char *format;
} opt;

static const struct option_spec list_options[] = {
	{"format", 'f', OPT_CHOICE, &opt.format, "FMT", "output format", format_choices},
	{NULL},
};

static const struct command_spec list_cmd = {
	.name = "list",
	.usage = "toolchains|workloads|presets [--format text|json]",
	.summary = "List the C compilers on PATH (with version, target and identity), the\n"
		   "workloads (one name per line), or the preset studies.",
	.opts = list_options,
};

static int list_toolchains(int json)
{
	struct toolchain *tcs;
	size_t n;
	toolchains_discover(&tcs, &n);
	struct strbuf sb = {0};
	if (json)
		sb_addc(&sb, '[');
	for (size_t i = 0; i < n; i++) {
		if (json) {
			sb_add(&sb, i ? ",{\"command\":" : "{\"command\":");
			sb_add_json(&sb, tcs[i].command);
			sb_add(&sb, ",\"path\":");
			sb_add_json(&sb, tcs[i].path);
			sb_add(&sb, ",\"kind\":");
			sb_add_json(&sb, tcs[i].kind == TC_GCC ? "gcc" : "clang");
			sb_add(&sb, ",\"version\":");
			sb_add_json(&sb, tcs[i].version);
			sb_add(&sb, ",\"target\":");
			sb_add_json(&sb, tcs[i].target);
			sb_addf(&sb, ",\"id\":\"%s\"}", tcs[i].id);
		} else {
			sb_addf(&sb, "%-32s %-22s %s  [%s]  %s\n", tcs[i].command, tcs[i].target,
				tcs[i].id, tcs[i].path, tcs[i].version);
		}
	}
	if (json)
		sb_add(&sb, "]\n");
	fputs(sb_str(&sb), stdout);
	sb_release(&sb);
	toolchains_free(tcs, n);
	return 0;
}

static int list_workloads(int json)
{
	struct strlist names = {0};
	workloads_list(&names);
	if (json)
		fputc('[', stdout);
	for (size_t i = 0; i < names.n; i++) {
		if (!json) {
			printf("%s\n", names.v[i]);
			continue;
		}
		struct recipe r;
		struct strbuf err = {0}, sb = {0};
		int ok = !recipe_load(names.v[i], &r, &err) && !recipe_check_names(&r, &err);
		sb_add(&sb, i ? ",{\"name\":" : "{\"name\":");
		sb_add_json(&sb, names.v[i]);
		if (ok) {
			sb_add(&sb, ",\"description\":");
			sb_add_json(&sb, r.description ? r.description : "");
			sb_add(&sb, ",\"source\":");
			sb_add_json(&sb, r.source);
			sb_addf(&sb, ",\"slow\":%s,\"runs\":[", r.slow ? "true" : "false");
			for (size_t k = 0; k < r.nruns; k++) {
				if (k)
					sb_addc(&sb, ',');
				sb_add_json(&sb, r.runs[k].name);
			}
			sb_addc(&sb, ']');
			recipe_release(&r);
		} else {
			sb_add(&sb, ",\"error\":");
			sb_add_json(&sb, sb_str(&err));
		}
		sb_addc(&sb, '}');
		fputs(sb_str(&sb), stdout);
		sb_release(&sb);
		sb_release(&err);
	}
	if (json)
		fputs("]\n", stdout);
	sl_release(&names);
	return 0;
}

static int list_presets(int json)
{
	char *dir = xasprintf("%s/flagsets/presets", flagscope_home());
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), shown = 0;
	if (json)
		fputc('[', stdout);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name);
		if (len > 6 && !strcmp(name + len - 6, ".study")) {
			char *path = xasprintf("%s/%s", dir, name);
			struct study s;
			struct strbuf err = {0};
			int ok = !study_load(path, &s, &err) && !study_check_names(&s, &err);
			if (json) {
				struct strbuf sb = {0};
				sb_add(&sb, shown ? ",{\"name\":" : "{\"name\":");
				char *base = xstrndup(name, len - 6);
				sb_add_json(&sb, base);
				free(base);
				sb_add(&sb, ",\"path\":");
				sb_add_json(&sb, path);
				sb_add(&sb, ",\"description\":");
				sb_add_json(&sb, ok && s.description ? s.description : "");
				sb_addc(&sb, '}');
				fputs(sb_str(&sb), stdout);
				sb_release(&sb);
			} else {
				printf("%-20.*s %s\n", (int)(len - 6), name,
				       ok ? (s.description ? s.description : "") : "(does not load: see flagscope run --dry-run)");
			}
			shown++;
			if (ok)
				study_release(&s);
			else
				study_release(&s);
			sb_release(&err);
			free(path);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	if (json)
		fputs("]\n", stdout);
	free(dir);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct strlist pos = {0};
	memset(&opt, 0, sizeof(opt));
	opt.format = "text";
	int rc = options_parse(&list_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	int json = !strcmp(opt.format, "json");
	rc = 2;
	if (pos.n != 1)
		error_msg("list: say what to list: toolchains, workloads or presets (see flagscope list --help)");
	else if (!strcmp(pos.v[0], "toolchains"))
		rc = list_toolchains(json);
	else if (!strcmp(pos.v[0], "workloads"))
		rc = list_workloads(json);
	else if (!strcmp(pos.v[0], "presets"))
		rc = list_presets(json);
	else
		error_msg("list: cannot list '%s' (toolchains, workloads or presets)", pos.v[0]);
	sl_release(&pos);
	return rc;
}
