// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Prometheus text format 0.0.4 and the HTTP server behind it; see metrics.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

#include "loader/daemon/metrics.h"
#include "lib/errbuf.h"

enum {
	METRICS_LISTEN_BACKLOG = 16,
	METRICS_CONN_LIMIT     = 16,   /* a scraper or two and the kubelet's probes */
	METRICS_CONN_TIMEOUT_S = 10,
	READY_REASON_MAX       = 512,
};

/* ---- rendering ------------------------------------------------------------ */

/* Label values escape backslash, double quote and newline (format 0.0.4). */
static void put_label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void put_header(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The rail label of a counter slot: its name, "unknown" for frames from
 * interfaces that are no representor, "#N" for a rail the config dropped. */
static const char *slot_label(const struct rg_rail *rails, unsigned slot, char buf[16])
{
	if (slot == RG_RAIL_UNKNOWN)
		return "unknown";
	if (rails[slot].flags & RG_RAIL_F_VALID)
		return rails[slot].name;
	snprintf(buf, 16, "#%u", slot);
	return buf;
}

/* Configured rails always have their series (zeros included), so rates
 * start at the first scrape; other slots only once they counted a frame. */
static bool slot_shown(const struct rg_metrics_snapshot *s, unsigned slot)
{
	if (slot < RG_MAX_RAILS && (s->rails[slot].flags & RG_RAIL_F_VALID))
		return true;
	for (unsigned st = 0; st < RG_STAT_MAX; st++)
		if (s->counters[RG_STAT_INDEX(slot, st)].packets)
			return true;
	return false;
}

/* One counter family over every shown slot and the stats of one kind
 * (verdicts or drop reasons); bytes selects the byte counter. */
static void put_stat_family(FILE *f, const struct rg_metrics_snapshot *s, const char *name,
			    const char *help, const char *label, bool drops, bool bytes)
{
	char buf[16];

	put_header(f, name, "counter", help);
	for (unsigned slot = 0; slot <= RG_RAIL_UNKNOWN; slot++) {
		if (!slot_shown(s, slot))
			continue;
		for (unsigned st = 0; st < RG_STAT_MAX; st++) {
			const struct rg_counter *c = &s->counters[RG_STAT_INDEX(slot, st)];

			if (rg_stat_is_drop(st) != drops)
				continue;
			fprintf(f, "%s{rail=\"", name);
			put_label_value(f, slot_label(s->rails, slot, buf));
			fprintf(f, "\",%s=\"%s\"} %llu\n", label, rg_stat_name(st),
				(unsigned long long)(bytes ? c->bytes : c->packets));
		}
	}
}

static void put_attached(FILE *f, const struct rg_metrics_snapshot *s)
{
	put_header(f, "railgate_attached", "gauge",
		   "1 when the datapath is attached to the interface, 0 when its pinned link outlived the device.");
	for (size_t i = 0; i < s->n_links; i++) {
		const struct rg_metrics_link *l = &s->links[i];

		fputs("railgate_attached{interface=\"", f);
		put_label_value(f, l->ifname);
		fputs("\",rail=\"", f);
		put_label_value(f, l->rail);
		fprintf(f, "\",mode=\"%s\"} %d\n", rg_attach_mode_name(l->mode), l->attached);
	}
}

/* The side counters, one family each: railgate_<name>_total for the node. */
static void put_side(FILE *f, const struct rg_metrics_snapshot *s)
{
	static const char *const help[RG_SIDE_MAX] = {
		[RG_SIDE_ICMP_SENT] = "ICMP errors (Time Exceeded, Fragmentation Needed) the datapath sent back to pods.",
		[RG_SIDE_ICMP_RATELIMITED] = "ICMP errors due but not sent: over the node's rate limit.",
		[RG_SIDE_MONITOR_EVENTS] = "Events the datapath wrote to the rings of running `railgate monitor`s.",
		[RG_SIDE_MONITOR_RATELIMITED] = "Monitor events not sent: over the node's event rate limit.",
		[RG_SIDE_MONITOR_LOST] = "Monitor events lost: a monitor's ring was full.",
	};
	char name[64];

	for (unsigned i = 0; i < RG_SIDE_MAX; i++) {
		snprintf(name, sizeof(name), "railgate_%s_total", rg_side_name(i));
		put_header(f, name, "counter", help[i]);
		fprintf(f, "%s %llu\n", name,
			(unsigned long long)(s->side ? s->side[i].packets : 0));
	}
}

static void put_datapath(FILE *f, const struct rg_metrics_snapshot *s)
{
	put_stat_family(f, s, "railgate_packets_total",
			"Frames seen on the representors, by ingress rail and verdict.",
			"verdict", false, false);
	put_stat_family(f, s, "railgate_bytes_total",
			"Bytes seen on the representors, by ingress rail and verdict.",
			"verdict", false, true);
	put_stat_family(f, s, "railgate_drops_total",
			"Frames dropped by the datapath, by ingress rail and reason.",
			"reason", true, false);
	put_stat_family(f, s, "railgate_drop_bytes_total",
			"Bytes dropped by the datapath, by ingress rail and reason.",
			"reason", true, true);
	put_side(f, s);
	put_attached(f, s);
	put_header(f, "railgate_config_generation", "gauge",
		   "Generation of the config the datapath runs; increments on every apply.");
	fprintf(f, "railgate_config_generation %llu\n",
		(unsigned long long)s->config_generation);
}

int rg_metrics_render(const struct rg_metrics_snapshot *s, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (!f)
		return -ENOMEM;
	put_header(f, "railgate_build_info", "gauge", "The railgate build; the value is always 1.");
	fputs("railgate_build_info{version=\"", f);
	put_label_value(f, s->version ? s->version : "unknown");
	fputs("\",commit=\"", f);
	put_label_value(f, s->commit ? s->commit : "unknown");
	fprintf(f, "\",abi=\"%d\"} 1\n", RG_ABI_VERSION);
	put_header(f, "railgate_datapath_up", "gauge",
		   "1 when the pinned datapath was found on this node.");
	fprintf(f, "railgate_datapath_up %d\n", s->datapath_up);
	put_header(f, "railgate_reloads_total", "counter",
		   "Config reloads (file change or SIGHUP) by result.");
	fprintf(f, "railgate_reloads_total{result=\"ok\"} %llu\n",
		(unsigned long long)s->reloads_ok);
	fprintf(f, "railgate_reloads_total{result=\"error\"} %llu\n",
		(unsigned long long)s->reloads_error);
	/* Named as Prometheus names its own (prometheus_config_last_reload_*):
	 * an alert on a failing reload needs the state, not only a counter. */
	if (s->last_reload_ok >= 0) {
		put_header(f, "railgate_config_last_reload_successful", "gauge",
			   "1 when the last config load (the start or a reload) applied, else 0.");
		fprintf(f, "railgate_config_last_reload_successful %d\n", s->last_reload_ok > 0);
		put_header(f, "railgate_config_last_reload_success_timestamp_seconds", "gauge",
			   "Unix time of the last config load that applied; 0 when none has.");
		fprintf(f, "railgate_config_last_reload_success_timestamp_seconds %.3f\n",
			s->last_reload_success_time);
	}
	if (s->uplink_up >= 0) {
		put_header(f, "railgate_uplink_up", "gauge",
			   "1 when the computenet uplink is operationally up.");
		fputs("railgate_uplink_up{interface=\"", f);
		put_label_value(f, s->uplink_name ? s->uplink_name : "");
		fprintf(f, "\"} %d\n", s->uplink_up > 0);
	}
	if (s->datapath_up && s->counters && s->rails)
		put_datapath(f, s);
	if (fclose(f)) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* ---- the server --------------------------------------------------------- */

struct rg_metrics_server {
	struct MHD_Daemon *mhd;
	struct rg_metrics_handlers h;
};

int rg_metrics_parse_addr(const char *s, struct sockaddr_in *sa, char *err, size_t err_len)
{
	const char *colon = strrchr(s, ':');
	char host[INET_ADDRSTRLEN];
	char *end;
	long port;

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(host))
		return rg_err(err, err_len, -EINVAL, "--metrics %s: expected ADDR:PORT, e.g. 0.0.0.0:9400", s);
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || port < 1 || port > 65535)
		return rg_err(err, err_len, -EINVAL, "--metrics %s: the port must be 1..65535", s);
	if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		return rg_err(err, err_len, -EINVAL, "--metrics %s: '%s' is not an IPv4 address", s, host);
	sa->sin_port = htons((uint16_t)port);
	return 0;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type,
			     void *body, size_t len, enum MHD_ResponseMemoryMode mem)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mem);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned status, const char *msg)
{
	return reply(conn, status, "text/plain; charset=utf-8", (void *)msg, strlen(msg),
		     MHD_RESPMEM_MUST_COPY);
}

