// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/frames.h"

#define IPV4_MIN_HLEN 20
#define IPOPT_NOP     1

void rg_frame_spec_default(struct rg_frame_spec *s)
{
	static const uint8_t dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	static const uint8_t src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };

	memset(s, 0, sizeof(*s));
	memcpy(s->dst_mac, dst, 6);
	memcpy(s->src_mac, src, 6);
	s->ethertype = 0x0800;
	s->saddr = rg_ip("10.0.0.10");
	s->daddr = rg_ip("10.0.1.20");
	s->ttl = 64;
	s->protocol = 17;
	s->ihl = 5;
	s->payload_len = 64;
}

uint8_t rg_frame_payload_byte(size_t i)
{
	return (uint8_t)(i * 7 + 3);
}

static size_t l2_len(const struct rg_frame_spec *s)
{
	return RG_FRAME_ETH_LEN + (s->vlan_tpid ? RG_FRAME_VLAN_LEN : 0);
}

size_t rg_frame_len(const struct rg_frame_spec *s)
{
	return l2_len(s) + s->ihl * 4u + s->payload_len + s->padding;
}

uint16_t rg_inet_csum(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

bool rg_ipv4_csum_ok(const uint8_t *hdr)
{
	uint8_t copy[60];
	size_t hlen = (hdr[0] & 0x0f) * 4u;
	uint16_t check;

	if (hlen < IPV4_MIN_HLEN)
		return false;
	memcpy(copy, hdr, hlen);
	memcpy(&check, copy + 10, 2);
	memset(copy + 10, 0, 2);
	return rg_inet_csum(copy, hlen) == check;
}

static void put16(uint8_t *p, uint16_t host)
{
	p[0] = host >> 8;
	p[1] = host & 0xff;
}

static void put32(uint8_t *p, uint32_t host)
{
	put16(p, host >> 16);
	put16(p + 2, host & 0xffff);
}

size_t rg_frame_build(uint8_t *buf, size_t cap, const struct rg_frame_spec *s)
{
	size_t len = rg_frame_len(s), l2 = l2_len(s), hlen = s->ihl * 4u;
	uint8_t *ip = buf + l2;
	uint16_t check;

	if (len > cap || hlen < IPV4_MIN_HLEN)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, s->dst_mac, 6);
	memcpy(buf + 6, s->src_mac, 6);
	if (s->vlan_tpid) {
		put16(buf + 12, s->vlan_tpid);
		put16(buf + 14, s->vlan_tci);
	}
	put16(buf + l2 - 2, s->ethertype);

	ip[0] = 0x40 | s->ihl;
	put16(ip + 2, (uint16_t)(hlen + s->payload_len + s->tot_len_delta));
	put16(ip + 4, 0x1234);                  /* identification */
	put16(ip + 6, s->frag);
	ip[8] = s->ttl;
	ip[9] = s->protocol;
	put32(ip + 12, s->saddr);
	put32(ip + 16, s->daddr);
	memset(ip + IPV4_MIN_HLEN, IPOPT_NOP, hlen - IPV4_MIN_HLEN);
	check = rg_inet_csum(ip, hlen);
	memcpy(ip + 10, &check, 2);

	for (size_t i = 0; i < s->payload_len; i++)
		ip[hlen + i] = rg_frame_payload_byte(i);
	return len;
}

uint32_t rg_ip(const char *dotted)
{
	struct in_addr a;

	if (inet_pton(AF_INET, dotted, &a) != 1)
		abort();
	return ntohl(a.s_addr);
}
