# railgate build.  `make` builds everything, `make test` runs every test and
# ends with one line "N passed, N failed", `make demo` runs the testbed demo.
# Source layout: a file's folder says what it is (see README.md).
# Header dependencies are generated (-MMD -MP) into build/**/*.d: touching a
# header rebuilds only the objects that include it.

CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= bpftool
BUILD     := build
ARCH_INC  := /usr/include/$(shell $(CC) -dumpmachine 2>/dev/null)

CFLAGS    ?= -O2 -g
CFLAGS    += -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation -std=gnu11 -I. -I$(BUILD) -D_GNU_SOURCE
NL_CFLAGS := $(shell pkg-config --cflags libnl-3.0 libnl-route-3.0 libnl-genl-3.0 json-c 2>/dev/null)
CFLAGS    += $(NL_CFLAGS)
LDFLAGS   ?=
# `make test-asan` builds the same tree with ASan and UBSan into build-asan/.
SANITIZE  ?=
CFLAGS    += $(SANITIZE)
LDFLAGS   += $(SANITIZE)
DEPFLAGS  := -MMD -MP

# What `railgate --version` says: the release and the commit it was built
# from (`make GIT_COMMIT=...` where the tree has no .git, as in an image build).
VERSION    := 0.1.0
GIT_COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
BPF_CFLAGS := -O2 -g -Wall -target bpf -D__TARGET_ARCH_x86 -I. -I$(ARCH_INC)

# The libraries each binary calls, and no others (checked with
# `make LDFLAGS=-Wl,--no-as-needed` and `ldd -u -r`: nothing unused;
# railgate-cni needs libcrypto for the digest of the railConfig it reads).
# libbpf brings libelf and zlib itself; pthreads are in glibc.
RAILGATE_LDLIBS := -lbpf -lnl-genl-3 -lnl-route-3 -lnl-3 -lyaml -ljson-c -lmicrohttpd -lcrypto -lnftables
CNI_LDLIBS      := -lnl-route-3 -lnl-3 -lyaml -ljson-c -lcrypto
BENCH_LDLIBS    := -lbpf -ljson-c

# BPF programs: every bpf/*.bpf.c and tools/bench/*.bpf.c gets an object and a skeleton;
# tools/testbed/*.bpf.c (the testbed switch's and the pods' VFs', loaded by bpftool, tc and ip) an object.
BPF_SRCS  := $(wildcard bpf/*.bpf.c) $(wildcard tools/bench/*.bpf.c)
TESTBED_BPF_OBJS := $(patsubst tools/testbed/%.bpf.c,$(BUILD)/%.bpf.o,$(wildcard tools/testbed/*.bpf.c))
BPF_OBJS  := $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(notdir $(BPF_SRCS)))
BPF_SKELS := $(patsubst %.bpf.c,$(BUILD)/%.skel.h,$(notdir $(BPF_SRCS)))

# The library every binary links: lib/ (the shared floor), maps/ and
# loader/'s rooms (config, kernel, plan, datapath, daemon).
LIB_SRCS  := $(wildcard lib/*.c) $(wildcard maps/*.c) $(wildcard loader/*/*.c)
LIB_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))
LIB       := $(BUILD)/librailgate.a

