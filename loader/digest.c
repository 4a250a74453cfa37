// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <openssl/evp.h>

#include "digest.h"

int rg_file_sha256(const char *path, uint8_t out[32], char *err, size_t n)
{
	unsigned char buf[65536];
	unsigned int len = 32;
	EVP_MD_CTX *ctx;
	size_t got;
	FILE *f;
	int ret = 0;

	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		snprintf(err, n, "%s: cannot read: %s", path, strerror(errno));
		return ret;
	}
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		snprintf(err, n, "sha256 unavailable");
		ret = -ENOSYS;
		goto out;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		EVP_DigestUpdate(ctx, buf, got);
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, n, "%s: read error", path);
		goto out;
	}
	EVP_DigestFinal_ex(ctx, out, &len);
out:
	EVP_MD_CTX_free(ctx);
	fclose(f);
	return ret;
}

void rg_digest_hex(const uint8_t d[32], char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}
