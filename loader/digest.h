/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The config digest that `status` shows: SHA-256 of the file's bytes. */
#ifndef RAILGATE_DIGEST_H
#define RAILGATE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

int  rg_file_sha256(const char *path, uint8_t out[32], char *err, size_t n);
/* 64 hex digits and a NUL. */
void rg_digest_hex(const uint8_t d[32], char out[65]);

#endif
