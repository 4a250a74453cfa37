/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate-cni's log: a line to stderr (the runtime's log); stdout is for
 * results only.  The fuzzer links its own (tests/fuzz/fuzz_cni.c) instead
 * of log.c.
 */
#ifndef RAILGATE_CNI_LOG_H
#define RAILGATE_CNI_LOG_H

void cni_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* RAILGATE_CNI_LOG_H */
