// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * lib/addr and lib/mac: the strict parsers' edge cases (a config, the CNI
 * plugin and the CLI read every address through them), the one text of
 * each (and that it parses back), and struct rg_cidr's arithmetic.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/addr.h"
#include "lib/mac.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static void test_cidr_parse(void **state)
{
	static const struct {
		const char *text;
		bool allow_host_bits;
		int ret;
		uint32_t addr;
		uint8_t len;
	} cases[] = {
		{ "10.0.0.0/16", false, 0, IP(10, 0, 0, 0), 16 },
		{ "0.0.0.0/0", false, 0, 0, 0 },
		{ "255.255.255.255/32", false, 0, IP(255, 255, 255, 255), 32 },
		{ "10.0.1.5/24", true, 0, IP(10, 0, 1, 0), 24 },    /* host bits cleared */
		{ "10.0.1.5/0", true, 0, 0, 0 },
		{ "10.0.1.5/24", false, -EINVAL, 0, 0 },
		{ "10.0.1/24", false, -EINVAL, 0, 0 },
		{ "10.0.0.0", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/", false, -EINVAL, 0, 0 },
		{ "/24", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/33", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/100", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/08", false, -EINVAL, 0, 0 },
		{ "010.0.0.0/8", false, -EINVAL, 0, 0 },
		{ "+10.0.0.0/8", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/+8", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/-1", false, -EINVAL, 0, 0 },
		{ " 10.0.0.0/8", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/8 ", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/8x", false, -EINVAL, 0, 0 },
		{ "10.0.0.0//8", false, -EINVAL, 0, 0 },
		{ "10.0.0.0/8/8", false, -EINVAL, 0, 0 },
		{ "256.0.0.0/8", false, -EINVAL, 0, 0 },
		{ "1.2.3.4.5/8", false, -EINVAL, 0, 0 },
		{ "", false, -EINVAL, 0, 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rg_cidr c = { 0xdeadbeef, 99 };
		int ret = rg_cidr_parse(cases[i].text, &c, cases[i].allow_host_bits);

		if (ret != cases[i].ret)
			print_message("# rg_cidr_parse(\"%s\") = %d\n", cases[i].text, ret);
		assert_int_equal(ret, cases[i].ret);
		if (ret == 0) {
			assert_int_equal(c.addr, cases[i].addr);
			assert_int_equal(c.len, cases[i].len);
		} else {
			assert_int_equal(c.addr, 0xdeadbeef);   /* untouched */
		}
	}
	assert_int_equal(rg_cidr_parse(NULL, &(struct rg_cidr){ 0 }, true), -EINVAL);
}

static void test_ipv4_parse(void **state)
{
	static const char *const bad[] = {
		"10.1.255", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "01.2.3.4", "1.2.3.00",
		"1.2.3.4 ", " 1.2.3.4", "+1.2.3.4", "1.-2.3.4", "1..2.3", "1.2.3.",
		".1.2.3", "0x1.2.3.4", "1234.1.1.1", "1.2.3.4/32", "", "a.b.c.d",
	};
	uint32_t a = 0;
	size_t i;

	assert_int_equal(rg_ipv4_parse("10.1.255.1", &a), 0);
	assert_int_equal(a, IP(10, 1, 255, 1));
	assert_int_equal(rg_ipv4_parse("0.0.0.0", &a), 0);
	assert_int_equal(a, 0);
	assert_int_equal(rg_ipv4_parse("255.255.255.255", &a), 0);
	assert_int_equal(a, IP(255, 255, 255, 255));
	assert_int_equal(rg_ipv4_parse("192.0.2.10", &a), 0);
	assert_int_equal(a, IP(192, 0, 2, 10));

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		a = 0x12345678;
		if (rg_ipv4_parse(bad[i], &a) != -EINVAL)
			print_message("# rg_ipv4_parse(\"%s\") accepted\n", bad[i]);
		assert_int_equal(rg_ipv4_parse(bad[i], &a), -EINVAL);
		assert_int_equal(a, 0x12345678);
	}
	assert_int_equal(rg_ipv4_parse(NULL, &a), -EINVAL);
}

static void test_mac_parse(void **state)
{
	static const uint8_t want1[6] = { 0x0c, 0x42, 0xa1, 0x00, 0x00, 0x01 };
	static const uint8_t want2[6] = { 0xff, 0xff, 0x00, 0x00, 0x00, 0x0a };
	static const uint8_t untouched[6] = { 1, 2, 3, 4, 5, 6 };
	static const char *const bad[] = {
		"0c:42:a1:00:00", "0c:42:a1:00:00:01:02", "0c-42-a1-00-00-01",
		"c:42:a1:00:00:01", "0c:42:a1:00:00:1", "0c:42:a1:00:00:0g",
		"0c:42:a1:00:00:01 ", " 0c:42:a1:00:00:01", "0c42.a100.0001",
		"0c:42:a1:00:00:", "0c::42:a1:00:00:01", "",
	};
	uint8_t mac[6];
	size_t i;

	assert_int_equal(rg_mac_parse("0c:42:a1:00:00:01", mac), 0);
	assert_memory_equal(mac, want1, 6);
	assert_int_equal(rg_mac_parse("FF:ff:00:00:00:0A", mac), 0);
	assert_memory_equal(mac, want2, 6);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(mac, untouched, 6);
		if (rg_mac_parse(bad[i], mac) != -EINVAL)
			print_message("# rg_mac_parse(\"%s\") accepted\n", bad[i]);
		assert_int_equal(rg_mac_parse(bad[i], mac), -EINVAL);
		assert_memory_equal(mac, untouched, 6);
	}
	assert_int_equal(rg_mac_parse(NULL, mac), -EINVAL);
}

/* The one text of each: the longest forms fill their buffers exactly. */
static void test_formats(void **state)
{
	static const uint8_t mac[6] = { 0x0c, 0x42, 0xa1, 0x00, 0xff, 0x0a };
	char ip[RG_IP_STR_LEN], cidr[RG_CIDR_STR_LEN], m[RG_MAC_STR_LEN];

	assert_string_equal(rg_ip_str(IP(10, 1, 255, 1), ip), "10.1.255.1");
	assert_string_equal(rg_ip_str(0, ip), "0.0.0.0");
	assert_string_equal(rg_ip_str(IP(255, 255, 255, 255), ip), "255.255.255.255");
	assert_string_equal(rg_cidr_str(IP(10, 0, 0, 0), 16, cidr), "10.0.0.0/16");
	assert_string_equal(rg_cidr_str(IP(255, 255, 255, 255), 32, cidr), "255.255.255.255/32");
	assert_string_equal(rg_ipv4_text(IP(192, 0, 2, 10)).s, "192.0.2.10");
	assert_string_equal(rg_cidr_text((struct rg_cidr){ IP(10, 0, 1, 0), 24 }).s, "10.0.1.0/24");
	assert_string_equal(rg_cidr_text((struct rg_cidr){ 0, 0 }).s, "0.0.0.0/0");
	assert_string_equal(rg_mac_str(mac, m), "0c:42:a1:00:ff:0a");
}

/* Parsing what the formatter wrote gives the value back. */
static void test_round_trip(void **state)
{
	static const struct rg_cidr prefixes[] = {
		{ 0, 0 }, { IP(10, 0, 0, 0), 8 }, { IP(172, 16, 0, 0), 12 },
		{ IP(10, 1, 2, 128), 25 }, { IP(255, 255, 255, 255), 32 },
	};
	struct rg_cidr back;
	uint32_t a;

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		assert_int_equal(rg_cidr_parse(rg_cidr_text(prefixes[i]).s, &back, false), 0);
		assert_int_equal(back.addr, prefixes[i].addr);
		assert_int_equal(back.len, prefixes[i].len);
		assert_int_equal(rg_ipv4_parse(rg_ipv4_text(prefixes[i].addr).s, &a), 0);
		assert_int_equal(a, prefixes[i].addr);
	}
}

