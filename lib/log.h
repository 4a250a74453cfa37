/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The one leveled logger of railgate's user space.  A caller makes a
 * struct rg_log and passes it down (there is no global logger, so a test
 * makes its own and throws it away); library code logs through it as
 * things happen, each line with its level, and never prints otherwise.
 * A NULL logger is silent.
 *
 * Where a line goes is the print function: by default the event line
 * below on log->out; a caller may replace it (a test collects lines).
 * One line per event (a reload, an interface that appeared, a gateway
 * that moved), never one per packet:
 *
 *   plain: 2026-01-31T12:00:00.123Z info reload: config generation 4 (3 rails)
 *   json:  {"time":"2026-01-31T12:00:00.123Z","level":"info","event":"reload",
 *           "msg":"config generation 4 (3 rails)"}
 *   bare:  config generation 4 (3 rails)         (`up`, `down`: the message alone,
 *                                                 "warning: " before a warning)
 *
 * The caller owns the stream (stderr for the daemon); nothing here goes to
 * stdout unless the caller asks for it.
 */
#ifndef RAILGATE_LOG_H
#define RAILGATE_LOG_H

#include <stdio.h>

enum rg_log_format {
	RG_LOG_PLAIN = 0,
	RG_LOG_JSON,
	RG_LOG_BARE,
};

enum rg_log_level {
	RG_LOG_INFO = 0,
	RG_LOG_WARN,
	RG_LOG_ERROR,
};

struct rg_log;

/* Write one line; msg is one line already (no newline). */
typedef void (*rg_log_print_fn)(const struct rg_log *log, enum rg_log_level level,
				const char *event, const char *msg);

struct rg_log {
	rg_log_print_fn print;       /* rg_log_print_line unless the caller sets its own */
	void *ctx;                   /* the caller's, for its own print */
	FILE *out;                   /* where rg_log_print_line writes */
	enum rg_log_format format;
	enum rg_log_level min_level; /* lines below it are dropped */
	const char *event;           /* the event word of lines that name none (rg_log_msg) */
};

/* print = rg_log_print_line, every level, event "railgate". */
void rg_log_init(struct rg_log *log, FILE *out, enum rg_log_format format);
/* A copy of log whose library lines carry event ("reload", "reconcile"...);
 * a NULL log gives a silent one. */
struct rg_log rg_log_with_event(const struct rg_log *log, const char *event);
/* "plain" or "json"; -EINVAL otherwise. */
int  rg_log_format_parse(const char *s, enum rg_log_format *out);
const char *rg_log_level_name(enum rg_log_level level);

/* The default print: one line in log->format on log->out, flushed. */
void rg_log_print_line(const struct rg_log *log, enum rg_log_level level, const char *event,
		       const char *msg);

/* One line: event is a short fixed word ("start", "reload", "link", ...). */
void rg_log_event(const struct rg_log *log, enum rg_log_level level, const char *event,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* One line of the event log->event: what library code calls. */
void rg_log_msg(const struct rg_log *log, enum rg_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define rg_log_info(log, ...)  rg_log_msg(log, RG_LOG_INFO, __VA_ARGS__)
#define rg_log_warn(log, ...)  rg_log_msg(log, RG_LOG_WARN, __VA_ARGS__)
#define rg_log_error(log, ...) rg_log_msg(log, RG_LOG_ERROR, __VA_ARGS__)

#endif /* RAILGATE_LOG_H */
