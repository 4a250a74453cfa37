/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The checks across the fields of a parsed config (overlaps, containment,
 * one rail per representor...), each mistake reported at its node.
 */
#ifndef RAILGATE_CONFIG_CHECKS_H
#define RAILGATE_CONFIG_CHECKS_H

#include "loader/config/schema.h"

void check_config(struct parser *p);

#endif /* RAILGATE_CONFIG_CHECKS_H */
