/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The daemon's event log: one line per event (a reload, an interface that
 * appeared, a gateway that moved), never one per packet.  Plain text for
 * people, or one JSON object per line (json-c) for log collectors:
 *
 *   plain: 2026-01-31T12:00:00.123Z info reload: config generation 4 (3 rails)
 *   json:  {"time":"2026-01-31T12:00:00.123Z","level":"info","event":"reload",
 *           "msg":"config generation 4 (3 rails)"}
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
};

enum rg_log_level {
	RG_LOG_INFO = 0,
	RG_LOG_WARN,
	RG_LOG_ERROR,
};

struct rg_log {
	FILE *out;
	enum rg_log_format format;
};

void rg_log_init(struct rg_log *log, FILE *out, enum rg_log_format format);
/* "plain" or "json"; -EINVAL otherwise. */
int  rg_log_format_parse(const char *s, enum rg_log_format *out);
const char *rg_log_level_name(enum rg_log_level level);

/* One line: event is a short fixed word ("start", "reload", "link", ...). */
void rg_log_event(const struct rg_log *log, enum rg_log_level level, const char *event,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Log every line of text (the decisions rg_apply_config wrote to its
 * FILE *log) as its own event, so JSON output stays one object per line.
 */
void rg_log_lines(const struct rg_log *log, enum rg_log_level level, const char *event,
		  const char *text);

#endif /* RAILGATE_LOG_H */
