// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's text outputs, without a kernel: the Prometheus exposition
 * (loader/daemon/metrics.c: families, labels, escaping, which rails are shown), the
 * --metrics address parser, and the event log (lib/log.c: one line per
 * event, valid JSON).  promtool's verdict on a live scrape is in
 * tests/integration/daemon_run.sh.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "lib/log.h"
#include "loader/daemon/metrics.h"

struct fixture {
	struct rg_rail rails[RG_MAX_RAILS];
	struct rg_counter counters[RG_STAT_SLOTS];
	struct rg_counter side[RG_SIDE_MAX];
	struct rg_metrics_link links[2];
	struct rg_metrics_snapshot snap;
	char *text;
	size_t len;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->rails[0] = (struct rg_rail){ .flags = RG_RAIL_F_VALID, .name = "rail0" };
	f->rails[1] = (struct rg_rail){ .flags = RG_RAIL_F_VALID, .name = "rail1" };
	f->counters[RG_STAT_INDEX(0, RG_VERDICT_CROSS_RAIL)] = (struct rg_counter){ 300, 30000 };
	f->counters[RG_STAT_INDEX(1, RG_DROP_SPOOFED)] = (struct rg_counter){ 7, 700 };
	f->side[RG_SIDE_ICMP_SENT] = (struct rg_counter){ 12, 1080 };
	f->side[RG_SIDE_ICMP_RATELIMITED] = (struct rg_counter){ 5, 0 };
	f->side[RG_SIDE_MONITOR_LOST] = (struct rg_counter){ 7, 700 };
	f->links[0] = (struct rg_metrics_link){ .ifname = "pf0vf0", .rail = "rail0",
						 .mode = RG_MODE_TC, .attached = true };
	f->links[1] = (struct rg_metrics_link){ .ifname = "pf1vf0", .rail = "rail1",
						 .mode = RG_MODE_XDP, .attached = false };
	f->snap = (struct rg_metrics_snapshot){
		.datapath_up = true, .reloads_ok = 3, .reloads_error = 1, .uplink_up = 1,
		.uplink_name = "ens6f1np1", .last_reload_ok = 0, .last_reload_success_time = 1767225600.25,
		.version = "1.2\"x", .commit = "0123abcd", .counters = f->counters, .side = f->side,
		.rails = f->rails,
		.links = f->links, .n_links = 2, .config_generation = 9,
	};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	free(f->text);
	free(f);
	return 0;
}

static const char *render(struct fixture *f)
{
	free(f->text);
	f->text = NULL;
	assert_int_equal(rg_metrics_render(&f->snap, &f->text, &f->len), 0);
	assert_int_equal(strlen(f->text), f->len);
	return f->text;
}

/* line must be one whole line of text. */
static void assert_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
	fail_msg("missing line: %s\n--- in:\n%s", line, text);
}

static void test_counters_by_rail_and_verdict(void **state)
{
	const char *t = render(*state);

	assert_line(t, "railgate_packets_total{rail=\"rail0\",verdict=\"cross_rail\"} 300");
	assert_line(t, "railgate_bytes_total{rail=\"rail0\",verdict=\"cross_rail\"} 30000");
	assert_line(t, "railgate_drops_total{rail=\"rail1\",reason=\"spoofed\"} 7");
	assert_line(t, "railgate_drop_bytes_total{rail=\"rail1\",reason=\"spoofed\"} 700");
	/* configured rails have every series from the start, zeros included */
	assert_line(t, "railgate_packets_total{rail=\"rail1\",verdict=\"frontend\"} 0");
	/* verdicts and reasons never cross families */
	assert_null(strstr(t, "railgate_packets_total{rail=\"rail0\",verdict=\"spoofed\"}"));
	assert_null(strstr(t, "reason=\"cross_rail\""));
}

