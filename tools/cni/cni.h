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

/* Error codes: the spec's (SPEC.md "Error"), then ours from 100 up. */
enum cni_code {
	CNI_OK                   = 0,
	CNI_ERR_VERSION          = 1,   /* incompatible CNI version */
	CNI_ERR_UNSUPPORTED      = 2,   /* unsupported field in the config */
	CNI_ERR_NO_CONTAINER     = 3,   /* container unknown or gone */
	CNI_ERR_ENV              = 4,   /* invalid necessary environment variables */
	CNI_ERR_IO               = 5,   /* I/O failure */
	CNI_ERR_DECODE           = 6,   /* failed to decode content */
	CNI_ERR_CONFIG           = 7,   /* invalid network config */
	CNI_ERR_TRY_AGAIN        = 11,  /* try again later */
	CNI_ERR_NOT_AVAILABLE    = 50,  /* STATUS: plugin not available */
	CNI_ERR_ROUTE_CONFLICT   = 100, /* the pod routes a supernet another way */
	CNI_ERR_ROUTE_MISSING    = 101, /* CHECK: a route is missing or differs */
	CNI_ERR_ROUTE_FAILED     = 102, /* the kernel refused a route change */
};

enum cni_command {
	CNI_CMD_ADD,
	CNI_CMD_DEL,
	CNI_CMD_CHECK,
	CNI_CMD_VERSION,
	CNI_CMD_STATUS,
	CNI_CMD_GC,
};

#define CNI_MSG_LEN      512
#define CNI_LATEST       "1.1.0"

/* An error as the runtime receives it. */
struct cni_error {
	int  code;                       /* enum cni_code */
	char msg[CNI_MSG_LEN];           /* short, for humans */
	char details[CNI_MSG_LEN];       /* the specifics */
};

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

int cni_error_set(struct cni_error *e, int code, const char *msg,
		  const char *details_fmt, ...) __attribute__((format(printf, 4, 5)));

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
int cni_print_error(FILE *out, const struct cni_error *e, const char *version);

/* main.c: log a line to stderr (the runtime's log); stdout is for results
 * only.  The fuzzer links its own. */
void cni_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* RAILGATE_CNI_H */
