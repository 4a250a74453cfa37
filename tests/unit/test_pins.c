// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The pin names and paths (maps/pins.h): each path as the layout writes it
 * (the integration tests and the documentation name the same files), the
 * name parsers on the names readdir finds, and a path that does not fit
 * refused with -ENAMETOOLONG and a message instead of cut.  No bpffs: the
 * module touches no file.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "maps/pins.h"

#define ROOT "/sys/fs/bpf/railgate"

static void test_version_and_staging_dirs(void **state)
{
	char out[PATH_MAX], err[128] = "";

	(void)state;
	assert_int_equal(rg_pin_version_dir(out, sizeof(out), ROOT, 2, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2");
	assert_int_equal(rg_pin_version_dir(out, sizeof(out), ROOT, 13, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v13");
	assert_int_equal(rg_pin_staging_dir(out, sizeof(out), ROOT, 2, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/staging-v2");
	assert_string_equal(err, "");
}

static void test_maps_progs_links(void **state)
{
	char out[PATH_MAX], err[128] = "";
	const char *vdir = ROOT "/v2";

	(void)state;
	assert_int_equal(rg_pin_maps_dir(out, sizeof(out), vdir, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/maps");
	assert_int_equal(rg_pin_map(out, sizeof(out), vdir, RG_MAP_STATS, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/maps/rg_stats");
	assert_int_equal(rg_pin_progs_dir(out, sizeof(out), vdir, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/progs");
	assert_int_equal(rg_pin_prog(out, sizeof(out), vdir, RG_PROG_XDP, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/progs/xdp");
	assert_int_equal(rg_pin_prog(out, sizeof(out), vdir, RG_PROG_TC, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/progs/tc");
	assert_int_equal(rg_pin_links_dir(out, sizeof(out), vdir, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/links");
	assert_int_equal(rg_pin_link(out, sizeof(out), vdir, 7, RG_MODE_XDP, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/links/if7-xdp");
	assert_int_equal(rg_pin_link(out, sizeof(out), vdir, 1023, RG_MODE_XDP_GENERIC, err,
				     sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/links/if1023-xdp-generic");
	assert_int_equal(rg_pin_link(out, sizeof(out), vdir, 12, RG_MODE_TC, err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v2/links/if12-tc");
	assert_int_equal(rg_pin_child(out, sizeof(out), ROOT, "v1", err, sizeof(err)), 0);
	assert_string_equal(out, ROOT "/v1");
	assert_string_equal(err, "");
}

/* A path one byte too long for out is refused, not cut; one that just
 * fits is written whole. */
static void test_overflow(void **state)
{
	char out[16], err[128];
	const char *vdir = "/p/v2";     /* /p/v2/progs/xdp: 15 bytes + NUL = 16 */

	(void)state;
	assert_int_equal(rg_pin_prog(out, sizeof(out), vdir, RG_PROG_XDP, err, sizeof(err)), 0);
	assert_string_equal(out, "/p/v2/progs/xdp");

	err[0] = '\0';
	assert_int_equal(rg_pin_prog(out, sizeof(out) - 1, vdir, RG_PROG_XDP, err, sizeof(err)),
			 -ENAMETOOLONG);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "too long"));
	assert_non_null(strstr(err, "/p/v2/progs/x"));     /* where it was cut */

	assert_int_equal(rg_pin_link(out, sizeof(out), vdir, 100000, RG_MODE_XDP_GENERIC, err,
				     sizeof(err)), -ENAMETOOLONG);
	assert_string_equal(out, "");
	assert_int_equal(rg_pin_map(out, sizeof(out), vdir, RG_MAP_MONITOR_BUCKETS, NULL, 0),
			 -ENAMETOOLONG);
	assert_int_equal(rg_pin_version_dir(out, sizeof(out), "/a/very/long/root", 2, NULL, 0),
			 -ENAMETOOLONG);
	assert_int_equal(rg_pin_staging_dir(out, sizeof(out), "/p", 2, NULL, 0), 0);
	assert_string_equal(out, "/p/staging-v2");
	assert_int_equal(rg_pin_staging_dir(out, sizeof(out), "/pins", 2, NULL, 0), -ENAMETOOLONG);
	assert_int_equal(rg_pin_maps_dir(out, 0, vdir, err, sizeof(err)), -ENAMETOOLONG);
	assert_int_equal(rg_pin_child(out, 4, "/p", "v2", err, sizeof(err)), -ENAMETOOLONG);
	assert_string_equal(out, "");
}

static void test_version_names(void **state)
{
	(void)state;
	assert_int_equal(rg_pin_version_of("v1"), 1);
	assert_int_equal(rg_pin_version_of("v2"), 2);
	assert_int_equal(rg_pin_version_of("v10"), 10);
	assert_int_equal(rg_pin_version_of("v0"), 0);
	assert_int_equal(rg_pin_version_of("v-1"), 0);
	assert_int_equal(rg_pin_version_of("v2x"), 0);
	assert_int_equal(rg_pin_version_of("staging-v2"), 0);
	assert_int_equal(rg_pin_version_of("maps"), 0);
	assert_int_equal(rg_pin_version_of("v"), 0);
	/* what `down` clears: anything that starts like a version */
	assert_true(rg_pin_looks_versioned("v2"));
	assert_true(rg_pin_looks_versioned("v0"));
	assert_true(rg_pin_looks_versioned("v2x"));
	assert_false(rg_pin_looks_versioned("v"));
	assert_false(rg_pin_looks_versioned("vx"));
	assert_false(rg_pin_looks_versioned("staging-v2"));
	assert_true(rg_pin_is_staging("staging-v2"));
	assert_true(rg_pin_is_staging("staging-"));
	assert_false(rg_pin_is_staging("v2"));
	assert_false(rg_pin_is_staging("stagin"));
}

static void test_link_names(void **state)
{
	char out[PATH_MAX];
	int ifindex = -1;

	(void)state;
	assert_int_equal(rg_link_pin_name_parse("if7-xdp", &ifindex), RG_MODE_XDP);
	assert_int_equal(ifindex, 7);
	assert_int_equal(rg_link_pin_name_parse("if12-xdp-generic", &ifindex), RG_MODE_XDP_GENERIC);
	assert_int_equal(ifindex, 12);
	assert_int_equal(rg_link_pin_name_parse("if3-tc", &ifindex), RG_MODE_TC);
	assert_int_equal(ifindex, 3);
	/* a clsact filter has no pin; an unknown mode is NONE, its ifindex read */
	assert_int_equal(rg_link_pin_name_parse("if4-tc-clsact", &ifindex), RG_MODE_NONE);
	assert_int_equal(rg_link_pin_name_parse("if5-bogus", &ifindex), RG_MODE_NONE);
	assert_int_equal(ifindex, 5);
	assert_int_equal(rg_link_pin_name_parse("if5", &ifindex), RG_MODE_NONE);
	assert_int_equal(rg_link_pin_name_parse("xdp", &ifindex), RG_MODE_NONE);
	assert_true(rg_link_pin_name_ifindex("if9-bogus", &ifindex));
	assert_int_equal(ifindex, 9);
	assert_false(rg_link_pin_name_ifindex("lo", &ifindex));
	/* the builder and the parser agree on every mode a link has */
	for (int m = RG_MODE_XDP; m <= RG_MODE_TC; m++) {
		const char *name;

		assert_int_equal(rg_pin_link(out, sizeof(out), "/p/v2", 42, m, NULL, 0), 0);
		name = strrchr(out, '/') + 1;
		ifindex = 0;
		assert_int_equal(rg_link_pin_name_parse(name, &ifindex), m);
		assert_int_equal(ifindex, 42);
	}
	assert_string_equal(rg_prog_pin_name(RG_PROG_XDP), "xdp");
	assert_string_equal(rg_prog_pin_name(RG_PROG_TC), "tc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_and_staging_dirs),
		cmocka_unit_test(test_maps_progs_links),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_version_names),
		cmocka_unit_test(test_link_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
