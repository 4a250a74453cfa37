/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A node's facts (facts.h) as JSON text and back, so that they can be
 * recorded on a node and the plan built from them elsewhere, without root
 * or a kernel (tests/unit/facts/, docs/testing.md "Recorded facts" for the
 * format).  Written and read back, facts are what they were: addresses as
 * dotted quads, MACs as colon hex, errors as the negative errno Linux
 * numbers them by, a question that was not asked as null.
 */
#ifndef RAILGATE_FACTS_JSON_H
#define RAILGATE_FACTS_JSON_H

#include <stddef.h>

#include "loader/kernel/facts.h"

/* The "format" member every recording starts with. */
#define RG_FACTS_FORMAT "railgate-node-facts/1"

/* *text: malloc'd, pretty-printed, ends in a newline.  0 or -ENOMEM. */
int rg_facts_to_json(const struct rg_node_facts *f, char **text);

/* 0, or -EINVAL with a message naming the member that is wrong (-ENOMEM);
 * *f is filled only on success (rg_facts_free). */
int rg_facts_from_json(const char *text, struct rg_node_facts *f, char *err, size_t err_len);

#endif /* RAILGATE_FACTS_JSON_H */
