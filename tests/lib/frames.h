/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Crafted frames for BPF_PROG_TEST_RUN tests: Ethernet (optionally tagged)
 * + IPv4 (options, fragments, length lies) + a recognisable payload, and
 * the checks the tests make on what comes out.
 */
#ifndef RAILGATE_TESTS_FRAMES_H
#define RAILGATE_TESTS_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RG_FRAME_ETH_LEN  14
#define RG_FRAME_VLAN_LEN 4

struct rg_frame_spec {
	uint8_t  dst_mac[6];
	uint8_t  src_mac[6];
	uint16_t vlan_tpid;          /* 0: untagged; else 0x8100 / 0x88a8 with vlan_tci */
	uint16_t vlan_tci;
	uint16_t ethertype;          /* of the payload (0x0800 for IPv4) */
	uint32_t saddr, daddr;       /* host order */
	uint8_t  ttl;
	uint8_t  protocol;
	uint8_t  ihl;                /* 5..15 words; options are filled with NOPs */
	uint16_t frag;               /* host order flags | offset field */
	size_t   payload_len;        /* bytes after the IPv4 header */
	int      tot_len_delta;      /* added to the true tot_len: a length lie */
	size_t   padding;            /* Ethernet padding after the IP datagram */
};

/* Defaults: unicast MACs, untagged IPv4, 10.0.0.10 -> 10.0.1.20, TTL 64,
 * UDP, IHL 5, 64 bytes of payload. */
void rg_frame_spec_default(struct rg_frame_spec *s);

/* Length of the frame s describes. */
size_t rg_frame_len(const struct rg_frame_spec *s);

/* Write the frame into buf (cap bytes); returns its length, 0 if it does
 * not fit.  The IPv4 checksum is correct; the payload is rg_frame_payload_byte(i). */
size_t rg_frame_build(uint8_t *buf, size_t cap, const struct rg_frame_spec *s);

uint8_t rg_frame_payload_byte(size_t i);

/* The Internet checksum of len bytes (RFC 1071), computed from scratch. */
uint16_t rg_inet_csum(const void *data, size_t len);

/* True when the IPv4 header at hdr (ihl from the header) has a checksum
 * equal to one recomputed from scratch. */
bool rg_ipv4_csum_ok(const uint8_t *hdr);

/* Host-order address from dotted quad; aborts on a typo in a test. */
uint32_t rg_ip(const char *dotted);

#endif /* RAILGATE_TESTS_FRAMES_H */