static enum MHD_Result serve_metrics(struct rg_metrics_server *srv, struct MHD_Connection *conn)
{
	char *text = NULL;
	size_t len = 0;

	if (srv->h.scrape(srv->h.ctx, &text, &len)) {
		free(text);
		return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "scrape failed\n");
	}
	return reply(conn, MHD_HTTP_OK, RG_METRICS_CONTENT_TYPE, text, len, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result serve_ready(struct rg_metrics_server *srv, struct MHD_Connection *conn)
{
	char reason[READY_REASON_MAX] = "", body[READY_REASON_MAX + 16];

	if (srv->h.ready(srv->h.ctx, reason, sizeof(reason)))
		return reply_text(conn, MHD_HTTP_OK, "ready\n");
	snprintf(body, sizeof(body), "not ready: %s\n", reason);
	return reply_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE, body);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	struct rg_metrics_server *srv = cls;

	(void)version; (void)upload_data; (void)upload_data_size; (void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "GET only\n");
	if (!strcmp(url, "/metrics"))
		return serve_metrics(srv, conn);
	if (!strcmp(url, "/healthz"))
		return reply_text(conn, MHD_HTTP_OK, "ok\n");
	if (!strcmp(url, "/readyz"))
		return serve_ready(srv, conn);
	return reply_text(conn, MHD_HTTP_NOT_FOUND, "try /metrics, /healthz or /readyz\n");
}

