#!/usr/bin/env bash
# deploy/: nothing there can be applied on this machine, so check what can
# be checked.  Every overlay renders with `kubectl kustomize`, with the
# namespace and the image of the base's kustomization.yaml and nothing else;
# every object rendered, and the examples, against the Kubernetes schemas
# (npm kubernetes-models, installed into tests/deploy/node_modules now:
# without npm or the registry this FAILS, it does not skip); what each
# overlay changes; the DaemonSets' command lines are accepted by `railgate run
# --check-args` with the ConfigMap's config, with and without a spec.nodes
# override; the Dockerfile installs packages Debian 12 has and that provide
# every library the binaries link.
source "$(dirname "$0")/../lib/integration.sh" none
RAILGATE=build/railgate
VALIDATE=tests/deploy/validate.mjs

# ---- the schema validator ---------------------------------------------------
npm_install() {
	command -v node && command -v npm || { echo "node or npm missing: tools/install-deps.sh"; return 1; }
	(cd tests/deploy && timeout 240 npm install --no-audit --no-fund --no-package-lock \
		--loglevel=error)
}
check "npm installs kubernetes-models into tests/deploy/node_modules" npm_install

# tap_from_validator FILE...: one TAP line per object the validator judged.
tap_from_validator() {
	local line out
	out=$(node "$VALIDATE" "$@" 2>&1)
	[ -n "$out" ] || { fail "the validator ran on $*"; return; }
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) ok "schema: ${line#ok - }" ;;
		"not ok - "*) fail "schema: ${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		*) fail "validator said: $line" ;;
		esac
	done <<<"$out"
}

# ---- kustomize: every overlay, namespace and image from the base only ---------
OVERLAYS=$(ls deploy/overlays)
R=$TMP/render
mkdir -p "$R"
# render DEPLOY_DIR OVERLAY OUT: what `kubectl apply -k` would apply
render() { kubectl kustomize "$1/overlays/$2" >"$3" 2>"$3.err"; }
for o in $OVERLAYS; do
	check "kubectl kustomize deploy/overlays/$o renders" render deploy "$o" "$R/$o.yaml"
	tap_from_validator "$R/$o.yaml"
	node "$VALIDATE" --json "$R/$o.yaml" >"$R/$o.json"
	check_eq "$o: every object is in kube-system" "kube-system" \
		"$(jq -r '[.[] | .metadata.namespace] | unique | join(",")' "$R/$o.json")"
	check_eq "$o: every container runs the base's image" "ghcr.io/railgate/railgate:0.1.0" \
		"$(jq -r '[.[] | select(.kind=="DaemonSet") | .spec.template.spec |
			(.initContainers + .containers)[] | .image] | unique | join(",")' "$R/$o.json")"
done
check_eq "the overlays are privileged and capabilities" "capabilities privileged" "$(echo $OVERLAYS)"
tap_from_validator deploy/nad-railgate.yaml deploy/sriovnetwork-example.yaml
# One place: a copy whose base says another namespace and tag renders only those.
cp -r deploy "$TMP/deploy-copy"
sed -i 's/^namespace: kube-system$/namespace: gpu-infra/; s/^    newTag: 0.1.0$/    newTag: 9.9.9/' \
	"$TMP/deploy-copy/base/kustomization.yaml"
for o in $OVERLAYS; do
	render "$TMP/deploy-copy" "$o" "$R/copy-$o.yaml"
	node "$VALIDATE" --json "$R/copy-$o.yaml" >"$R/copy-$o.json"
	check_eq "$o: the base's namespace is every object's" "gpu-infra" \
		"$(jq -r '[.[] | .metadata.namespace] | unique | join(",")' "$R/copy-$o.json")"
	check_eq "$o: the base's tag is every container's" "ghcr.io/railgate/railgate:9.9.9" \
		"$(jq -r '[.[] | select(.kind=="DaemonSet") | .spec.template.spec |
			(.initContainers + .containers)[] | .image] | unique | join(",")' "$R/copy-$o.json")"
done

