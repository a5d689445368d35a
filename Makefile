# trax: build, tests, demo and benchmarks.
#
#   make            build ./build/trax, the unit tests and the test tools (make deps installs
#                   their packages)
#   make demo       install missing packages, build ./build/trax only, run trax on the shipped
#                   trace and rules, and as root capture and check a live rt-app workload
#   make check      install missing packages, mount tracefs as root, build, run every test (plain
#                   and ASan+UBSan builds; the fuzz targets and make static are built too)
#   make test       build, then run every test against ./build only
#   make bench      benchmarks against trace-cmd and the SQLite ceiling (not part of check)
#   make fuzz       build the libFuzzer targets (clang) into build-fuzz/ and run each for
#                   SECONDS seconds (default 60); make fuzz-build only builds them
#   make SANITIZE=1 build with AddressSanitizer + UndefinedBehaviorSanitizer into build-san/
#   make static     fully static collectors, build-static/x86_64/trax and build-static/aarch64/trax
#                   (cross-compiled; make static installs the cross toolchain and the arm64
#                   packages): collect and the commands that need neither libtracecmd nor cairo
#   make V=1        show full compiler command lines
#   make install    install trax and its man pages under PREFIX (default /usr/local; DESTDIR,
#                   BINDIR and MANDIR honoured); make uninstall removes them
# On a fresh Debian 12 machine `make demo` and `make check` are the whole set-up: as root they
# install the packages they need, otherwise they print the exact apt-get line. The packages of
# each target are listed once, in scripts/deps.sh. Tests that read ../shared (the reference
# traces, not part of the repository) report SKIP without it.

VERSION := 0.1.0

