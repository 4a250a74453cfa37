// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* One line per event, plain or JSON; see log.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "lib/log.h"

enum { LOG_TIME_LEN = 32, LOG_MSG_MAX = 2048 };

static const char *const level_names[] = {
	[RG_LOG_INFO]  = "info",
	[RG_LOG_WARN]  = "warn",
	[RG_LOG_ERROR] = "error",
};

void rg_log_init(struct rg_log *log, FILE *out, enum rg_log_format format)
{
	*log = (struct rg_log){ .print = rg_log_print_line, .out = out, .format = format,
				.min_level = RG_LOG_INFO, .event = "railgate" };
}

struct rg_log rg_log_with_event(const struct rg_log *log, const char *event)
{
	struct rg_log copy = { 0 };

	if (log)
		copy = *log;
	copy.event = event;
	return copy;
}

int rg_log_format_parse(const char *s, enum rg_log_format *out)
{
	if (!strcmp(s, "plain"))
		*out = RG_LOG_PLAIN;
	else if (!strcmp(s, "json"))
		*out = RG_LOG_JSON;
	else
		return -EINVAL;
	return 0;
}

const char *rg_log_level_name(enum rg_log_level level)
{
	return level <= RG_LOG_ERROR ? level_names[level] : "info";
}

/* RFC 3339 UTC with milliseconds: what log collectors parse without help. */
static void timestamp(char buf[LOG_TIME_LEN])
{
	struct timespec ts;
	struct tm tm;
	size_t len;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	len = strftime(buf, LOG_TIME_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + len, LOG_TIME_LEN - len, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* A command's output stays the message a person reads; only what is not
 * plain information says so. */
static const char *bare_prefix(enum rg_log_level level)
{
	return level == RG_LOG_WARN ? "warning: " : level == RG_LOG_ERROR ? "error: " : "";
}

void rg_log_print_line(const struct rg_log *log, enum rg_log_level level, const char *event,
		       const char *msg)
{
	char when[LOG_TIME_LEN];

	if (!log->out)
		return;
	timestamp(when);
	if (log->format == RG_LOG_BARE) {
		fprintf(log->out, "%s%s\n", bare_prefix(level), msg);
	} else if (log->format == RG_LOG_JSON) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "time", json_object_new_string(when));
		json_object_object_add(o, "level", json_object_new_string(rg_log_level_name(level)));
		json_object_object_add(o, "event", json_object_new_string(event));
		json_object_object_add(o, "msg", json_object_new_string(msg));
		fprintf(log->out, "%s\n", json_object_to_json_string_ext(o,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		fprintf(log->out, "%s %s %s: %s\n", when, rg_log_level_name(level), event, msg);
	}
	fflush(log->out);
}

/* Format, keep it one line, hand it to the print function. */
static void emit(const struct rg_log *log, enum rg_log_level level, const char *event,
		 const char *fmt, va_list ap)
{
	char msg[LOG_MSG_MAX];

	if (!log || !log->print || level < log->min_level)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* A message is one line: a newline inside would split the event. */
	for (char *p = msg; (p = strchr(p, '\n')); )
		*p = ' ';
	log->print(log, level, event ? event : "railgate", msg);
}

void rg_log_event(const struct rg_log *log, enum rg_log_level level, const char *event,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(log, level, event, fmt, ap);
	va_end(ap);
}

void rg_log_msg(const struct rg_log *log, enum rg_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(log, level, log ? log->event : NULL, fmt, ap);
	va_end(ap);
}
