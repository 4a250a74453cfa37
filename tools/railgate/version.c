// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "tools/railgate/version.h"
#include "build_version.h"           /* generated: RG_BUILD_VERSION, RG_BUILD_COMMIT */
#include "maps/rg_abi.h"

const char rg_version[] = RG_BUILD_VERSION;
const char rg_git_commit[] = RG_BUILD_COMMIT;

void rg_version_print(FILE *f)
{
	fprintf(f, "railgate %s (commit %s, map ABI %d)\n", rg_version, rg_git_commit, RG_ABI_VERSION);
}
