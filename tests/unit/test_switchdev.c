// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Representors found by their PF (loader/kernel/switchdev.h) against fake sysfs
 * trees built the way real nodes show them.  Each tree is a temporary
 * directory with class/net/NETDEV/{phys_switch_id,phys_port_name,device}
 * and devices/pci0000:00/ADDR/sriov_numvfs; a representor's device link
 * points at its PF's PCI function, as mlx5's do.  The layouts:
 *
 *   one ConnectX per rail   ens1f0np0 (0000:17:00.0, p0, 12 VFs) with
 *                           ens1f0npf0vf{0,1,2,10}; ens2f0np0 (0000:31:00.0,
 *                           p0, another switch id) with ens2f0npf0vf{0,1};
 *                           eno1, an onboard NIC without SR-IOV; lo
 *   dual-port ConnectX-7    ens3f0np0 (0000:4b:00.0, p0) and ens3f1np1
 *                           (0000:4b:00.1, p1) on ONE switch id, with
 *                           ens3f0npf0vf{0,1} (pf0vfN) and ens3f1npf1vf{0,1}
 *                           (pf1vfN): only pfN tells the ports apart
 *   BlueField-2, Arm side   p0, p1 (0000:03:00.0/.1, one switch id), the host
 *                           PF's representor pf0hpf (c1pf0), host VF
 *                           representors pf0vf0, pf0vf1, pf1vf0 (c1pf0vf0...:
 *                           controller 1 is the external host), a
 *                           sub-function representor pf0sf0 (c1pf0sf0) and
 *                           its SF netdev en3f0pf0sf0 (an auxiliary device,
 *                           no PCI address), tmfifo_net0, oob_net0
 *   legacy SR-IOV           ens4f0 (0000:5e:00.0, 8 VFs) whose eswitch is in
 *                           legacy mode: no phys_switch_id, no port name
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "loader/config/config.h"
#include "loader/kernel/switchdev.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct tree {
	char root[64];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* A PCI function; numvfs < 0: no SR-IOV. */
static void pci_dev(const struct tree *t, const char *addr, int numvfs)
{
	char path[PATH_MAX], n[16];

	snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s", t->root, addr);
	mkdirs(path);
	if (numvfs >= 0) {
		snprintf(path, sizeof(path), "%s/devices/pci0000:00/%s/sriov_numvfs", t->root, addr);
		snprintf(n, sizeof(n), "%d\n", numvfs);
		write_file(path, n);
	}
}

/* A netdev; NULL attributes are absent; dev: a PCI address, or another
 * device name (an auxiliary device), or NULL. */
static void netdev(const struct tree *t, const char *name, const char *switch_id,
		   const char *port_name, const char *dev)
{
	char path[PATH_MAX], target[PATH_MAX], line[80];

	snprintf(path, sizeof(path), "%s/class/net/%s", t->root, name);
	mkdirs(path);
	if (switch_id) {
		snprintf(path, sizeof(path), "%s/class/net/%s/phys_switch_id", t->root, name);
		snprintf(line, sizeof(line), "%s\n", switch_id);
		write_file(path, line);
	}
	if (port_name) {
		snprintf(path, sizeof(path), "%s/class/net/%s/phys_port_name", t->root, name);
		snprintf(line, sizeof(line), "%s\n", port_name);
		write_file(path, line);
	}
	if (dev) {
		snprintf(path, sizeof(path), "%s/class/net/%s/device", t->root, name);
		snprintf(target, sizeof(target), "../../../devices/pci0000:00/%s", dev);
		if (!strchr(dev, ':')) {
			snprintf(line, sizeof(line), "%s/devices/pci0000:00/%s", t->root, dev);
			mkdirs(line);
		}
		assert_int_equal(symlink(target, path), 0);
	}
}

