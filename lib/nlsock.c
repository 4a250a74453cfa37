// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>

#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "lib/nlsock.h"
#include "lib/errbuf.h"

static const char *protocol_name(int protocol)
{
	switch (protocol) {
	case NETLINK_ROUTE:
		return "route";
	case NETLINK_GENERIC:
		return "generic";
	default:
		return "netlink";
	}
}

int rg_nlsock_open(int protocol, struct nl_sock **out, char *err, size_t err_len)
{
	struct nl_sock *sk = nl_socket_alloc();
	int ret;

	*out = NULL;
	if (!sk)
		return rg_err(err, err_len, -ENOMEM, "netlink: out of memory");
	ret = nl_connect(sk, protocol);
	if (ret < 0) {
		nl_socket_free(sk);
		return rg_err(err, err_len, -EIO, "netlink: connecting a %s socket: %s",
			      protocol_name(protocol), nl_geterror(ret));
	}
	*out = sk;
	return 0;
}
