/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The seeded random numbers of the randomised tests: splitmix64, tiny, good
 * enough, and the same on every machine, so a printed seed replays. */
#ifndef RAILGATE_TESTS_RNG_H
#define RAILGATE_TESTS_RNG_H

#include <stdint.h>

static inline uint64_t test_rnd64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 0..bound-1 */
static inline uint32_t test_rnd(uint64_t *state, uint32_t bound)
{
	return (uint32_t)(test_rnd64(state) % bound);
}

#endif
