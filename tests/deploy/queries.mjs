// Every PromQL query of a Grafana dashboard (any "expr" in its JSON, and
// the templating queries) and of a rules file (groups[].rules[].expr) names
// metrics that a real /metrics scrape serves, with label values it has.
//   node queries.mjs --scrape SCRAPE.txt [--promql OUT] FILE...
// For each selector railgate_NAME{...}: NAME is a family of the scrape (a
// "# TYPE" line), and every matcher label="value" (and each word of a
// label=~"a|b" alternation) is a value some series of NAME carries.  Values
// holding a Grafana variable ($node) and labels the scrape cannot have (node:
// the ServiceMonitor's relabelling adds it) are left out.  A selector of a
// metric that is not railgate's is a failure: the dashboard shows railgate.
// --promql OUT writes the queries, Grafana's variables replaced, as a rules
// file, so that `promtool check rules OUT` parses each one.
// Prints TAP: one line per query.  Exit 1 when any fails.
import { readFileSync, writeFileSync } from "node:fs";

const args = process.argv.slice(2);
let scrapeFile, promqlOut;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--scrape") scrapeFile = args[++i];
  else if (args[i] === "--promql") promqlOut = args[++i];
  else files.push(args[i]);
}
const ADDED_BY_SCRAPE = new Set(["node", "instance", "job", "namespace", "pod", "container", "service", "endpoint"]);

// family -> label -> Set(values)
const families = new Map();
for (const line of readFileSync(scrapeFile, "utf8").split("\n")) {
  let m = line.match(/^# TYPE (\S+) \S+/);
  if (m) { families.set(m[1], families.get(m[1]) ?? new Map()); continue; }
  m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? /);
  if (!m || line.startsWith("#")) continue;
  const fam = families.get(m[1]) ?? new Map();
  families.set(m[1], fam);
  for (const [, k, v] of (m[3] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
    if (!fam.has(k)) fam.set(k, new Set());
    fam.get(k).add(v);
  }
}

function exprsOf(file) {
  const text = readFileSync(file, "utf8");
  const out = [];
  const walk = (x, where) => {
    if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${where}[${i}]`));
    else if (x && typeof x === "object" && x.type !== "datasource")   // a data source picker is no query
      for (const [k, v] of Object.entries(x)) {
        if ((k === "expr" || k === "query" || k === "definition") && typeof v === "string") out.push([`${where}.${k}`, v]);
        else walk(v, `${where}.${k}`);
      }
  };
  walk(JSON.parse(text), file);
  return out;
}

// Grafana's variables as Prometheus would see them after substitution.
const grafanaToPromql = (e) =>
  e.replace(/label_values\(([^,]+),\s*[a-z_]+\)/, "$1")
   .replace(/\$__rate_interval|\$__interval|\$__range/g, "5m")
   .replace(/\$\{?[a-zA-Z_]+\}?/g, ".*");

function problemsOf(expr) {
  const problems = [];
  // identifiers followed by a selector or used bare as a metric
  for (const m of expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g)) {
    const [, name, body] = m;
    if (!name.startsWith("railgate_")) { problems.push(`${name}: not a railgate metric`); continue; }
    const fam = families.get(name);
    if (!fam) { problems.push(`${name}: not served by /metrics`); continue; }
    for (const [, label, op, value] of body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)) {
      if (value.includes("$") || ADDED_BY_SCRAPE.has(label) || op.startsWith("!")) continue;
      const have = fam.get(label);
      if (!have) { problems.push(`${name}: no series has a label ${label}`); continue; }
      const wanted = op === "=~" ? value.split("|") : [value];
      for (const w of wanted)
        if (!have.has(w)) problems.push(`${name}{${label}="${w}"}: no such series (${label} is one of ${[...have].join(", ")})`);
    }
  }
  // bare metric names (no braces), e.g. "railgate_datapath_up == 0"
  for (const m of expr.matchAll(/(?<![a-zA-Z0-9_:"])(railgate_[a-zA-Z0-9_:]*)(?!\s*\{)(?![a-zA-Z0-9_:])/g))
    if (!families.has(m[1])) problems.push(`${m[1]}: not served by /metrics`);
  if (!/railgate_/.test(expr)) problems.push("names no railgate metric");
  return problems;
}

let failed = 0;
const all = [];
for (const file of files) {
  let exprs;
  if (file.endsWith(".json") && JSON.parse(readFileSync(file, "utf8")).groups)
    exprs = JSON.parse(readFileSync(file, "utf8")).groups.flatMap((g, gi) =>
      g.rules.map((r, ri) => [`${file}: ${r.alert ?? r.record}`, r.expr]));
  else exprs = exprsOf(file);
  if (!exprs.length) { console.log(`not ok - ${file}: no queries`); failed++; }
  for (const [where, expr] of exprs) {
    const problems = problemsOf(expr);
    all.push(grafanaToPromql(expr));
    if (problems.length) {
      failed++;
      console.log(`not ok - ${where}: ${expr}`);
      for (const p of problems) console.log(`# ${p}`);
    } else {
      console.log(`ok - ${where} names served metrics`);
    }
  }
}
if (promqlOut)
  writeFileSync(promqlOut, JSON.stringify({ groups: [{ name: "queries",
    rules: [...new Set(all)].map((expr, i) => ({ record: `query:${i}`, expr })) }] }));
process.exit(failed ? 1 : 0);