# Pod routing (tools/pod_routes/): used by railgate-cni and `railgate route` only.
POD_OBJS      := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/pod_routes/*.c))
POD_LIB       := $(BUILD)/libpod_routes.a
# Diagnosis (tools/doctor/: probe, node and pod checks): `railgate probe` and `doctor`.
DOCTOR_OBJS   := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/doctor/*.c))
DOCTOR_LIB    := $(BUILD)/libdoctor.a
RAILGATE_SRCS := $(wildcard tools/railgate/*.c)
CNI_SRCS      := $(wildcard tools/cni/*.c)
BENCH_SRCS    := $(filter-out %.bpf.c,$(wildcard tools/bench/*.c))
BINS := $(BUILD)/railgate
ifneq ($(CNI_SRCS),)
BINS += $(BUILD)/railgate-cni
endif
ifneq ($(BENCH_SRCS),)
BINS += $(BUILD)/railgate-bench
endif

UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
BPFT_SRCS  := $(wildcard tests/bpf/test_*.c)
# plan_maps.c (a plan as map contents, JSON) only where it is needed: it
# calls json-c and the FIB compiler, which most tests do not link.
TEST_LIB_SRCS := $(filter-out tests/lib/plan_maps.c,$(wildcard tests/lib/*.c))
TEST_LIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(TEST_LIB_SRCS))
TEST_BINS  := $(patsubst %.c,$(BUILD)/%,$(UNIT_SRCS) $(BPFT_SRCS))
# Small programs the integration tests drive (traffic with sequence numbers...).
TEST_TOOLS := $(patsubst tests/tools/%.c,$(BUILD)/%,$(wildcard tests/tools/*.c)) $(BUILD)/libcni-client \
	      $(BUILD)/rg-record-facts

# What each test program calls besides cmocka.  A test without a line here
# links every library until it gets one.
TEST_LDLIBS := $(RAILGATE_LDLIBS)
$(BUILD)/tests/unit/test_config:    TEST_LDLIBS := -lyaml -lcrypto
$(BUILD)/tests/unit/test_fib:       TEST_LDLIBS :=
$(BUILD)/tests/unit/test_floor:     TEST_LDLIBS := -lnl-3
$(BUILD)/tests/unit/test_metrics:   TEST_LDLIBS := -ljson-c -lmicrohttpd
$(BUILD)/tests/unit/test_netlink:   TEST_LDLIBS := -lnl-genl-3 -lnl-route-3 -lnl-3
$(BUILD)/tests/unit/test_pins:      TEST_LDLIBS :=
$(BUILD)/tests/unit/test_pod_plan:  TEST_LDLIBS := -lnl-route-3 -lnl-3 -lyaml -lcrypto
$(BUILD)/tests/unit/test_switchdev: TEST_LDLIBS :=
$(BUILD)/tests/bpf/test_datapath:   TEST_LDLIBS := -lbpf
$(BUILD)/tests/bpf/test_monitor:    TEST_LDLIBS := -lbpf
$(BUILD)/tests/bpf/test_prog_cost:  TEST_LDLIBS := -lbpf

ASAN_BUILD := build-asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# The fuzzers (tests/fuzz/, docs/testing.md): clang's libFuzzer with ASan
# and UBSan, in a tree of their own.  Only the sources each harness calls.
FUZZ_BUILD  := build-fuzz
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g $(FUZZ_SAN) -Wall -Wno-unused-parameter -std=gnu11 -I. -D_GNU_SOURCE $(NL_CFLAGS)
FUZZ_CONFIG_SRCS := $(wildcard loader/config/*.c) lib/addr.c lib/mac.c lib/digest.c lib/files.c loader/plan/plan.c \
		    maps/fib.c lib/errbuf.c
# fuzz_cni.c is the plugin's main and its (silent) log: main.c and log.c stay out.
FUZZ_CNI_SRCS := $(filter-out tools/cni/main.c tools/cni/log.c,$(CNI_SRCS)) $(wildcard tools/pod_routes/*.c) \
		 $(FUZZ_CONFIG_SRCS) lib/ifname.c lib/netns.c lib/nlsock.c
FUZZERS := $(FUZZ_BUILD)/fuzz_config $(FUZZ_BUILD)/fuzz_cni
FUZZ_SECONDS ?= 60

# The generated dependency files of every object and program built so far.
DEPS := $(wildcard $(BUILD)/*.d $(BUILD)/*/*.d $(BUILD)/*/*/*.d $(BUILD)/*/*/*/*.d) \
	$(wildcard $(FUZZ_BUILD)/*/*.d $(FUZZ_BUILD)/*/*/*.d)

.PHONY: FORCE man install all deps test test-full test-quick demo bench fresh-check clean bpf \
	fuzz fuzz-build test-asan
# Keep intermediate objects (tests/lib/*.o) so a second make does no work.
.SECONDARY:
all: bpf $(LIB) $(BINS) $(TEST_BINS) $(TEST_TOOLS)

bpf: $(BPF_OBJS) $(BPF_SKELS) $(TESTBED_BPF_OBJS)

deps:
	@tools/install-deps.sh

