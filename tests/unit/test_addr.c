// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * lib/addr and lib/mac: the strict parsers' edge cases (a config, the CNI
 * plugin and the CLI read every address through them).
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

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cidr_parse),
		cmocka_unit_test(test_ipv4_parse),
		cmocka_unit_test(test_mac_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
