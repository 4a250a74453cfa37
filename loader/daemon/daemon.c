// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The node daemon's event loop; see daemon.h. */
#include <errno.h>
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/signalfd.h>
#include <bpf/bpf.h>

#include "loader/datapath/apply.h"
#include "loader/daemon/daemon.h"
#include "loader/datapath/datapath.h"
#include "lib/digest.h"
#include "lib/files.h"
#include "loader/daemon/metrics.h"
#include "lib/addr.h"
#include "lib/mac.h"
#include "lib/ifname.h"
#include "loader/kernel/link_table.h"
#include "loader/kernel/netlink.h"
#include "loader/kernel/switchdev.h"
#include "lib/errbuf.h"

/* Why the loop must act, collected until the debounce delay ends. */
enum pending {
	PENDING_CONFIG    = 1u << 0,  /* the config dir changed: re-read, apply if the digest differs */
	PENDING_RELOAD    = 1u << 1,  /* SIGHUP: re-read and apply whatever the digest */
	PENDING_RECONCILE = 1u << 2,  /* the node changed: apply the running config again */
};

enum poll_slot { POLL_SIGNAL, POLL_INOTIFY, POLL_NETLINK, POLL_COUNT };

#define INOTIFY_MASK (IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM)
#define READY_REASON_LEN 256
#define MAX_ATTACHED 1024

/* Read by the metrics thread, written by the loop: under lock. */
struct shared {
	pthread_mutex_t lock;
	uint64_t reloads_ok;
	uint64_t reloads_error;
	int uplink_up;               /* -1 unknown */
	char uplink_name[IF_NAMESIZE];
	int last_reload_ok;          /* -1 before the first load */
	double last_reload_success;  /* Unix seconds, 0 none */
	bool ready;
	char reason[READY_REASON_LEN];
};

struct daemon {
	const struct rg_daemon_opts *o;
	struct rg_config cfg;        /* the running config, when have_cfg */
	bool have_cfg;
	bool apply_failed;           /* the last apply of cfg failed: retry */
	uint8_t seen_digest[RG_SHA256_LEN]; /* of the last file content acted on */
	bool have_seen;
	bool started;                /* the first apply was attempted: later ones are reloads */
	int sig_fd, ino_fd;
	struct rg_nl *nl;
	struct rg_nl_watch *watch;
	struct rg_metrics_server *srv;
	unsigned pending;            /* enum pending */
	uint64_t due_ms;             /* when to act on pending; 0: nothing due */
	uint64_t retry_ms;           /* when to retry a failed apply; 0: none */
	/* what the running datapath holds, read back after each apply */
	int uplink_ifindex;
	unsigned uplink_mtu;         /* as the running generation has it */
	uint32_t gateway_ip;
	uint8_t gateway_mac[6];
	int attached[MAX_ATTACHED];
	size_t n_attached;
	struct shared sh;
	bool stop;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const struct rg_log *dlog(const struct daemon *d)
{
	return d->o->log;
}

static void schedule(struct daemon *d, unsigned why)
{
	d->pending |= why;
	if (!d->due_ms)   /* from the first event of a burst: latency stays bounded */
		d->due_ms = now_ms() + RG_DAEMON_DEBOUNCE_MS;
}

/* The result of a config load: the start sets the last-load gauges, a
 * reload also counts. */
static void record_load(struct daemon *d, bool ok)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	pthread_mutex_lock(&d->sh.lock);
	if (d->started) {
		if (ok)
			d->sh.reloads_ok++;
		else
			d->sh.reloads_error++;
	}
	d->sh.last_reload_ok = ok;
	if (ok)
		d->sh.last_reload_success = (double)now.tv_sec + now.tv_nsec / 1e9;
	pthread_mutex_unlock(&d->sh.lock);
}

/* name: the uplink's, or NULL to keep the one known. */
static void set_uplink_up(struct daemon *d, int up, const char *name)
{
	pthread_mutex_lock(&d->sh.lock);
	d->sh.uplink_up = up;
	if (name && *name)
		snprintf(d->sh.uplink_name, sizeof(d->sh.uplink_name), "%s", name);
	pthread_mutex_unlock(&d->sh.lock);
}

/* ---- the running datapath, read from the pins ---------------------------- */

