/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What the benchmark's BPF programs and railgate-bench share. */
#ifndef RAILGATE_BENCH_ABI_H
#define RAILGATE_BENCH_ABI_H

/* Entries of the generator's destination ring; a power of two (masked). */
#define BENCH_DSTS 65536

/* The generator writes TTL 255; a frame forwarded once arrives with 254. */
#define BENCH_GEN_TTL 255

/* Keys of the sink's per-CPU counters. */
enum bench_sink_counter {
	SINK_FRAMES = 0,      /* every frame received */
	SINK_TTL_254,         /* IPv4 frames with TTL 254: forwarded exactly once */
	SINK_COUNTERS,
};

#endif /* RAILGATE_BENCH_ABI_H */
