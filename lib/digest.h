/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The config digest that `status` shows: SHA-256 of the bytes a config was
 * parsed from (rg_config.sha256), never of a file read again by path: a
 * second read may see other bytes (an edit landed) or none (a pipe).
 */
#ifndef RAILGATE_DIGEST_H
#define RAILGATE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define RG_SHA256_LEN 32

/* 0, or -EIO when libcrypto cannot digest (out of memory). */
int  rg_sha256(const void *data, size_t len, uint8_t out[RG_SHA256_LEN]);
/* 64 hex digits and a NUL. */
void rg_digest_hex(const uint8_t d[RG_SHA256_LEN], char out[2 * RG_SHA256_LEN + 1]);

#endif