static bool rep_of(const struct rg_datapath *dp, int ifindex, struct rg_representor *rep)
{
	memset(rep, 0, sizeof(*rep));
	return ifindex > 0 &&
	       !rg_map_set_get_representor(&dp->maps, rg_map_set_active_gen(&dp->maps),
					   (uint32_t)ifindex, rep) &&
	       (rep->flags & RG_REP_F_VALID);
}

/* After an apply: the uplink, the gateway and the attached set, so that
 * netlink events can be judged relevant without a map read each. */
static void refresh_running(struct daemon *d)
{
	struct rg_datapath dp;
	struct rg_attached *links = NULL;
	struct rg_link_info up;
	struct rg_egress eg = { 0 };
	size_t n_links = 0;
	char err[256];

	d->n_attached = 0;
	if (rg_datapath_open_readonly(&dp, d->o->pin_dir, err, sizeof(err))) {
		rg_datapath_close(&dp);
		return;
	}
	if (!rg_datapath_active_egress(&dp, &eg) && (eg.flags & RG_EGRESS_F_VALID)) {
		d->uplink_ifindex = (int)eg.uplink_ifindex;
		d->uplink_mtu = eg.uplink_mtu;
		d->gateway_ip = eg.gateway_ip;
		memcpy(d->gateway_mac, eg.gateway_mac, 6);
	}
	rg_datapath_links(&dp, &links, &n_links);
	for (size_t i = 0; i < n_links && d->n_attached < MAX_ATTACHED; i++)
		if (links[i].alive)
			d->attached[d->n_attached++] = links[i].ifindex;
	free(links);
	rg_datapath_close(&dp);
	if (d->uplink_ifindex && !rg_nl_link_by_index(d->nl, d->uplink_ifindex, &up))
		set_uplink_up(d, up.oper_up, up.name);
}

static bool is_attached(const struct daemon *d, int ifindex)
{
	for (size_t i = 0; i < d->n_attached; i++)
		if (d->attached[i] == ifindex)
			return true;
	return false;
}

/* ---- readiness -------------------------------------------------------------- */

static bool link_alive(const struct rg_attached *links, size_t n, int ifindex)
{
	for (size_t i = 0; i < n; i++)
		if (links[i].ifindex == ifindex && links[i].alive)
			return true;
	return false;
}

static int rail_id_by_name(const struct rg_rail *rails, const char *name)
{
	for (int i = 0; i < RG_MAX_RAILS; i++)
		if ((rails[i].flags & RG_RAIL_F_VALID) && !strcmp(rails[i].name, name))
			return i;
	return -1;
}

/* Every present interface matching pat is attached for the rail. */
static bool pattern_attached(const struct rg_link_table *lt, const struct rg_datapath *dp,
			     const struct rg_config_rail *rail, int rail_id, const char *pat,
			     const struct rg_attached *links, size_t n_links, char *why, size_t n)
{
	struct rg_link_info *found = NULL;
	size_t n_found = 0;
	bool ok = true;

	if (rg_link_table_match(lt, pat, &found, &n_found))
		return true;
	for (size_t i = 0; i < n_found && ok; i++) {
		struct rg_representor rep;

		if (!rep_of(dp, found[i].ifindex, &rep) || rep.rail_id != rail_id ||
		    !link_alive(links, n_links, found[i].ifindex)) {
			snprintf(why, n, "%s (rail %s) is not attached", found[i].name, rail->name);
			ok = false;
		}
	}
	free(found);
	return ok;
}

/* Every present interface of the rail (by its patterns, or the VF
 * representors of its pf) is attached for it. */
static bool rail_reps_attached(const struct rg_link_table *lt, const struct rg_datapath *dp,
			       const struct rg_config_rail *rail, int rail_id,
			       const struct rg_attached *links, size_t n_links,
			       char *why, size_t n)
{
	char **pats;
	size_t n_pats;
	bool ok = true;

	if (rg_rail_patterns(rail, rg_sysfs_root(), &pats, &n_pats, why, n))
		return false;
	for (size_t p = 0; p < n_pats && ok; p++)
		ok = pattern_attached(lt, dp, rail, rail_id, pats[p], links, n_links, why, n);
	rg_rail_patterns_free(pats, n_pats);
	return ok;
}

