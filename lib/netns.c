// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "lib/netns.h"
#include "lib/errbuf.h"

int rg_in_netns(int netns_fd, int (*fn)(void *arg), void *arg, char *err, size_t n)
{
	int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC), ret;

	if (self < 0)
		return rg_err(err, n, -errno, "cannot open the own network namespace: %s", strerror(errno));
	if (setns(netns_fd, CLONE_NEWNET)) {
		ret = rg_err(err, n, -errno, "cannot enter the pod's network namespace: %s", strerror(errno));
		close(self);
		return ret;
	}
	ret = fn(arg);
	if (setns(self, CLONE_NEWNET))
		ret = rg_err(err, n, -errno, "cannot return to the own network namespace: %s", strerror(errno));
	close(self);
	return ret;
}
