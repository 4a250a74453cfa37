#!/usr/bin/env bash
# The CNI side as the DaemonSet installs it, no cluster needed: the init
# container's command line from each overlay's DaemonSet (kubectl kustomize
# deploy/overlays/*; railgate install-cni), run with the host's CNI bin directory under a temporary
# directory, copies railgate-cni atomically (a new inode by rename, no
# temporary file left, an unchanged plugin left alone); bad arguments fail
# clearly and change nothing; railgate-cni is static ("not a dynamic
# executable") and answers VERSION and reports a bad network config in an
# empty root with no library at all.
source "$(dirname "$0")/../lib/integration.sh" none
RG=build/railgate
CNI=build/railgate-cni
VALIDATE=tests/deploy/validate.mjs
[ -d tests/deploy/node_modules/kubernetes-models ] ||
	(cd tests/deploy && timeout 240 npm install --no-audit --no-fund --no-package-lock --loglevel=error) >/dev/null 2>&1

# init_cmd FILE: the install-cni init container's command, /usr/local/bin
# being build/ (railgate-cni sits beside railgate in both) and /host $TMP/host.
init_cmd() {
	jq -r '.[] | select(.kind=="DaemonSet") | .spec.template.spec.initContainers[] |
		select(.name=="install-cni") | .command[]' "$1" |
	sed "s|^/usr/local/bin/railgate$|$RG|; s|^/host/|$TMP/host/|"
}
for o in $(ls deploy/overlays); do
	kubectl kustomize "deploy/overlays/$o" 2>/dev/null >"$TMP/$o.yaml"
	node "$VALIDATE" --json "$TMP/$o.yaml" >"$TMP/$o.json"
	ds=$TMP/$o.json
	rm -rf "$TMP/host"
	mkdir -p "$TMP/host/opt/cni/bin"
	mapfile -t cmd < <(init_cmd "$ds")
	check_eq "$o: the init container runs railgate install-cni --dest /host/opt/cni/bin" \
		"$RG install-cni --dest $TMP/host/opt/cni/bin" "${cmd[*]}"
	mount=$(jq -r '.[] | select(.kind=="DaemonSet") | .spec.template.spec as $s |
		($s.initContainers[] | select(.name=="install-cni") | .volumeMounts[] |
		 select(.mountPath=="/host/opt/cni/bin") | .name) as $v |
		$s.volumes[] | select(.name==$v) | .hostPath.path' "$ds")
	check_eq "$o: /host/opt/cni/bin is the host's /opt/cni/bin" /opt/cni/bin "$mount"
	check "$o: the init container's command succeeds" "${cmd[@]}"
	target=$TMP/host/opt/cni/bin/railgate
	check "$o: the plugin is installed as 'railgate', byte for byte" cmp "$CNI" "$target"
	check_eq "$o: it is executable (0755)" 755 "$(stat -c %a "$target" 2>/dev/null)"
	check_eq "$o: no temporary file is left" "railgate" "$(ls -A "$TMP/host/opt/cni/bin")"
done
# a pod restart: the same plugin is left alone, another one replaced by rename
ino=$(stat -c %i "$target")
out=$("${cmd[@]}"); rc=$?
check_eq "again: exit 0" 0 "$rc"
check "again: says the plugin is already there" grep -q "already this railgate-cni" <<<"$out"
check_eq "again: the file was not rewritten" "$ino" "$(stat -c %i "$target")"
printf 'old plugin' >"$target"
exec 3<"$target"                  # a kubelet's run holding the old file
check "an older plugin is replaced" "${cmd[@]}"
check_eq "the reader of the old file still reads the old bytes (a rename, not a rewrite)" "old plugin" "$(cat <&3)"
exec 3<&-
check "the new plugin is in place" cmp "$CNI" "$target"
check_eq "no temporary file is left" "railgate" "$(ls -A "$TMP/host/opt/cni/bin")"

# bad arguments fail clearly and change nothing
before=$(stat -c %i "$target")
out=$($RG install-cni --dest "$TMP/nonexistent" 2>&1); rc=$?
check_eq "a missing --dest directory: exit 1" 1 "$rc"
check "it says what is missing" grep -q "$TMP/nonexistent is not a directory" <<<"$out"
printf 'x' >"$TMP/notexec"
out=$($RG install-cni --dest "$TMP/host/opt/cni/bin" --source "$TMP/notexec" 2>&1); rc=$?
check_eq "a --source that is not executable: exit 1" 1 "$rc"
check "it names the source" grep -q "$TMP/notexec is not an executable file" <<<"$out"
out=$($RG install-cni --dest "$TMP/host/opt/cni/bin" --name ../x 2>&1); rc=$?
check_eq "a --name with a slash: exit 2" 2 "$rc"
check_eq "nothing changed" "railgate $before" "$(ls -A "$TMP/host/opt/cni/bin") $(stat -c %i "$target")"
# railgate-cni is static and runs in an empty root
out=$(ldd "$CNI" 2>&1)
check_eq "ldd: railgate-cni is not a dynamic executable" "not a dynamic executable" "$(echo $out)"
check_eq "it has no ELF interpreter" "" "$(readelf -l "$CNI" | grep -i 'program interpreter')"
root=$TMP/empty-root
mkdir -p "$root"
cp "$CNI" "$root/railgate"
check_eq "the empty root holds nothing but the plugin" "railgate" "$(ls -A "$root")"
chroot_bin=$(command -v chroot)
out=$(env -i CNI_COMMAND=VERSION "$chroot_bin" "$root" /railgate </dev/null 2>&1); rc=$?
check_eq "VERSION in the empty root: exit 0" 0 "$rc"
check_eq "VERSION in the empty root: the supported versions" '"1.1.0"' \
	"$(jq -c '.supportedVersions[-1]' <<<"$out" 2>/dev/null)"
out=$(printf '{"cniVersion":"1.0.0","type":"railgate"' | env -i CNI_COMMAND=ADD CNI_CONTAINERID=x \
	CNI_NETNS=/nonexistent CNI_IFNAME=net1 CNI_PATH=/ "$chroot_bin" "$root" /railgate 2>/dev/null); rc=$?
check_eq "a broken network config in the empty root: a CNI error, code 6" "6" "$(jq -r .code <<<"$out" 2>/dev/null)"
tap_done