static bool compute_ready(struct daemon *d, char *why, size_t n)
{
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_attached *links = NULL;
	struct rg_link_table lt = { 0 };
	struct rg_datapath dp;
	size_t n_links = 0;
	bool ok = true;
	char err[256];

	if (!d->have_cfg) {
		snprintf(why, n, "no config applied yet");
		return false;
	}
	if (d->apply_failed) {
		snprintf(why, n, "the last apply failed (see the log); retrying");
		return false;
	}
	if (rg_datapath_open_readonly(&dp, d->o->pin_dir, err, sizeof(err))) {
		snprintf(why, n, "%s", err);
		rg_datapath_close(&dp);
		return false;
	}
	if (rg_datapath_active_rails(&dp, rails) || rg_datapath_links(&dp, &links, &n_links)) {
		snprintf(why, n, "cannot read the pinned maps");
		ok = false;
	}
	/* one dump for every rail's patterns, not one per pattern */
	if (ok && rg_nl_link_table(d->nl, &lt)) {
		snprintf(why, n, "cannot list the node's interfaces");
		ok = false;
	}
	for (size_t r = 0; ok && r < d->cfg.n_rails; r++) {
		const struct rg_config_rail *rail = &d->cfg.rails[r];
		int id = rail_id_by_name(rails, rail->name);

		if (id < 0) {
			snprintf(why, n, "rail %s is not programmed", rail->name);
			ok = false;
		} else {
			ok = rail_reps_attached(&lt, &dp, rail, id, links, n_links, why, n);
		}
	}
	rg_link_table_free(&lt);
	free(links);
	rg_datapath_close(&dp);
	return ok;
}

static void update_ready(struct daemon *d)
{
	char why[READY_REASON_LEN] = "";
	bool ready = compute_ready(d, why, sizeof(why));

	pthread_mutex_lock(&d->sh.lock);
	if (ready != d->sh.ready || strcmp(why, d->sh.reason))
		rg_log_event(dlog(d), ready ? RG_LOG_INFO : RG_LOG_WARN, "ready",
			     ready ? "ready" : "not ready: %s", why);
	d->sh.ready = ready;
	snprintf(d->sh.reason, sizeof(d->sh.reason), "%s", why);
	pthread_mutex_unlock(&d->sh.lock);
}

/* ---- metrics handlers (the server's thread) ---------------------------------- */

static void fill_links(const struct rg_datapath *dp, const struct rg_rail *rails,
		       struct rg_metrics_link *out, const struct rg_attached *links, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct rg_representor rep;

		memset(&out[i], 0, sizeof(out[i]));
		rg_ifname_str(links[i].ifindex, out[i].ifname);
		if (rep_of(dp, links[i].ifindex, &rep) && rep.rail_id < RG_MAX_RAILS)
			snprintf(out[i].rail, sizeof(out[i].rail), "%s", rails[rep.rail_id].name);
		out[i].mode = links[i].mode;
		out[i].attached = links[i].alive;
	}
}

static int daemon_scrape(void *ctx, char **text, size_t *len)
{
	struct daemon *d = ctx;
	struct rg_metrics_snapshot s = { .version = d->o->version, .commit = d->o->commit };
	char uplink[IF_NAMESIZE];
	struct rg_rail *rails = calloc(RG_MAX_RAILS, sizeof(*rails));
	struct rg_counter *counters = calloc(RG_STAT_SLOTS, sizeof(*counters));
	struct rg_counter side[RG_SIDE_MAX];
	struct rg_metrics_link *mlinks = NULL;
	struct rg_attached *links = NULL;
	struct rg_datapath dp;
	size_t n_links = 0;
	char err[256];
	int ret = -ENOMEM;

	if (!rails || !counters)
		goto out;
	pthread_mutex_lock(&d->sh.lock);
	s.reloads_ok = d->sh.reloads_ok;
	s.reloads_error = d->sh.reloads_error;
	s.uplink_up = d->sh.uplink_up;
	memcpy(uplink, d->sh.uplink_name, sizeof(uplink));
	s.uplink_name = uplink;
	s.last_reload_ok = d->sh.last_reload_ok;
	s.last_reload_success_time = d->sh.last_reload_success;
	pthread_mutex_unlock(&d->sh.lock);

	if (!rg_datapath_open_readonly(&dp, d->o->pin_dir, err, sizeof(err)) &&
	    !rg_map_set_read_stats(&dp.maps, counters, err, sizeof(err)) &&
	    !rg_map_set_read_side_stats(&dp.maps, side, err, sizeof(err)) &&
	    !rg_datapath_active_rails(&dp, rails) &&
	    !rg_datapath_links(&dp, &links, &n_links) &&
	    (mlinks = calloc(n_links + 1, sizeof(*mlinks)))) {
		fill_links(&dp, rails, mlinks, links, n_links);
		s.datapath_up = true;
		s.counters = counters;
		s.side = side;
		s.rails = rails;
		s.links = mlinks;
		s.n_links = n_links;
		s.config_generation = dp.maps.state->config_generation;
	}
	ret = rg_metrics_render(&s, text, len);
	rg_datapath_close(&dp);
out:
	free(mlinks);
	free(links);
	free(counters);
	free(rails);
	return ret;
}

