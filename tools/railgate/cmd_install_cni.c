// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate install-cni: what the DaemonSet's init container runs to put the
 * railgate-cni plugin into the host's CNI bin directory.  The kubelet may
 * run the plugin at any moment, so the copy is atomic (a temporary file in
 * the same directory, then a rename: lib/files.h), the way Multus,
 * Calico and Cilium install theirs.
 */
#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"
#include "lib/files.h"

#define CNI_BIN_DIR     "/opt/cni/bin"
#define CNI_PLUGIN_NAME "railgate"   /* the "type" a NetworkAttachmentDefinition names */
#define PLUGIN_MAX_BYTES (64u << 20) /* a static railgate-cni is a few MiB */

struct install_args {
	const char *dest;
	const char *source;          /* NULL: railgate-cni beside this binary */
	const char *name;
};

static const struct rg_opt install_options[] = {
	{ .name = "dest", .arg = "DIR", .kind = RG_OPT_STRING, .offset = offsetof(struct install_args, dest),
	  .complete = RG_COMPLETE_DIR, .help = "the CNI bin directory (default " CNI_BIN_DIR ")" },
	{ .name = "source", .arg = "FILE", .kind = RG_OPT_STRING,
	  .offset = offsetof(struct install_args, source), .complete = RG_COMPLETE_FILE,
	  .help = "the plugin (default: railgate-cni beside this railgate binary)" },
	{ .name = "name", .arg = "NAME", .kind = RG_OPT_STRING, .offset = offsetof(struct install_args, name),
	  .help = "the file name in DIR, the NAD's \"type\" (default " CNI_PLUGIN_NAME ")" },
	{ 0 },
};

const struct rg_cmd_opts rg_install_cni_opts = {
	.name = "install-cni",
	.usage = "usage: railgate install-cni [--dest DIR] [--source FILE] [--name NAME]",
	.about = "Copy the railgate-cni plugin into a CNI bin directory atomically (a temporary\n"
		 "file in DIR, then a rename), so the kubelet never runs a half-written plugin.\n"
		 "The DaemonSet's init container runs it with the host's directory mounted.",
	.opts = install_options,
	.args_size = sizeof(struct install_args),
	.after = RG_AFTER_USAGE,
};

/* railgate-cni beside /proc/self/exe: build/ and the image keep them together. */
static int default_source(char *out, size_t n)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len < 0)
		return -errno;
	self[len] = '\0';
	if (snprintf(out, n, "%s/railgate-cni", dirname(self)) >= (int)n)
		return -ENAMETOOLONG;
	return 0;
}

/* The whole plugin, from a regular, executable file. */
static int read_plugin(const char *path, char **data, size_t *len)
{
	struct stat st;
	char err[PATH_MAX + 64];

	if (stat(path, &st)) {
		fprintf(stderr, "railgate install-cni: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR) || st.st_size == 0) {
		fprintf(stderr, "railgate install-cni: %s is not an executable file\n", path);
		return -1;
	}
	if (rg_file_read(path, PLUGIN_MAX_BYTES, data, len, err, sizeof(err))) {
		fprintf(stderr, "railgate install-cni: %s\n", err);
		return -1;
	}
	return 0;
}

/* The target already holds exactly these bytes: nothing to do. */
static bool same_content(const char *path, const char *data, size_t len)
{
	char *old = NULL, err[64];
	size_t old_len = 0;
	bool same;

	if (rg_file_read(path, PLUGIN_MAX_BYTES, &old, &old_len, err, sizeof(err)))
		return false;
	same = old_len == len && !memcmp(old, data, len);
	free(old);
	return same;
}

int rg_cmd_install_cni(struct rg_global_opts *g, int argc, char **argv)
{
	struct install_args a = { .dest = CNI_BIN_DIR, .name = CNI_PLUGIN_NAME };
	const char *dest, *name, *source;
	char src[PATH_MAX], target[PATH_MAX], err[PATH_MAX + 128], *data = NULL;
	struct stat st;
	size_t len = 0;
	int first, ret;
	enum rg_opts_result r = cli_parse(&rg_install_cni_opts, g, argc, argv, &a, &first);

	if (r != RG_OPTS_RUN)
		return rg_opts_exit(r);
	if (first < argc) {
		fprintf(stderr, "railgate install-cni: unexpected argument %s\n", argv[first]);
		return RG_EXIT_USAGE;
	}
	dest = a.dest;
	name = a.name;
	source = a.source;
	if (!*name || strchr(name, '/') || name[0] == '.') {
		fprintf(stderr, "railgate install-cni: --name '%s' is not a file name\n", name);
		return RG_EXIT_USAGE;
	}
	if (stat(dest, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "railgate install-cni: %s is not a directory (mount the host's CNI bin directory there)\n",
			dest);
		return RG_EXIT_FAIL;
	}
	if (!source) {
		ret = default_source(src, sizeof(src));
		if (ret) {
			/* no /proc (a bare chroot): the binary cannot see where it is */
			fprintf(stderr, "railgate install-cni: cannot find railgate-cni beside this binary (/proc/self/exe: %s): give --source\n",
				strerror(-ret));
			return RG_EXIT_FAIL;
		}
		source = src;
	}
	if (read_plugin(source, &data, &len))
		return RG_EXIT_FAIL;
	snprintf(target, sizeof(target), "%s/%s", dest, name);
	if (same_content(target, data, len)) {
		printf("%s is already this railgate-cni (%zu bytes)\n", target, len);
		free(data);
		return RG_EXIT_OK;
	}
	ret = rg_file_write_atomic(target, data, len, 0755, err, sizeof(err));
	free(data);
	if (ret) {
		fprintf(stderr, "railgate install-cni: %s\n", err);
		return RG_EXIT_FAIL;
	}
	printf("installed %s as %s (%zu bytes)\n", source, target, len);
	return RG_EXIT_OK;
}