$(BUILD)/%.bpf.o: bpf/%.bpf.c | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/%.bpf.o: tools/bench/%.bpf.c | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/%.bpf.o: tools/testbed/%.bpf.c | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@.tmp && mv $@.tmp $@

$(BUILD):
	@mkdir -p $(BUILD)

# Every object waits for the skeletons (order-only: a first build cannot
# know yet which objects include one); from then on its .d file names the
# skeletons and headers it really includes.
$(BUILD)/%.o: %.c | $(BPF_SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# Rewritten only when the version or commit changed, so a build at the same
# commit does no work and a new commit rebuilds one object.
$(BUILD)/build_version.h: FORCE | $(BUILD)
	@printf '#define RG_BUILD_VERSION "%s"\n#define RG_BUILD_COMMIT "%s"\n' '$(VERSION)' '$(GIT_COMMIT)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/tools/railgate/version.o: $(BUILD)/build_version.h

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(POD_LIB): $(POD_OBJS)
	rm -f $@ && ar rcs $@ $^
$(DOCTOR_LIB): $(DOCTOR_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/railgate: $(patsubst %.c,$(BUILD)/%.o,$(RAILGATE_SRCS)) $(DOCTOR_OBJS) $(POD_OBJS) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(RAILGATE_LDLIBS)
# railgate-cni runs on the host, where the DaemonSet copies it (railgate
# install-cni): linked statically, so a node needs none of libnl, libyaml,
# json-c or libcrypto (Debian's -dev packages ship the .a files).  The
# linker warns that getaddrinfo, getproto* and dlopen in libnl and libcrypto
# would need glibc's shared parts at run time: railgate-cni calls none of them.
# The Makefile is a prerequisite: a tree built before the link went static
# relinks.  The sanitizers' runtimes link only dynamically (make test-asan).
CNI_STATIC := $(if $(SANITIZE),,-static)
$(BUILD)/railgate-cni: $(patsubst %.c,$(BUILD)/%.o,$(CNI_SRCS)) $(POD_OBJS) $(LIB) Makefile
	$(CC) $(CFLAGS) $(LDFLAGS) $(CNI_STATIC) -o $@ $(filter-out Makefile,$^) $(CNI_LDLIBS)
$(BUILD)/railgate-bench: $(patsubst %.c,$(BUILD)/%.o,$(BENCH_SRCS)) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_LDLIBS)

# A test program: its own object, the test helpers, diagnosis and pod
# routing (archives: only the tests that call them pull them in), the library.
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_LIB_OBJS) $(DOCTOR_LIB) $(POD_LIB) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS) -lcmocka

# The option tables' test reads every command's table: it links the
# command's objects (main.o aside) before the archives they call.
RAILGATE_CMD_OBJS := $(filter-out $(BUILD)/tools/railgate/main.o,$(patsubst %.c,$(BUILD)/%.o,$(RAILGATE_SRCS)))
$(BUILD)/tests/unit/test_cli_options: $(BUILD)/tests/unit/test_cli_options.o $(RAILGATE_CMD_OBJS) \
				      $(DOCTOR_LIB) $(POD_LIB) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(RAILGATE_LDLIBS) -lcmocka
# The facts recorder (tests/tools/record_facts/, docs/testing.md): the library
# and the plan's map writer.
$(BUILD)/rg-record-facts: $(BUILD)/tests/tools/record_facts/main.o $(BUILD)/tests/lib/plan_maps.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(RAILGATE_LDLIBS)
$(BUILD)/tests/unit/test_plan_facts: $(BUILD)/tests/unit/test_plan_facts.o $(BUILD)/tests/lib/plan_maps.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(RAILGATE_LDLIBS) -lcmocka

$(BUILD)/%: tests/tools/%.c | $(BUILD)
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $@.d -MT $@ $(LDFLAGS) -o $@ $<

# The libcni client the CNI tests drive the chains with: Debian's
# golang-github-appc-cni-dev, which builds offline in GOPATH mode only.
$(BUILD)/libcni-client: tests/tools/libcni_client/main.go | $(BUILD)
	cd tests/tools/libcni_client && GO111MODULE=off GOPATH=/usr/share/gocode \
		GOCACHE=$(abspath $(BUILD))/gocache GOFLAGS= go build -o $(abspath $@) .