# What the DaemonSet carries, in each overlay.
railgate_c() { jq -c ".[] | select(.kind==\"DaemonSet\") | .spec.template.spec.containers[] | select(.name==\"railgate\") | $2" "$R/$1.json"; }
for o in $OVERLAYS; do
	check_eq "$o: tolerates every taint" '[{"operator":"Exists"}]' \
		"$(jq -c '.[] | select(.kind=="DaemonSet") | .spec.template.spec.tolerations' "$R/$o.json")"
	check_eq "$o: a startupProbe on /healthz" '"/healthz"' "$(railgate_c "$o" .startupProbe.httpGet.path)"
	check_eq "$o: HOST_IP is the node's address (downward API)" '"status.hostIP"' \
		"$(railgate_c "$o" '.env[] | select(.name=="HOST_IP") | .valueFrom.fieldRef.fieldPath')"
	check_eq "$o: /metrics and health listen on \$(HOST_IP) only" '"$(HOST_IP):9464"' \
		"$(railgate_c "$o" '.command as $c | $c | index("--metrics") as $i | $c[$i + 1]')"
done
check_eq "privileged: the railgate container is privileged" true "$(railgate_c privileged .securityContext.privileged)"
check_eq "capabilities: the railgate container is not privileged" false "$(railgate_c capabilities .securityContext.privileged)"
check_eq "capabilities: it adds BPF, PERFMON, NET_ADMIN, SYS_RESOURCE and drops the rest" \
	'{"add":["BPF","PERFMON","NET_ADMIN","SYS_RESOURCE"],"drop":["ALL"]}' \
	"$(railgate_c capabilities '.securityContext.capabilities | {add, drop}')"
check_eq "capabilities: the pins' bpffs is seen HostToContainer" '"HostToContainer"' \
	"$(railgate_c capabilities '.volumeMounts[] | select(.mountPath=="/sys/fs/bpf") | .mountPropagation')"
check_eq "capabilities: the patch kept every other mount" \
	"$(railgate_c privileged '[.volumeMounts[].mountPath]')" "$(railgate_c capabilities '[.volumeMounts[].mountPath]')"

# The validator can fail: broken copies of our manifests are refused.
sed 's/containerPort: 9464/containerPort: "9464"/' deploy/base/daemonset.yaml >"$TMP/port-string.yaml"
check_fails "the validator refuses a string containerPort" node "$VALIDATE" "$TMP/port-string.yaml"
sed '/^  selector:/,/^  updateStrategy/{/^  updateStrategy/!d}' deploy/base/daemonset.yaml >"$TMP/no-selector.yaml"
check_fails "the validator refuses a DaemonSet without a selector" node "$VALIDATE" "$TMP/no-selector.yaml"
sed 's/    - port: metrics/    - port: metricz/' deploy/base/servicemonitor.yaml >"$TMP/sm-port.yaml"
check_fails "the validator refuses a ServiceMonitor scraping a port no Service has" \
	node "$VALIDATE" deploy/base/daemonset.yaml deploy/base/configmap.yaml "$TMP/sm-port.yaml"
sed 's/name: railgate-config$/name: railgate-conf/' deploy/base/configmap.yaml >"$TMP/cm-name.yaml"
check_fails "the validator refuses a DaemonSet mounting a ConfigMap not in deploy/" \
	node "$VALIDATE" deploy/base/daemonset.yaml "$TMP/cm-name.yaml"
sed 's/"type": "railgate"/"typ": "railgate"/' deploy/sriovnetwork-example.yaml >"$TMP/sriov-notype.yaml"
check_fails "the validator refuses a SriovNetwork meta plugin without a type" node "$VALIDATE" "$TMP/sriov-notype.yaml"
printf 'apiVersion: v1\nkind: Secrett\nmetadata:\n  name: x\n' >"$TMP/unknown-kind.yaml"
check_fails "the validator refuses a kind it has no schema for" node "$VALIDATE" "$TMP/unknown-kind.yaml"

# ---- the container's command line, with the ConfigMap's config -------------------
jq -r '.[] | select(.kind=="ConfigMap" and .metadata.name=="railgate-config") | .data["railgate.yaml"]' \
	"$R/privileged.json" >"$TMP/railgate.yaml"
check "railgate check accepts the ConfigMap's config (16 x 8 cluster)" "$RAILGATE" check -c "$TMP/railgate.yaml"
check_eq "the ConfigMap's config has eight rails" 8 "$(grep -c '^    - name: rail' "$TMP/railgate.yaml")"

