// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The railgate command's option tables (tools/railgate/options.h) against
 * their two products.  For every command: each option the parser accepts
 * (the getopt table it really runs, and every short letter it takes when
 * tried) is described under Options in its --help, and each option --help
 * describes is accepted, with an argument exactly when the help names one;
 * the usage line names no option the command lacks.  The help is read back
 * as text, the parser is driven as a user drives it, so neither is trusted
 * to agree with the table.  Then the engine's own kinds on a small table,
 * and `railgate help` giving each command a line of its own (what help2man
 * turns into one entry each in man railgate).
 */
#include <ctype.h>
#include <fcntl.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tools/railgate/cli.h"
#include "tools/railgate/commands.h"
#include "tools/railgate/options.h"

#define MAX_DOC 64

/* What the Options section of a help documents. */
struct documented {
	char longs[MAX_DOC][32];
	bool takes_arg[MAX_DOC];
	size_t n_long;
	char shorts[MAX_DOC];
	size_t n_short;
};

static char *help_text(const struct rg_cmd_opts *cmd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rg_opts_help(f, cmd, cli_global_options);
	fclose(f);
	return buf;
}

/* One option line's left column: "-c, --config FILE", "--json". */
static void read_left_column(const char *line, size_t len, struct documented *d)
{
	char col[128];
	const char *p;

	snprintf(col, sizeof(col), "%.*s", (int)len, line);
	for (p = col; (p = strchr(p, '-')); ) {
		if (p[1] == '-') {
			size_t n = strcspn(p + 2, " ,");

			assert_true(d->n_long < MAX_DOC && n < 32);
			snprintf(d->longs[d->n_long], 32, "%.*s", (int)n, p + 2);
			d->takes_arg[d->n_long++] = p[2 + n] == ' ' && isupper((unsigned char)p[3 + n]);
			p += 2 + n;
		} else {
			assert_true(d->n_short < MAX_DOC);
			d->shorts[d->n_short++] = p[1];
			p += 2;
		}
	}
}

/* The lines of "Options:" up to the blank line after them; an option line
 * starts "  -", its left column ends at the first two spaces. */
static void read_options(const char *help, struct documented *d)
{
	const char *p = strstr(help, "\nOptions:\n");

	memset(d, 0, sizeof(*d));
	assert_non_null(p);
	for (p += strlen("\nOptions:\n"); *p && *p != '\n'; p = strchr(p, '\n') + 1) {
		if (!strncmp(p, "  -", 3)) {
			const char *gap = strstr(p + 2, "  ");

			assert_non_null(gap);
			read_left_column(p + 2, (size_t)(gap - p - 2), d);
		}
		if (!strchr(p, '\n'))
			break;
	}
}

static bool documents_long(const struct documented *d, const char *name, bool *takes_arg)
{
	for (size_t i = 0; i < d->n_long; i++)
		if (!strcmp(d->longs[i], name)) {
			if (takes_arg)
				*takes_arg = d->takes_arg[i];
			return true;
		}
	return false;
}

static bool documents_short(const struct documented *d, char c)
{
	return memchr(d->shorts, c, d->n_short) != NULL;
}

/* Run the command's parser on words (stderr silenced: usage errors are
 * expected), as the command itself does. */
static enum rg_opts_result try_parse(const struct rg_cmd_opts *cmd, int n, const char *w1, const char *w2)
{
	char *argv[4] = { (char *)(cmd->name ? cmd->name : "railgate"), (char *)w1, (char *)w2, NULL };
	struct rg_global_opts g = { .pin_dir = RG_DEFAULT_PIN_DIR };
	void *args = calloc(1, cmd->args_size ? cmd->args_size : 1);
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY), first;
	enum rg_opts_result r;

	assert_non_null(args);
	fflush(stderr);
	dup2(null, STDERR_FILENO);
	r = rg_opts_parse(cmd, cli_global_options, &g, n + 1, argv, args, &first);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	free(args);
	return r;
}

