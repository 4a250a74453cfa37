// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The option tables' engine (options.h): one parser, one help writer, for
 * every railgate command.  getopt_long does the parsing, so the forms
 * users know keep working (--opt=VALUE, -cFILE, an unambiguous prefix,
 * options after the arguments) and its messages stay as they were.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/options.h"

#define OPT_VAL_BASE 256             /* getopt's val of entry k: OPT_VAL_BASE + k */
#define HELP_LONG    "help"
#define HELP_SHORT   'h'
#define HELP_TEXT    "this text"

/* The own entries, then the shared ones: one list to search and to print. */
struct opt_list {
	const struct rg_opt *o[RG_OPTS_MAX];
	void *args[RG_OPTS_MAX];
	size_t n;
};

size_t rg_opts_count(const struct rg_opt *opts)
{
	size_t n = 0;

	while (opts && opts[n].name)
		n++;
	return n;
}

const struct rg_opt *rg_opts_find(const struct rg_opt *opts, const char *name, char c)
{
	for (size_t i = 0; opts && opts[i].name; i++)
		if ((name && !strcmp(opts[i].name, name)) || (c && opts[i].short_name == c))
			return &opts[i];
	return NULL;
}

static void list_add(struct opt_list *l, const struct rg_opt *opts, void *args)
{
	for (size_t i = 0; opts && opts[i].name && l->n < RG_OPTS_MAX; i++) {
		l->o[l->n] = &opts[i];
		l->args[l->n++] = args;
	}
}

static void list_make(struct opt_list *l, const struct rg_cmd_opts *cmd, const struct rg_opt *shared,
		      void *args, void *shared_args)
{
	l->n = 0;
	if (cmd->shared_first)
		list_add(l, shared, shared_args);
	list_add(l, cmd->opts, args);
	if (!cmd->shared_first)
		list_add(l, shared, shared_args);
}

static size_t build_getopt(const struct opt_list *l, bool stop_at_arg, struct option *longopts,
			   char *optstring, size_t optstring_len)
{
	size_t k = 0, len = 0;

	if (stop_at_arg && len + 1 < optstring_len)
		optstring[len++] = '+';
	for (size_t i = 0; i < l->n; i++) {
		const struct rg_opt *o = l->o[i];

		longopts[i] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					       NULL, OPT_VAL_BASE + (int)i };
		if (o->short_name && len + 3 < optstring_len) {
			optstring[len++] = o->short_name;
			if (o->arg)
				optstring[len++] = ':';
		}
		k++;
	}
	longopts[k++] = (struct option){ HELP_LONG, no_argument, NULL, HELP_SHORT };
	longopts[k] = (struct option){ 0 };
	if (len + 1 < optstring_len)
		optstring[len++] = HELP_SHORT;
	optstring[len] = '\0';
	return k;
}

size_t rg_opts_getopt_table(const struct rg_cmd_opts *cmd, const struct rg_opt *shared,
			    struct option *longopts, char *optstring, size_t optstring_len)
{
	struct opt_list l;

	list_make(&l, cmd, shared, NULL, NULL);
	return build_getopt(&l, cmd->stop_at_arg, longopts, optstring, optstring_len);
}

/* The entry getopt's answer c stands for, or -1. */
static int entry_of(const struct opt_list *l, int c)
{
	if (c >= OPT_VAL_BASE && (size_t)(c - OPT_VAL_BASE) < l->n)
		return c - OPT_VAL_BASE;
	for (size_t i = 0; i < l->n; i++)
		if (l->o[i]->short_name && l->o[i]->short_name == c)
			return (int)i;
	return -1;
}

/* ---- values ---------------------------------------------------------- */

static bool in_range(const struct rg_opt *o, double v)
{
	return v >= o->min && v <= o->max;
}

static int parse_integer(const struct rg_opt *o, const char *s, long *out)
{
	char *end;

	errno = 0;
	if (o->kind == RG_OPT_U32) {
		unsigned long v = strtoul(s, &end, 10);

		if (s[0] == '-' || !*s || *end || errno || !in_range(o, (double)v))
			return -1;
		*out = (long)v;
		return 0;
	}
	*out = strtol(s, &end, 10);
	return !*s || *end || errno || !in_range(o, (double)*out) ? -1 : 0;
}

static int parse_double(const struct rg_opt *o, const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return *end || !in_range(o, *out) ? -1 : 0;
}

/* Store the value of o; 0, or -1 with msg set ("" for no message). */
static int store(const struct rg_opt *o, const char *arg, void *args, char *msg, size_t n)
{
	char *field = (char *)args + o->offset;
	long v;
	double d;

	msg[0] = '\0';
	switch (o->kind) {
	case RG_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case RG_OPT_STRING:
		*(const char **)field = arg;
		return 0;
	case RG_OPT_LONG:
	case RG_OPT_INT:
	case RG_OPT_U32:
		if (parse_integer(o, arg, &v))
			break;
		if (o->kind == RG_OPT_LONG)
			*(long *)field = v;
		else if (o->kind == RG_OPT_INT)
			*(int *)field = (int)v;
		else
			*(uint32_t *)field = (uint32_t)v;
		return 0;
	case RG_OPT_DOUBLE:
		if (parse_double(o, arg, &d))
			break;
		*(double *)field = d;
		return 0;
	case RG_OPT_CALL:
		return o->parse(arg, args, msg, n) ? -1 : 0;
	}
	if (o->bad)
		snprintf(msg, n, o->bad, arg);
	return -1;
}

