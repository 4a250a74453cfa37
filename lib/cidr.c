// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Strict parsers for the addresses a config holds: IPv4 in dotted quad,
 * IPv4 CIDR, and Ethernet MAC.  Strict means the text is exactly the
 * canonical form and nothing else: no "10.0.1" short forms that inet_aton
 * accepts, no octal "010", no sign, no whitespace, no trailing junk.  A
 * config is read by humans and by the datapath; both must read the same
 * address out of it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "loader/config/config.h"

enum {
	IPV4_OCTETS      = 4,
	OCTET_MAX        = 255,
	OCTET_MAX_DIGITS = 3,
	PREFIX_MAX       = 32,
	PREFIX_MAX_DIGITS = 2,
	MAC_BYTES        = 6,
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

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0c:42:a1:00:00:01": six pairs of hex digits (either case), colons. */
int rg_mac_parse(const char *s, uint8_t mac[6])
{
	uint8_t bytes[MAC_BYTES];
	int i, hi, lo;

	if (!s)
		return -EINVAL;
	for (i = 0; i < MAC_BYTES; i++) {
		if (i > 0 && *s++ != ':')
			return -EINVAL;
		hi = hex_value(s[0]);
		if (hi < 0)
			return -EINVAL;
		lo = hex_value(s[1]);
		if (lo < 0)
			return -EINVAL;
		bytes[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	if (*s != '\0')
		return -EINVAL;
	for (i = 0; i < MAC_BYTES; i++)
		mac[i] = bytes[i];
	return 0;
}