/* Bound here rather than by MHD: its failure would only say "NULL". */
static int listen_on(const struct sockaddr_in *sa, char *err, size_t err_len)
{
	char addr[INET_ADDRSTRLEN];
	int one = 1, ret;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		rg_set_err(err, err_len, "metrics socket: %s", strerror(errno));
		return -errno;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) || listen(fd, METRICS_LISTEN_BACKLOG)) {
		ret = -errno;
		rg_set_err(err, err_len, "metrics %s:%u: %s",
			   inet_ntop(AF_INET, &sa->sin_addr, addr, sizeof(addr)),
			   ntohs(sa->sin_port), strerror(-ret));
		close(fd);
		return ret;
	}
	return fd;
}

int rg_metrics_server_start(struct rg_metrics_server **out, const struct sockaddr_in *sa,
			    const struct rg_metrics_handlers *h, char *err, size_t err_len)
{
	struct rg_metrics_server *srv = calloc(1, sizeof(*srv));
	int fd;

	*out = NULL;
	if (!srv)
		return rg_err(err, err_len, -ENOMEM, "out of memory");
	srv->h = *h;
	fd = listen_on(sa, err, err_len);
	if (fd < 0) {
		free(srv);
		return fd;
	}
	srv->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL,
				    on_request, srv,
				    MHD_OPTION_LISTEN_SOCKET, fd,
				    MHD_OPTION_CONNECTION_LIMIT, (unsigned)METRICS_CONN_LIMIT,
				    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)METRICS_CONN_TIMEOUT_S,
				    MHD_OPTION_END);
	if (!srv->mhd) {
		rg_set_err(err, err_len, "cannot start the metrics server (libmicrohttpd)");
		close(fd);
		free(srv);
		return -EIO;
	}
	*out = srv;
	return 0;
}

void rg_metrics_server_stop(struct rg_metrics_server *srv)
{
	if (!srv)
		return;
	MHD_stop_daemon(srv->mhd);
	free(srv);
}
