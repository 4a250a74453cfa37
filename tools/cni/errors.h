/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate-cni's errors as the runtime receives them: the spec's codes and
 * ours, filled in by every file of tools/cni/ and printed once, as the
 * error object on stdout.  Below every other file of the plugin.
 */
#ifndef RAILGATE_CNI_ERRORS_H
#define RAILGATE_CNI_ERRORS_H

#include <stdio.h>

/* Error codes: the spec's (SPEC.md "Error"), then ours from 100 up. */
enum cni_code {
	CNI_OK                   = 0,
	CNI_ERR_VERSION          = 1,   /* incompatible CNI version */
	CNI_ERR_UNSUPPORTED      = 2,   /* unsupported field in the config */
	CNI_ERR_NO_CONTAINER     = 3,   /* container unknown or gone */
	CNI_ERR_ENV              = 4,   /* invalid necessary environment variables */
	CNI_ERR_IO               = 5,   /* I/O failure */
	CNI_ERR_DECODE           = 6,   /* failed to decode content */
	CNI_ERR_CONFIG           = 7,   /* invalid network config */
	CNI_ERR_TRY_AGAIN        = 11,  /* try again later */
	CNI_ERR_NOT_AVAILABLE    = 50,  /* STATUS: plugin not available */
	CNI_ERR_ROUTE_CONFLICT   = 100, /* the pod routes a supernet another way */
	CNI_ERR_ROUTE_MISSING    = 101, /* CHECK: a route is missing or differs */
	CNI_ERR_ROUTE_FAILED     = 102, /* the kernel refused a route change */
};

#define CNI_MSG_LEN      512

/* An error as the runtime receives it. */
struct cni_error {
	int  code;                       /* enum cni_code */
	char msg[CNI_MSG_LEN];           /* short, for humans */
	char details[CNI_MSG_LEN];       /* the specifics */
};

/* Fill in e; returns code. */
int cni_error_set(struct cni_error *e, int code, const char *msg,
		  const char *details_fmt, ...) __attribute__((format(printf, 4, 5)));

/* The error object on out in the given CNI version, and the line in the
 * log; returns the exit code (1). */
int cni_print_error(FILE *out, const struct cni_error *e, const char *version);

#endif /* RAILGATE_CNI_ERRORS_H */
