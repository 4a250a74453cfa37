/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Tests against the real kernel in namespaces of their own: shell commands
 * (ip, tc) run inside them, so nothing touches the machine's namespaces.
 */
#ifndef RAILGATE_TESTS_NETNS_H
#define RAILGATE_TESTS_NETNS_H

/* Run a shell command; its exit status (a failure is reported on stderr). */
int test_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
