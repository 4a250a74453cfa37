/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Prometheus metrics for `railgate run`: the text exposition format 0.0.4,
 * written by hand (no C client is packaged, and the format is a few lines
 * per family), served with libmicrohttpd on /metrics, next to /healthz
 * (the process answers) and /readyz (the node is programmed).
 *
 * Families (every counter ends in _total, labels are bounded: a rail name,
 * a verdict or reason of enum rg_stat, an interface the config names):
 *   railgate_packets_total{rail,verdict}       frames by ingress rail and verdict
 *   railgate_bytes_total{rail,verdict}
 *   railgate_drops_total{rail,reason}          frames dropped, by reason
 *   railgate_drop_bytes_total{rail,reason}
 *   railgate_attached{interface,rail,mode}     1 attached, 0 pinned but the device is gone
 *   railgate_datapath_up                       1 when the pinned datapath was found
 *   railgate_config_generation                 increments on every apply
 *   railgate_reloads_total{result="ok|error"}  config reloads (file change, SIGHUP)
 *   railgate_config_last_reload_successful     1 when the last load (start or reload) applied
 *   railgate_config_last_reload_success_timestamp_seconds   when one last did
 *   railgate_uplink_up{interface}              operstate of the computenet uplink
 *   railgate_build_info{version,commit,abi}    always 1
 *
 * Rendering is pure (rg_metrics_render) so it can be tested without a
 * kernel; the server calls back into the daemon for the data on each scrape.
 */
#ifndef RAILGATE_METRICS_H
#define RAILGATE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <netinet/in.h>

#include "maps/rg_abi.h"

#define RG_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* One pinned attachment, for railgate_attached. */
struct rg_metrics_link {
	char ifname[IF_NAMESIZE];
	char rail[RG_RAIL_NAME_LEN];  /* "" when the representor entry is gone */
	enum rg_attach_mode mode;
	bool attached;                /* false: the link outlived its device */
};

/* Everything one scrape shows. */
struct rg_metrics_snapshot {
	bool datapath_up;                  /* the fields below the line are valid */
	uint64_t reloads_ok;
	uint64_t reloads_error;
	int uplink_up;                     /* 1, 0, or -1 when unknown (not exported) */
	const char *uplink_name;           /* the interface label of railgate_uplink_up */
	int last_reload_ok;                /* 1, 0, or -1 before the first load (not exported) */
	double last_reload_success_time;   /* Unix seconds; 0 when none applied yet */
	const char *version;
	const char *commit;                /* git commit of the build */
	/* ---- from the pinned maps, when datapath_up */
	const struct rg_counter *counters; /* RG_STAT_SLOTS entries, RG_STAT_INDEX */
	const struct rg_counter *side;     /* RG_SIDE_MAX entries (enum rg_side) */
	const struct rg_rail *rails;       /* RG_MAX_RAILS: the active generation */
	const struct rg_metrics_link *links;
	size_t n_links;
	uint64_t config_generation;
};

/* The exposition text; *text is malloc'd, the caller frees it.  0 or -ENOMEM. */
int rg_metrics_render(const struct rg_metrics_snapshot *s, char **text, size_t *len);

/* What the server asks the daemon for.  Called from the server's thread. */
struct rg_metrics_handlers {
	void *ctx;
	/* The /metrics body (malloc'd, freed by the server); 0 or -errno. */
	int  (*scrape)(void *ctx, char **text, size_t *len);
	/* true when ready; otherwise why not, one line, into reason. */
	bool (*ready)(void *ctx, char *reason, size_t n);
};

struct rg_metrics_server;

/* "ADDR:PORT" (IPv4, port 1..65535) into sa.  0, or -EINVAL with a message. */
int  rg_metrics_parse_addr(const char *s, struct sockaddr_in *sa, char *err, size_t err_len);
/* Bind sa (in the caller's network namespace) and serve on a thread of its
 * own.  0, or -errno with a message ("127.0.0.1:9400: Address in use"). */
int  rg_metrics_server_start(struct rg_metrics_server **out, const struct sockaddr_in *sa,
			     const struct rg_metrics_handlers *h, char *err, size_t err_len);
void rg_metrics_server_stop(struct rg_metrics_server *srv);

#endif /* RAILGATE_METRICS_H */