static void test_help_and_type_once_per_family(void **state)
{
	static const char *const families[][2] = {
		{ "railgate_packets_total", "counter" }, { "railgate_bytes_total", "counter" },
		{ "railgate_drops_total", "counter" }, { "railgate_drop_bytes_total", "counter" },
		{ "railgate_attached", "gauge" }, { "railgate_config_generation", "gauge" },
		{ "railgate_reloads_total", "counter" }, { "railgate_uplink_up", "gauge" },
		{ "railgate_config_last_reload_successful", "gauge" },
		{ "railgate_config_last_reload_success_timestamp_seconds", "gauge" },
		{ "railgate_build_info", "gauge" }, { "railgate_datapath_up", "gauge" },
		{ "railgate_icmp_sent_total", "counter" },
		{ "railgate_icmp_ratelimited_total", "counter" },
		{ "railgate_monitor_events_total", "counter" },
		{ "railgate_monitor_ratelimited_total", "counter" },
		{ "railgate_monitor_lost_total", "counter" },
	};
	const char *t = render(*state);

	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		char type[96], help[96];
		const char *p;

		snprintf(type, sizeof(type), "# TYPE %s %s\n", families[i][0], families[i][1]);
		snprintf(help, sizeof(help), "# HELP %s ", families[i][0]);
		p = strstr(t, type);
		assert_non_null(p);
		assert_null(strstr(p + 1, type));
		assert_non_null(strstr(t, help));
	}
}

static void test_gauges_and_escaping(void **state)
{
	const char *t = render(*state);
	char build[128];

	assert_line(t, "railgate_attached{interface=\"pf0vf0\",rail=\"rail0\",mode=\"tc\"} 1");
	assert_line(t, "railgate_attached{interface=\"pf1vf0\",rail=\"rail1\",mode=\"xdp\"} 0");
	assert_line(t, "railgate_config_generation 9");
	assert_line(t, "railgate_icmp_sent_total 12");
	assert_line(t, "railgate_icmp_ratelimited_total 5");
	assert_line(t, "railgate_monitor_lost_total 7");
	assert_line(t, "railgate_monitor_events_total 0");
	assert_line(t, "railgate_reloads_total{result=\"ok\"} 3");
	assert_line(t, "railgate_reloads_total{result=\"error\"} 1");
	assert_line(t, "railgate_uplink_up{interface=\"ens6f1np1\"} 1");
	assert_line(t, "railgate_config_last_reload_successful 0");
	assert_line(t, "railgate_config_last_reload_success_timestamp_seconds 1767225600.250");
	assert_line(t, "railgate_datapath_up 1");
	snprintf(build, sizeof(build),
		 "railgate_build_info{version=\"1.2\\\"x\",commit=\"0123abcd\",abi=\"%d\"} 1",
		 RG_ABI_VERSION);
	assert_line(t, build);
}

static void test_removed_and_unknown_rails(void **state)
{
	struct fixture *f = *state;
	const char *t;

	f->counters[RG_STAT_INDEX(5, RG_VERDICT_CROSS_RAIL)] = (struct rg_counter){ 2, 200 };
	f->counters[RG_STAT_INDEX(RG_RAIL_UNKNOWN, RG_VERDICT_PASS_UNKNOWN_IF)] =
		(struct rg_counter){ 4, 400 };
	t = render(f);
	assert_line(t, "railgate_packets_total{rail=\"#5\",verdict=\"cross_rail\"} 2");
	assert_line(t, "railgate_packets_total{rail=\"unknown\",verdict=\"pass_unknown_if\"} 4");
	/* a rail that never counted and is not configured has no series */
	assert_null(strstr(t, "rail=\"#6\""));
}

static void test_no_datapath(void **state)
{
	struct fixture *f = *state;
	const char *t;

	f->snap.datapath_up = false;
	f->snap.uplink_up = -1;
	f->snap.last_reload_ok = -1;      /* before the first load */
	t = render(f);
	assert_line(t, "railgate_datapath_up 0");
	assert_line(t, "railgate_reloads_total{result=\"error\"} 1");
	assert_null(strstr(t, "railgate_packets_total"));
	assert_null(strstr(t, "railgate_uplink_up"));
	assert_null(strstr(t, "railgate_config_last_reload"));
}

static void test_parse_addr(void **state)
{
	struct sockaddr_in sa;
	char err[128];

	(void)state;
	assert_int_equal(rg_metrics_parse_addr("127.0.0.1:9464", &sa, err, sizeof(err)), 0);
	assert_int_equal(ntohs(sa.sin_port), 9464);
	assert_int_equal(ntohl(sa.sin_addr.s_addr), 0x7f000001);
	assert_int_equal(rg_metrics_parse_addr("0.0.0.0:1", &sa, err, sizeof(err)), 0);
	static const char *const bad[] = {
		"9464", ":9464", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536", "localhost:9464",
		"127.0.0.1:94x", "1.2.3:80",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(rg_metrics_parse_addr(bad[i], &sa, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, bad[i]));
	}
}