/* ---- usage errors ---------------------------------------------------- */

static void say(const struct rg_cmd_opts *cmd, const char *msg)
{
	fprintf(stderr, "railgate%s%s: %s\n", cmd->name ? " " : "", cmd->name ? cmd->name : "", msg);
}

/*
 * A usage error: the message (if any), then what cmd->after says.
 * follow: also the usage or the help after a message (an unknown option
 * does; a refused value only says why).
 */
static void report(const struct rg_cmd_opts *cmd, const struct rg_opt *shared, const char *msg,
		   bool follow)
{
	if (msg && *msg)
		say(cmd, msg);
	if (cmd->after == RG_AFTER_HINT) {
		if (msg && *msg)
			fprintf(stderr, "(railgate %s --help for usage)\n", cmd->name ? cmd->name : "");
		return;
	}
	if (!follow && msg && *msg)
		return;
	if (cmd->after == RG_AFTER_HELP)
		rg_opts_help(stderr, cmd, shared);
	else
		rg_opts_usage_line(stderr, cmd);
}

static void report_unknown(const struct rg_cmd_opts *cmd, const struct rg_opt *shared, const char *word)
{
	char msg[256] = "";

	if (cmd->unknown)
		snprintf(msg, sizeof(msg), cmd->unknown, word);
	report(cmd, shared, msg, true);
}

enum rg_opts_result rg_opts_parse(const struct rg_cmd_opts *cmd, const struct rg_opt *shared,
				  void *shared_args, int argc, char **argv, void *args,
				  int *first_arg)
{
	struct option longopts[RG_OPTS_MAX + 2];
	char optstring[2 * RG_OPTS_MAX + 4], msg[512];
	struct opt_list l;
	int c, k;

	list_make(&l, cmd, shared, args, shared_args);
	build_getopt(&l, cmd->stop_at_arg, longopts, optstring, sizeof(optstring));
	optind = 0;                  /* a full restart: main parsed its own before */
	opterr = !cmd->quiet;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		if (c == HELP_SHORT) {
			rg_opts_help(stdout, cmd, shared);
			return RG_OPTS_HELP;
		}
		k = entry_of(&l, c);
		if (k < 0) {
			report_unknown(cmd, shared, argv[optind - 1]);
			return RG_OPTS_UNKNOWN;
		}
		if (store(l.o[k], optarg, l.args[k], msg, sizeof(msg))) {
			report(cmd, shared, msg, !*msg);
			return RG_OPTS_BAD_VALUE;
		}
	}
	*first_arg = optind;
	return RG_OPTS_RUN;
}

int rg_opts_exit(enum rg_opts_result r)
{
	return r == RG_OPTS_HELP ? 0 : 2;
}

/* ---- help ------------------------------------------------------------ */

/* "-c, --config FILE", "--mode MODE", "-j, --json": the left column. */
static int left_column(const struct rg_opt *o, char *buf, size_t n)
{
	char shortpart[8] = "";

	if (o->short_name)
		snprintf(shortpart, sizeof(shortpart), "-%c, ", o->short_name);
	return snprintf(buf, n, "%s--%s%s%s", shortpart, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* One option: its left column padded to width, then its help, each
 * further line of the help indented to the same column. */
static void help_line(FILE *f, const char *left, int width, const char *help)
{
	const char *p = help, *nl;

	fprintf(f, "  %-*s  ", width, left);
	while ((nl = strchr(p, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - p), p, width + 4, "");
		p = nl + 1;
	}
	fprintf(f, "%s\n", p);
}

void rg_opts_help(FILE *f, const struct rg_cmd_opts *cmd, const struct rg_opt *shared)
{
	struct opt_list l;
	char left[128];
	int width = (int)strlen("-h, --" HELP_LONG);

	list_make(&l, cmd, shared, NULL, NULL);
	for (size_t i = 0; i < l.n; i++) {
		int w = left_column(l.o[i], left, sizeof(left));

		if (w > width)
			width = w;
	}
	fprintf(f, "%s\n", cmd->usage);
	if (cmd->write_about) {
		fputc('\n', f);
		cmd->write_about(f);
	} else if (cmd->about) {
		fprintf(f, "\n%s\n", cmd->about);
	}
	fprintf(f, "\nOptions:\n");
	for (size_t i = 0; i < l.n; i++) {
		left_column(l.o[i], left, sizeof(left));
		help_line(f, left, width, l.o[i]->help ? l.o[i]->help : "");
	}
	help_line(f, "-h, --" HELP_LONG, width, cmd->help_help ? cmd->help_help : HELP_TEXT);
	if (cmd->trailer)
		fprintf(f, "\n%s\n", cmd->trailer);
}

void rg_opts_usage_line(FILE *f, const struct rg_cmd_opts *cmd)
{
	fprintf(f, "%.*s\n", (int)strcspn(cmd->usage, "\n"), cmd->usage);
}
