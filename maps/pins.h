/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The names of railgate's pins under the pin root.
 */
#ifndef RAILGATE_PINS_H
#define RAILGATE_PINS_H

#include "maps/rg_abi.h"

enum rg_prog_id { RG_PROG_XDP, RG_PROG_TC, RG_PROG_COUNT };

/* A fresh load's directory before its rename: root/staging-v<ABI>. */
#define RG_STAGING_PREFIX "staging-"

/* A version's directory is root/v<N>: N, or 0 for another name.  A link's
 * pin is dir/links/if<N>-<mode>. */
int  rg_pin_version_of(const char *name);
const char *rg_prog_pin_name(enum rg_prog_id id);   /* dir/progs/<name> */
enum rg_attach_mode rg_link_pin_name_parse(const char *name, int *ifindex);

#endif /* RAILGATE_PINS_H */