/* The pins are still there: the loop's last verdict cannot see a `down`
 * or an unmount that happened since, so every probe looks again. */
static bool datapath_present(const struct daemon *d, char *reason, size_t n)
{
	struct rg_datapath dp;
	char err[256];
	bool ok = !rg_datapath_open_readonly(&dp, d->o->pin_dir, err, sizeof(err));

	if (!ok)
		snprintf(reason, n, "the pinned datapath is gone: %s", err);
	rg_datapath_close(&dp);
	return ok;
}

static bool daemon_ready(void *ctx, char *reason, size_t n)
{
	struct daemon *d = ctx;
	bool ready;

	pthread_mutex_lock(&d->sh.lock);
	ready = d->sh.ready;
	snprintf(reason, n, "%s", d->sh.reason);
	pthread_mutex_unlock(&d->sh.lock);
	return ready && datapath_present(d, reason, n);
}

/* ---- applying ------------------------------------------------------------------ */

/* rg_apply_config, its decisions logged as they are taken, under event. */
static int apply(struct daemon *d, const struct rg_config *cfg, const char *event,
		 struct rg_apply_result *res, char *err, size_t err_len)
{
	struct rg_log log = rg_log_with_event(dlog(d), event);

	return rg_apply_config(d->o->pin_dir, cfg, NULL, &log, res, err, err_len);
}

static void log_node_override(struct daemon *d, const struct rg_config *cfg)
{
	const char *node = d->o->node_name;

	if (!node || !*node || !cfg->n_nodes)
		return;
	for (size_t i = 0; i < cfg->n_nodes; i++)
		if (!strcmp(cfg->nodes[i].name, node))
			return;
	rg_log_event(dlog(d), RG_LOG_INFO, "config",
		     "node %s has no entry in spec.nodes: the global computenet values apply", node);
}

static void log_diags(struct daemon *d, const struct rg_diags *diags)
{
	for (size_t i = 0; i < diags->count; i++)
		rg_log_event(dlog(d), RG_LOG_ERROR, "config", "%s", diags->msgs[i]);
}

/*
 * The bytes of the config just applied, for the CNI plugin on the host
 * (--host-config): only a config that applied, so pods never get routes for
 * rails the datapath does not serve.  A failure is logged; the datapath runs.
 */
static void publish_host_config(struct daemon *d, const char *text, size_t len)
{
	char err[512];

	if (!d->o->host_config)
		return;
	if (rg_file_write_atomic(d->o->host_config, text, len, 0644, err, sizeof(err)))
		rg_log_event(dlog(d), RG_LOG_ERROR, "host-config", "%s", err);
	else
		rg_log_event(dlog(d), RG_LOG_INFO, "host-config", "wrote the running config to %s",
			     d->o->host_config);
}

/*
 * Re-read the config file; apply it when its digest changed (or force).
 * The first apply is "start"; later ones are reloads, counted ok or error.
 * On any failure the running config (and datapath) stay as they were.
 */