/* Log to a memory stream and return what was written. */
static char *log_to_string(enum rg_log_format fmt, const char *event, const char *msg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rg_log log;

	assert_non_null(f);
	rg_log_init(&log, f, fmt);
	rg_log_event(&log, RG_LOG_ERROR, event, "%s", msg);
	fclose(f);
	return buf;
}

static void test_log_json_one_object_per_line(void **state)
{
	char *line = log_to_string(RG_LOG_JSON, "reload", "bad \"config\"\nsecond line");
	struct json_object *o;

	(void)state;
	/* the embedded newline was flattened: exactly one line */
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
	o = json_tokener_parse(line);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "level")), "error");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "event")), "reload");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "msg")),
			    "bad \"config\" second line");
	assert_int_equal(strlen(json_object_get_string(json_object_object_get(o, "time"))),
			 strlen("2026-01-31T12:00:00.123Z"));
	json_object_put(o);
	free(line);
}

static void test_log_plain_and_format_names(void **state)
{
	char *line = log_to_string(RG_LOG_PLAIN, "link", "pf3vf0 matches a rail");
	enum rg_log_format fmt;

	(void)state;
	assert_non_null(strstr(line, " error link: pf3vf0 matches a rail\n"));
	assert_int_equal(rg_log_format_parse("json", &fmt), 0);
	assert_int_equal(fmt, RG_LOG_JSON);
	assert_int_equal(rg_log_format_parse("plain", &fmt), 0);
	assert_int_equal(fmt, RG_LOG_PLAIN);
	assert_int_equal(rg_log_format_parse("JSON", &fmt), -EINVAL);
	free(line);
}

/* A print a caller puts in place of the default: it keeps the last line. */
struct caught {
	int lines;
	enum rg_log_level level;
	char event[32];
	char msg[128];
};

static void catch_line(const struct rg_log *log, enum rg_log_level level, const char *event,
		       const char *msg)
{
	struct caught *c = log->ctx;

	c->lines++;
	c->level = level;
	snprintf(c->event, sizeof(c->event), "%s", event);
	snprintf(c->msg, sizeof(c->msg), "%s", msg);
}

/*
 * Library code logs through the logger it is handed: its level reaches the
 * caller's print as it was said, under the event the caller chose; below
 * min_level nothing arrives; a NULL logger is silent.
 */
static void test_log_levels_reach_the_callers_print(void **state)
{
	struct caught c = { 0 };
	struct rg_log log, reload;

	(void)state;
	rg_log_init(&log, NULL, RG_LOG_PLAIN);
	log.print = catch_line;
	log.ctx = &c;
	reload = rg_log_with_event(&log, "reload");

	rg_log_warn(&reload, "%s: detached %s", "pf0vf0", "xdp-generic");
	assert_int_equal(c.lines, 1);
	assert_int_equal(c.level, RG_LOG_WARN);
	assert_string_equal(c.event, "reload");
	assert_string_equal(c.msg, "pf0vf0: detached xdp-generic");
	rg_log_error(&log, "x");
	assert_int_equal(c.level, RG_LOG_ERROR);
	assert_string_equal(c.event, "railgate");   /* the original keeps its own event */

	reload.min_level = RG_LOG_WARN;
	rg_log_info(&reload, "not shown");
	assert_int_equal(c.lines, 2);
	rg_log_warn(NULL, "nowhere");
	assert_int_equal(c.lines, 2);
	reload = rg_log_with_event(NULL, "down");
	rg_log_warn(&reload, "nowhere either");
	assert_int_equal(c.lines, 2);
}

/* `up` and `down` print the message alone; a warning says it is one. */
static void test_log_bare(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rg_log log;

	(void)state;
	assert_non_null(f);
	rg_log_init(&log, f, RG_LOG_BARE);
	rg_log_info(&log, "attached %s", "pf0vf0");
	rg_log_warn(&log, "gap");
	fclose(f);
	assert_string_equal(buf, "attached pf0vf0\nwarning: gap\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counters_by_rail_and_verdict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_and_type_once_per_family, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gauges_and_escaping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_removed_and_unknown_rails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_datapath, setup, teardown),
		cmocka_unit_test(test_parse_addr),
		cmocka_unit_test(test_log_json_one_object_per_line),
		cmocka_unit_test(test_log_plain_and_format_names),
		cmocka_unit_test(test_log_levels_reach_the_callers_print),
		cmocka_unit_test(test_log_bare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