static int tree_setup(void **state)
{
	static struct tree t;
	static const char *cx_a = "b8cef60300a1b2c2", *cx_b = "b8cef60300a1c3d4",
			  *cx7 = "946dae0300f0e1d2", *bf = "0c42a10300b1f2e3";

	strcpy(t.root, "/tmp/rg-sysfs.XXXXXX");
	assert_non_null(mkdtemp(t.root));
	/* one ConnectX per rail */
	pci_dev(&t, "0000:17:00.0", 12);
	netdev(&t, "ens1f0np0", cx_a, "p0", "0000:17:00.0");
	netdev(&t, "ens1f0npf0vf0", cx_a, "pf0vf0", "0000:17:00.0");
	netdev(&t, "ens1f0npf0vf1", cx_a, "pf0vf1", "0000:17:00.0");
	netdev(&t, "ens1f0npf0vf10", cx_a, "pf0vf10", "0000:17:00.0");
	netdev(&t, "ens1f0npf0vf2", cx_a, "pf0vf2", "0000:17:00.0");
	pci_dev(&t, "0000:31:00.0", 2);
	netdev(&t, "ens2f0np0", cx_b, "p0", "0000:31:00.0");
	netdev(&t, "ens2f0npf0vf0", cx_b, "pf0vf0", "0000:31:00.0");
	netdev(&t, "ens2f0npf0vf1", cx_b, "pf0vf1", "0000:31:00.0");
	pci_dev(&t, "0000:01:00.0", -1);
	netdev(&t, "eno1", NULL, NULL, "0000:01:00.0");
	netdev(&t, "lo", NULL, NULL, NULL);
	/* dual-port ConnectX-7 */
	pci_dev(&t, "0000:4b:00.0", 2);
	pci_dev(&t, "0000:4b:00.1", 2);
	netdev(&t, "ens3f0np0", cx7, "p0", "0000:4b:00.0");
	netdev(&t, "ens3f1np1", cx7, "p1", "0000:4b:00.1");
	netdev(&t, "ens3f0npf0vf0", cx7, "pf0vf0", "0000:4b:00.0");
	netdev(&t, "ens3f0npf0vf1", cx7, "pf0vf1", "0000:4b:00.0");
	netdev(&t, "ens3f1npf1vf0", cx7, "pf1vf0", "0000:4b:00.1");
	netdev(&t, "ens3f1npf1vf1", cx7, "pf1vf1", "0000:4b:00.1");
	/* BlueField-2, Arm side */
	pci_dev(&t, "0000:03:00.0", -1);
	pci_dev(&t, "0000:03:00.1", -1);
	netdev(&t, "p0", bf, "p0", "0000:03:00.0");
	netdev(&t, "p1", bf, "p1", "0000:03:00.1");
	netdev(&t, "pf0hpf", bf, "c1pf0", "0000:03:00.0");
	netdev(&t, "pf0vf0", bf, "c1pf0vf0", "0000:03:00.0");
	netdev(&t, "pf0vf1", bf, "c1pf0vf1", "0000:03:00.0");
	netdev(&t, "pf1vf0", bf, "c1pf1vf0", "0000:03:00.1");
	netdev(&t, "pf0sf0", bf, "c1pf0sf0", "0000:03:00.0");
	netdev(&t, "en3f0pf0sf0", NULL, NULL, "mlx5_core.sf.2");
	netdev(&t, "tmfifo_net0", NULL, NULL, NULL);
	netdev(&t, "oob_net0", NULL, NULL, NULL);
	/* legacy SR-IOV */
	pci_dev(&t, "0000:5e:00.0", 8);
	netdev(&t, "ens4f0", NULL, NULL, "0000:5e:00.0");
	*state = &t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	return system(cmd) ? -1 : 0;
}

#define FORMAT_LEN 1024

/* PFs as "PF(PCI,numvfs):REP,REP PF..." in out, FORMAT_LEN bytes (pfs freed). */
static const char *format_pfs(struct rg_pf *pfs, size_t n, char *out)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		used += snprintf(out + used, FORMAT_LEN - used, "%s%s(%s,%d):", i ? " " : "",
				 pfs[i].name, pfs[i].pci, pfs[i].numvfs);
		for (size_t r = 0; r < pfs[i].n_reps; r++)
			used += snprintf(out + used, FORMAT_LEN - used, "%s%s", r ? "," : "",
					 pfs[i].reps[r]);
	}
	rg_pfs_free(pfs, n);
	return out;
}

