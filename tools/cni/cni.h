/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * railgate-cni: a chained CNI plugin that gives one rail interface of a pod
 * (of one or of eight) its own routing table and source rule, and the
 * supernet and front-end routes via the rail gateway (tools/pod_routes/).  Follows the CNI
 * spec, versions 0.3.1, 0.4.0, 1.0.0 and 1.1.0.
 */
#ifndef RAILGATE_CNI_H
#define RAILGATE_CNI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "loader/config/config.h"
#include "tools/pod_routes/pod_routes.h"
#include "tools/cni/errors.h"
#include "tools/cni/log.h"

enum cni_command {
	CNI_CMD_ADD,
	CNI_CMD_DEL,
	CNI_CMD_CHECK,
	CNI_CMD_VERSION,
	CNI_CMD_STATUS,
	CNI_CMD_GC,
};

#define CNI_LATEST       "1.1.0"

/* The spec's environment variables. */
struct cni_env {
	enum cni_command command;
	const char *command_name;
	const char *container_id;
	const char *netns;               /* may be NULL/"" on DEL */
	const char *ifname;
	const char *args;
	const char *path;
};

/* The plugin's own config keys, parsed from the network config on stdin. */
struct cni_netconf {
	char cni_version[16];
	const char *name;
	const char *rail_config;         /* railConfig: path, or NULL */
	struct rg_pod_inline inline_routes; /* supernets, gateway, frontend */
	struct rg_pod_numbering numbering; /* tableBase, rulePriority, table */
	enum rg_pod_conflict_policy on_conflict;
	struct json_object *prev_result; /* borrowed from root, or NULL */
	struct json_object *root;        /* the whole document */
};

/* netconf.c: the versions this plugin speaks */
extern const char *const cni_supported_versions[];
bool cni_version_supported(const char *v);
/* <0, 0, >0 like strcmp, for dotted versions */
int cni_version_cmp(const char *a, const char *b);

/* env.c */
int cni_env_read(struct cni_env *env, struct cni_error *e);

/* netconf.c: decode (code 6) then validate (codes 1 and 7). */
int cni_netconf_parse(const char *text, enum cni_command cmd,
		      struct cni_netconf *nc, struct cni_error *e);
void cni_netconf_free(struct cni_netconf *nc);

/* commands.c */
int cni_cmd_add(const struct cni_env *env, struct cni_netconf *nc, struct cni_error *e);
int cni_cmd_del(const struct cni_env *env, struct cni_netconf *nc, struct cni_error *e);
int cni_cmd_check(const struct cni_env *env, struct cni_netconf *nc, struct cni_error *e);
int cni_cmd_status(struct cni_netconf *nc, struct cni_error *e);
int cni_cmd_gc(struct cni_netconf *nc, struct cni_error *e);

/* plugin.c: one invocation: the environment (getenv) and the network
 * config's len bytes (text[len] is a NUL) in, the exit code out, the result
 * or error object on out. */
int cni_plugin(const char *text, size_t len, FILE *out);

#endif /* RAILGATE_CNI_H */