static void reload_config(struct daemon *d, bool force)
{
	const char *event = d->started ? "reload" : "start";
	struct rg_config cfg = { 0 };
	struct rg_diags diags = { 0 };
	struct rg_apply_result res;
	uint8_t digest[RG_SHA256_LEN];
	char err[1024], *text = NULL;
	size_t len = 0;
	int ret;

	/* Read once: the digest compared here is of the bytes parsed below. */
	ret = rg_config_read(d->o->config_path, &text, &len, err, sizeof(err));
	if (!ret)
		ret = rg_sha256(text, len, digest);
	if (ret) {
		free(text);
		if (!d->have_seen && !force)
			return;   /* already reported this missing file */
		d->have_seen = false;
		rg_log_event(dlog(d), RG_LOG_ERROR, event, "%s; keeping the running config",
			     ret == -EIO ? "sha256 unavailable" : err);
		goto failed;
	}
	if (!force && d->have_seen && !memcmp(digest, d->seen_digest, sizeof(digest))) {
		free(text);
		return;   /* a ConfigMap swap touches many names; content unchanged */
	}
	memcpy(d->seen_digest, digest, sizeof(digest));
	d->have_seen = true;

	ret = rg_config_parse(d->o->config_path, text, len, &cfg, &diags);
	if (ret) {
		free(text);
		log_diags(d, &diags);
		rg_log_event(dlog(d), RG_LOG_ERROR, event, "%s is invalid (%zu errors); %s",
			     d->o->config_path, rg_diags_errors(&diags),
			     d->have_cfg ? "keeping the running config" : "nothing applied");
		rg_diags_free(&diags);
		goto failed;
	}
	rg_diags_free(&diags);
	if (d->o->node_name && *d->o->node_name)
		rg_config_apply_node(&cfg, d->o->node_name);
	log_node_override(d, &cfg);
	ret = apply(d, &cfg, event, &res, err, sizeof(err));
	if (!ret)
		publish_host_config(d, text, len);
	free(text);
	if (ret) {
		rg_log_event(dlog(d), RG_LOG_ERROR, event, "%s; %s", err,
			     res.fresh ? "nothing applied" : "the running datapath was left as it was");
		rg_config_free(&cfg);
		if (!d->have_cfg)   /* nothing runs yet: try again later (switch not up...) */
			d->retry_ms = now_ms() + RG_DAEMON_RETRY_MS;
		goto failed;
	}
	rg_log_event(dlog(d), RG_LOG_INFO, event,
		     "config %s applied: generation %llu, %zu rails, %zu representors (%s)",
		     d->o->config_path, (unsigned long long)res.config_generation, res.n_rails,
		     res.n_reps, res.fresh ? "loaded and pinned" : "hitless, over the pinned datapath");
	record_load(d, true);
	if (d->have_cfg)
		rg_config_free(&d->cfg);
	d->started = true;
	d->cfg = cfg;
	d->have_cfg = true;
	d->apply_failed = false;
	d->retry_ms = 0;
	refresh_running(d);
	return;
failed:
	record_load(d, false);
	d->started = true;
}

/* The node changed: the running config again (attach, forget, re-resolve). */
static void reconcile(struct daemon *d)
{
	struct rg_apply_result res;
	char err[1024];

	if (!d->have_cfg)
		return;
	if (apply(d, &d->cfg, "reconcile", &res, err, sizeof(err))) {
		rg_log_event(dlog(d), RG_LOG_ERROR, "reconcile",
			     "%s; the running datapath was left as it was, retrying in %d s",
			     err, RG_DAEMON_RETRY_MS / 1000);
		d->apply_failed = true;
		d->retry_ms = now_ms() + RG_DAEMON_RETRY_MS;
		return;
	}
	rg_log_event(dlog(d), RG_LOG_INFO, "reconcile", "generation %llu, %zu representors",
		     (unsigned long long)res.config_generation, res.n_reps);
	d->apply_failed = false;
	d->retry_ms = 0;
	refresh_running(d);
}

static void act(struct daemon *d)
{
	unsigned why = d->pending;

	d->pending = 0;
	d->due_ms = 0;
	if (why & (PENDING_CONFIG | PENDING_RELOAD))
		reload_config(d, why & PENDING_RELOAD);
	/* a reload re-resolved the node already, unless it failed */
	if ((why & PENDING_RECONCILE) && (!(why & (PENDING_CONFIG | PENDING_RELOAD)) ||
					   d->apply_failed))
		reconcile(d);
	update_ready(d);
}

/* ---- event sources ---------------------------------------------------------------- */

