// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The railgate config's entry points: read a file, parse and validate it
 * (the YAML document, the schema, then the cross-field checks), free it,
 * and apply a node's overrides.  The schema itself is described in
 * schema.c and docs/config.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "loader/config/config.h"
#include "loader/config/checks.h"
#include "lib/digest.h"
#include "lib/files.h"
#include "lib/errbuf.h"

/* ---- entry points ------------------------------------------------------ */

static void parse_document(struct parser *p, yaml_parser_t *yp)
{
	yaml_document_t doc;
	yaml_node_t *root;

	if (!yaml_parser_load(yp, &doc)) {
		report_yaml_error(&p->doc, yp);
		return;
	}
	p->doc.yaml = &doc;
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		error_at(&p->doc, (struct rg_pos){ 1, 1 }, "the config is empty (expected a %s object)",
			 RG_CONFIG_KIND);
	} else {
		parse_root(p, root);
		check_config(p);
		check_single_document(&p->doc, yp);
	}
	p->doc.yaml = NULL;
	yaml_document_delete(&doc);
}

static void free_sources(struct parser *p)
{
	size_t i;

	if (p->rails)
		for (i = 0; i < p->cfg->n_rails; i++)
			free(p->rails[i].representors);
	free(p->rails);
	if (p->nodes)
		for (i = 0; i < p->cfg->n_nodes; i++)
			free(p->nodes[i].rail_names);
	free(p->nodes);
	free(p->supernet_nodes);
	free(p->frontend_nodes);
	free(p->probe_nodes);
}

int rg_config_parse(const char *name, const char *yaml, size_t len,
		    struct rg_config *cfg, struct rg_diags *diags)
{
	/* The ICMP rate defaults are the kernel's icmp_msgs_per_sec / icmp_msgs_burst. */
	struct rg_config c = { .anti_spoof = true, .mode = RG_CONFIG_MODE_AUTO,
			       .computenet = { .icmp_rate = 1000, .icmp_burst = 50 } };
	struct parser p = { .doc = { .file = name ? name : "<config>", .text = yaml,
				     .text_len = len },
			    .cfg = &c };
	yaml_parser_t yp;
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	if (len > RG_CONFIG_MAX_BYTES) {
		rg_diags_add(diags, p.doc.file, (struct rg_pos){ 1, 1 },
			     "the config is larger than %d bytes, the limit of a config",
			     RG_CONFIG_MAX_BYTES);
		return -EFBIG;
	}
	c.path = strdup(p.doc.file);
	if (!c.path || rg_sha256(yaml, len, c.sha256)) {
		p.doc.oom = true;
	} else if (!check_events(&p.doc, yaml, len, RG_CONFIG_MAX_DEPTH)) {
		/* reported; nothing loaded */
	} else if (!yaml_parser_initialize(&yp)) {
		p.doc.oom = true;
	} else {
		yaml_parser_set_input_string(&yp, (const unsigned char *)yaml, len);
		parse_document(&p, &yp);
		yaml_parser_delete(&yp);
	}
	free_sources(&p);

	if (p.doc.n_errors)
		ret = -1;
	flush_errors(&p.doc, diags);
	if (p.doc.oom) {
		/* Errors may be missing: say so rather than pass a config. */
		rg_diags_add(diags, p.doc.file, (struct rg_pos){ 1, 1 }, "out of memory");
		ret = -ENOMEM;
	}
	if (ret) {
		rg_config_free(&c);
		return ret;
	}
	*cfg = c;
	return 0;
}

int rg_config_read(const char *path, char **text, size_t *len, char *err, size_t err_len)
{
	int ret = rg_file_read(path, RG_CONFIG_MAX_BYTES, text, len, err, err_len);

	if (ret == -EFBIG)
		rg_set_err(err, err_len, "%s: cannot read: larger than %d bytes, the limit of a config",
			   path, RG_CONFIG_MAX_BYTES);
	return ret;
}

int rg_config_load(const char *path, struct rg_config *cfg, struct rg_diags *diags)
{
	char *text = NULL, msg[PATH_MAX + 64];
	size_t len = 0;
	int err;

	memset(cfg, 0, sizeof(*cfg));
	err = rg_config_read(path, &text, &len, msg, sizeof(msg));
	if (err) {
		/* one list for every caller to print: the read error joins it */
		rg_diags_push(diags, strdup(msg));
		return err;
	}
	err = rg_config_parse(path, text, len, cfg, diags);
	free(text);
	return err;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void rg_config_free(struct rg_config *cfg)
{
	size_t i, j;

	if (!cfg)
		return;
	for (i = 0; cfg->rails && i < cfg->n_rails; i++)
		free_names(cfg->rails[i].representors, cfg->rails[i].n_representors);
	free(cfg->rails);
	free(cfg->supernets);
	free(cfg->computenet.frontend);
	free(cfg->probe_targets);
	for (i = 0; cfg->nodes && i < cfg->n_nodes; i++) {
		for (j = 0; j < cfg->nodes[i].n_rails; j++)
			free_names(cfg->nodes[i].rails[j].representors,
				   cfg->nodes[i].rails[j].n_representors);
		free(cfg->nodes[i].rails);
	}
	free(cfg->nodes);
	free(cfg->path);
	memset(cfg, 0, sizeof(*cfg));
}

/* The node's pf or representors replace the rail's (the other is dropped:
 * a rail selects one way).  An entry already moved is left alone. */
static void move_rail_selection(struct rg_config_rail *rail, struct rg_config_node_rail *nr)
{
	if (!nr->pf[0] && !nr->n_representors)
		return;
	free_names(rail->representors, rail->n_representors);
	rail->representors = nr->representors;
	rail->n_representors = nr->n_representors;
	strcpy(rail->pf, nr->pf);
	nr->representors = NULL;
	nr->n_representors = 0;
	nr->pf[0] = '\0';
}

void rg_config_apply_node(struct rg_config *cfg, const char *node_name)
{
	const struct rg_config_node *node = NULL;
	size_t i;

	for (i = 0; node_name && i < cfg->n_nodes; i++) {
		if (!strcmp(cfg->nodes[i].name, node_name)) {
			node = &cfg->nodes[i];
			break;
		}
	}
	if (!node)
		return;

	if (!strcmp(node->uplink, "auto")) {
		cfg->computenet.uplink[0] = '\0';
		cfg->computenet.uplink_discover = true;
	} else if (node->uplink[0]) {
		strcpy(cfg->computenet.uplink, node->uplink);
		cfg->computenet.uplink_discover = false;
	}
	if (node->has_gateway && node->gateway != cfg->computenet.gateway) {
		cfg->computenet.gateway = node->gateway;
		/* The global MAC is the other gateway's: resolve this one. */
		cfg->computenet.has_gateway_mac = false;
		memset(cfg->computenet.gateway_mac, 0, sizeof(cfg->computenet.gateway_mac));
	}
	if (node->has_gateway_mac) {
		cfg->computenet.has_gateway_mac = true;
		memcpy(cfg->computenet.gateway_mac, node->gateway_mac,
		       sizeof(cfg->computenet.gateway_mac));
	}
	for (i = 0; i < node->n_rails; i++)
		move_rail_selection(&cfg->rails[node->rails[i].rail], &node->rails[i]);
}
