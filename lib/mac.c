// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Ethernet MACs: the strict parser and the one text format (lib/mac.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/mac.h"

enum { MAC_BYTES = 6 };

const char *rg_mac_str(const uint8_t m[6], char buf[RG_MAC_STR_LEN])
{
	snprintf(buf, RG_MAC_STR_LEN, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
		 m[4], m[5]);
	return buf;
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
