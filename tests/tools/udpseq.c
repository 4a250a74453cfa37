// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * udpseq: a bounded stream of numbered UDP datagrams, and its receiver,
 * for the tests that assert "no frame lost" across a reload.
 *
 *   udpseq send DST_IP PORT COUNT RATE_PPS [SRC_IP]
 *   udpseq recv PORT COUNT TIMEOUT_S
 *
 * recv prints "received R of COUNT, missing M, first-missing F" and exits
 * 0 only when every number 0..COUNT-1 arrived.  Both are bounded in
 * datagrams and seconds.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int do_send(const char *dst, int port, long count, double rate, const char *src)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	double t0 = now();

	if (fd < 0 || inet_pton(AF_INET, dst, &to.sin_addr) != 1) {
		fprintf(stderr, "udpseq: bad destination %s\n", dst);
		return 2;
	}
	if (src) {
		struct sockaddr_in me = { .sin_family = AF_INET };

		if (inet_pton(AF_INET, src, &me.sin_addr) != 1 ||
		    bind(fd, (struct sockaddr *)&me, sizeof(me))) {
			fprintf(stderr, "udpseq: cannot bind %s: %s\n", src, strerror(errno));
			return 2;
		}
	}
	for (long i = 0; i < count; i++) {
		uint64_t seq = (uint64_t)i;
		double due = t0 + i / rate;
		double wait = due - now();

		if (wait > 0)
			usleep((useconds_t)(wait * 1e6));
		if (sendto(fd, &seq, sizeof(seq), 0, (struct sockaddr *)&to, sizeof(to)) < 0 &&
		    errno != ENOBUFS && errno != EAGAIN) {
			fprintf(stderr, "udpseq: send %ld: %s\n", i, strerror(errno));
			return 1;
		}
	}
	close(fd);
	return 0;
}

static int do_recv(int port, long count, double timeout)
{
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(port) };
	unsigned char *seen = calloc((size_t)count, 1);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int rcvbuf = 8 << 20;
	double end = now() + timeout;
	long got = 0, first_missing = -1;

	if (fd < 0 || !seen || bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		fprintf(stderr, "udpseq: cannot listen on %d: %s\n", port, strerror(errno));
		return 2;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	printf("listening\n");
	fflush(stdout);
	while (got < count && now() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t seq;

		if (poll(&p, 1, 100) <= 0)
			continue;
		if (recv(fd, &seq, sizeof(seq), 0) != sizeof(seq))
			continue;
		if (seq < (uint64_t)count && !seen[seq]) {
			seen[seq] = 1;
			got++;
		}
	}
	for (long i = 0; i < count; i++) {
		if (!seen[i]) {
			first_missing = i;
			break;
		}
	}
	printf("received %ld of %ld, missing %ld, first-missing %ld\n", got, count, count - got,
	       first_missing);
	free(seen);
	return got == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]), atol(argv[4]), atof(argv[5]),
			       argc > 6 ? argv[6] : NULL);
	if (argc == 5 && !strcmp(argv[1], "recv"))
		return do_recv(atoi(argv[2]), atol(argv[3]), atof(argv[4]));
	fprintf(stderr, "usage: udpseq send DST PORT COUNT RATE [SRC] | recv PORT COUNT TIMEOUT\n");
	return 2;
}
