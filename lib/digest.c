// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <openssl/evp.h>

#include "lib/digest.h"

int rg_sha256(const void *data, size_t len, uint8_t out[RG_SHA256_LEN])
{
	unsigned int out_len = RG_SHA256_LEN;

	return EVP_Digest(data, len, out, &out_len, EVP_sha256(), NULL) ? 0 : -EIO;
}

void rg_digest_hex(const uint8_t d[RG_SHA256_LEN], char out[2 * RG_SHA256_LEN + 1])
{
	for (int i = 0; i < RG_SHA256_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}
