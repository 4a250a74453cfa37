/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * IP addresses and prefixes, the one home of their code: the strict
 * parsers a config and the CLI read them with, the text every message and
 * table prints, and struct rg_cidr with its arithmetic (pure and inline:
 * the FIB compiler in maps/ speaks in prefixes without knowing what a
 * config is).
 *
 * IPv4 only today, in host byte order.  The functions whose meaning
 * depends on the family say so in their names (rg_ipv4_parse) or in their
 * type (struct rg_cidr is an IPv4 prefix); IPv6 joins beside them with its
 * own family-named parsers and formatters and its own prefix type, so that
 * no IPv4 caller changes.  rg_ip_str and rg_cidr_str are IPv4's formatters
 * under their historical names.
 */
#ifndef RAILGATE_ADDR_H
#define RAILGATE_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- IPv4 prefixes ------------------------------------------------------ */

struct rg_cidr {
	uint32_t addr;               /* host order, host bits zero */
	uint8_t  len;                /* 0..32 */
};

/* The netmask of a /len; /0 is 0 (a shift by 32 would be undefined). */
static inline uint32_t rg_prefix_mask(uint8_t len)
{
	return len ? ~0u << (32 - len) : 0;
}

static inline bool rg_cidr_contains(struct rg_cidr outer, uint32_t addr)
{
	return (addr & rg_prefix_mask(outer.len)) == outer.addr;
}

static inline bool rg_cidr_covers(struct rg_cidr outer, struct rg_cidr inner)
{
	return inner.len >= outer.len && rg_cidr_contains(outer, inner.addr);
}

/* Whether any prefix of set[0..n) holds addr. */
static inline bool rg_cidr_set_contains(const struct rg_cidr *set, size_t n, uint32_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (rg_cidr_contains(set[i], addr))
			return true;
	return false;
}

/* Prefixes are nested or disjoint: two overlap when one covers the other. */
static inline bool rg_cidr_overlaps(struct rg_cidr a, struct rg_cidr b)
{
	return rg_cidr_covers(a, b) || rg_cidr_covers(b, a);
}

/* ---- IPv4 text ---------------------------------------------------------- */

/* Strict parsers (lib/addr.c): the canonical dotted quad and nothing else;
 * 0, or -EINVAL.  With allow_host_bits, "10.0.1.5/24" is accepted and
 * stored as 10.0.1.0/24 (an interface address given as a CIDR); without,
 * it is -EINVAL. */
int rg_ipv4_parse(const char *s, uint32_t *out);
int rg_cidr_parse(const char *s, struct rg_cidr *out, bool allow_host_bits);

/* Dotted-quad text, for every message and table railgate prints. */
#define RG_IP_STR_LEN   16           /* "255.255.255.255" + NUL */
#define RG_CIDR_STR_LEN 19           /* "255.255.255.255/32" + NUL */

const char *rg_ip_str(uint32_t host, char buf[RG_IP_STR_LEN]);
const char *rg_cidr_str(uint32_t host, unsigned len, char buf[RG_CIDR_STR_LEN]);

/* The same text returned by value, for a message naming several addresses
 * without a buffer each: printf("%s in %s", rg_ipv4_text(a).s,
 * rg_cidr_text(c).s).  The value lives until the end of the statement. */
struct rg_addr_text {
	char s[RG_CIDR_STR_LEN];
};

struct rg_addr_text rg_ipv4_text(uint32_t host);
struct rg_addr_text rg_cidr_text(struct rg_cidr c);

#endif /* RAILGATE_ADDR_H */