# Coverage instrumentation for the library, the fuzzer's main for the harness.
$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c $< -o $@
$(FUZZ_BUILD)/fuzz_config: $(patsubst %.c,$(FUZZ_BUILD)/%.o,tests/fuzz/fuzz_config.c tests/lib/ref_lpm.c $(FUZZ_CONFIG_SRCS))
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -lyaml -lcrypto
$(FUZZ_BUILD)/fuzz_cni: $(patsubst %.c,$(FUZZ_BUILD)/%.o,tests/fuzz/fuzz_cni.c $(FUZZ_CNI_SRCS))
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -lnl-route-3 -lnl-3 -lyaml -ljson-c -lcrypto

fuzz-build: $(FUZZERS)

# Each fuzzer for FUZZ_SECONDS (default 60) from its seed corpus; `make
# test` runs them for a few seconds through tests/fuzz/run.sh.
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh

# The unit, BPF and CLI tests built with ASan and UBSan (docs/testing.md):
# a tree of their own, the same runner pointed at it.
test-asan:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) SANITIZE="$(ASAN_FLAGS)" all
	@RG_BUILD=$(ASAN_BUILD) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1 tests/run.sh --asan

# The README's commands set up a fresh machine themselves: each recipe runs
# the install script first and only then builds, so nothing compiles before
# clang and the -dev packages are there (an order-only prerequisite would not
# order `deps` before its sibling `all` under -j2).  Plain `make` stays a pure
# build.
SETUP = tools/install-deps.sh && $(MAKE) --no-print-directory all

# Everything: unit, BPF (BPF_PROG_TEST_RUN) and integration (namespaces).
test:
	@$(SETUP)
	@tests/run.sh

# The full matrices: what `make test` runs as a representative slice
# (multi-VF pods on 3 rails; up killed at the syscalls that change the
# pins) at full size (8 rails, the 8-GPU pod; at every syscall).
test-full:
	@$(SETUP)
	@MULTIVF_RAILS=8 FAULT_INJECT=all RG_SCRIPT_LIMIT=1800 tests/run.sh

# The inner loop: unit and BPF tests only, seconds.
test-quick:
	@$(SETUP)
	@tests/run.sh --quick

demo:
	@$(SETUP)
	@tools/testbed/demo.sh

bench:
	@$(SETUP)
	@tools/bench/bench.sh

# A fresh Debian 12 root (mmdebstrap) runs `make demo` and `make test`: the
# proof that the two commands set up a new machine.  Minutes; not in `make test`.
fresh-check:
	@tools/fresh-check.sh

# The man pages, generated from each command's --help (tools/railgate/mkman.sh).
MAN_DIR := $(BUILD)/man
man: $(MAN_DIR)/railgate.8
$(MAN_DIR)/railgate.8: $(BUILD)/railgate tools/railgate/mkman.sh
	tools/railgate/mkman.sh $(BUILD)/railgate $(VERSION) $(MAN_DIR)

# `make install PREFIX=/usr DESTDIR=/tmp/root`: the command, the CNI plugin
# (its "type" is the file name in the CNI bin directory), the man pages, the
# bash completion and the licenses.
PREFIX      ?= /usr/local
SBINDIR     ?= $(PREFIX)/sbin
CNIBINDIR   ?= $(PREFIX)/lib/cni
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR      ?= $(PREFIX)/share/doc/railgate
install: $(BUILD)/railgate $(BUILD)/railgate-cni man
	install -D -m 0755 $(BUILD)/railgate $(DESTDIR)$(SBINDIR)/railgate
	install -D -m 0755 $(BUILD)/railgate-cni $(DESTDIR)$(CNIBINDIR)/railgate
	install -d $(DESTDIR)$(MANDIR)/man8
	install -m 0644 $(MAN_DIR)/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -D -m 0644 tools/railgate/completion.bash $(DESTDIR)$(BASHCOMPDIR)/railgate
	install -d $(DESTDIR)$(DOCDIR)/LICENSES
	install -m 0644 LICENSE $(DESTDIR)$(DOCDIR)/
	install -m 0644 LICENSES/*.txt $(DESTDIR)$(DOCDIR)/LICENSES/

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) $(ASAN_BUILD)

-include $(DEPS)