static void on_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sig_fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			rg_log_event(dlog(d), RG_LOG_INFO, "signal", "SIGHUP: reloading %s",
				     d->o->config_path);
			schedule(d, PENDING_RELOAD);
		} else {
			rg_log_event(dlog(d), RG_LOG_INFO, "signal", "%s: exiting",
				     strsignal((int)si.ssi_signo));
			d->stop = true;
		}
	}
}

static void on_inotify(struct daemon *d)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));

	/* Which name changed does not matter: the file's digest decides. */
	while (read(d->ino_fd, buf, sizeof(buf)) > 0)
		schedule(d, PENDING_CONFIG);
}

static bool name_matches_rail(const struct daemon *d, const char *name)
{
	if (!d->have_cfg || !*name)
		return false;
	for (size_t r = 0; r < d->cfg.n_rails; r++) {
		const struct rg_config_rail *rail = &d->cfg.rails[r];

		if (rail->pf[0] && rg_switchdev_is_rep_of(rg_sysfs_root(), rail->pf, name))
			return true;
		for (size_t p = 0; p < rail->n_representors; p++)
			if (!fnmatch(rail->representors[p], name, 0))
				return true;
	}
	return false;
}

static void on_uplink_event(struct daemon *d, const struct rg_nl_event *ev)
{
	int up = ev->type == RG_NL_LINK_NEW && ev->oper_up;
	int was;

	/* The datapath's too_big check and its Fragmentation Needed carry the
	 * uplink's MTU: a new one is applied like any change of the node. */
	if (ev->type == RG_NL_LINK_NEW && ev->mtu && d->uplink_mtu && ev->mtu != d->uplink_mtu &&
	    !(d->pending & PENDING_RECONCILE)) {
		rg_log_event(dlog(d), RG_LOG_INFO, "uplink", "uplink %s MTU %u -> %u: applying",
			     ev->name, d->uplink_mtu, ev->mtu);
		d->uplink_mtu = ev->mtu;
		schedule(d, PENDING_RECONCILE);
	}

	pthread_mutex_lock(&d->sh.lock);
	was = d->sh.uplink_up;
	pthread_mutex_unlock(&d->sh.lock);
	if (was == up)
		return;
	set_uplink_up(d, up, ev->type == RG_NL_LINK_DEL ? NULL : ev->name);
	rg_log_event(dlog(d), up ? RG_LOG_INFO : RG_LOG_WARN, "uplink", "uplink %s is %s",
		     ev->name[0] ? ev->name : "(gone)",
		     ev->type == RG_NL_LINK_DEL ? "gone" : up ? "up" : "down");
	if (ev->type == RG_NL_LINK_DEL)
		schedule(d, PENDING_RECONCILE);
}

static void on_link_event(struct daemon *d, const struct rg_nl_event *ev)
{
	bool attached = is_attached(d, ev->ifindex);

	if (ev->ifindex == d->uplink_ifindex) {
		on_uplink_event(d, ev);
		return;
	}
	if (ev->type == RG_NL_LINK_DEL && attached) {
		rg_log_event(dlog(d), RG_LOG_INFO, "link", "%s (ifindex %d) vanished: forgetting it",
			     ev->name, ev->ifindex);
		schedule(d, PENDING_RECONCILE);
	} else if (ev->type == RG_NL_LINK_NEW && !attached && !(d->pending & PENDING_RECONCILE) &&
		   name_matches_rail(d, ev->name)) {
		/* With a reconcile pending (a new link sends a burst of
		 * RTM_NEWLINK, a PF 128 VFs at once) nothing is asked: the
		 * reconcile resolves every rail anew, and for a rail by pf each
		 * question reads every netdev in sysfs. */
		rg_log_event(dlog(d), RG_LOG_INFO, "link", "%s (ifindex %d) matches a rail: attaching",
			     ev->name, ev->ifindex);
		schedule(d, PENDING_RECONCILE);
	}
}

static void on_neigh_event(struct daemon *d, const struct rg_nl_event *ev)
{
	char ip[RG_IP_STR_LEN], mac[RG_MAC_STR_LEN];

	if (!d->have_cfg || d->cfg.computenet.has_gateway_mac || !d->gateway_ip ||
	    ev->ifindex != d->uplink_ifindex || ev->ip != d->gateway_ip || !ev->usable ||
	    !memcmp(ev->mac, d->gateway_mac, 6))
		return;
	rg_log_event(dlog(d), RG_LOG_INFO, "gateway",
		     "gateway %s moved to %s: updating the maps", rg_ip_str(ev->ip, ip),
		     rg_mac_str(ev->mac, mac));
	memcpy(d->gateway_mac, ev->mac, 6);   /* one reconcile per move */
	schedule(d, PENDING_RECONCILE);
}