/* Every table: the program's own and each command's. */
static const struct rg_cmd_opts *table_of(size_t i)
{
	if (i == 0)
		return &rg_main_opts;
	return i <= rg_n_commands ? rg_commands[i - 1].opts : NULL;
}

static const char *name_of(const struct rg_cmd_opts *cmd)
{
	return cmd->name ? cmd->name : "railgate";
}

/* Each long option getopt is given, each short letter of its optstring:
 * under Options. */
static void test_parser_options_are_documented(void **state)
{
	(void)state;
	for (size_t i = 0; i <= rg_n_commands; i++) {
		const struct rg_cmd_opts *cmd = table_of(i);
		struct option longopts[RG_OPTS_MAX + 2];
		char optstring[2 * RG_OPTS_MAX + 4];
		struct documented d;
		char *help;

		if (!cmd)
			continue;        /* help: two words of its own, no table */
		help = help_text(cmd);
		read_options(help, &d);
		rg_opts_getopt_table(cmd, cli_global_options, longopts, optstring, sizeof(optstring));
		for (size_t k = 0; longopts[k].name; k++) {
			bool arg = false;

			if (!documents_long(&d, longopts[k].name, &arg))
				fail_msg("%s: --%s is parsed but not under Options", name_of(cmd), longopts[k].name);
			if (arg != (longopts[k].has_arg == required_argument))
				fail_msg("%s: --%s %s an argument, the help says otherwise", name_of(cmd),
					 longopts[k].name, arg ? "takes no" : "takes");
		}
		for (const char *p = optstring; *p; p++)
			if (*p != ':' && *p != '+' && !documents_short(&d, *p))
				fail_msg("%s: -%c is parsed but not under Options", name_of(cmd), *p);
		free(help);
	}
}

/* Every letter the parser takes when tried, documented or not. */
static void test_every_short_letter_accepted_is_documented(void **state)
{
	(void)state;
	for (size_t i = 0; i <= rg_n_commands; i++) {
		const struct rg_cmd_opts *cmd = table_of(i);
		struct documented d;
		char *help, word[3] = "-?";

		if (!cmd)
			continue;
		help = help_text(cmd);
		read_options(help, &d);
		for (int c = 1; c < 128; c++) {
			if (!isalnum(c) || c == 'h')
				continue;    /* -h prints the help: the engine's own, documented */
			word[1] = (char)c;
			if (try_parse(cmd, 2, word, "1") != RG_OPTS_UNKNOWN && !documents_short(&d, (char)c))
				fail_msg("%s: -%c is accepted but not under Options", name_of(cmd), c);
		}
		free(help);
	}
}

/* Each option under Options is accepted, taking an argument exactly when
 * the help names one (alone, an option that needs one is refused). */
static void test_documented_options_are_accepted(void **state)
{
	(void)state;
	for (size_t i = 0; i <= rg_n_commands; i++) {
		const struct rg_cmd_opts *cmd = table_of(i);
		struct documented d;
		char *help, word[40];

		if (!cmd)
			continue;
		help = help_text(cmd);
		read_options(help, &d);
		assert_true(documents_long(&d, "help", NULL) && documents_short(&d, 'h'));
		for (size_t k = 0; k < d.n_long; k++) {
			if (!strcmp(d.longs[k], "help"))
				continue;
			snprintf(word, sizeof(word), "--%s", d.longs[k]);
			if (try_parse(cmd, d.takes_arg[k] ? 2 : 1, word, "1") == RG_OPTS_UNKNOWN)
				fail_msg("%s: %s is under Options but not accepted", name_of(cmd), word);
			if (d.takes_arg[k] && try_parse(cmd, 1, word, NULL) != RG_OPTS_UNKNOWN)
				fail_msg("%s: %s is accepted without its argument", name_of(cmd), word);
		}
		for (size_t k = 0; k < d.n_short; k++) {
			snprintf(word, sizeof(word), "-%c", d.shorts[k]);
			if (d.shorts[k] != 'h' && try_parse(cmd, 2, word, "1") == RG_OPTS_UNKNOWN)
				fail_msg("%s: %s is under Options but not accepted", name_of(cmd), word);
		}
		free(help);
	}
}