/* The PFs sel finds, formatted. */
static const char *find(void **state, const char *sel)
{
	static char out[FORMAT_LEN];
	struct tree *t = *state;
	struct rg_pf *pfs;
	size_t n;
	char err[256];

	assert_int_equal(rg_switchdev_pfs(t->root, sel, &pfs, &n, err, sizeof(err)), 0);
	return format_pfs(pfs, n, out);
}

static void test_connectx_per_rail(void **state)
{
	/* by name, in VF order (10 after 2) */
	assert_string_equal(find(state, "ens1f0np0"),
			    "ens1f0np0(0000:17:00.0,12):ens1f0npf0vf0,ens1f0npf0vf1,ens1f0npf0vf2,ens1f0npf0vf10");
	/* by PCI address: the other NIC, its own switch id */
	assert_string_equal(find(state, "0000:31:00.0"),
			    "ens2f0np0(0000:31:00.0,2):ens2f0npf0vf0,ens2f0npf0vf1");
	/* a glob over names matches PFs only, never their representors */
	assert_string_equal(find(state, "ens[12]*"),
			    "ens1f0np0(0000:17:00.0,12):ens1f0npf0vf0,ens1f0npf0vf1,ens1f0npf0vf2,ens1f0npf0vf10 "
			    "ens2f0np0(0000:31:00.0,2):ens2f0npf0vf0,ens2f0npf0vf1");
	/* an onboard NIC without SR-IOV is no PF */
	assert_string_equal(find(state, "eno1"), "");
	assert_string_equal(find(state, "0000:01:00.0"), "");
	/* nothing by that name */
	assert_string_equal(find(state, "ens9f0np0"), "");
}

static void test_dual_port_nic(void **state)
{
	/* one switch id for both ports: pfN picks the port's own VFs */
	assert_string_equal(find(state, "ens3f1np1"),
			    "ens3f1np1(0000:4b:00.1,2):ens3f1npf1vf0,ens3f1npf1vf1");
	assert_string_equal(find(state, "0000:4b:00.0"),
			    "ens3f0np0(0000:4b:00.0,2):ens3f0npf0vf0,ens3f0npf0vf1");
	assert_string_equal(find(state, "0000:4b:00.*"),
			    "ens3f0np0(0000:4b:00.0,2):ens3f0npf0vf0,ens3f0npf0vf1 "
			    "ens3f1np1(0000:4b:00.1,2):ens3f1npf1vf0,ens3f1npf1vf1");
}

static void test_bluefield(void **state)
{
	/* host VFs of port 0 (controller 1): not the host PF's representor,
	 * not a sub-function's, not port 1's VFs */
	assert_string_equal(find(state, "p0"), "p0(0000:03:00.0,-1):pf0vf0,pf0vf1");
	assert_string_equal(find(state, "p1"), "p1(0000:03:00.1,-1):pf1vf0");
	/* the host PF's representor and the SF netdev are no PFs */
	assert_string_equal(find(state, "pf0hpf"), "");
	assert_string_equal(find(state, "en3f0pf0sf0"), "");
}

static void test_legacy_mode_is_an_error(void **state)
{
	struct tree *t = *state;
	struct rg_pf *pfs = NULL;
	size_t n = 7;
	char err[512];

	assert_int_equal(rg_switchdev_pfs(t->root, "ens4f0", &pfs, &n, err, sizeof(err)), -EOPNOTSUPP);
	assert_int_equal(n, 0);
	assert_null(pfs);
	assert_string_equal(err, "PF ens4f0 (0000:5e:00.0) has no phys_switch_id: its eswitch is not in "
			    "switchdev mode, so it has no VF representors (devlink dev eswitch set "
			    "pci/0000:5e:00.0 mode switchdev)");
}

static void test_is_rep_of(void **state)
{
	struct tree *t = *state;

	assert_true(rg_switchdev_is_rep_of(t->root, "ens1f0np0", "ens1f0npf0vf2"));
	assert_true(rg_switchdev_is_rep_of(t->root, "0000:4b:00.1", "ens3f1npf1vf0"));
	assert_false(rg_switchdev_is_rep_of(t->root, "ens1f0np0", "ens2f0npf0vf0"));
	assert_false(rg_switchdev_is_rep_of(t->root, "ens3f0np0", "ens3f1npf1vf0"));
	assert_false(rg_switchdev_is_rep_of(t->root, "ens1f0np0", "ens1f0np0"));
	assert_false(rg_switchdev_is_rep_of(t->root, "ens4f0", "ens4f0"));
}

