/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Whole files.  Reading one, bounded.  Replacing one that other programs read
 * while railgate replaces it (the host's copy
 * of the config the CNI plugin reads, the plugin binary the kubelet runs):
 * written to a temporary name in the same directory, synced, then renamed
 * over the old one, so a reader sees the old file or the new one, never a
 * half-written one, also when railgate dies half-way.  And a directory with
 * the ones above it (mkdir -p), the one way the tree makes directories.
 */
#ifndef RAILGATE_FILES_H
#define RAILGATE_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* The whole file (*data malloc'd, the caller frees it), at most max bytes.
 * 0, or -errno (-EFBIG beyond max) with "PATH: cannot read: why" in err. */
int rg_file_read(const char *path, size_t max, char **data, size_t *len, char *err, size_t err_len);

/* 0, or -errno with "PATH: what failed: why" in err; on failure the old
 * file (if any) is untouched and no temporary file is left behind. */
int rg_file_write_atomic(const char *path, const void *data, size_t len, mode_t mode,
			 char *err, size_t err_len);

/* mkdir -p with mode: every missing directory on the way to path made,
 * existing ones are fine (bpffs and tmpfs alike).  0, or -errno with
 * "mkdir DIR: why" (DIR: the first one that could not be made) in err. */
int rg_mkdir_p(const char *path, mode_t mode, char *err, size_t err_len);

#endif
