/* qemu_diag.c - see qemu_diag.h */
#include "harness/qemu_diag.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/qemu.h"

static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int port = -1;
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* "=> 0x12002d538 <__tunable_get_val+8>:\tdext\tv1,a0,0x0,0x20" */
static char *parse_gdb(const char *out)
{
	const char *p = strstr(out, "=> 0x");
	if (!p)
		return NULL;
	const char *end = strchr(p, '\n');
	char *line = end ? xstrndup(p + 3, (size_t)(end - p - 3)) : xstrdup(p + 3);
	for (char *c = line; *c; c++)
		if (*c == '\t')
			*c = ' ';
	char *addr_end = strchr(line, ' ');
	char *sym = strchr(line, '<'), *sym_end = sym ? strchr(sym, '>') : NULL;
	char *insn = strstr(line, ">: ");
	char *r;
	if (addr_end && sym && sym_end && insn) {
		*addr_end = *sym_end = '\0';
		r = xasprintf("SIGILL at %s: `%s` in %s", line, str_trim(insn + 3), sym + 1);
	} else {
		r = xasprintf("SIGILL at %s", str_trim(line));
	}
	free(line);
	return r;
}

int qemu_diagnose_trap(char *const argv[], const char *cpu, const char *cwd,
		       const char *stdin_path, char **detail)
{
	const char *qemu_name;
	struct strbuf err = {0};
	*detail = NULL;
	char *gdb = path_lookup("gdb-multiarch");
	if (!gdb) {
		*detail = xstrdup("no diagnosis: gdb-multiarch is not installed");
		return -1;
	}
	if (qemu_pick(argv[0], &qemu_name, &err)) {
		*detail = sb_detach(&err);
		free(gdb);
		return -1;
	}
	char *qemu = path_lookup(qemu_name);
	int port = free_port();
	if (!qemu || port < 0) {
		*detail = xasprintf("no diagnosis: %s not found", qemu_name);
		free(qemu);
		free(gdb);
		return -1;
	}
	char portstr[16];
	snprintf(portstr, sizeof(portstr), "%d", port);
	pid_t pid = fork();
	if (pid == 0) {
		struct strlist a = {0};
		sl_push(&a, qemu);
		sl_push(&a, "-g");
		sl_push(&a, portstr);
		if (cpu && *cpu) {
			sl_push(&a, "-cpu");
			sl_push(&a, cpu);
		}
		for (size_t i = 0; argv[i]; i++)
			sl_push(&a, argv[i]);
		sl_push_owned(&a, NULL);
		int in = open(stdin_path ? stdin_path : "/dev/null", O_RDONLY);
		int null = open("/dev/null", O_WRONLY);
		if (in < 0 || null < 0 || (cwd && chdir(cwd)))
			_exit(127);
		dup2(in, 0);
		dup2(null, 1);
		dup2(null, 2);
		execv(qemu, a.v);
		_exit(127);
	}
	/* the stub waits for gdb; give it a moment to listen */
	usleep(300000);
	char *target = xasprintf("target remote 127.0.0.1:%d", port);
	char *file = xasprintf("file %s", argv[0]);
	char *gargv[] = {"timeout", "120", gdb, "-nx", "-batch", "-ex", "set pagination off",
			 "-ex", file, "-ex", target, "-ex", "continue", "-ex", "x/i $pc",
			 "-ex", "kill", NULL};
	char *out = NULL;
	run_capture(gargv, &out);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	int rc = -1;
	if (out && strstr(out, "SIGILL") && (*detail = parse_gdb(out)))
		rc = 0;
	else
		*detail = xstrdup("no diagnosis: the program did not trap under the debugger");
	free(out);
	free(target);
	free(file);
	free(qemu);
	free(gdb);
	return rc;
}
