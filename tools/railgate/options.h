/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A command's options, declared once in a table: the parser (getopt_long
 * underneath, so its messages and its permutation stay what users know),
 * the --help text (every option under Options), and the completion's
 * answers are all made from it; the man pages come from --help.  A table
 * ends with an entry whose name is NULL.  Besides its own table a command
 * takes a shared one (railgate's global options, cli.h), before or after
 * its name; -h/--help is the engine's own.
 */
#ifndef RAILGATE_OPTIONS_H
#define RAILGATE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What the argument is, and where it goes (the field at .offset). */
enum rg_opt_kind {
	RG_OPT_FLAG,                 /* no argument: a bool set to true */
	RG_OPT_STRING,               /* const char *: the argument as given */
	RG_OPT_LONG,                 /* long, base 10, in [min, max] */
	RG_OPT_INT,                  /* int, base 10, in [min, max] */
	RG_OPT_U32,                  /* uint32_t, base 10, no sign, in [min, max] */
	RG_OPT_DOUBLE,               /* double in [min, max] */
	RG_OPT_CALL,                 /* .parse, for what needs the command's own code */
};

/* What a shell completes after the option (railgate __complete). */
enum rg_opt_complete {
	RG_COMPLETE_NONE,
	RG_COMPLETE_FILE,
	RG_COMPLETE_DIR,
	RG_COMPLETE_IFNAME,          /* the interfaces of this namespace */
	RG_COMPLETE_NETNS,           /* the names under /run/netns */
};

struct rg_opt {
	const char *name;            /* the long name, without "--" */
	char short_name;             /* 0: none */
	const char *arg;             /* the argument's name in the help; NULL: takes none */
	enum rg_opt_kind kind;
	size_t offset;               /* of the target field in the command's args */
	/* RG_OPT_CALL: 0, or -1 with why in msg ("" for the usage alone);
	 * arg is NULL for an option that takes none. */
	int (*parse)(const char *arg, void *args, char *msg, size_t n);
	double min, max;             /* the range of a number */
	const char *bad;             /* a number out of range: printf format, %s the argument;
				      * NULL: the command's usage */
	const char *help;            /* lines joined by \n, no final newline */
	enum rg_opt_complete complete;
	const char *words;           /* the values to complete, space-separated */
};

/* What follows a usage error's message (or stands for it, when none). */
enum rg_opts_after {
	RG_AFTER_USAGE,              /* the usage line; a bad value's message alone */
	RG_AFTER_HELP,               /* the whole help; a bad value's message alone */
	RG_AFTER_HINT,               /* "(railgate CMD --help for usage)" after a message */
};

struct rg_cmd_opts {
	const char *name;            /* "probe"; NULL: the program's own options */
	const char *usage;           /* "usage: railgate probe ...", lines joined by \n */
	const char *about;           /* the paragraphs between the usage and the options */
	void (*write_about)(FILE *f);/* instead of about, when it needs figures; ends in \n */
	const struct rg_opt *opts;
	size_t args_size;            /* sizeof the struct the offsets are in */
	const char *help_help;       /* the help of -h, --help; NULL: "this text" */
	const char *trailer;         /* after the options (exit codes, signals) */
	enum rg_opts_after after;
	const char *unknown;         /* printed after an unknown option or a missing
				      * argument, %s the word; NULL: getopt's message only */
	bool quiet;                  /* getopt prints nothing itself */
	bool stop_at_arg;            /* options end at the first argument (the program's,
				      * before the command name) */
	bool shared_first;           /* the help lists the shared options first */
	const char *words;           /* the completion of the first argument (route's actions) */
};

enum rg_opts_result {
	RG_OPTS_RUN,                 /* parsed: go on */
	RG_OPTS_HELP,                /* --help was printed on stdout: exit 0 */
	RG_OPTS_UNKNOWN,             /* an unknown option or a missing argument, reported */
	RG_OPTS_BAD_VALUE,           /* a value its parser refused, reported */
};

/* The most options a command and the shared table have together. */
#define RG_OPTS_MAX 40

/*
 * Parse argv (argv[0] the command's name) into args and shared_args; the
 * first argument that is no option ends in *first_arg.  Usage errors are
 * reported on stderr as cmd says; --help is printed on stdout.
 */
enum rg_opts_result rg_opts_parse(const struct rg_cmd_opts *cmd, const struct rg_opt *shared,
				  void *shared_args, int argc, char **argv, void *args,
				  int *first_arg);

/* The exit code of a parse that did not end in RG_OPTS_RUN: 0 or 2. */
int rg_opts_exit(enum rg_opts_result r);

/* The whole --help: usage, about, Options (own, shared, -h) and trailer. */
void rg_opts_help(FILE *f, const struct rg_cmd_opts *cmd, const struct rg_opt *shared);

/* The usage's first line, as a usage error repeats it. */
void rg_opts_usage_line(FILE *f, const struct rg_cmd_opts *cmd);

/* The entry of name ("--name" without the dashes) or short letter c in
 * the table, or NULL. */
const struct rg_opt *rg_opts_find(const struct rg_opt *opts, const char *name, char c);

/* How many entries a table has. */
size_t rg_opts_count(const struct rg_opt *opts);

/* The getopt_long table and optstring rg_opts_parse builds: what the
 * parser really accepts (tests compare it with the help).  Returns the
 * number of long options, at most RG_OPTS_MAX + 1, plus the end entry. */
struct option;
size_t rg_opts_getopt_table(const struct rg_cmd_opts *cmd, const struct rg_opt *shared,
			    struct option *longopts, char *optstring, size_t optstring_len);

#endif /* RAILGATE_OPTIONS_H */
