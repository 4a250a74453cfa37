// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The names of the pins; see pins.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "maps/pins.h"
#include "lib/errbuf.h"

static const char *const prog_pin_names[RG_PROG_COUNT] = { "xdp", "tc" };

/* Format a path into out; one that does not fit is refused, not cut: a cut
 * path names another file. */
static int __attribute__((format(printf, 5, 6)))
pin_path(char *out, size_t n, char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	if (len >= 0 && (size_t)len < n)
		return 0;
	/* the message first: it quotes the start of what was cut */
	rg_set_err(err, err_len, "pin path too long (%d bytes, room for %zu): %.48s...", len,
		   n ? n - 1 : 0, n ? out : "");
	if (n)
		out[0] = '\0';
	return -ENAMETOOLONG;
}

int rg_pin_version_dir(char *out, size_t n, const char *root, int abi, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/v%d", root, abi);
}

int rg_pin_staging_dir(char *out, size_t n, const char *root, int abi, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/" RG_STAGING_PREFIX "v%d", root, abi);
}

int rg_pin_maps_dir(char *out, size_t n, const char *vdir, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/maps", vdir);
}

int rg_pin_map(char *out, size_t n, const char *vdir, const char *map, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/maps/%s", vdir, map);
}

int rg_pin_progs_dir(char *out, size_t n, const char *vdir, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/progs", vdir);
}

int rg_pin_prog(char *out, size_t n, const char *vdir, enum rg_prog_id id, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/progs/%s", vdir, rg_prog_pin_name(id));
}

int rg_pin_links_dir(char *out, size_t n, const char *vdir, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/links", vdir);
}

int rg_pin_link(char *out, size_t n, const char *vdir, int ifindex, enum rg_attach_mode mode,
		char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/links/if%d-%s", vdir, ifindex,
			rg_attach_mode_name(mode));
}

int rg_pin_child(char *out, size_t n, const char *dir, const char *name, char *err, size_t err_len)
{
	return pin_path(out, n, err, err_len, "%s/%s", dir, name);
}

const char *rg_prog_pin_name(enum rg_prog_id id)
{
	return prog_pin_names[id];
}

int rg_pin_version_of(const char *name)
{
	int ver;
	char tail;

	return sscanf(name, "v%d%c", &ver, &tail) == 1 && ver > 0 ? ver : 0;
}

bool rg_pin_looks_versioned(const char *name)
{
	int ver;

	return sscanf(name, "v%d", &ver) == 1;
}

bool rg_pin_is_staging(const char *name)
{
	return !strncmp(name, RG_STAGING_PREFIX, strlen(RG_STAGING_PREFIX));
}

enum rg_attach_mode rg_link_pin_name_parse(const char *name, int *ifindex)
{
	char mode[32];

	if (sscanf(name, "if%d-%31s", ifindex, mode) != 2)
		return RG_MODE_NONE;
	for (int m = RG_MODE_XDP; m <= RG_MODE_TC; m++)
		if (strcmp(mode, rg_attach_mode_name(m)) == 0)
			return m;
	return RG_MODE_NONE;
}

bool rg_link_pin_name_ifindex(const char *name, int *ifindex)
{
	return sscanf(name, "if%d-", ifindex) == 1;
}
