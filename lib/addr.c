// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * IPv4 addresses and prefixes: strict parsers and the one text format
 * (lib/addr.h).  Strict means the text is exactly the canonical form and
 * nothing else: no "10.0.1" short forms that inet_aton accepts, no octal
 * "010", no sign, no whitespace, no trailing junk.  A config is read by
 * humans and by the datapath; both must read the same address out of it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/addr.h"

enum {
	IPV4_OCTETS      = 4,
	OCTET_MAX        = 255,
	OCTET_MAX_DIGITS = 3,
	PREFIX_MAX       = 32,
	PREFIX_MAX_DIGITS = 2,
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * A decimal number of 1..max_digits digits, no leading zero (except "0"
 * itself, so "010" is refused rather than read as 8 or 10), at most max.
 * Advances *sp past the digits.
 */
static int parse_decimal(const char **sp, unsigned max_digits, unsigned max,
			 unsigned *out)
{
	const char *s = *sp;
	unsigned value = 0, digits = 0;

	while (is_digit(s[digits])) {
		if (++digits > max_digits)
			return -EINVAL;
		value = value * 10 + (unsigned)(s[digits - 1] - '0');
	}
	if (digits == 0 || (digits > 1 && s[0] == '0') || value > max)
		return -EINVAL;
	*sp = s + digits;
	*out = value;
	return 0;
}

/* A dotted quad at the start of s; *end points after it. */
static int parse_dotted_quad(const char *s, uint32_t *addr, const char **end)
{
	uint32_t a = 0;
	unsigned octet;
	int i;

	for (i = 0; i < IPV4_OCTETS; i++) {
		if (i > 0 && *s++ != '.')
			return -EINVAL;
		if (parse_decimal(&s, OCTET_MAX_DIGITS, OCTET_MAX, &octet))
			return -EINVAL;
		a = (a << 8) | octet;
	}
	*addr = a;
	*end = s;
	return 0;
}

int rg_ipv4_parse(const char *s, uint32_t *out)
{
	const char *end;
	uint32_t addr;

	if (!s || parse_dotted_quad(s, &addr, &end) || *end != '\0')
		return -EINVAL;
	*out = addr;
	return 0;
}

/*
 * "A.B.C.D/LEN".  With allow_host_bits, "10.0.1.5/24" is accepted and
 * stored as 10.0.1.0/24 (an interface address given as a CIDR); without,
 * it is -EINVAL, because in a route or a subnet it is almost always a typo.
 */
int rg_cidr_parse(const char *s, struct rg_cidr *out, bool allow_host_bits)
{
	const char *p;
	uint32_t addr, mask;
	unsigned len;

	if (!s || parse_dotted_quad(s, &addr, &p) || *p++ != '/')
		return -EINVAL;
	if (parse_decimal(&p, PREFIX_MAX_DIGITS, PREFIX_MAX, &len) || *p != '\0')
		return -EINVAL;

	mask = rg_prefix_mask((uint8_t)len);
	if ((addr & ~mask) && !allow_host_bits)
		return -EINVAL;
	out->addr = addr & mask;
	out->len = (uint8_t)len;
	return 0;
}

const char *rg_ip_str(uint32_t host, char buf[RG_IP_STR_LEN])
{
	snprintf(buf, RG_IP_STR_LEN, "%u.%u.%u.%u", host >> 24, (host >> 16) & 0xff,
		 (host >> 8) & 0xff, host & 0xff);
	return buf;
}

const char *rg_cidr_str(uint32_t host, unsigned len, char buf[RG_CIDR_STR_LEN])
{
	char ip[RG_IP_STR_LEN];

	snprintf(buf, RG_CIDR_STR_LEN, "%s/%u", rg_ip_str(host, ip), len);
	return buf;
}

struct rg_addr_text rg_ipv4_text(uint32_t host)
{
	struct rg_addr_text t;

	rg_ip_str(host, t.s);
	return t;
}

struct rg_addr_text rg_cidr_text(struct rg_cidr c)
{
	struct rg_addr_text t;

	rg_cidr_str(c.addr, c.len, t.s);
	return t;
}