/* The usage line is written by hand: it may name only real options. */
static void test_usage_names_only_real_options(void **state)
{
	(void)state;
	for (size_t i = 0; i <= rg_n_commands; i++) {
		const struct rg_cmd_opts *cmd = table_of(i);
		struct documented d;
		const char *p;
		char *help;

		if (!cmd)
			continue;
		help = help_text(cmd);
		read_options(help, &d);
		for (p = cmd->usage; (p = strstr(p, "--")); p += 2) {
			char name[32];

			snprintf(name, sizeof(name), "%.*s", (int)strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-"), p + 2);
			if (!documents_long(&d, name, NULL))
				fail_msg("%s: the usage names --%s, which it does not take", name_of(cmd), name);
		}
		free(help);
	}
}

/* `railgate help`: every command at the start of a line of its own, two
 * spaces or more before its summary. */
static void test_each_command_on_its_own_line(void **state)
{
	char *help = help_text(&rg_main_opts), line[128];

	(void)state;
	for (size_t c = 0; c < rg_n_commands; c++) {
		const char *p;
		size_t n = strlen(rg_commands[c].name);
		bool found = false;

		snprintf(line, sizeof(line), "\n  %s  ", rg_commands[c].name);
		for (p = help; (p = strstr(p, line)); p++) {
			const char *rest = p + 3 + n;

			rest += strspn(rest, " ");
			found |= !strncmp(rest, rg_commands[c].summary, strlen(rg_commands[c].summary));
		}
		if (!found)
			fail_msg("railgate help: no line \"  %s  %s\"", rg_commands[c].name, rg_commands[c].summary);
	}
	free(help);
}

/* ---- the engine on a table of its own ---------------------------------- */

struct sample_args {
	bool flag;
	const char *str;
	long lng;
	int in;
	uint32_t u;
	double dbl;
	int calls;
};

struct sample_shared {
	const char *dir;
};

static int sample_call(const char *arg, void *args, char *msg, size_t n)
{
	struct sample_args *a = args;

	if (!strcmp(arg, "no")) {
		snprintf(msg, n, "no is refused");
		return -1;
	}
	a->calls++;
	return 0;
}

static const struct rg_opt sample_options[] = {
	{ .name = "flag", .short_name = 'f', .kind = RG_OPT_FLAG, .offset = offsetof(struct sample_args, flag),
	  .help = "a flag" },
	{ .name = "str", .arg = "S", .kind = RG_OPT_STRING, .offset = offsetof(struct sample_args, str),
	  .help = "a string\nover two lines" },
	{ .name = "long", .arg = "N", .kind = RG_OPT_LONG, .offset = offsetof(struct sample_args, lng),
	  .min = 1, .max = 10, .help = "a long" },
	{ .name = "int", .short_name = 'i', .arg = "N", .kind = RG_OPT_INT,
	  .offset = offsetof(struct sample_args, in), .min = -5, .max = 5, .help = "an int" },
	{ .name = "u32", .arg = "N", .kind = RG_OPT_U32, .offset = offsetof(struct sample_args, u),
	  .min = 0, .max = 100, .bad = "--u32 '%s'", .help = "a u32" },
	{ .name = "dbl", .arg = "X", .kind = RG_OPT_DOUBLE, .offset = offsetof(struct sample_args, dbl),
	  .min = 0.5, .max = 2, .help = "a double" },
	{ .name = "call", .arg = "W", .kind = RG_OPT_CALL, .parse = sample_call, .help = "a call" },
	{ 0 },
};

static const struct rg_opt sample_shared_options[] = {
	{ .name = "dir", .arg = "DIR", .kind = RG_OPT_STRING, .offset = offsetof(struct sample_shared, dir),
	  .help = "shared" },
	{ 0 },
};

static const struct rg_cmd_opts sample_cmd = {
	.name = "sample",
	.usage = "usage: railgate sample [--flag]",
	.about = "About.",
	.opts = sample_options,
	.args_size = sizeof(struct sample_args),
	.trailer = "Trailer.",
	.after = RG_AFTER_HINT,
};

static enum rg_opts_result sample_parse(struct sample_args *a, struct sample_shared *s, int *first,
					const char *w, ...)
{
	char *argv[16] = { "sample" };
	int argc = 1, saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	enum rg_opts_result r;
	va_list ap;

	va_start(ap, w);
	for (; w && argc < 15; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	memset(a, 0, sizeof(*a));
	memset(s, 0, sizeof(*s));
	fflush(stderr);
	dup2(null, STDERR_FILENO);
	r = rg_opts_parse(&sample_cmd, sample_shared_options, s, argc, argv, a, first);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	return r;
}

static void test_engine_kinds(void **state)
{
	struct sample_args a;
	struct sample_shared s;
	int first;

	(void)state;
	assert_int_equal(sample_parse(&a, &s, &first, "-f", "--str", "x", "--long", "10", "-i", "-5",
				      "--u32=7", "--dbl", "0.5", "--call", "a", "--call", "b", NULL),
			 RG_OPTS_RUN);
	assert_true(a.flag);
	assert_string_equal(a.str, "x");
	assert_int_equal(a.lng, 10);
	assert_int_equal(a.in, -5);
	assert_int_equal(a.u, 7);
	assert_true(a.dbl == 0.5);
	assert_int_equal(a.calls, 2);
	assert_int_equal(first, 15);
	/* out of range, not a number, a sign on an unsigned, refused by the call */
	assert_int_equal(sample_parse(&a, &s, &first, "--long", "11", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--long", "0", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--long", "", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--long", "3x", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--int", "6", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--u32", "-0", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--u32", "101", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--dbl", "2.5", NULL), RG_OPTS_BAD_VALUE);
	assert_int_equal(sample_parse(&a, &s, &first, "--call", "no", NULL), RG_OPTS_BAD_VALUE);
	/* unknown, and a missing argument */
	assert_int_equal(sample_parse(&a, &s, &first, "--nope", NULL), RG_OPTS_UNKNOWN);
	assert_int_equal(sample_parse(&a, &s, &first, "--str", NULL), RG_OPTS_UNKNOWN);
}

/* The shared options before and after the arguments, which getopt
 * permutes to the end. */
static void test_engine_shared_and_arguments(void **state)
{
	struct sample_args a;
	struct sample_shared s;
	int first;

	(void)state;
	assert_int_equal(sample_parse(&a, &s, &first, "word", "--dir", "/x", "-f", NULL), RG_OPTS_RUN);
	assert_string_equal(s.dir, "/x");
	assert_true(a.flag);
	assert_int_equal(first, 4);
	assert_int_equal(sample_parse(&a, &s, &first, "--dir=/y", "word", NULL), RG_OPTS_RUN);
	assert_string_equal(s.dir, "/y");
	assert_int_equal(first, 2);
}

static void test_engine_help_layout(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	rg_opts_help(f, &sample_cmd, sample_shared_options);
	fclose(f);
	assert_string_equal(buf,
		"usage: railgate sample [--flag]\n"
		"\n"
		"About.\n"
		"\n"
		"Options:\n"
		"  -f, --flag   a flag\n"
		"  --str S      a string\n"
		"               over two lines\n"
		"  --long N     a long\n"
		"  -i, --int N  an int\n"
		"  --u32 N      a u32\n"
		"  --dbl X      a double\n"
		"  --call W     a call\n"
		"  --dir DIR    shared\n"
		"  -h, --help   this text\n"
		"\n"
		"Trailer.\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parser_options_are_documented),
		cmocka_unit_test(test_every_short_letter_accepted_is_documented),
		cmocka_unit_test(test_documented_options_are_accepted),
		cmocka_unit_test(test_usage_names_only_real_options),
		cmocka_unit_test(test_each_command_on_its_own_line),
		cmocka_unit_test(test_engine_kinds),
		cmocka_unit_test(test_engine_shared_and_arguments),
		cmocka_unit_test(test_engine_help_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
