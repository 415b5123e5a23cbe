/* cmd_help.c - flagscope help [COMMAND | settings]: the command list, one
 * command's --help, or the study settings' reference from their table
 * (flagsets/settings.h), as `run --help` lists them or as the Markdown
 * table doc/study-format.md holds (scripts/settings-doc.sh writes it
 * there; --help names only what an installed copy has). */
#include <string.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "flagsets/settings.h"

static format_set help_formats(struct strbuf *err); /* writers[], below */

static struct {
	const char *format;
} opt;

static const struct option_spec help_options[] = {
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "help settings: output format", NULL,
	 help_formats, .def = "text"},
	{NULL},
};

const struct command_spec help_cmd = {
	.name = "help",
	.usage = "[COMMAND] | settings [--format FMT]",
	.summary = "Print the list of commands, one command's --help, or the reference of the\n"
		   "study file's settings: per setting its key, section, the run option that\n"
		   "overrides it, its type, default and meaning, all from the one table the\n"
		   "study loader, run's options and run --help read.\n"
		   "'flagscope help settings --format markdown' prints it as the Markdown\n"
		   "table of the page study-format.md (installed in share/doc/flagscope/).",
	.opts = help_options,
};

static const struct settings_writer {
	enum format format;
	void (*print)(FILE *out);
} writers[] = {
	{FORMAT_TEXT, settings_help},
	{FORMAT_MARKDOWN, settings_markdown},
};

static format_set help_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("help settings formats", writers, err);
}

int cmd_help(int argc, char **argv)
{
	struct strlist pos = {0};
	int rc = options_parse(&help_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	const char *topic = pos.n ? pos.v[0] : NULL;
	const struct command_spec *cmd = topic ? command_find(topic) : NULL;
	int settings = topic && !strcmp(topic, "settings");
	rc = 2;
	if (pos.n > 1)
		error_msg("help: one command or topic at a time (see flagscope help --help)");
	else if (topic && !cmd && !settings)
		error_msg("help: '%s' is no command or topic (a command of flagscope --help, or "
			  "settings)", topic);
	else if (!settings && options_given(&help_options[0]))
		error_msg("help: --format is for help settings (the other help is text)");
	else
		rc = 0;
	if (!rc && cmd)
		options_help(cmd, stdout);
	else if (!rc && settings)
		FORMAT_WRITER(writers, opt.format)->print(stdout); /* the parser took only these */
	else if (!rc)
		commands_usage(stdout);
	sl_release(&pos);
	return rc;
}
