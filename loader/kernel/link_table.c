// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The link table's pure queries: see link_table.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/kernel/link_table.h"

/* The XDP feature bits of the "netdev" generic netlink family (the
 * kernel's include/uapi/linux/netdev.h, >= 6.3), as rg_link_info holds
 * them; copied because Debian 12's UAPI headers (6.1) lack them. */
enum {
	RG_NETDEV_XDP_ACT_BASIC    = 1,   /* ABORTED, DROP, PASS, TX in the driver */
	RG_NETDEV_XDP_ACT_REDIRECT = 2,
	RG_NETDEV_XDP_ACT_NDO_XMIT = 4,   /* can be the target of XDP_REDIRECT */
};

static int link_info_cmp_name(const void *a, const void *b)
{
	const struct rg_link_info *la = a, *lb = b;

	return strcmp(la->name, lb->name);
}

void rg_link_table_sort(struct rg_link_table *t)
{
	qsort(t->links, t->n, sizeof(*t->links), link_info_cmp_name);
}

void rg_link_table_free(struct rg_link_table *t)
{
	free(t->links);
	t->links = NULL;
	t->n = 0;
}

const struct rg_link_info *rg_link_table_by_name(const struct rg_link_table *t,
						 const char *name)
{
	struct rg_link_info key;

	if (!t->n || !name || strlen(name) >= sizeof(key.name))
		return NULL;
	snprintf(key.name, sizeof(key.name), "%s", name);
	return bsearch(&key, t->links, t->n, sizeof(*t->links), link_info_cmp_name);
}

const struct rg_link_info *rg_link_table_by_index(const struct rg_link_table *t, int ifindex)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->links[i].ifindex == ifindex)
			return &t->links[i];
	return NULL;
}

int rg_link_table_match(const struct rg_link_table *t, const char *glob,
			struct rg_link_info **out, size_t *n)
{
	const struct rg_link_info *one = NULL;
	struct rg_link_info *links;
	size_t count = 0;
	/* a plain name (fnmatch would match it to itself alone): a config of
	 * 1024 names costs 1024 binary searches, not 1024 scans */
	bool plain = !strpbrk(glob, "*?[\\");

	*out = NULL;
	*n = 0;
	if (plain && !(one = rg_link_table_by_name(t, glob)))
		return 0;
	links = calloc(plain ? 1 : t->n + 1, sizeof(*links));
	if (!links)
		return -ENOMEM;
	if (plain)
		links[count++] = *one;
	for (size_t i = 0; !plain && i < t->n; i++)
		if (fnmatch(glob, t->links[i].name, 0) == 0)
			links[count++] = t->links[i];
	if (!count) {
		free(links);
		return 0;
	}
	*out = links;
	*n = count;
	return 0;
}

bool rg_link_has_native_xdp(const struct rg_link_info *l)
{
	return l->xdp_features_known && (l->xdp_features & RG_NETDEV_XDP_ACT_BASIC);
}

bool rg_link_accepts_redirect(const struct rg_link_info *l)
{
	return l->xdp_features_known && (l->xdp_features & RG_NETDEV_XDP_ACT_NDO_XMIT);
}
