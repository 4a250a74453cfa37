// Validate Kubernetes manifests with the schema classes of kubernetes-models
// (and the Prometheus Operator's for ServiceMonitor).  Prints one TAP line
// per object: "ok - FILE: Kind/name" or "not ok - ... : the schema errors".
//   node validate.mjs FILE...          validate every object in the files
//   node validate.mjs --json FILE      print the objects as a JSON array
// Then the checks no schema makes, across the objects of all the files given:
// names are DNS-1123, a DaemonSet's selector selects its own pods and its
// probes name a declared port, a Service selects some workload's pods, a
// ServiceMonitor selects a Service and scrapes one of its ports, a mounted
// ConfigMap is among the files.
// Exit status: 0 when every object is valid, 1 otherwise.
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import * as core from "kubernetes-models/v1";
import * as apps from "kubernetes-models/apps/v1";
import * as monitoring from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";

// apiVersion/kind -> model class.  A kind missing here is a failure, never a
// silent pass: add its class (or a structural check below) when deploy/ grows.
const MODELS = {
  "v1/ConfigMap": core.ConfigMap,
  "v1/Service": core.Service,
  "v1/ServiceAccount": core.ServiceAccount,
  "v1/Namespace": core.Namespace,
  "v1/Pod": core.Pod,
  "apps/v1/DaemonSet": apps.DaemonSet,
  "monitoring.coreos.com/v1/ServiceMonitor": monitoring.ServiceMonitor,
  "monitoring.coreos.com/v1/PodMonitor": monitoring.PodMonitor,
  "monitoring.coreos.com/v1/PrometheusRule": monitoring.PrometheusRule,
};

// CRDs with no published model: the CNI config they carry must be JSON
// with a name and a plugin chain whose every plugin has a type.
const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
function checkNetworkAttachmentDefinition(obj) {
  if (!DNS1123.test(obj.metadata?.name ?? "")) throw new Error("metadata.name is not a DNS-1123 name");
  const conf = JSON.parse(obj.spec?.config ?? "");
  const plugins = conf.plugins ?? [conf];
  if (!conf.name || !conf.cniVersion) throw new Error("spec.config lacks name or cniVersion");
  plugins.forEach((p, i) => { if (!p.type) throw new Error(`spec.config plugins[${i}] has no type`); });
}
// The SR-IOV Network Operator's SriovNetwork: ipam is one JSON plugin config,
// metaPlugins one or more, comma-separated (the operator appends them to
// the rendered plugin list), each with a type.
function checkSriovNetwork(obj) {
  if (!DNS1123.test(obj.metadata?.name ?? "")) throw new Error("metadata.name is not a DNS-1123 name");
  if (!obj.spec?.resourceName) throw new Error("spec.resourceName is missing");
  if (obj.spec.ipam !== undefined && !JSON.parse(obj.spec.ipam).type) throw new Error("spec.ipam has no type");
  if (obj.spec.metaPlugins !== undefined)
    JSON.parse(`[${obj.spec.metaPlugins}]`).forEach((p, i) => {
      if (!p.type) throw new Error(`spec.metaPlugins[${i}] has no type`);
    });
}
const STRUCTURAL = {
  "k8s.cni.cncf.io/v1/NetworkAttachmentDefinition": checkNetworkAttachmentDefinition,
  "sriovnetwork.openshift.io/v1/SriovNetwork": checkSriovNetwork,
};

function objectsOf(file) {
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  const out = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${file}: YAML: ${doc.errors[0].message}`);
    const obj = doc.toJS();
    if (obj !== null && obj !== undefined) out.push(obj);
  }
  return out;
}

function validate(obj) {
  const key = `${obj.apiVersion}/${obj.kind}`;
  if (MODELS[key]) {
    new MODELS[key](obj).validate();   // throws with every schema error
  } else if (STRUCTURAL[key]) {
    STRUCTURAL[key](obj);
  } else {
    throw new Error(`no schema known for ${key}`);
  }
}

const args = process.argv.slice(2);
if (args[0] === "--json") {
  console.log(JSON.stringify(args.slice(1).flatMap(objectsOf)));
  process.exit(0);
}
let failed = 0;
for (const file of args) {
  let objs;
  try {
    objs = objectsOf(file);
  } catch (e) {
    console.log(`not ok - ${file}: ${e.message}`);
    failed++;
    continue;
  }
  if (!objs.length) {
    console.log(`not ok - ${file}: no objects`);
    failed++;
  }
  for (const obj of objs) {
    const what = `${file}: ${obj.kind}/${obj.metadata?.name}`;
    try {
      validate(obj);
      console.log(`ok - ${what}`);
    } catch (e) {
      failed++;
      console.log(`not ok - ${what}`);
      for (const line of String(e.message).split("\n")) console.log(`# ${line}`);
    }
  }
}
// ---- cross-object checks -------------------------------------------------
const selects = (sel, labels) =>
  Object.entries(sel ?? {}).length > 0 &&
  Object.entries(sel).every(([k, v]) => labels?.[k] === v);

function crossChecks(all) {
  const problems = [];
  const of = (kind) => all.filter((o) => o.kind === kind);
  for (const o of all)
    if (!DNS1123.test(o.metadata?.name ?? "")) problems.push(`${o.kind}/${o.metadata?.name}: name is not DNS-1123`);
  const workloads = of("DaemonSet");
  for (const ds of workloads) {
    const pod = ds.spec.template;
    if (!selects(ds.spec.selector.matchLabels, pod.metadata?.labels))
      problems.push(`DaemonSet/${ds.metadata.name}: selector does not match the pod template's labels`);
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
      const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
      for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"]) {
        const port = c[probe]?.httpGet?.port;
        if (port !== undefined && !ports.has(port))
          problems.push(`DaemonSet/${ds.metadata.name}: ${c.name}.${probe} uses port ${port}, not declared`);
      }
    }
    for (const v of pod.spec.volumes ?? [])
      if (v.configMap && !of("ConfigMap").some((cm) => cm.metadata.name === v.configMap.name))
        problems.push(`DaemonSet/${ds.metadata.name}: volume ${v.name} mounts ConfigMap ${v.configMap.name}, not in the files`);
  }
  for (const svc of of("Service"))
    if (!workloads.some((w) => selects(svc.spec.selector, w.spec.template.metadata?.labels)))
      problems.push(`Service/${svc.metadata.name}: selects no workload's pods`);
  for (const sm of of("ServiceMonitor")) {
    const svcs = of("Service").filter((s) => selects(sm.spec.selector.matchLabels, s.metadata.labels));
    if (!svcs.length) problems.push(`ServiceMonitor/${sm.metadata.name}: selects no Service`);
    for (const ep of sm.spec.endpoints ?? [])
      if (!svcs.some((s) => s.spec.ports.some((p) => p.name === ep.port)))
        problems.push(`ServiceMonitor/${sm.metadata.name}: endpoint port ${ep.port} is on no selected Service`);
  }
  return problems;
}

let everything = [];
try { everything = args.flatMap(objectsOf); } catch { /* reported above */ }
const problems = crossChecks(everything);
if (problems.length) {
  failed++;
  console.log("not ok - the objects fit together");
  for (const p of problems) console.log(`# ${p}`);
} else {
  console.log("ok - the objects fit together");
}
process.exit(failed ? 1 : 0);