ifeq ($(SANITIZE),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD ?= build
SANFLAGS :=
endif

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
MAN_PAGES := $(wildcard doc/man/*.1)

CC ?= cc
PKG_CONFIG ?= pkg-config

# Minimum versions: Debian 12's packages.
PKGS := libtracecmd >= 1.3 libtracefs >= 1.6 libtraceevent >= 1.7 sqlite3 >= 3.40 \
	cairo >= 1.16 jansson >= 2.14 libcrypto >= 3.0 fontconfig >= 2.13 zlib >= 1.2
PKG_NAMES := libtracecmd libtracefs libtraceevent sqlite3 cairo jansson libcrypto fontconfig zlib

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKG_NAMES) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKG_NAMES) 2>/dev/null)
# libtracecmd's exported-but-unpublished getters are declared in parse/tracecmd-local.h and
# only for the versions whose ABI we checked (see that header).
TRACECMD_ABI := $(shell $(PKG_CONFIG) --atleast-version=1.3 libtracecmd && \
	! $(PKG_CONFIG) --atleast-version=1.6 libtracecmd && echo 1 || echo 0)

WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla -Wpointer-arith -Wno-format-nonliteral
OPT ?= -O2 -g
CFLAGS_ALL := -std=gnu11 $(OPT) $(WARN) $(SANFLAGS) -MMD -MP -D_GNU_SOURCE -I. \
	-DTRAX_VERSION=\"$(VERSION)\" -DTRAX_TRACECMD_ABI=$(TRACECMD_ABI) $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SANFLAGS) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lpthread -lm

ifneq ($(V),1)
Q := @
quiet = @printf '  %-6s %s\n' $(1) $(2);
else
Q :=
quiet =
endif

MODULES := util parse rules assert plot report collect
LIB_SRC := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_SRC := $(wildcard cmd/*.c)
CMD_OBJ := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test-*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
LIBTRAX := $(BUILD)/libtrax.a
TRAX := $(BUILD)/trax

.PHONY: all demo check test bench deps clean install uninstall doc fuzz fuzz-build static
all: $(TRAX) $(UNIT_BIN) $(TOOL_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS_ALL) -c -o $@ $<

# The minimum versions of PKGS hold before anything is compiled (pkg-config names each one
# missing or too old); make deps installs them.
$(BUILD)/.pkgs-ok: Makefile
	@mkdir -p $(dir $@)
	$(Q)$(PKG_CONFIG) --exists --print-errors '$(PKGS)' || { echo "trax: the packages" \
		"above are missing or older than the Makefile's PKGS ($(PKGS)); make deps" \
		"installs them" >&2; exit 1; }
	@touch $@
$(LIB_OBJ) $(CMD_OBJ) $(UNIT_BIN) $(TOOL_BIN): | $(BUILD)/.pkgs-ok

# The interactive timeline's script (report/timeline.js, plain ES2017) goes into the binary as
# the bytes of a C array that report/lod.c includes: od and sed, nothing to install.
define TL_JS_RULE
$(1)/gen/timeline-js.inc: report/timeline.js
	@mkdir -p $$(dir $$@)
	$$(call quiet,GEN,$$@)od -An -v -tx1 $$< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g' >$$@.tmp && \
		mv $$@.tmp $$@
$(1)/report/lod.o: $(1)/gen/timeline-js.inc
endef
$(eval $(call TL_JS_RULE,$(BUILD)))
$(BUILD)/report/lod.o: CFLAGS_ALL += -I$(BUILD)/gen

$(LIBTRAX): $(LIB_OBJ)
	$(call quiet,AR,$@)rm -f $@ && ar rcs $@ $^

$(TRAX): $(CMD_OBJ) $(LIBTRAX)
	$(call quiet,LINK,$@)$(CC) $(LDFLAGS_ALL) -o $@ $(CMD_OBJ) $(LIBTRAX) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIBTRAX)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS_ALL) -o $@ $< $(LIBTRAX) $(LIBS) -lcmocka $(LDFLAGS_ALL)

$(BUILD)/tools/%: tests/tools/%.c $(LIBTRAX)
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS_ALL) -o $@ $< $(LIBTRAX) $(LIBS) $(LDFLAGS_ALL)

deps:
	$(Q)scripts/deps.sh all

# The whole suite: the plain build, then the same tests under ASan+UBSan. As root, tracefs is
# mounted first when it is not, so that the capture tests run.
check:
	$(Q)scripts/deps.sh check
	$(Q)scripts/tracefs.sh
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 all
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)$(MAKE) --no-print-directory static
	$(Q)tests/run.sh build build-san

test: all
	$(Q)scripts/tracefs.sh
	$(Q)tests/run.sh $(BUILD)

# The main job needs only the trax binary (not cmocka or the tests).
demo:
	$(Q)scripts/deps.sh demo
	$(Q)$(MAKE) --no-print-directory $(TRAX)
	$(Q)scripts/demo.sh $(BUILD)

bench:
	$(Q)scripts/deps.sh bench
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/bench/run.sh $(BUILD)

# The fuzz targets (tests/fuzz/, doc/fuzz.md): the library built again with clang, libFuzzer's
# coverage and ASan+UBSan, into build-fuzz/ (one target per reader: trace.dat, text, systrace,
# Perfetto, rules). make check builds them and tests/integration/fuzz.sh runs each briefly.
FUZZ_BUILD := build-fuzz
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -O1 -g $(WARN) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -MMD -MP \
	-D_GNU_SOURCE -I. -DTRAX_VERSION=\"$(VERSION)\" -DTRAX_TRACECMD_ABI=$(TRACECMD_ABI) \
	$(PKG_CFLAGS)
FUZZ_TARGETS := dat text systrace perfetto rules
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)
SECONDS ?= 60

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CLANG,$<)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(eval $(call TL_JS_RULE,$(FUZZ_BUILD)))
$(FUZZ_BUILD)/report/lod.o: FUZZ_CFLAGS += -I$(FUZZ_BUILD)/gen

$(FUZZ_BUILD)/libtrax.a: $(FUZZ_LIB_OBJ)
	$(call quiet,AR,$@)rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz-%: $(FUZZ_BUILD)/tests/fuzz/fuzz-%.o $(FUZZ_BUILD)/tests/fuzz/fuzz-common.o \
		$(FUZZ_BUILD)/libtrax.a
	$(call quiet,LINK,$@)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LIBS)

fuzz-build:
	$(Q)scripts/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BIN)

fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(FUZZ_BUILD) $(SECONDS)

# The static collectors (doc/static.md): the sources of build/trax but for what needs
# libtracecmd (no static archive in Debian) or cairo (plot/, report/), with static/none.c in
# their place, compiled by each architecture's gcc against its multiarch packages
# (/usr/lib/TRIPLET/pkgconfig) into build-static/ARCH/, and linked with -static. The objects
# are their own: the normal build's flags and objects stay as they are.
STATIC_BUILD := build-static
STATIC_ARCHS := x86_64 aarch64
STATIC_PKG_NAMES := libtracefs libtraceevent sqlite3 jansson libcrypto zlib
STATIC_LEFT_OUT := parse/dat.c parse/datlayout.c $(wildcard plot/*.c report/*.c) \
	cmd/cmd-plot.c cmd/cmd-report.c
STATIC_SRC := $(filter-out $(STATIC_LEFT_OUT),$(LIB_SRC) $(CMD_SRC)) static/none.c
STATIC_OPT ?= -O2 -g
STATIC_BIN := $(STATIC_ARCHS:%=$(STATIC_BUILD)/%/trax)

# pkg-config of architecture $(1), run once when first needed (the packages may have just
# been installed by make static)
static_pkg = PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=/usr/lib/$(1)-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	$(PKG_CONFIG) --static

define STATIC_ARCH
STATIC_CC_$(1) ?= $(1)-linux-gnu-gcc
STATIC_CFLAGS_$(1) = $$(eval STATIC_CFLAGS_$(1) := -std=gnu11 $(STATIC_OPT) $(WARN) -MMD -MP \
	-D_GNU_SOURCE -I. -DTRAX_VERSION=\"$(VERSION)\" -DTRAX_STATIC=\"$(1)\" \
	$$$$(shell $(call static_pkg,$(1)) --cflags $(STATIC_PKG_NAMES)))$$(STATIC_CFLAGS_$(1))
STATIC_LIBS_$(1) = $$(eval STATIC_LIBS_$(1) := \
	$$$$(shell $(call static_pkg,$(1)) --libs $(STATIC_PKG_NAMES)) -lpthread -lm)$$(STATIC_LIBS_$(1))
STATIC_OBJ_$(1) := $(STATIC_SRC:%.c=$(STATIC_BUILD)/$(1)/%.o)

$(STATIC_BUILD)/$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC-$(1),$$<)$$(STATIC_CC_$(1)) $$(STATIC_CFLAGS_$(1)) -c -o $$@ $$<

$(STATIC_BUILD)/$(1)/trax: $$(STATIC_OBJ_$(1))
	$$(call quiet,LINK,$$@)$$(STATIC_CC_$(1)) -static -o $$@ $$^ $$(STATIC_LIBS_$(1)) \
		2>$$@.ld; st=$$$$?; awk -f static/link-warnings.awk $$@.ld >&2; rm -f $$@.ld; \
		exit $$$$st

-include $$(STATIC_OBJ_$(1):.o=.d)
endef
$(foreach a,$(STATIC_ARCHS),$(eval $(call STATIC_ARCH,$(a))))

static:
	$(Q)scripts/deps.sh static
	$(Q)$(MAKE) --no-print-directory $(STATIC_BIN)

# trax help COMMAND finds the pages beside the binary: PREFIX/bin/trax, PREFIX/share/man/man1.
install: $(TRAX)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(TRAX) $(DESTDIR)$(BINDIR)/trax
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/trax $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES)))

clean:
	rm -rf build build-san build-fuzz build-static

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(UNIT_BIN:=.d) $(TOOL_BIN:=.d) \
	$(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/tests/fuzz/fuzz-%.d) \
	$(FUZZ_BUILD)/tests/fuzz/fuzz-common.d
