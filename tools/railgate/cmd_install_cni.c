// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate install-cni: what the DaemonSet's init container runs to put the
 * railgate-cni plugin into the host's CNI bin directory.  The kubelet may
 * run the plugin at any moment, so the copy is atomic (a temporary file in
 * the same directory, then a rename: loader/files.h), the way Multus,
 * Calico and Cilium install theirs.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/railgate/commands.h"
#include "lib/files.h"

#define CNI_BIN_DIR     "/opt/cni/bin"
#define CNI_PLUGIN_NAME "railgate"   /* the "type" a NetworkAttachmentDefinition names */
#define PLUGIN_MAX_BYTES (64u << 20) /* a static railgate-cni is a few MiB */

static const char install_help[] =
"usage: railgate install-cni [--dest DIR] [--source FILE] [--name NAME]\n"
"\n"
"Copy the railgate-cni plugin into a CNI bin directory atomically (a temporary\n"
"file in DIR, then a rename), so the kubelet never runs a half-written plugin.\n"
"The DaemonSet's init container runs it with the host's directory mounted.\n"
"\n"
"Options:\n"
"  --dest DIR     the CNI bin directory (default " CNI_BIN_DIR ")\n"
"  --source FILE  the plugin (default: railgate-cni beside this railgate binary)\n"
"  --name NAME    the file name in DIR, the NAD's \"type\" (default " CNI_PLUGIN_NAME ")\n"
"  -h, --help     this text\n";

enum install_opt { OPT_DEST = 256, OPT_SOURCE, OPT_NAME };

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

int rg_cmd_install_cni(const struct rg_global_opts *g, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dest", required_argument, NULL, OPT_DEST },
		{ "source", required_argument, NULL, OPT_SOURCE },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dest = CNI_BIN_DIR, *name = CNI_PLUGIN_NAME, *source = NULL;
	char src[PATH_MAX], target[PATH_MAX], err[PATH_MAX + 128], *data = NULL;
	struct stat st;
	size_t len = 0;
	int c, ret;

	(void)g;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_DEST: dest = optarg; break;
		case OPT_SOURCE: source = optarg; break;
		case OPT_NAME: name = optarg; break;
		case 'h': fputs(install_help, stdout); return RG_EXIT_OK;
		default:
			fprintf(stderr, "%.*s\n", (int)strcspn(install_help, "\n"), install_help);
			return RG_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "railgate install-cni: unexpected argument %s\n", argv[optind]);
		return RG_EXIT_USAGE;
	}
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