# cmdline FILE: the railgate container's command, the config path pointing
# at the extracted file, the binary at build/railgate, the host's paths
# (/host/...) under $TMP/host, $(HOST_IP) as the kubelet expands it.
cmdline() {
	jq -r '.[] | select(.kind=="DaemonSet") |
		.spec.template.spec.containers[] | select(.name=="railgate") | .command[]' "$1" |
	sed "s|^/etc/railgate/railgate.yaml$|$TMP/railgate.yaml|; s|^/usr/local/bin/railgate$|$RAILGATE|; s|^/host/|$TMP/host/|; s|^\$(HOST_IP):|127.0.0.1:|"
}
mkdir -p "$TMP/host/etc/railgate"
for o in $OVERLAYS; do
	ds=$R/$o.json
	mapfile -t cmd < <(cmdline "$ds")
	check_eq "$o runs railgate run" "$RAILGATE run" "${cmd[0]:-} ${cmd[1]:-}"
	out=$(env -u NODE_NAME "${cmd[@]}" --check-args 2>&1)
	check_eq "$o: railgate run --check-args accepts the command line" 0 "$?"
	check "$o: without a spec.nodes entry the uplink is discovered" grep -q "uplink auto" <<<"$out"
	out=$(NODE_NAME=gpu-node-15 "${cmd[@]}" --check-args 2>&1)
	check "$o: NODE_NAME=gpu-node-15 takes its spec.nodes uplink" \
		grep -q "uplink ens6f1np1, node gpu-node-15" <<<"$out"
	check "$o: the DaemonSet gives NODE_NAME from spec.nodeName" test "$(jq -r \
		'.[] | select(.kind=="DaemonSet") | .spec.template.spec.containers[0].env[] |
		 select(.name=="NODE_NAME") | .valueFrom.fieldRef.fieldPath' "$ds")" = spec.nodeName
done
check_fails "railgate run --check-args refuses an unknown option" "$RAILGATE" run -c "$TMP/railgate.yaml" --kepp --check-args
sed 's/subnet: 10.0.3.0\/24/subnet: 10.0.3.0\/33/' "$TMP/railgate.yaml" >"$TMP/bad.yaml"
check_fails "railgate run --check-args refuses a bad config" "$RAILGATE" run -c "$TMP/bad.yaml" --check-args

# ---- the Dockerfile -----------------------------------------------------------------
# stage_packages N: the packages `apt-get install` gets in the Nth FROM stage:
# its line and the continuation lines up to the next `&& command`.
stage_packages() {
	awk -v n="$1" '/^FROM /{s++} s==n' deploy/Dockerfile |
		awk '/apt-get install/ { on = 1; print; next } on && /^ *&&/ { on = 0 } on' |
		tr ' \\' '\n\n' |
		grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -vxE 'apt-get|install|rm|rf|-y'
}
in_debian() {
	local p missing=0
	for p in "$@"; do
		apt-cache show "$p" >/dev/null 2>&1 || { echo "no Debian 12 package $p"; missing=1; }
	done
	return $missing
}
mapfile -t build_pkgs < <(stage_packages 1)
mapfile -t run_pkgs < <(stage_packages 2)
check "the build stage installs packages Debian 12 has (${#build_pkgs[@]})" in_debian "${build_pkgs[@]}"
check "the runtime stage installs packages Debian 12 has (${#run_pkgs[@]})" in_debian "${run_pkgs[@]}"
check "both stages are debian:12" test "$(grep -cE '^FROM debian:12(-slim)?( |$)' deploy/Dockerfile)" = 2
check "the build stage builds with make" grep -qF 'make GIT_COMMIT=$GIT_COMMIT build/railgate build/railgate-cni' deploy/Dockerfile

# Every shared library the binaries link directly (DT_NEEDED) comes from a
# runtime-stage package; apt brings their own dependencies.  libc6 is in
# every Debian image.
libs_provided() {
	local bin lib path pkg missing=0
	for bin in build/railgate build/railgate-cni; do
		while read -r lib path; do
			pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null)
			pkg=${pkg%%:*}
			# A here-string, not printf | grep -q: under pipefail, grep
			# quitting at its first match can fail printf with SIGPIPE.
			if [ "$pkg" != libc6 ] && ! grep -qx "$pkg" <<<"$(printf '%s\n' "${run_pkgs[@]}")"; then
				echo "$bin needs $lib ($path, package '${pkg:-?}'), not installed by the runtime stage"
				missing=1
			fi
		done < <(ldd "$bin" | awk -v needed="$(objdump -p "$bin" | awk '/NEEDED/ { print $2 }')" '
			BEGIN { split(needed, n, "\n"); for (i in n) want[n[i]] = 1 }
			$2 == "=>" && $3 ~ /^\// && ($1 in want) { print $1, $3 }')
	done
	return $missing
}
check "the runtime stage provides every library railgate and railgate-cni link" libs_provided
check "deploy/Dockerfile.dockerignore keeps host builds out of the context" \
	grep -qx build deploy/Dockerfile.dockerignore

tap_done
