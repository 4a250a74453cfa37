// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/files.h"
#include "lib/errbuf.h"

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int rg_file_read(const char *path, size_t max, char **data, size_t *len, char *err, size_t err_len)
{
	size_t cap = 0, used = 0;
	char *buf = NULL, *grown;
	int fd, ret = 0;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rg_err(err, err_len, -errno, "%s: cannot read: %s", path, strerror(errno));
	for (;;) {
		ssize_t r;

		if (used == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > max + 1)
				cap = max + 1;      /* one byte more tells "too big" */
			if (used == cap) {
				ret = -EFBIG;
				break;
			}
			grown = realloc(buf, cap);
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
		}
		r = read(fd, buf + used, cap - used);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	close(fd);
	if (!ret && used > max)
		ret = -EFBIG;
	if (ret) {
		free(buf);
		return rg_err(err, err_len, ret, "%s: cannot read: %s", path, strerror(-ret));
	}
	*data = buf;
	*len = used;
	return 0;
}

/* The rename is durable only once the directory's entry is on disk. */
static void sync_dir(const char *path)
{
	char copy[PATH_MAX];
	int fd;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int rg_file_write_atomic(const char *path, const void *data, size_t len, mode_t mode,
			 char *err, size_t err_len)
{
	char tmp[PATH_MAX], copy[PATH_MAX];
	const char *step = "create a temporary file", *base = strrchr(path, '/');
	int fd, ret;

	base = base ? base + 1 : path;
	snprintf(copy, sizeof(copy), "%s", path);
	/* a dot name: a CNI runtime or a config watcher skips it */
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dirname(copy), base) >= (int)sizeof(tmp))
		return rg_err(err, err_len, -ENAMETOOLONG, "%s: path too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return rg_err(err, err_len, -errno, "%s: cannot %s: %s", path, step, strerror(errno));
	ret = write_all(fd, data, len);
	if (ret)
		step = "write";
	if (!ret && fchmod(fd, mode)) {
		ret = -errno;
		step = "chmod";
	}
	if (!ret && fsync(fd)) {
		ret = -errno;
		step = "sync";
	}
	if (close(fd) && !ret) {
		ret = -errno;
		step = "write";
	}
	if (!ret && rename(tmp, path)) {
		ret = -errno;
		step = "rename into place";
	}
	if (ret) {
		unlink(tmp);
		return rg_err(err, err_len, ret, "%s: cannot %s: %s", path, step, strerror(-ret));
	}
	sync_dir(path);
	return 0;
}

int rg_mkdir_p(const char *path, mode_t mode, char *err, size_t err_len)
{
	char dir[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(dir))
		return rg_err(err, err_len, -ENAMETOOLONG, "cannot make directory \"%s\": %s",
			      path, len ? "path too long" : "empty path");
	memcpy(dir, path, len + 1);
	/* Each '/' after the first character ends a directory on the way;
	 * the terminating NUL ends the last one. */
	for (char *p = dir + 1; ; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, mode) && errno != EEXIST)
			return rg_err(err, err_len, -errno, "mkdir %s: %s", dir, strerror(errno));
		*p = c;
		if (c == '\0')
			return 0;
	}
}
