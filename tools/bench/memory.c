// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What the tables cost in memory.  A map's `memlock` (fdinfo,
 * bytes_memlock) is the kernel's own estimate; for preallocated arrays it
 * is right, but for the LPM trie it counts only the element sizes and
 * under-reports about 3x, so we also measure the kernel's memory (slab,
 * vmalloc and per-CPU areas from /proc/meminfo) before and after.  Those
 * are machine-wide figures: other work on the machine adds noise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "tools/bench/bench.h"

/* Slab + VmallocUsed + Percpu, in bytes; -1 when /proc/meminfo is unreadable. */
int64_t bench_kernel_mem_bytes(void)
{
	static const char *const fields[] = { "Slab:", "VmallocUsed:", "Percpu:" };
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	int64_t total = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
			long long kb;

			if (!strncmp(line, fields[i], strlen(fields[i])) &&
			    sscanf(line + strlen(fields[i]), "%lld", &kb) == 1)
				total += kb * 1024;
		}
	}
	fclose(f);
	return total;
}

uint64_t bench_map_memlock(int map_fd)
{
	char path[64], line[256];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", map_fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

struct lpm_v4_key {
	uint32_t prefixlen;
	uint8_t  addr[4];
};

/*
 * The reference point the datapath issue quotes: a plain LPM trie with
 * `prefixes` /24s (10.0.0.0/8 spread like the benchmark's table).  Returns
 * the kernel memory it took and its memlock.
 */
int bench_lpm_memory(unsigned prefixes, int64_t *kernel_bytes, uint64_t *memlock,
		     char *err, size_t err_len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	int64_t before = bench_kernel_mem_bytes();
	uint32_t value = 1;
	int fd, ret = 0;

	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "bench_lpm", sizeof(struct lpm_v4_key),
			    sizeof(value), prefixes, &opts);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "creating an LPM trie of %u entries: %s", prefixes,
			 strerror(-ret));
		return ret;
	}
	for (unsigned i = 0; i < prefixes; i++) {
		uint32_t a = 0x0a000000u | (i * (65536u / prefixes)) << 8;
		struct lpm_v4_key key = { .prefixlen = 24,
					  .addr = { a >> 24, a >> 16, a >> 8, a } };

		if (bpf_map_update_elem(fd, &key, &value, BPF_NOEXIST)) {
			ret = -errno;
			snprintf(err, err_len, "LPM trie insert %u: %s", i, strerror(-ret));
			break;
		}
	}
	*kernel_bytes = bench_kernel_mem_bytes() - before;
	*memlock = bench_map_memlock(fd);
	close(fd);
	return ret;
}
