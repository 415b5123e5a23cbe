/* cmd_verify.c - flagscope verify: prove from ELF files which flags, ABI and
 * linkage they got.  (Placeholder so the binary links; the real command
 * follows.) */
#include "explorer/commands.h"
#include "explorer/options.h"

static const struct option_spec verify_opts[] = {
	{0},
};

static const struct command_spec verify_cmd = {
	.name = "verify",
	.usage = "FILE...",
	.summary = "prove from ELF files which flags, ABI and linkage they got",
	.opts = verify_opts,
};

int cmd_verify(int argc, char **argv)
{
	struct strlist files = {0};
	int rc = options_parse(&verify_cmd, argc, argv, &files);
	sl_release(&files);
	if (rc)
		return rc > 0 ? 0 : 2;
	error_msg("verify: not implemented yet (wait for the next commit)");
	return 2;
}
