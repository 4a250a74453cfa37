// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate-cni: entry point.  Reads the network config from stdin and hands
 * it to cni_plugin() (plugin.c), which answers on stdout the way libcni
 * reads it: the result or the error object, a non-zero exit on error.  The
 * log goes to stderr (log.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cni/cni.h"

/* A network config is small; anything bigger is not one. */
#define STDIN_MAX (1 << 20)

/* All of stdin, NUL-terminated; "" when it is a terminal (run by hand). */
static char *read_stdin(size_t *len_out, struct cni_error *e)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf) {
		cni_error_set(e, CNI_ERR_IO, "out of memory", "reading stdin");
		return NULL;
	}
	if (isatty(STDIN_FILENO)) {
		buf[0] = '\0';
		return buf;
	}
	while ((n = read(STDIN_FILENO, buf + len, cap - len - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			cni_error_set(e, CNI_ERR_IO, "cannot read the network config", "stdin: %s",
				      strerror(errno));
			free(buf);
			return NULL;
		}
		len += n;
		if (len + 1 == cap) {
			char *bigger = cap < STDIN_MAX ? realloc(buf, cap * 2) : NULL;

			if (!bigger) {
				cni_error_set(e, CNI_ERR_IO, "cannot read the network config",
					      "stdin is larger than %d bytes", STDIN_MAX);
				free(buf);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	*len_out = len;
	return buf;
}

int main(void)
{
	struct cni_error e = { 0 };
	size_t len = 0;
	char *text = read_stdin(&len, &e);
	int ret;

	if (!text)
		return cni_print_error(stdout, &e, CNI_LATEST);
	ret = cni_plugin(text, len, stdout);
	free(text);
	return ret;
}
