# railgate build.  `make` builds everything, `make test` runs every test and
# ends with one line "N passed, N failed", `make demo` runs the testbed demo.
# Source layout: a file's folder says what it is (see README.md).

CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= bpftool
BUILD     := build
ARCH_INC  := /usr/include/$(shell $(CC) -dumpmachine 2>/dev/null)

CFLAGS    ?= -O2 -g
CFLAGS    += -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation -std=gnu11 -I. -I$(BUILD) -D_GNU_SOURCE
NL_CFLAGS := $(shell pkg-config --cflags libnl-3.0 libnl-route-3.0 libnl-genl-3.0 json-c 2>/dev/null)
CFLAGS    += $(NL_CFLAGS)
LDLIBS    := -lbpf -lelf -lz -lnl-genl-3 -lnl-route-3 -lnl-3 -lyaml -ljson-c -lmicrohttpd -lcrypto -lpthread
BPF_CFLAGS := -O2 -g -Wall -target bpf -D__TARGET_ARCH_x86 -I. -I$(ARCH_INC)

# BPF programs: every bpf/*.bpf.c and tools/bench/*.bpf.c gets an object and a skeleton.
BPF_SRCS  := $(wildcard bpf/*.bpf.c) $(wildcard tools/bench/*.bpf.c)
BPF_OBJS  := $(patsubst %.bpf.c,$(BUILD)/%.bpf.o,$(notdir $(BPF_SRCS)))
BPF_SKELS := $(patsubst %.bpf.c,$(BUILD)/%.skel.h,$(notdir $(BPF_SRCS)))
BPF_HDRS  := $(wildcard bpf/*.h) maps/rg_abi.h

# The library every binary links: maps/ and loader/.
LIB_SRCS  := $(wildcard maps/*.c) $(wildcard loader/*.c)
LIB_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))
LIB       := $(BUILD)/librailgate.a
HDRS      := $(wildcard maps/*.h loader/*.h tools/*/*.h tests/lib/*.h)

# Pod routing (tools/pod_routes/): used by railgate-cni and `railgate route` only.
POD_OBJS      := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tools/pod_routes/*.c))
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
TEST_LIB_SRCS := $(wildcard tests/lib/*.c)
TEST_BINS  := $(patsubst %.c,$(BUILD)/%,$(UNIT_SRCS) $(BPFT_SRCS))
# Small programs the integration tests drive (traffic with sequence numbers...).
TEST_TOOLS := $(patsubst tests/tools/%.c,$(BUILD)/%,$(wildcard tests/tools/*.c)) $(BUILD)/libcni-client

.PHONY: all deps test test-full test-quick demo bench fresh-check clean bpf
# Keep intermediate objects (tests/lib/*.o) so a second make does no work.
.SECONDARY:
all: bpf $(LIB) $(BINS) $(TEST_BINS) $(TEST_TOOLS)

bpf: $(BPF_OBJS) $(BPF_SKELS)

deps:
	@tools/install-deps.sh

$(BUILD)/%.bpf.o: bpf/%.bpf.c $(BPF_HDRS) | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
$(BUILD)/%.bpf.o: tools/bench/%.bpf.c $(BPF_HDRS) | $(BUILD)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@.tmp && mv $@.tmp $@

$(BUILD):
	@mkdir -p $(BUILD)

$(BUILD)/%.o: %.c $(HDRS) $(BPF_SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/railgate: $(patsubst %.c,$(BUILD)/%.o,$(RAILGATE_SRCS)) $(POD_OBJS) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/railgate-cni: $(patsubst %.c,$(BUILD)/%.o,$(CNI_SRCS)) $(POD_OBJS) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/railgate-bench: $(patsubst %.c,$(BUILD)/%.o,$(BENCH_SRCS)) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(patsubst %.c,$(BUILD)/%.o,$(TEST_LIB_SRCS)) $(POD_OBJS) $(LIB) $(HDRS) $(BPF_SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(patsubst %.c,$(BUILD)/%.o,$(TEST_LIB_SRCS)) $(POD_OBJS) $(LIB) $(LDLIBS) -lcmocka

$(BUILD)/%: tests/tools/%.c | $(BUILD)
	$(CC) $(CFLAGS) -o $@ $<

# The libcni client the CNI tests drive the chains with: Debian's
# golang-github-appc-cni-dev, which builds offline in GOPATH mode only.
$(BUILD)/libcni-client: tests/tools/libcni_client/main.go | $(BUILD)
	cd tests/tools/libcni_client && GO111MODULE=off GOPATH=/usr/share/gocode \
		GOCACHE=$(abspath $(BUILD))/gocache GOFLAGS= go build -o $(abspath $@) .

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
# (multi-VF pods on 3 rails) at full size (8 rails, the 8-GPU pod).
test-full:
	@$(SETUP)
	@MULTIVF_RAILS=8 tests/run.sh

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

clean:
	rm -rf $(BUILD)
