// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "lib/netns.h"
#include "lib/errbuf.h"

/* The thread's own: setns moves one thread, not the process. */
#define SELF_NETNS "/proc/thread-self/ns/net"

int rg_netns_open_self(char *err, size_t err_len)
{
	int fd = open(SELF_NETNS, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return rg_err(err, err_len, -errno, "cannot open the own network namespace: %s",
			      strerror(errno));
	return fd;
}

/* Two namespace files are one namespace when they are one nsfs inode. */
static int same_netns(int a, int b)
{
	struct stat sa, sb;

	if (fstat(a, &sa) || fstat(b, &sb))
		return -errno;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int rg_netns_is_self(int netns_fd)
{
	int self = rg_netns_open_self(NULL, 0), same;

	if (self < 0)
		return self;
	same = same_netns(self, netns_fd);
	close(self);
	return same;
}

int rg_netns_enter(int netns_fd, char *err, size_t err_len)
{
	if (setns(netns_fd, CLONE_NEWNET))
		return rg_err(err, err_len, -errno, "cannot enter the network namespace: %s",
			      strerror(errno));
	return 0;
}

int rg_in_netns(int netns_fd, rg_netns_fn fn, void *arg, char *err, size_t err_len)
{
	int self = rg_netns_open_self(err, err_len), ret;

	if (self < 0)
		return self;
	if (same_netns(self, netns_fd) == 1) {
		close(self);
		return fn(arg, err, err_len);
	}
	if (setns(netns_fd, CLONE_NEWNET)) {
		ret = rg_err(err, err_len, -errno, "cannot enter the network namespace: %s",
			     strerror(errno));
		close(self);
		return ret;
	}
	ret = fn(arg, err, err_len);
	if (setns(self, CLONE_NEWNET))
		ret = rg_err(err, err_len, -errno, "cannot return to the own network namespace: %s",
			     strerror(errno));
	close(self);
	return ret;
}
