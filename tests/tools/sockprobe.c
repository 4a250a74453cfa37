// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * sockprobe: one UDP or TCP exchange from a socket bound the way NCCL and
 * RDMA bind theirs (to a rail's address, to a rail's device, or not at
 * all), and the echo server that answers it with the source address it saw.
 * The tests read that answer to know which rail a probe really left by.
 *
 *   sockprobe serve PORT SECONDS
 *       UDP and TCP on 0.0.0.0:PORT; answers every datagram or connection
 *       with "from A.B.C.D"; exits after SECONDS.
 *   sockprobe udp|tcp DST PORT [--src ADDR] [--dev IFNAME] [--timeout MS]
 *       sends one probe, prints the answer ("from A.B.C.D"), exit 0; exit 1
 *       when nothing came back within MS (default 1000).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: sockprobe serve PORT SECONDS\n"
			"       sockprobe udp|tcp DST PORT [--src ADDR] [--dev IFNAME] [--timeout MS]\n");
	return 2;
}

static int parse_port(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return (*s && !*end && v > 0 && v < 65536) ? (int)v : -1;
}

static int bound_socket(int type, const char *src, const char *dev)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (dev && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, strlen(dev) + 1)) {
		fprintf(stderr, "sockprobe: SO_BINDTODEVICE %s: %s\n", dev, strerror(errno));
		close(fd);
		return -1;
	}
	if (src) {
		if (inet_pton(AF_INET, src, &a.sin_addr) != 1 ||
		    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
			fprintf(stderr, "sockprobe: bind %s: %s\n", src, strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

static int wait_fd(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };

	return poll(&p, 1, ms) == 1 ? 0 : -1;
}

static int probe(int type, const char *dst, int port, const char *src, const char *dev, int ms)
{
	struct sockaddr_in d = { .sin_family = AF_INET, .sin_port = htons(port) };
	char buf[64];
	ssize_t n;
	int fd, err = 0;
	socklen_t elen = sizeof(err);

	if (inet_pton(AF_INET, dst, &d.sin_addr) != 1)
		return usage();
	fd = bound_socket(type, src, dev);
	if (fd < 0)
		return 1;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	if (connect(fd, (struct sockaddr *)&d, sizeof(d)) && errno != EINPROGRESS) {
		fprintf(stderr, "sockprobe: connect %s:%d: %s\n", dst, port, strerror(errno));
		close(fd);
		return 1;
	}
	if (type == SOCK_STREAM &&
	    (wait_fd(fd, POLLOUT, ms) || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) || err)) {
		fprintf(stderr, "sockprobe: tcp %s:%d: %s\n", dst, port,
			err ? strerror(err) : "no answer");
		close(fd);
		return 1;
	}
	if (send(fd, "probe", 5, 0) != 5 || wait_fd(fd, POLLIN, ms) ||
	    (n = recv(fd, buf, sizeof(buf) - 1, 0)) <= 0) {
		fprintf(stderr, "sockprobe: %s %s:%d: no answer\n",
			type == SOCK_STREAM ? "tcp" : "udp", dst, port);
		close(fd);
		return 1;
	}
	buf[n] = '\0';
	printf("%s\n", buf);
	close(fd);
	return 0;
}

static void answer(char *out, size_t len, const struct sockaddr_in *peer)
{
	char ip[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &peer->sin_addr, ip, sizeof(ip));
	snprintf(out, len, "from %s", ip);
}

/* Answer a datagram from the address it was sent to (IP_PKTINFO), as a
 * multi-homed UDP server must: a reply sourced by the route to the peer
 * would come from another rail's address and the client's connected
 * socket would drop it. */
static void answer_udp(int u)
{
	char buf[64], out[64], cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))];
	struct sockaddr_in peer;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr m = { .msg_name = &peer, .msg_namelen = sizeof(peer), .msg_iov = &iov,
			    .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct in_pktinfo *pi = NULL;
	struct cmsghdr *c;

	if (recvmsg(u, &m, 0) <= 0)
		return;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO)
			pi = (struct in_pktinfo *)CMSG_DATA(c);
	answer(out, sizeof(out), &peer);
	iov.iov_base = out;
	iov.iov_len = strlen(out);
	m.msg_namelen = sizeof(peer);
	if (pi) {
		pi->ipi_spec_dst = pi->ipi_addr;
		pi->ipi_ifindex = 0;
		m.msg_controllen = CMSG_SPACE(sizeof(*pi));
	} else {
		m.msg_control = NULL;
		m.msg_controllen = 0;
	}
	sendmsg(u, &m, 0);
}

static int serve(int port, int seconds)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, u, t;
	time_t end = time(NULL) + seconds;

	u = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	t = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (u < 0 || t < 0)
		return 1;
	setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(u, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
	if (bind(u, (struct sockaddr *)&a, sizeof(a)) || bind(t, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(t, 64)) {
		fprintf(stderr, "sockprobe: serve :%d: %s\n", port, strerror(errno));
		return 1;
	}
	while (time(NULL) < end) {
		struct pollfd p[2] = { { .fd = u, .events = POLLIN }, { .fd = t, .events = POLLIN } };
		struct sockaddr_in peer;
		socklen_t plen = sizeof(peer);
		char buf[64], out[64];

		if (poll(p, 2, 200) <= 0)
			continue;
		if (p[0].revents & POLLIN)
			answer_udp(u);
		if (p[1].revents & POLLIN) {
			int c = accept(t, (struct sockaddr *)&peer, &plen);

			if (c >= 0) {
				if (wait_fd(c, POLLIN, 1000) == 0 && recv(c, buf, sizeof(buf), 0) > 0) {
					answer(out, sizeof(out), &peer);
					send(c, out, strlen(out), MSG_NOSIGNAL);
				}
				close(c);
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *src = NULL, *dev = NULL;
	int ms = 1000, port, type;

	if (argc == 4 && !strcmp(argv[1], "serve")) {
		port = parse_port(argv[2]);
		return port < 0 || atoi(argv[3]) <= 0 ? usage() : serve(port, atoi(argv[3]));
	}
	if (argc < 4 || (strcmp(argv[1], "udp") && strcmp(argv[1], "tcp")))
		return usage();
	type = !strcmp(argv[1], "tcp") ? SOCK_STREAM : SOCK_DGRAM;
	port = parse_port(argv[3]);
	for (int i = 4; i < argc; i++) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--src"))
			src = argv[++i];
		else if (!strcmp(argv[i], "--dev"))
			dev = argv[++i];
		else if (!strcmp(argv[i], "--timeout"))
			ms = atoi(argv[++i]);
		else
			return usage();
	}
	if (port < 0 || ms <= 0 || ms > 10000)
		return usage();
	return probe(type, argv[2], port, src, dev, ms);
}
