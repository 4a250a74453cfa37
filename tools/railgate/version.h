/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What this build is: the release version and the git commit (both from the
 * Makefile, through the generated build/build_version.h) and the map ABI
 * (maps/rg_abi.h).  `railgate --version`, `status --json` and the daemon's
 * railgate_build_info all read them here.
 */
#ifndef RAILGATE_VERSION_H
#define RAILGATE_VERSION_H

#include <stdio.h>

extern const char rg_version[];
extern const char rg_git_commit[];

/* "railgate 0.1.0 (commit 0123456789ab, map ABI 1)" and a newline. */
void rg_version_print(FILE *f);

#endif
