// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The CNI environment (SPEC.md "Parameters"): which variables each command
 * needs, and CNI_ARGS with IgnoreUnknown.  Every problem is error code 4 and
 * names the variable.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>

#include "tools/cni/cni.h"

/* Which variables a command cannot do without. */
enum env_need {
	NEED_CONTAINERID = 1 << 0,
	NEED_NETNS       = 1 << 1,
	NEED_IFNAME      = 1 << 2,
	NEED_PATH        = 1 << 3,
};

static const struct {
	const char *name;
	enum cni_command cmd;
	unsigned need;
} commands[] = {
	{ "ADD",     CNI_CMD_ADD,     NEED_CONTAINERID | NEED_NETNS | NEED_IFNAME | NEED_PATH },
	{ "CHECK",   CNI_CMD_CHECK,   NEED_CONTAINERID | NEED_NETNS | NEED_IFNAME | NEED_PATH },
	/* DEL must work when the namespace is already gone */
	{ "DEL",     CNI_CMD_DEL,     NEED_CONTAINERID | NEED_IFNAME | NEED_PATH },
	{ "VERSION", CNI_CMD_VERSION, 0 },
	{ "STATUS",  CNI_CMD_STATUS,  0 },
	{ "GC",      CNI_CMD_GC,      0 },
};

/* CNI_ARGS keys the Kubernetes runtimes send; accepted without IgnoreUnknown. */
static const char *const known_args[] = {
	"IgnoreUnknown", "K8S_POD_NAMESPACE", "K8S_POD_NAME",
	"K8S_POD_INFRA_CONTAINER_ID", "K8S_POD_UID",
};

static const char *env_get(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static void append(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", s);
}

/* The spec: letters, digits, and '_', '.', '-' after the first character. */
static bool container_id_valid(const char *id)
{
	if (!isalnum((unsigned char)id[0]))
		return false;
	for (const char *p = id; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			return false;
	return true;
}

/* What the kernel accepts as a netdev name. */
static bool ifname_valid(const char *n)
{
	if (strlen(n) >= IF_NAMESIZE || !strcmp(n, ".") || !strcmp(n, ".."))
		return false;
	for (const char *p = n; *p; p++)
		if (*p == '/' || *p == ':' || isspace((unsigned char)*p))
			return false;
	return true;
}

static bool arg_known(const char *key, size_t len)
{
	for (size_t i = 0; i < sizeof(known_args) / sizeof(known_args[0]); i++)
		if (strlen(known_args[i]) == len && !strncmp(known_args[i], key, len))
			return true;
	return false;
}

/* "K=V;K=V": every pair well formed; unknown keys only with IgnoreUnknown. */
static int args_check(const char *args, struct cni_error *e)
{
	char unknown[CNI_MSG_LEN] = "";
	bool ignore_unknown = false;
	char *copy = strdup(args), *save = NULL;
	int ret = 0;

	if (!copy)
		return cni_error_set(e, CNI_ERR_IO, "out of memory", "reading CNI_ARGS");
	for (char *kv = strtok_r(copy, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
		char *eq = strchr(kv, '=');

		if (!eq || eq == kv) {
			ret = cni_error_set(e, CNI_ERR_ENV, "invalid CNI_ARGS",
					    "\"%s\" is not KEY=VALUE", kv);
			goto out;
		}
		if (!strncmp(kv, "IgnoreUnknown", eq - kv) && eq - kv == 13)
			ignore_unknown = !strcasecmp(eq + 1, "1") || !strcasecmp(eq + 1, "true");
		else if (!arg_known(kv, eq - kv)) {
			*eq = '\0';
			append(unknown, sizeof(unknown), kv);
		}
	}
	if (*unknown && !ignore_unknown)
		ret = cni_error_set(e, CNI_ERR_ENV, "unknown CNI_ARGS",
				    "railgate takes no arguments; unknown key(s) %s (add IgnoreUnknown=1 to pass them)",
				    unknown);
out:
	free(copy);
	return ret;
}

int cni_env_read(struct cni_env *env, struct cni_error *e)
{
	char missing[CNI_MSG_LEN] = "";
	const char *cmd = env_get("CNI_COMMAND");
	unsigned need = 0;
	size_t i;

	memset(env, 0, sizeof(*env));
	if (!cmd)
		return cni_error_set(e, CNI_ERR_ENV, "missing environment variable CNI_COMMAND",
				     "CNI_COMMAND must be ADD, DEL, CHECK, VERSION, STATUS or GC");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, cmd))
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		return cni_error_set(e, CNI_ERR_ENV, "invalid CNI_COMMAND",
				     "\"%s\" is not ADD, DEL, CHECK, VERSION, STATUS or GC", cmd);
	env->command = commands[i].cmd;
	env->command_name = commands[i].name;
	need = commands[i].need;

	env->container_id = env_get("CNI_CONTAINERID");
	env->netns = env_get("CNI_NETNS");
	env->ifname = env_get("CNI_IFNAME");
	env->args = env_get("CNI_ARGS");
	env->path = env_get("CNI_PATH");

	if ((need & NEED_CONTAINERID) && !env->container_id)
		append(missing, sizeof(missing), "CNI_CONTAINERID");
	if ((need & NEED_NETNS) && !env->netns)
		append(missing, sizeof(missing), "CNI_NETNS");
	if ((need & NEED_IFNAME) && !env->ifname)
		append(missing, sizeof(missing), "CNI_IFNAME");
	if ((need & NEED_PATH) && !env->path)
		append(missing, sizeof(missing), "CNI_PATH");
	if (*missing)
		return cni_error_set(e, CNI_ERR_ENV, "missing environment variables",
				     "%s needs %s", cmd, missing);

	if (env->container_id && !container_id_valid(env->container_id))
		return cni_error_set(e, CNI_ERR_ENV, "invalid CNI_CONTAINERID",
				     "\"%s\": only letters, digits, '_', '.' and '-', starting with a letter or digit",
				     env->container_id);
	if (env->ifname && !ifname_valid(env->ifname))
		return cni_error_set(e, CNI_ERR_ENV, "invalid CNI_IFNAME",
				     "\"%s\" is not a valid interface name", env->ifname);
	if (env->args)
		return args_check(env->args, e);
	return 0;
}
