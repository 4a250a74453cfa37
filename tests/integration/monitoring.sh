#!/usr/bin/env bash
# The alerts and the dashboard against what railgate really serves, on one
# node (tests/lib/onenode.sh) with `railgate run --metrics`: the
# PrometheusRule as kustomize renders it passes `promtool check rules` and
# its unit tests (`promtool test rules`, tests/deploy/railgate-alerts.test.yaml,
# synthetic series), which fail for a rule changed; every query of the
# Grafana dashboard and of the rules names a metric and label values that
# the daemon's /metrics serves (tests/deploy/queries.mjs), and parses as
# PromQL; a misspelled metric or label value is caught.
source "$(dirname "$0")/../lib/integration.sh" onenode rgmon
onenode_up
METRICS=127.0.0.1:9464
DASH=deploy/grafana-dashboard.json
QUERIES=tests/deploy/queries.mjs
[ -d tests/deploy/node_modules/kubernetes-models ] ||
	(cd tests/deploy && timeout 240 npm install --no-audit --no-fund --no-package-lock --loglevel=error) >/dev/null 2>&1

is_ready() { [ "$(ip netns exec "$ON-node" curl -s -m 2 -o /dev/null -w '%{http_code}' "http://$METRICS/readyz")" = 200 ]; }
# tap_from CMD...: the TAP lines CMD prints, as ours
tap_from() {
	local line out
	out=$("$@" 2>&1)
	[ -n "$out" ] || { fail "$* printed nothing"; return; }
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) fail "${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done <<<"$out"
}

# ---- what /metrics serves ---------------------------------------------------
onenode_config "$TMP/railgate.yaml" tc 3
ip netns exec "$ON-node" "$RAILGATE" run -c "$TMP/railgate.yaml" --metrics "$METRICS" 2>"$TMP/daemon.log" &
DAEMON_PID=$!
check "the daemon is ready" wait_for 10 is_ready
ip netns exec "$ON-node" curl -sf -m 2 "http://$METRICS/metrics" >"$TMP/scrape.txt"
check "promtool check metrics accepts the scrape" promtool check metrics <"$TMP/scrape.txt"
daemon_kill

# ---- the PrometheusRule -----------------------------------------------------
kubectl kustomize deploy/overlays/privileged 2>/dev/null >"$TMP/rendered.yaml"
node tests/deploy/validate.mjs --json "$TMP/rendered.yaml" |
	jq '.[] | select(.kind=="PrometheusRule" and .metadata.name=="railgate") | .spec' >"$TMP/rules.json"
check_eq "the base renders the PrometheusRule with eight alerts" 8 "$(jq '[.groups[].rules[]] | length' "$TMP/rules.json")"
check "promtool check rules accepts it" promtool check rules "$TMP/rules.json"
cp tests/deploy/railgate-alerts.test.yaml "$TMP/"
check "promtool test rules: every alert fires when it should, and not before" \
	promtool test rules "$TMP/railgate-alerts.test.yaml"
alerts_tested=$(grep -oE 'alertname: [A-Za-z]+' tests/deploy/railgate-alerts.test.yaml | sort -u | awk '{print $2}' | xargs)
check_eq "the unit tests cover every alert" "$(jq -r '[.groups[].rules[].alert] | sort | join(" ")' "$TMP/rules.json")" "$alerts_tested"
# The unit tests bite: a rule with another threshold or `for` fails them.
mkdir -p "$TMP/changed"
jq '(.groups[].rules[] | select(.alert=="RailgateNoRouteDrops") | .expr) |= sub("> 1$"; "> 5")' \
	"$TMP/rules.json" >"$TMP/changed/rules.json"
cp tests/deploy/railgate-alerts.test.yaml "$TMP/changed/"
check_fails "promtool test rules fails for a changed threshold" promtool test rules "$TMP/changed/railgate-alerts.test.yaml"
jq '(.groups[].rules[] | select(.alert=="RailgateUplinkDown") | .for) |= "5m"' \
	"$TMP/rules.json" >"$TMP/changed/rules.json"
check_fails "promtool test rules fails for a changed 'for'" promtool test rules "$TMP/changed/railgate-alerts.test.yaml"

# ---- every query names what /metrics serves ----------------------------------
check "the dashboard is JSON with unique panel ids" \
	test "$(jq '[.panels[].id] | length == (unique | length)' "$DASH")" = true
tap_from node "$QUERIES" --scrape "$TMP/scrape.txt" --promql "$TMP/queries.json" "$DASH" "$TMP/rules.json"
check "every query parses as PromQL (promtool check rules)" promtool check rules "$TMP/queries.json"
for want in 'verdict="cross_rail"' 'verdict="frontend"' railgate_drops_total railgate_reloads_total \
	railgate_attached railgate_uplink_up; do
	check "the dashboard shows $want" grep -qF "$want" <(jq -r '.. | .expr? // empty' "$DASH")
done
# The check can fail: a misspelled metric, a label value no series has.
sed 's/railgate_packets_total{verdict=\\"cross_rail\\"/railgate_packet_total{verdict=\\"cross_rail\\"/' "$DASH" >"$TMP/typo.json"
check_fails "a dashboard query with a misspelled metric is caught" node "$QUERIES" --scrape "$TMP/scrape.txt" "$TMP/typo.json"
sed 's/verdict=\\"frontend\\"/verdict=\\"front_end\\"/' "$DASH" >"$TMP/label.json"
check_fails "a dashboard query with a label value no series has is caught" node "$QUERIES" --scrape "$TMP/scrape.txt" "$TMP/label.json"
jq '(.groups[].rules[] | select(.alert=="RailgateUplinkDown") | .expr) |= "railgate_uplink_state == 0"' \
	"$TMP/rules.json" >"$TMP/badrule.json"
check_fails "an alert on a metric /metrics does not serve is caught" node "$QUERIES" --scrape "$TMP/scrape.txt" "$TMP/badrule.json"
tap_done