/* What the daemon's readiness and doctor match a rail's interfaces by. */
static void test_rail_patterns(void **state)
{
	struct tree *t = *state;
	char *globs[] = { "pf0vf*", "eth9" };
	struct rg_config_rail by_pf = { .name = "rail1" }, by_name = { .name = "rail0",
		.representors = globs, .n_representors = 2 };
	char **pats;
	size_t n;

	strcpy(by_pf.pf, "ens3f1np1");
	assert_int_equal(rg_rail_patterns(&by_pf, t->root, &pats, &n, NULL, 0), 0);
	assert_int_equal(n, 2);
	assert_string_equal(pats[0], "ens3f1npf1vf0");
	assert_string_equal(pats[1], "ens3f1npf1vf1");
	rg_rail_patterns_free(pats, n);
	assert_int_equal(rg_rail_patterns(&by_name, t->root, &pats, &n, NULL, 0), 0);
	assert_int_equal(n, 2);
	assert_string_equal(pats[0], "pf0vf*");
	assert_string_equal(pats[1], "eth9");
	assert_ptr_not_equal(pats[0], globs[0]);      /* copies: the config may go first */
	rg_rail_patterns_free(pats, n);
	strcpy(by_pf.pf, "ens4f0");                   /* legacy mode: the error, nothing else */
	assert_int_equal(rg_rail_patterns(&by_pf, t->root, &pats, &n, NULL, 0), -EOPNOTSUPP);
	assert_null(pats);
	assert_int_equal(n, 0);
}

/* One read of sysfs answers every rail's pf as a read per rail does:
 * an apply scans sysfs once, however many rails are by pf. */
static void test_one_read_for_every_rail(void **state)
{
	static const char *const sels[] = { "ens1f0np0", "0000:31:00.0", "ens[12]*", "eno1",
					    "0000:4b:00.1", "nosuchpf" };
	struct tree *t = *state;
	struct rg_netdevs *nd;
	char err[256], out[FORMAT_LEN];

	assert_int_equal(rg_switchdev_read(t->root, &nd, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(sels) / sizeof(sels[0]); i++) {
		struct rg_pf *pfs;
		size_t n;

		assert_int_equal(rg_switchdev_pfs_of(nd, sels[i], &pfs, &n, err, sizeof(err)), 0);
		format_pfs(pfs, n, out);
		assert_string_equal(out, find(state, sels[i]));
	}
	rg_netdevs_free(nd);
	assert_int_equal(rg_switchdev_read("/nonexistent-rg", &nd, err, sizeof(err)), -ENOENT);
	assert_null(nd);
}

static void test_missing_root(void **state)
{
	struct rg_pf *pfs;
	size_t n;
	char err[256];

	(void)state;
	assert_int_equal(rg_switchdev_pfs("/nonexistent-rg", "p0", &pfs, &n, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent-rg/class/net: No such file or directory");
}

static void test_sysfs_root(void **state)
{
	(void)state;
	unsetenv("RAILGATE_SYSFS");
	assert_string_equal(rg_sysfs_root(), "/sys");
	setenv("RAILGATE_SYSFS", "", 1);
	assert_string_equal(rg_sysfs_root(), "/sys");
	setenv("RAILGATE_SYSFS", "/tmp/fake", 1);
	assert_string_equal(rg_sysfs_root(), "/tmp/fake");
	unsetenv("RAILGATE_SYSFS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connectx_per_rail),
		cmocka_unit_test(test_dual_port_nic),
		cmocka_unit_test(test_bluefield),
		cmocka_unit_test(test_legacy_mode_is_an_error),
		cmocka_unit_test(test_is_rep_of),
		cmocka_unit_test(test_rail_patterns),
		cmocka_unit_test(test_one_read_for_every_rail),
		cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_sysfs_root),
	};

	return cmocka_run_group_tests(tests, tree_setup, tree_teardown);
}
