// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * railgate __complete WORD... CURRENT: what bash completes (completion.bash
 * asks; the words are those after "railgate", the current one last).  The
 * answer comes from the option tables, so the completion never lists what
 * the code does not take: one candidate a line, or ":file" / ":dir" for the
 * shell's own path completion.  Not in the command list: nobody types it.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/railgate/commands.h"
#include "tools/railgate/cli.h"

#define NETNS_DIR "/run/netns"
#define NET_DIR   "/sys/class/net"

/* The entries of a directory (interfaces, namespaces), dot files aside. */
static void list_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			printf("%s\n", e->d_name);
	if (d)
		closedir(d);
}

static void print_words(const char *words)
{
	size_t n;

	while (*words) {
		n = strcspn(words, " ");
		if (n)
			printf("%.*s\n", (int)n, words);
		words += n + (words[n] == ' ');
	}
}

/* The values after option o. */
static void complete_value(const struct rg_opt *o)
{
	if (o->words)
		print_words(o->words);
	switch (o->complete) {
	case RG_COMPLETE_FILE: printf(":file\n"); break;
	case RG_COMPLETE_DIR: printf(":dir\n"); break;
	case RG_COMPLETE_IFNAME: list_dir(NET_DIR); break;
	case RG_COMPLETE_NETNS: list_dir(NETNS_DIR); break;
	case RG_COMPLETE_NONE: break;
	}
}

/* The option word w ("--name" or "-c") names in the command's or the
 * global table, or NULL. */
static const struct rg_opt *option_named(const struct rg_cmd_opts *cmd, const char *w)
{
	const struct rg_opt *o = NULL;

	if (!strncmp(w, "--", 2) && w[2]) {
		o = rg_opts_find(cmd->opts, w + 2, 0);
		if (!o)
			o = rg_opts_find(cli_global_options, w + 2, 0);
	} else if (w[0] == '-' && w[1] && !w[2]) {
		o = rg_opts_find(cmd->opts, NULL, w[1]);
		if (!o)
			o = rg_opts_find(cli_global_options, NULL, w[1]);
	}
	return o;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every long option of cmd, the global ones and --help, sorted. */
static void complete_options(const struct rg_cmd_opts *cmd)
{
	const char *names[RG_OPTS_MAX + 1];
	size_t n = 0;

	for (size_t i = 0; cmd->opts && cmd->opts[i].name && n < RG_OPTS_MAX; i++)
		names[n++] = cmd->opts[i].name;
	for (size_t i = 0; cli_global_options[i].name && n < RG_OPTS_MAX; i++)
		names[n++] = cli_global_options[i].name;
	names[n++] = "help";
	qsort(names, n, sizeof(names[0]), name_cmp);
	for (size_t i = 0; i < n; i++)
		printf("--%s\n", names[i]);
}

static void complete_commands(void)
{
	for (size_t c = 0; c < rg_n_commands; c++)
		printf("%s\n", rg_commands[c].name);
}

/* argv[0] is "__complete"; argv[argc - 1] the word being completed. */
int rg_complete(int argc, char **argv)
{
	int n = argc - 1, ci = -1;
	const struct rg_cmd_opts *cmd = &rg_main_opts;
	const struct rg_command *c = NULL;
	const struct rg_opt *prev;
	const char *cur;

	if (n < 1)
		return RG_EXIT_USAGE;
	cur = argv[argc - 1];
	/* The command: the first word that is neither an option nor an option's value. */
	for (int i = 1; i < argc - 1; i++) {
		const struct rg_opt *o = option_named(&rg_main_opts, argv[i]);

		if (o && o->arg) {
			i++;
			continue;
		}
		if (argv[i][0] != '-') {
			ci = i;
			break;
		}
	}
	if (ci > 0) {
		c = rg_command_find(argv[ci]);
		if (!c)
			return RG_EXIT_OK;
		cmd = c->opts;
	}
	prev = argc > 2 && cmd ? option_named(cmd, argv[argc - 2]) : NULL;
	if (prev && prev->arg) {
		complete_value(prev);
		return RG_EXIT_OK;
	}
	if (!c) {
		if (cur[0] == '-')
			complete_options(&rg_main_opts);
		else
			complete_commands();
	} else if (!cmd) {
		complete_commands();            /* help COMMAND */
	} else if (cmd->words && ci == argc - 2) {
		print_words(cmd->words);        /* route's action, right after the name */
	} else {
		complete_options(cmd);
	}
	return RG_EXIT_OK;
}
