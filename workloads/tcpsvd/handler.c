/*
 * handler.c - what tcpsvd runs for each connection of the tcpsvd workload:
 * read one request line from the socket (fd 0) and answer "ok " and that
 * line on fd 1.  A connection that sends nothing (the driver's readiness
 * probe) gets no answer.  Built once, statically, with the system compiler
 * by the recipe's [input] script, so its start-up is the same under every
 * configuration: only the server changes.
 */
#include <string.h>
#include <unistd.h>

int main(void)
{
	char buf[256];
	size_t n = 0;
	while (n < sizeof(buf)) {
		ssize_t r = read(0, buf + n, sizeof(buf) - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (memchr(buf, '\n', n))
			break;
	}
	if (!n)
		return 0;
	if (write(1, "ok ", 3) != 3 || write(1, buf, n) != (ssize_t)n)
		return 1;
	return 0;
}