static void on_netlink(struct daemon *d)
{
	struct rg_nl_event ev;
	int ret;

	while ((ret = rg_nl_watch_next(d->watch, &ev)) != 0) {
		if (ret == -ENOBUFS) {   /* events lost: re-read everything */
			rg_log_event(dlog(d), RG_LOG_WARN, "netlink", "events overrun: reconciling");
			schedule(d, PENDING_RECONCILE);
			continue;
		}
		if (ret < 0) {
			rg_log_event(dlog(d), RG_LOG_ERROR, "netlink", "watch failed: %s",
				     strerror(-ret));
			return;
		}
		if (ev.type == RG_NL_NEIGH_CHANGE)
			on_neigh_event(d, &ev);
		else
			on_link_event(d, &ev);
	}
}

/* ---- setup and teardown ------------------------------------------------------------ */

static int open_signals(struct daemon *d, char *err, size_t err_len)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	/* Blocked before any thread starts: the metrics thread inherits it,
	 * so every signal lands in the signalfd. */
	errno = pthread_sigmask(SIG_BLOCK, &set, NULL);
	d->sig_fd = errno ? -1 : signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sig_fd < 0) {
		rg_set_err(err, err_len, "signalfd: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int open_inotify(struct daemon *d, char *err, size_t err_len)
{
	char path[PATH_MAX];
	const char *dir;

	snprintf(path, sizeof(path), "%s", d->o->config_path);
	dir = dirname(path);
	d->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (d->ino_fd < 0 || inotify_add_watch(d->ino_fd, dir, INOTIFY_MASK) < 0) {
		rg_set_err(err, err_len, "cannot watch %s: %s", dir, strerror(errno));
		return -errno;
	}
	return 0;
}

static int open_sources(struct daemon *d, char *err, size_t err_len)
{
	struct rg_metrics_handlers h = { .ctx = d, .scrape = daemon_scrape, .ready = daemon_ready };
	struct sockaddr_in sa;
	int ret;

	ret = open_signals(d, err, err_len);
	if (!ret)
		ret = open_inotify(d, err, err_len);
	if (!ret)
		ret = rg_nl_open(&d->nl, err, err_len);
	if (!ret)
		ret = rg_nl_watch_open(&d->watch, err, err_len);
	if (!ret && d->o->metrics_addr) {
		ret = rg_metrics_parse_addr(d->o->metrics_addr, &sa, err, err_len);
		if (!ret)
			ret = rg_metrics_server_start(&d->srv, &sa, &h, err, err_len);
	}
	return ret;
}

static void close_sources(struct daemon *d)
{
	rg_metrics_server_stop(d->srv);
	rg_nl_watch_close(d->watch);
	rg_nl_close(d->nl);
	if (d->ino_fd >= 0)
		close(d->ino_fd);
	if (d->sig_fd >= 0)
		close(d->sig_fd);
}

static int take_down(struct daemon *d, char *err, size_t err_len)
{
	struct rg_log log = rg_log_with_event(dlog(d), "down");
	struct rg_datapath dp;
	int ret = rg_datapath_lock(&dp, d->o->pin_dir, err, err_len);

	if (!ret)
		ret = rg_datapath_down(&dp, &log, err, err_len);
	rg_datapath_close(&dp);
	return ret;
}

static int poll_timeout(const struct daemon *d)
{
	uint64_t now = now_ms(), next = 0;

	if (d->due_ms)
		next = d->due_ms;
	if (d->retry_ms && (!next || d->retry_ms < next))
		next = d->retry_ms;
	if (!next)
		return -1;
	return next > now ? (int)(next - now) : 0;
}

static void loop(struct daemon *d)
{
	struct pollfd pfd[POLL_COUNT] = {
		[POLL_SIGNAL]  = { .fd = d->sig_fd, .events = POLLIN },
		[POLL_INOTIFY] = { .fd = d->ino_fd, .events = POLLIN },
		[POLL_NETLINK] = { .fd = rg_nl_watch_fd(d->watch), .events = POLLIN },
	};

	while (!d->stop) {
		int ret = poll(pfd, POLL_COUNT, poll_timeout(d));

		if (ret < 0 && errno != EINTR) {
			rg_log_event(dlog(d), RG_LOG_ERROR, "poll", "%s", strerror(errno));
			break;
		}
		if (ret > 0 && (pfd[POLL_SIGNAL].revents & POLLIN))
			on_signal(d);
		if (ret > 0 && (pfd[POLL_INOTIFY].revents & POLLIN))
			on_inotify(d);
		if (ret > 0 && (pfd[POLL_NETLINK].revents & POLLIN))
			on_netlink(d);
		if (d->stop)
			break;
		if (d->retry_ms && now_ms() >= d->retry_ms) {
			d->retry_ms = 0;
			schedule(d, d->have_cfg ? PENDING_RECONCILE : PENDING_RELOAD);
		}
		if (d->due_ms && now_ms() >= d->due_ms)
			act(d);
	}
}

/* --host-config names a file in a directory that exists (a hostPath the
 * DaemonSet mounts): a typo there must stop the daemon, not leave every
 * pod's CNI ADD failing. */
static int check_host_config(const struct rg_daemon_opts *o, char *err, size_t err_len)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!o->host_config)
		return 0;
	snprintf(dir, sizeof(dir), "%s", o->host_config);
	if (!*o->host_config || o->host_config[strlen(o->host_config) - 1] == '/')
		return rg_err(err, err_len, -EINVAL, "--host-config '%s' is not a file name", o->host_config);
	if (stat(dirname(dir), &st) || !S_ISDIR(st.st_mode))
		return rg_err(err, err_len, -ENOENT, "--host-config %s: directory %s does not exist",
			      o->host_config, dir);
	return 0;
}

