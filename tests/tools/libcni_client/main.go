// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
//
// libcni-client: runs a CNI chain (a conflist) through libcni, the library
// container runtimes and Multus use, so that the tests judge prevResult
// handling, the result cache and CHECK as libcni does them, not by
// hand-made JSON.  Multus calls one chain per attachment: so does a test,
// one conflist per rail.
//
//	libcni-client add|check|del CONFLIST NETNS IFNAME CONTAINERID
//
// CNI_PATH (colon-separated) names the plugin directories; LIBCNI_CACHE_DIR
// the result cache (never the machine's own /var/lib/cni in a test).
// add prints the chain's result as JSON on stdout.  Errors go to stderr;
// the exit status is 1.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/containernetworking/cni/libcni"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: libcni-client add|check|del CONFLIST NETNS IFNAME CONTAINERID")
		os.Exit(2)
	}
	verb, conflist, netns, ifname, id := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]
	cacheDir := os.Getenv("LIBCNI_CACHE_DIR")
	if cacheDir == "" {
		fmt.Fprintln(os.Stderr, "libcni-client: set LIBCNI_CACHE_DIR (not the machine's /var/lib/cni)")
		os.Exit(2)
	}
	list, err := libcni.ConfListFromFile(conflist)
	if err != nil {
		fail("reading %s: %v", conflist, err)
	}
	cni := libcni.NewCNIConfigWithCacheDir(filepath.SplitList(os.Getenv("CNI_PATH")), cacheDir, nil)
	rt := &libcni.RuntimeConf{ContainerID: id, NetNS: netns, IfName: ifname}
	ctx := context.Background()
	switch verb {
	case "add":
		res, err := cni.AddNetworkList(ctx, list, rt)
		if err != nil {
			fail("ADD %s %s: %v", list.Name, ifname, err)
		}
		if err := res.Print(); err != nil {
			fail("printing the result: %v", err)
		}
	case "check":
		if err := cni.CheckNetworkList(ctx, list, rt); err != nil {
			fail("CHECK %s %s: %v", list.Name, ifname, err)
		}
	case "del":
		if err := cni.DelNetworkList(ctx, list, rt); err != nil {
			fail("DEL %s %s: %v", list.Name, ifname, err)
		}
	default:
		fmt.Fprintf(os.Stderr, "libcni-client: unknown verb %q: add, check or del\n", verb)
		os.Exit(2)
	}
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "libcni-client: %s\n", strings.TrimSpace(fmt.Sprintf(format, args...)))
	os.Exit(1)
}
