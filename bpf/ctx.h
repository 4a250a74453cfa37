/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The tiny context abstraction the decision core is written against (the
 * idea of Cilium's ctx/xdp.h and ctx/skb.h): what the core needs to know
 * about a frame, independent of the hook that received it.
 *
 * Only the hook adapters in railgate.bpf.c build one; the core never sees
 * an xdp_md or an __sk_buff, so both hooks decide with the same code.
 */
#ifndef RAILGATE_BPF_CTX_H
#define RAILGATE_BPF_CTX_H

#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#include "maps/rg_abi.h"

struct rg_frame {
	void  *data;                 /* start of the Ethernet header */
	void  *data_end;             /* end of the LINEAR part: all the core reads */
	__u32  len;                  /* whole frame: XDP frags / paged skb data too */
	__u32  ifindex;              /* ingress interface */
	__u32  vlan_present;         /* TC: the stack moved a tag into skb metadata */
	__u32  gso_size;             /* TC: payload per segment of a GSO skb; 0 otherwise */
};

/* What the core decided; the hook adapter acts on it and counts it. */
struct rg_decision {
	struct rg_state *state;              /* rg_state[0] (NULL: cannot happen) */
	__u32 stat;                          /* enum rg_stat */
	__u32 rail_slot;                     /* ingress rail id or RG_RAIL_UNKNOWN */
	const struct rg_representor *src_rep; /* set for known ingress */
	const struct rg_egress *egress;      /* set for CROSS_RAIL / FRONTEND and answers */
	const struct rg_icmp_conf *icmp;     /* set when icmp_type is */
	__u8  icmp_type;                     /* the ICMP error to answer with; 0: none */
	__u8  icmp_code;
	__u16 icmp_quote;                    /* bytes of the frame's IPv4 packet it quotes */
};

/* A step of the pipeline (docs/design.md) returns a stat, or this to go on to the next step. */
#define RG_CONTINUE RG_STAT_MAX

#endif /* RAILGATE_BPF_CTX_H */