static void test_cidr_arithmetic(void **state)
{
	const struct rg_cidr ten = { IP(10, 0, 0, 0), 8 }, ten1 = { IP(10, 1, 0, 0), 16 };
	const struct rg_cidr other = { IP(192, 168, 0, 0), 16 }, all = { 0, 0 };
	const struct rg_cidr set[] = { ten1, other };

	assert_int_equal(rg_prefix_mask(0), 0);
	assert_int_equal(rg_prefix_mask(8), 0xff000000u);
	assert_int_equal(rg_prefix_mask(32), 0xffffffffu);
	assert_true(rg_cidr_contains(ten, IP(10, 255, 0, 1)));
	assert_false(rg_cidr_contains(ten, IP(11, 0, 0, 0)));
	assert_true(rg_cidr_contains(all, IP(203, 0, 113, 7)));
	assert_true(rg_cidr_covers(ten, ten1));
	assert_false(rg_cidr_covers(ten1, ten));
	assert_true(rg_cidr_overlaps(ten1, ten));
	assert_false(rg_cidr_overlaps(ten, other));
	assert_true(rg_cidr_set_contains(set, ARRAY_SIZE(set), IP(192, 168, 3, 4)));
	assert_false(rg_cidr_set_contains(set, ARRAY_SIZE(set), IP(10, 2, 0, 0)));
	assert_false(rg_cidr_set_contains(set, 0, IP(10, 1, 0, 0)));
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cidr_parse),
		cmocka_unit_test(test_ipv4_parse),
		cmocka_unit_test(test_mac_parse),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cidr_arithmetic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
