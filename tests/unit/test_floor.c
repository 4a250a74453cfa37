// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The shared floor's helpers that every binary calls: mkdir -p
 * (lib/files.h), entering a network namespace (lib/netns.h) and the libnl
 * socket (lib/nlsock.h).  The namespace tests run in namespaces of their
 * own (unshare, root): nothing of the machine's is entered or changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/netlink.h>
#include <netlink/socket.h>

#include "lib/files.h"
#include "lib/netns.h"
#include "lib/nlsock.h"

/* ---- mkdir -p -------------------------------------------------------------- */

struct tmp {
	char root[64];
};

static int tmp_setup(void **state)
{
	static struct tmp t;

	snprintf(t.root, sizeof(t.root), "/tmp/rg-test-floor.XXXXXX");
	if (!mkdtemp(t.root))
		return -1;
	*state = &t;
	return 0;
}

static int tmp_teardown(void **state)
{
	struct tmp *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	return system(cmd) == 0 ? 0 : -1;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	return st.st_mode & 07777;
}

static void test_mkdir_p_makes_every_level(void **state)
{
	struct tmp *t = *state;
	char path[PATH_MAX], err[256] = "";

	snprintf(path, sizeof(path), "%s/a/b/c", t->root);
	assert_int_equal(rg_mkdir_p(path, 0700, err, sizeof(err)), 0);
	assert_int_equal(mode_of(path), 0700);
	snprintf(path, sizeof(path), "%s/a/b", t->root);
	assert_int_equal(mode_of(path), 0700);
	/* again, and with a trailing slash: what exists is fine */
	snprintf(path, sizeof(path), "%s/a/b/c/", t->root);
	assert_int_equal(rg_mkdir_p(path, 0700, err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

static void test_mkdir_p_names_the_blocked_level(void **state)
{
	struct tmp *t = *state;
	char path[PATH_MAX], file[PATH_MAX], want[PATH_MAX + 32], err[PATH_MAX + 64];
	int fd;

	/* a file where a directory should be: ENOTDIR, naming the level below it */
	snprintf(file, sizeof(file), "%s/file", t->root);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/sub/x", file);
	assert_int_equal(rg_mkdir_p(path, 0700, err, sizeof(err)), -ENOTDIR);
	snprintf(want, sizeof(want), "mkdir %s/sub: %s", file, strerror(ENOTDIR));
	assert_string_equal(err, want);
}

static void test_mkdir_p_refuses_bad_paths(void **state)
{
	char path[PATH_MAX + 8], err[2 * PATH_MAX];

	assert_int_equal(rg_mkdir_p("", 0700, err, sizeof(err)), -ENAMETOOLONG);
	assert_non_null(strstr(err, "empty path"));
	memset(path, 'a', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(rg_mkdir_p(path, 0700, err, sizeof(err)), -ENAMETOOLONG);
	assert_non_null(strstr(err, "too long"));
	/* NULL err: the caller words the message itself */
	assert_int_equal(rg_mkdir_p("", 0700, NULL, 0), -ENAMETOOLONG);
}

/* ---- network namespaces --------------------------------------------------- */

static ino_t ns_inode(int fd)
{
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	return st.st_ino;
}

static int open_own_ns(void)
{
	int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* Two private namespaces, a then b, the test left in b. */
struct two_ns {
	int a, b;
};

static int ns_setup(void **state)
{
	static struct two_ns ns;

	if (unshare(CLONE_NEWNET)) {
		fprintf(stderr, "# unshare(CLONE_NEWNET): %s (needs root)\n", strerror(errno));
		return -1;
	}
	ns.a = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns.a < 0 || unshare(CLONE_NEWNET))
		return -1;
	ns.b = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns.b < 0)
		return -1;
	*state = &ns;
	return 0;
}

struct seen {
	int calls;
	ino_t inode;       /* the namespace fn ran in */
	int ret;           /* what fn returns */
};

static int record_ns(void *arg, char *err, size_t err_len)
{
	struct seen *s = arg;
	int fd = open_own_ns();

	s->calls++;
	s->inode = ns_inode(fd);
	close(fd);
	if (s->ret)
		snprintf(err, err_len, "fn failed on purpose");
	return s->ret;
}

static void test_is_self(void **state)
{
	struct two_ns *ns = *state;
	int self = rg_netns_open_self(NULL, 0);

	assert_true(self >= 0);
	assert_true(ns_inode(self) == ns_inode(ns->b));
	close(self);

	assert_int_equal(rg_netns_is_self(ns->b), 1);
	assert_int_equal(rg_netns_is_self(ns->a), 0);
	assert_true(rg_netns_is_self(-1) < 0);
}

static void test_in_netns_runs_inside_and_returns(void **state)
{
	struct two_ns *ns = *state;
	struct seen s = { .ret = 0 };
	char err[256] = "";
	int here;

	assert_int_equal(rg_in_netns(ns->a, record_ns, &s, err, sizeof(err)), 0);
	assert_int_equal(s.calls, 1);
	assert_true(s.inode == ns_inode(ns->a));
	here = open_own_ns();
	assert_true(ns_inode(here) == ns_inode(ns->b));
	close(here);
	/* fn's error and message come back as they are, and so does the thread */
	s.ret = -EIO;
	assert_int_equal(rg_in_netns(ns->a, record_ns, &s, err, sizeof(err)), -EIO);
	assert_string_equal(err, "fn failed on purpose");
	assert_int_equal(rg_netns_is_self(ns->b), 1);
}

static void test_in_netns_already_there(void **state)
{
	struct two_ns *ns = *state;
	struct seen s = { .ret = 0 };
	char err[256];

	assert_int_equal(rg_in_netns(ns->b, record_ns, &s, err, sizeof(err)), 0);
	assert_int_equal(s.calls, 1);
	assert_true(s.inode == ns_inode(ns->b));
}

static void test_in_netns_refuses_a_non_namespace(void **state)
{
	struct seen s = { .ret = 0 };
	char err[256] = "";
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(rg_in_netns(fd, record_ns, &s, err, sizeof(err)), -EINVAL);
	assert_int_equal(s.calls, 0);
	assert_non_null(strstr(err, "cannot enter the network namespace"));
	close(fd);
}

static void test_netns_enter_stays(void **state)
{
	struct two_ns *ns = *state;
	char err[256];

	assert_int_equal(rg_netns_enter(ns->a, err, sizeof(err)), 0);
	assert_int_equal(rg_netns_is_self(ns->a), 1);
	assert_int_equal(rg_netns_enter(ns->b, err, sizeof(err)), 0);
	assert_int_equal(rg_netns_is_self(ns->b), 1);
}

/* ---- libnl sockets ---------------------------------------------------------- */

static void test_nlsock_connects(void **state)
{
	struct nl_sock *sk = (struct nl_sock *)1;
	char err[256] = "";

	assert_int_equal(rg_nlsock_open(NETLINK_ROUTE, &sk, err, sizeof(err)), 0);
	assert_non_null(sk);
	assert_true(nl_socket_get_fd(sk) >= 0);
	nl_socket_free(sk);
	assert_int_equal(rg_nlsock_open(NETLINK_GENERIC, &sk, err, sizeof(err)), 0);
	assert_non_null(sk);
	nl_socket_free(sk);
	assert_string_equal(err, "");
}

static void test_nlsock_failure_says_why(void **state)
{
	struct nl_sock *sk = (struct nl_sock *)1;
	char err[256] = "";

	/* no such netlink protocol: the socket is refused, nothing leaks */
	assert_int_equal(rg_nlsock_open(31, &sk, err, sizeof(err)), -EIO);
	assert_null(sk);
	assert_non_null(strstr(err, "netlink: connecting a netlink socket: "));
}

int main(void)
{
	const struct CMUnitTest files[] = {
		cmocka_unit_test(test_mkdir_p_makes_every_level),
		cmocka_unit_test(test_mkdir_p_names_the_blocked_level),
		cmocka_unit_test(test_mkdir_p_refuses_bad_paths),
	};
	const struct CMUnitTest netns[] = {
		cmocka_unit_test(test_is_self),
		cmocka_unit_test(test_in_netns_runs_inside_and_returns),
		cmocka_unit_test(test_in_netns_already_there),
		cmocka_unit_test(test_in_netns_refuses_a_non_namespace),
		cmocka_unit_test(test_netns_enter_stays),
		cmocka_unit_test(test_nlsock_connects),
		cmocka_unit_test(test_nlsock_failure_says_why),
	};
	int failed = cmocka_run_group_tests_name("files", files, tmp_setup, tmp_teardown);

	return failed + cmocka_run_group_tests_name("netns", netns, ns_setup, NULL);
}