int rg_daemon_check(const struct rg_daemon_opts *o, struct rg_config *cfg,
		    struct rg_diags *diags, char *err, size_t err_len)
{
	struct sockaddr_in sa;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	ret = check_host_config(o, err, err_len);
	if (ret)
		return ret;
	if (o->metrics_addr) {
		ret = rg_metrics_parse_addr(o->metrics_addr, &sa, err, err_len);
		if (ret)
			return ret;
	}
	ret = rg_config_load(o->config_path, cfg, diags);
	if (ret)
		return ret;
	if (o->node_name && *o->node_name)
		rg_config_apply_node(cfg, o->node_name);
	return 0;
}

int rg_daemon_run(const struct rg_daemon_opts *o, char *err, size_t err_len)
{
	struct daemon *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		rg_set_err(err, err_len, "out of memory");
		return -ENOMEM;
	}
	d->o = o;
	d->sig_fd = d->ino_fd = -1;
	d->sh.uplink_up = -1;
	d->sh.last_reload_ok = -1;
	snprintf(d->sh.reason, sizeof(d->sh.reason), "starting");
	pthread_mutex_init(&d->sh.lock, NULL);

	ret = check_host_config(o, err, err_len);
	if (!ret)
		ret = open_sources(d, err, err_len);
	if (ret)
		goto out;
	rg_log_event(dlog(d), RG_LOG_INFO, "start",
		     "railgate %s: config %s, pins %s, node %s, metrics %s, %s on exit",
		     o->version, o->config_path, o->pin_dir,
		     o->node_name && *o->node_name ? o->node_name : "(no NODE_NAME)",
		     o->metrics_addr ? o->metrics_addr : "off",
		     o->keep ? "keep the datapath" : "take the datapath down");
	reload_config(d, true);
	update_ready(d);
	loop(d);
	if (!o->keep) {
		ret = take_down(d, err, err_len);
		if (!ret)
			rg_log_event(dlog(d), RG_LOG_INFO, "exit", "datapath taken down");
	} else {
		rg_log_event(dlog(d), RG_LOG_INFO, "exit",
			     "datapath left pinned and attached (--keep): forwarding goes on");
	}
out:
	close_sources(d);
	if (d->have_cfg)
		rg_config_free(&d->cfg);
	pthread_mutex_destroy(&d->sh.lock);
	free(d);
	return ret;
}
