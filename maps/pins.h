/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The names of railgate's pins: the one place that knows them.
 *
 * Pin layout under the pin root (default /sys/fs/bpf/railgate):
 *   v<ABI>/maps/<map>          every map of maps/rg_abi.h (the RG_MAP_* names)
 *   v<ABI>/progs/xdp, tc       the two entry points (rg_prog_pin_name)
 *   v<ABI>/links/if<N>-<mode>  one link per attached interface (ifindex N,
 *                              rg_attach_mode_name; bpffs refuses dots in names)
 *   staging-v<ABI>/            a fresh load before its rename to v<ABI>
 * The ABI version in the path means a loader never reuses maps whose
 * layout it does not know, and finds an older version's pins beside its own
 * (loader/datapath/takeover.h).
 *
 * Pure string functions: no file is touched.  Each path builder writes the
 * path into out (n bytes) and returns 0, or -ENAMETOOLONG with a message in
 * err (lib/errbuf.h) when it does not fit; out is then "".
 */
#ifndef RAILGATE_PINS_H
#define RAILGATE_PINS_H

#include <stdbool.h>
#include <stddef.h>

#include "maps/rg_abi.h"

enum rg_prog_id { RG_PROG_XDP, RG_PROG_TC, RG_PROG_COUNT };

/* A fresh load's directory before its rename: root/staging-v<ABI>. */
#define RG_STAGING_PREFIX "staging-"

/* ---- paths ---------------------------------------------------------------- */

/* root/v<abi>: a version's directory (vdir below). */
int  rg_pin_version_dir(char *out, size_t n, const char *root, int abi, char *err, size_t err_len);
/* root/staging-v<abi>: where a fresh load pins before its rename to v<abi>. */
int  rg_pin_staging_dir(char *out, size_t n, const char *root, int abi, char *err, size_t err_len);
/* vdir/maps, and the pin of one map in it: vdir/maps/<map> (an RG_MAP_* name). */
int  rg_pin_maps_dir(char *out, size_t n, const char *vdir, char *err, size_t err_len);
int  rg_pin_map(char *out, size_t n, const char *vdir, const char *map, char *err, size_t err_len);
/* vdir/progs, and the pin of one program: vdir/progs/<rg_prog_pin_name>. */
int  rg_pin_progs_dir(char *out, size_t n, const char *vdir, char *err, size_t err_len);
int  rg_pin_prog(char *out, size_t n, const char *vdir, enum rg_prog_id id, char *err, size_t err_len);
/* vdir/links, and the pin of one link: vdir/links/if<ifindex>-<mode>. */
int  rg_pin_links_dir(char *out, size_t n, const char *vdir, char *err, size_t err_len);
int  rg_pin_link(char *out, size_t n, const char *vdir, int ifindex, enum rg_attach_mode mode,
		 char *err, size_t err_len);
/* dir/name: an entry found by reading one of these directories (the root,
 * links/, any directory a tree removal walks). */
int  rg_pin_child(char *out, size_t n, const char *dir, const char *name, char *err, size_t err_len);

/* ---- names ---------------------------------------------------------------- */

/* The version of a directory named v<N> (N > 0, nothing after it), 0 for
 * any other name. */
int  rg_pin_version_of(const char *name);
/* Whether a name only starts like a version's, v<N> followed by anything:
 * what `down` clears, so that a leftover such as v0 goes too. */
bool rg_pin_looks_versioned(const char *name);
/* Whether a name is a staging directory's (RG_STAGING_PREFIX...). */
bool rg_pin_is_staging(const char *name);
/* The file name of a program's pin under progs/: "xdp" or "tc". */
const char *rg_prog_pin_name(enum rg_prog_id id);
/* A link pin's name if<N>-<mode>: the mode (an XDP mode or tcx), or
 * RG_MODE_NONE when the name is not one of those; *ifindex is N whenever
 * the name starts with if<N>. */
enum rg_attach_mode rg_link_pin_name_parse(const char *name, int *ifindex);
/* Whether a name starts like a link pin's, if<N> (its mode known or not):
 * *ifindex is N. */
bool rg_link_pin_name_ifindex(const char *name, int *ifindex);

#endif /* RAILGATE_PINS_H */
