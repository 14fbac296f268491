# xsc — the extensible-syscall explorer.
#   make            build build/xsc            make run     set up, build, start the REPL
#   make test       set up, build, run the suite (ends with "N passed, N failed")
#   make deps       install missing Debian packages (apt-get, as root)
#   make install / uninstall (PREFIX, DESTDIR)    make clean    make bench
#   make static     build/xsc-static: one self-contained binary (catalogue and templates inside)
#   make kernels    fetch Debian's 5.10, 6.1, 6.12, 6.18 and 7.3 cloud kernels for 'target vm'
#   make measure    every interface's matrix rows in those kernels: data/measured/, the reference
#   make check      the suite under ASan + UBSan, valgrind    make fuzz FUZZ_SECONDS=N [FUZZ_JOBS=N]
#   make stracetest CASES=N SEED=S xsc's call lines against the installed strace's, live
#   make difftest CASES=N SEED=S   random calls live and under 'target sim' at the running
#                   kernel's version: agreement per interface, minimised reproducers (issue 24)
#   make difftest-vm VM_CASES=N  the same in a guest of each of 5.10, 6.1, 6.12, 6.18 and 7.3
#                   against 'target sim' at that kernel's full version (VM_KERNELS picks)
#   make bpf-old-vm  bpf's union bpf_attr in Ubuntu's 4.4, 4.15, 5.4, 5.6, 5.8 and 5.13 kernels
#                   against 'target sim' (images from archive.ubuntu.com, once)
#   make headers-ref  uapi headers of 6.1, 6.12 and the two newest releases (network, once)
#   make layout-ref   the catalogue's layouts, versions and flags against them
#   make census       every kernel site of an extensible interface against the catalogue
#                   (Debian's linux-source 6.1, 6.12 and the newest; network once; CENSUS_OPTS=--update)
#   make wasm       build/wasm/xsc.wasm (base, model, sim, the commands; wasm32-wasi), the site
#                   console's bundle, and one simulated script under node against its golden;
#                   make wasm-deps installs the toolchain; make site puts the console in the site
#   SANITIZE=1      build and test under AddressSanitizer + UBSan (in build/asan)

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/xsc
LIBDIR   = $(PREFIX)/lib
INCDIR   = $(PREFIX)/include

CC      ?= cc
CFLAGS  ?= -O2 -g
PKGS    := readline jansson
# Debian packages the build needs (pkg-config names above come from these; libc6-dev's libc.a
# links the VM guest's /init statically). uapi headers (cli/headers/): libcurl and libclang
# are dlopen'ed, and so is cmark-gfm (cli/docs/md.c): only their headers are built against.
BUILD_PKGS := gcc make pkg-config libc6-dev libreadline-dev libjansson-dev \
	      libcurl4-openssl-dev libclang-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
# the WebAssembly build (make wasm): clang 14's wasm32 target, lld, wasi-libc, the wasm32
# compiler runtime; node runs it in the tests; dpkg-dev's apt-get source fetches jansson's source
WASM_PKGS := clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32 nodejs dpkg-dev
# ... and what only the tests, the real kernels and the site need, never the build: tmux drives
# the REPL, chromium and poppler-utils render the site and the handout, man-db the man page;
# qemu boots the real kernels ('target vm') and cpio packs the guest's initramfs, apt and
# dpkg-deb fetch Debian's images ('make kernels'); less is the default pager; the WebAssembly
# toolchain builds the site's console
OPT_PKGS := tmux libbpf-dev strace valgrind util-linux python3 chromium poppler-utils man-db \
	    qemu-system-x86 cpio less $(WASM_PKGS)
DEB_PKGS := $(BUILD_PKGS) $(OPT_PKGS)

ifeq ($(SANITIZE),1)
BUILD   ?= build/asan
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
export LSAN_OPTIONS := $(if $(LSAN_OPTIONS),$(LSAN_OPTIONS):)suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
else
BUILD   ?= build
endif

XCFLAGS  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -Icli -MMD -MP \
           -DXSC_DATADIR='"$(DATADIR)/data"' -DXSC_VERSION='"$(VERSION)"'
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# cli/guest/init.c is the /init of the VM guests, a program of its own (linked statically below)
SRCS     := $(sort $(filter-out cli/guest/% cli/wasm/% cli/docs/md_builtin.c,$(wildcard cli/*.c cli/*/*.c)))
LIB_SRCS := $(filter-out cli/main.c,$(SRCS))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
# test_layout holds the catalogue against libbpf's BTF: built only where libbpf-dev is
UNIT_SRCS := $(sort $(filter-out $(if $(shell pkg-config --exists libbpf 2>/dev/null && echo y),,tests/unit/test_layout.c),$(wildcard tests/unit/*.c)))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# Extra flags and libraries for one unit test: TEST_CFLAGS_<name>, TEST_LIBS_<name>.
TEST_CFLAGS_test_layout = $(shell pkg-config --cflags libbpf 2>/dev/null)
TEST_LIBS_test_layout   = $(shell pkg-config --libs libbpf 2>/dev/null)
# cli/headers/header.c compiles against clang-c/Index.h (libclang-dev); libclang is dlopen'ed
CLANG_INCDIR := $(shell llvm-config --includedir 2>/dev/null || llvm-config-14 --includedir 2>/dev/null || echo /usr/lib/llvm-14/include)
$(BUILD)/cli/headers/header.o: XCFLAGS += -I$(CLANG_INCDIR)
# The live and probe children call libc only after fork: with -fno-plt those calls go through
# GOT entries bound at start-up, so no child binds symbols lazily (dynamic-linker lookups and
# a copied GOT page in the child of every call)
$(BUILD)/cli/kernel/sandbox.o $(BUILD)/cli/kernel/invoke.o $(BUILD)/cli/kernel/probe.o: XCFLAGS += -fno-plt

.PHONY: build-deps static kernels measure all build run test check deps install uninstall clean bench difftest difftest-vm bpf-old-vm stracetest fuzz fuzz-build fuzz-bins core-lib lint dist \
	headers-ref layout-ref census

# Fuzzing: libFuzzer targets built with clang (make fuzz FUZZ_SECONDS=N), and a replay
# driver built with the normal compiler that runs the regression corpus in make test.
FUZZ_SRCS    := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_NAMES   := $(FUZZ_SRCS:fuzz/%.c=%)
REPLAY_BINS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_BINS    := $(FUZZ_NAMES:%=build/fuzz/%)
FUZZ_PKGS    := clang libclang-rt-14-dev
VERSION      := 0.1
.DEFAULT_GOAL := all

all: build-deps
	@$(MAKE) --no-print-directory build

# Without cpio there is no guest for 'target vm' (said by build-deps); xsc builds all the same.
GUEST := $(if $(shell command -v cpio 2>/dev/null),$(BUILD)/guest/initramfs.cpio)
build: $(BUILD)/xsc $(BUILD)/libxsc.a $(UNIT_BINS) $(REPLAY_BINS) $(GUEST)

# The agent of 'target vm' guests: xsc's own call runner, linked statically, as /init of a
# small initramfs (cli/guest/init.c); xsc looks for it beside itself. Stripped (-s): the
# kernel unpacks every byte of the initramfs at each boot, and no debugger reaches the guest.
ifeq ($(SANITIZE),1)
# A static program cannot carry the sanitizers' runtimes: a sanitized xsc boots the plain
# build's guest (the host half, which is what the sanitizers watch, is this build's).
.PHONY: guest-plain
guest-plain:
	@$(MAKE) --no-print-directory SANITIZE= BUILD=build build/guest/initramfs.cpio

$(BUILD)/guest/initramfs.cpio: guest-plain
	@mkdir -p $(@D)
	@cmp -s build/guest/initramfs.cpio $@ || cp build/guest/initramfs.cpio $@
else
$(BUILD)/guest/init: cli/guest/init.c $(BUILD)/libxsc-core.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) $(PKG_CFLAGS) $(CFLAGS) -static -s -o $@ $< $(BUILD)/libxsc-core.a -ljansson

$(BUILD)/guest/initramfs.cpio: $(BUILD)/guest/init
	@rm -rf $(BUILD)/guest/root && mkdir -p $(BUILD)/guest/root/proc $(BUILD)/guest/root/sys $(BUILD)/guest/root/dev $(BUILD)/guest/root/tmp
	@cp $< $(BUILD)/guest/root/init
	@cd $(BUILD)/guest/root && find . | LC_ALL=C sort | cpio --quiet -o -H newc --reproducible -R 0:0 >../initramfs.cpio.tmp
	@mv $(BUILD)/guest/initramfs.cpio.tmp $@
endif

$(BUILD)/xsc: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# make static: one self-contained binary, build/xsc-static, for machines without a data
# directory (a teacher copies one file to a room's machines): linked statically, carrying the
# catalogue, the site's templates, the guide and lesson pages and the VM guest's initramfs in
# a ustar archive (cli/base/embed.c unpacks it into a scratch directory on first use).
# cmark-gfm is linked in (cli/docs/md_builtin.c), so doc, lessons and site render anywhere;
# libcurl and libclang stay dlopen'ed: where a machine has them, import, lint and diff work;
# elsewhere those commands say what is missing.
EMBED_FILES := $(sort $(wildcard data/*.json data/*/*.json docs/guide/*.md docs/lessons/*.md \
			docs/lessons/solutions/*.xsc)) site/template.html site/xsc.css site/xsc.js site/console.js
static: $(BUILD)/xsc-static

$(BUILD)/static/embed.tar: $(EMBED_FILES) $(GUEST)
	@rm -rf $(BUILD)/static/tree && mkdir -p $(BUILD)/static/tree/guest
	$(if $(GUEST),cp $(GUEST) $(BUILD)/static/tree/guest/)
	tar -c --format=ustar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -f $@.tmp \
		$(EMBED_FILES) -C $(BUILD)/static/tree $(if $(GUEST),guest/initramfs.cpio)
	@mv $@.tmp $@

$(BUILD)/static/blob.o: $(BUILD)/static/embed.tar
	printf '__asm__(".section .rodata\\n.balign 16\\n.globl xsc_embedded_tar\\nxsc_embedded_tar:\\n.incbin \\"%s\\"\\n.globl xsc_embedded_tar_end\\nxsc_embedded_tar_end:\\n.previous\\n");\n' \
		'$(abspath $<)' >$(BUILD)/static/blob.c
	$(CC) -c -o $@ $(BUILD)/static/blob.c

ifeq ($(SANITIZE),1)
# As the guest's /init: -static cannot carry the sanitizers' runtimes, so a sanitized build's
# suite tests the plain build's static binary.
.PHONY: static-plain
static-plain:
	@$(MAKE) --no-print-directory SANITIZE= BUILD=build build/xsc-static

$(BUILD)/xsc-static: static-plain
	@mkdir -p $(@D)
	@cmp -s build/xsc-static $@ || cp build/xsc-static $@
else
$(BUILD)/xsc-static: $(OBJS) $(BUILD)/static/blob.o $(BUILD)/cli/docs/md_builtin.o
	$(CC) $(LDFLAGS) -static -o $@ $^ $(shell pkg-config --static --libs $(PKGS) 2>/dev/null) \
		-lcmark-gfm-extensions -lcmark-gfm
endif

$(BUILD)/libxsc-core.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The C API (<xsc/sys_features.h> in cli/kernel/include) and what it stands on; link with -ljansson.
API_OBJS := $(filter $(BUILD)/cli/base/% $(BUILD)/cli/model/% $(BUILD)/cli/kernel/%,$(LIB_OBJS))
$(BUILD)/libxsc.a: $(API_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) $(PKG_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c tests/unit/tap.h $(BUILD)/libxsc-core.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) -Itests/unit $(PKG_CFLAGS) $(TEST_CFLAGS_$*) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libxsc-core.a $(PKG_LIBS) $(TEST_LIBS_$*)

$(BUILD)/fuzz/replay_%: fuzz/%.c fuzz/replay.c $(BUILD)/libxsc-core.a
	@mkdir -p $(@D)
	$(CC) $(XCFLAGS) $(PKG_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ fuzz/$*.c fuzz/replay.c $(BUILD)/libxsc-core.a $(PKG_LIBS)

# make fuzz FUZZ_SECONDS=N [FUZZ_JOBS=N] [FUZZ_NAMES=...] [FUZZ_OPTS=...]: fails when a target
# finds anything (fuzz/run.sh sets each target's options)
fuzz: fuzz-build
	@sh fuzz/run.sh -s $(FUZZ_SECONDS) -j $(FUZZ_JOBS) $(FUZZ_NAMES)

# The libFuzzer targets, built with clang; make test builds them and runs them briefly.
fuzz-build: deps
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(FUZZ_PKGS)"
	@$(MAKE) --no-print-directory BUILD=build/fuzzlib CC=clang SANITIZE= \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fsanitize-coverage-ignorelist=fuzz/coverage-ignore.txt \
			-DXSC_CLANG_OWN_NAMESPACE" \
		core-lib
	@$(MAKE) --no-print-directory fuzz-bins

# (a recipe of their own keeps make quiet when they are up to date)
core-lib: $(BUILD)/libxsc-core.a
	@:
fuzz-bins: $(FUZZ_BINS)
	@:

build/fuzz/%: fuzz/%.c build/fuzzlib/libxsc-core.a
	@mkdir -p $(@D)
	clang $(XCFLAGS) $(PKG_CFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -o $@ fuzz/$*.c build/fuzzlib/libxsc-core.a $(PKG_LIBS)

# Installs what is missing; does nothing when everything is present.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "make deps: installing$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
		else \
			echo "make deps: missing packages; run as root:"; \
			echo "  apt-get update && apt-get install -y$$missing"; exit 1; \
		fi; \
	fi

# What plain 'make' needs: the build's packages (installed when root, else named with the
# apt-get line that installs them); the optional ones are only named. Without dpkg, the
# libraries are looked for with pkg-config and the headers with the compiler, and what is
# missing is said in words (package names differ between distributions).
build-deps:
	@if command -v dpkg-query >/dev/null 2>&1; then \
		missing=""; optional=""; \
		for p in $(BUILD_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
		for p in $(OPT_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || optional="$$optional $$p"; done; \
		if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
			$(MAKE) --no-print-directory deps; \
		elif [ -n "$$missing" ]; then \
			echo "make: xsc cannot build without these packages; as root:"; \
			echo "  apt-get update && apt-get install -y$$missing"; exit 1; \
		elif [ -n "$$optional" ]; then \
			echo "make: building; optional, for the tests, 'target vm', the site and the handout:$$optional"; \
			echo "  (make deps, as root, installs them)"; \
		fi; \
	else \
		miss=""; \
		command -v $(CC) >/dev/null 2>&1 || miss="$$miss\n  a C11 compiler ($(CC))"; \
		command -v pkg-config >/dev/null 2>&1 || miss="$$miss\n  pkg-config"; \
		for l in $(PKGS); do pkg-config --exists $$l 2>/dev/null || miss="$$miss\n  the $$l library and its development files"; done; \
		for h in curl/curl.h cmark-gfm.h; do \
			printf '#include <%s>\n' $$h | $(CC) -E -x c - >/dev/null 2>&1 || miss="$$miss\n  the header <$$h> (the development files of libcurl or cmark-gfm)"; done; \
		[ -f "$(CLANG_INCDIR)/clang-c/Index.h" ] || miss="$$miss\n  the header <clang-c/Index.h> (libclang's development files; llvm-config says where)"; \
		if [ -n "$$miss" ]; then \
			printf "make: this system has no dpkg, and xsc needs:$$miss\nInstall them with the system's package manager (names differ between distributions), then run make again.\n"; exit 1; \
		fi; \
	fi

run: all
	$(BUILD)/xsc --data data

test: all fuzz-build
	@$(MAKE) --no-print-directory static
	@rm -f $(BUILD)/wasm-failed.log; $(MAKE) --no-print-directory -s wasm-module >$(BUILD)/wasm.log 2>&1 || \
		{ mv $(BUILD)/wasm.log $(BUILD)/wasm-failed.log; rm -f $(WASM)/xsc.wasm; echo "make test: the WebAssembly build failed ($(BUILD)/wasm-failed.log); wasm-same.sh fails"; }
	@$(BUILD)/xsc --data data kernels fetch >/dev/null || echo "make test: the kernel images could not be fetched; the VM tests will say so"
	@rm -f $(BUILD)/headers-ref-failed.log; $(MAKE) --no-print-directory -s headers-ref >$(BUILD)/headers-ref.log 2>&1 || \
		{ mv $(BUILD)/headers-ref.log $(BUILD)/headers-ref-failed.log; echo "make test: the uapi headers could not be installed ($(BUILD)/headers-ref-failed.log); layout-ref skips"; }
	@BUILD=$(BUILD) sh tests/run.sh

# The real kernels 'target vm' boots, into xsc's cache (what is present is kept).
kernels: all
	$(BUILD)/xsc --data data kernels fetch

# Every catalogue interface's matrix rows in every fetched real kernel, guests two at a time
# (the last line gives the calls, the time and the answers that differ from the simulator),
# one report per interface in data/measured/, then the reference that shows them.
measure: all
	$(BUILD)/xsc --data data measure --vm --dir data/measured --force
	@$(MAKE) --no-print-directory docs

# The suite under AddressSanitizer + UBSan, then valgrind over a session using every command.
check:
	@$(MAKE) --no-print-directory test SANITIZE=1
	@$(MAKE) --no-print-directory build
	@sh tests/valgrind.sh $(BUILD)/xsc

lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --inline-suppr --std=c11 \
		-D_GNU_SOURCE -Icli --suppress=missingIncludeSystem cli fuzz
	clang-tidy --quiet --checks='-*,clang-analyzer-*,-clang-analyzer-security.insecureAPI.*' \
		$(SRCS) -- $(filter-out -MMD -MP,$(XCFLAGS)) -I$(CLANG_INCDIR) $(PKG_CFLAGS) 2>/dev/null | grep -E 'warning:|error:' && exit 1 || true

dist:
	@mkdir -p build
	git archive --prefix=xsc-$(VERSION)/ -o build/xsc-$(VERSION).tar.gz HEAD
	@echo build/xsc-$(VERSION).tar.gz

bench: all
	@BUILD=$(BUILD) sh bench/run.sh

# The differential tester (tests/difftest.py): CASES random calls, each live (sandboxed) and
# simulated at the running kernel's version; the last line gives the agreement.
CASES ?= 3000
SEED  ?= 1
difftest: all
	@NO_COLOR=1 LC_ALL=C python3 tests/difftest.py --xsc $(BUILD)/xsc --data data --cases $(CASES) --seed $(SEED)

# The same against real kernels: the live calls run in a guest of each version (target vm V)
# and the simulator at that image's full version (6.1.192); one guest per version, in turn.
VM_KERNELS ?= 5.10 6.1 6.12 6.18 7.3
VM_CASES   ?= 1000
difftest-vm: all
	@for v in $(VM_KERNELS); do NO_COLOR=1 LC_ALL=C python3 tests/difftest.py --xsc $(BUILD)/xsc --data data \
		--cases $(VM_CASES) --seed $(SEED) --vm $$v || exit 1; done

# bpf's union size check (E2BIG) and CHECK_ATTR boundaries (EINVAL) before 5.10 in real older
# kernels: Ubuntu's generic images (downloaded once into xsc's cache, checked by SHA256) boot
# under qemu with a static /init (tests/oldkernels/bpf-guest.c) against 'target sim' at each.
bpf-old-vm: all
	@d=$$(mktemp -d) && top=$(CURDIR) XSC=$$(cd $(BUILD) && pwd)/xsc NO_COLOR=1 LC_ALL=C; export top XSC NO_COLOR LC_ALL; \
		(cd $$d && sh $(CURDIR)/tests/oldkernels/bpf-union.sh); rc=$$?; rm -rf $$d; exit $$rc

# xsc's call lines against the installed strace's (tests/stracetest.py): the same generator's
# CASES random calls run live under strace -f -e trace=NAME, default and -v; the identical
# share among the lines strace decodes fully, per interface, and each mismatch minimised.
stracetest: all
	@NO_COLOR=1 LC_ALL=C python3 tests/stracetest.py --xsc $(BUILD)/xsc --data data --cases $(CASES) --seed $(SEED)

# The uapi headers of 6.1, 6.12 and the two newest Debian releases, installed from Debian's
# linux-source packages once per machine ($XDG_CACHE_HOME/xsc/headers/V, about 40 MB in all) and
# imported per catalogue header into build/headers-ref/V; needs the network once (a private apt
# state, never the system's configuration). KSRC_DIR names extracted trees to use instead;
# HEADERS_REF_VERSIONS picks versions. make test runs it first (measured: 2.5-4 min the first time
# on this 2-core machine, 14 s with the cache) and tests/sh/layout-ref.sh holds the catalogue
# against them; make layout-ref alone does the same.
HEADERS_REF ?= $(BUILD)/headers-ref
headers-ref: all
	@sh tests/layout/headers-ref.sh $(BUILD)/xsc $(HEADERS_REF) $(HEADERS_REF_VERSIONS)

layout-ref: all
	@python3 tests/layout/compare.py data $(HEADERS_REF)

# The census (tests/census/census.py): Debian's linux-source trees under build/census (or
# KSRC_DIR's), every site of data/census/census.json held to them; fails on a site unlisted,
# misdescribed or unaccounted. CENSUS_OPTS=--update rewrites the scanned half of the list.
CENSUS_OUT ?= $(BUILD)/census
census: all
	@sh tests/census/trees.sh data $(CENSUS_OUT) $(CENSUS_OPTS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/data $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/xsc
	install -m 755 $(BUILD)/xsc $(DESTDIR)$(BINDIR)/xsc
	install -m 644 data/*.json $(DESTDIR)$(DATADIR)/data/
	install -d $(DESTDIR)$(DATADIR)/data/kernels
	install -m 644 data/kernels/*.json $(DESTDIR)$(DATADIR)/data/kernels/
	install -d $(DESTDIR)$(DATADIR)/data/measured
	install -m 644 data/measured/*.json $(DESTDIR)$(DATADIR)/data/measured/
	install -m 644 $(BUILD)/libxsc.a $(DESTDIR)$(LIBDIR)/libxsc.a
	install -d $(DESTDIR)$(LIBDIR)/xsc
	install -m 644 $(BUILD)/guest/initramfs.cpio $(DESTDIR)$(LIBDIR)/xsc/initramfs.cpio
	install -m 644 cli/kernel/include/xsc/sys_features.h $(DESTDIR)$(INCDIR)/xsc/sys_features.h
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DATADIR)/site $(DESTDIR)$(DATADIR)/docs/guide
	install -m 644 $(BUILD)/xsc.1 $(DESTDIR)$(MANDIR)/man1/xsc.1
	install -m 644 $(BUILD)/xsc.bash $(DESTDIR)$(BASHCOMPDIR)/xsc
	install -m 644 site/template.html site/xsc.css site/xsc.js site/console.js $(DESTDIR)$(DATADIR)/site/
	install -m 644 docs/guide/*.md $(DESTDIR)$(DATADIR)/docs/guide/
	install -d $(DESTDIR)$(DATADIR)/docs/lessons/solutions
	install -m 644 docs/lessons/*.md $(DESTDIR)$(DATADIR)/docs/lessons/
	install -m 644 docs/lessons/solutions/*.xsc $(DESTDIR)$(DATADIR)/docs/lessons/solutions/
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig
	printf 'prefix=%s\nlibdir=%s\nincludedir=%s\n\nName: xsc\nDescription: userspace sys_features: what the running kernel supports\nVersion: %s\nRequires.private: jansson\nLibs: -L$${libdir} -lxsc -ljansson\nCflags: -I$${includedir}\n' \
		'$(PREFIX)' '$(LIBDIR)' '$(INCDIR)' '$(VERSION)' >$(DESTDIR)$(LIBDIR)/pkgconfig/xsc.pc

uninstall:
	rm -rf $(DESTDIR)$(LIBDIR)/xsc
	rm -f $(DESTDIR)$(BINDIR)/xsc $(DESTDIR)$(LIBDIR)/libxsc.a $(DESTDIR)$(LIBDIR)/pkgconfig/xsc.pc
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(INCDIR)/xsc
	rm -f $(DESTDIR)$(MANDIR)/man1/xsc.1 $(DESTDIR)$(BASHCOMPDIR)/xsc

# Documentation (issue 6): the reference in docs/reference, the site, the man page, completion.
MANDIR      = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
.PHONY: docs site man
install: $(BUILD)/xsc.1 $(BUILD)/xsc.bash

docs: all
	$(BUILD)/xsc --data data docs -o docs/reference

site: all
	@$(MAKE) --no-print-directory -s wasm-module >/dev/null 2>&1 || echo "make site: no console in the site (make wasm says why)"
	$(BUILD)/xsc --data data site -o build/site
	@if [ -f $(WASM)/xsc-bundle.js ]; then cp $(WASM)/xsc-bundle.js $(WASM)/xsc.wasm build/site/assets/; fi

man: $(BUILD)/xsc.1 $(BUILD)/xsc.bash

$(BUILD)/xsc.1 $(BUILD)/xsc.bash: $(BUILD)/xsc $(wildcard data/*.json)
	$(BUILD)/xsc --data data docs --force --man $(BUILD)/xsc.1 --completion $(BUILD)/xsc.bash

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(UNIT_BINS:=.d) $(REPLAY_BINS:=.d) $(FUZZ_BINS:=.d)

# make wasm-deps  the WebAssembly toolchain: clang 14's wasm32 target, lld, wasi-libc, the
#                 wasm32 compiler runtime (apt-get, as root); node runs the result
# make wasm       build/wasm/xsc.wasm and xsc-bundle.js (make site copies both into the site):
#                 base, model, sim, session and the commands for wasm32-wasi (issue 29), with jansson built from Debian's source package (the
#                 catalogue's own parser, not a second one); then one simulated script under node.
# The kernel layer's live calls, VMs and probes, the uapi header reader, the REPL, the site and
# demo are left out (they need processes, a kernel or libraries WASI lacks): cli/wasm/wasi.js
# makes a call into any of them an error saying it needs the native program. The module is a
# WASI reactor: the site's console calls cli/wasm/console.c's exports on one session, and
# cli/wasm/loader.mjs calls its exported main with a script, through the same JavaScript WASI
# (tests/sh/wasm-same.sh: every simulated golden transcript, byte for byte).
WASM       := build/wasm
WASM_CC    := clang-14
WASM_LEAVE := cli/guest/% cli/repl.c cli/base/sig.c cli/base/proc.c cli/base/landlock.c \
	      cli/kernel/btf.c cli/kernel/measure.c cli/kernel/probe.c cli/kernel/sandbox.c \
	      cli/kernel/vm.c cli/kernel/vmagent.c cli/headers/fetch.c \
	      cli/headers/hchild.c cli/headers/header.c cli/headers/hcatalog.c cli/headers/hmacro.c cli/headers/hinclude.c \
	      cli/base/dynlib.c cli/docs/md.c cli/docs/site.c cli/docs/sitepage.c cli/docs/mdhtml.c \
	      cli/docs/termdoc.c cli/docs/sitedir.c cli/teach/demo.c
WASM_SRCS  := $(filter-out $(WASM_LEAVE),$(SRCS)) cli/wasm/absent.c cli/wasm/console.c cli/wasm/errno.c cli/wasm/native.c cli/wasm/demos.c
WASM_OBJS  := $(WASM_SRCS:%.c=$(WASM)/%.o)
JANSSON    := $(WASM)/jansson-2.14/src
JANSSON_OBJS := $(addprefix $(JANSSON)/,dump.o error.o hashtable.o hashtable_seed.o load.o memory.o \
		pack_unpack.o strbuffer.o strconv.o utf.o value.o version.o)
# A sysroot of wasi-libc alone (clang with --sysroot=/usr would also search glibc's
# /usr/include), and the uapi's arch-independent headers after it for linux/*.h
WASM_FLAGS := --target=wasm32-wasi --sysroot=$(WASM)/sysroot -O2 -D_WASI_EMULATED_SIGNAL \
	      -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_GETPID -idirafter $(WASM)/uapi
WASM_LIBS  := -lwasi-emulated-signal -lwasi-emulated-process-clocks -lwasi-emulated-mman -lwasi-emulated-getpid
.PHONY: wasm wasm-deps wasm-module
.SECONDARY: $(JANSSON_OBJS:.o=.c)
# The live-call table (kernel/systable.c) is x86_64's and aarch64's: on wasm32 it is empty, so
# every call is simulated and its guards go unused; invoke.c's rseq release is unreachable
$(WASM)/cli/kernel/systable.o: WASM_QUIET = -Wno-unused-const-variable
$(WASM)/cli/kernel/invoke.o: WASM_QUIET = -Wno-null-pointer-arithmetic

wasm-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(WASM_PKGS)"

# the module alone (make test builds it: incremental, its objects under build/wasm)
wasm-module: $(WASM)/xsc.wasm $(WASM)/xsc-bundle.js
	@:

# the console's one script (cli/wasm/bundle.mjs): the JavaScript WASI, the module, the catalogue
# and the lessons; make site copies it into the site's assets (a later build carries it over)
$(WASM)/xsc-bundle.js: $(WASM)/xsc.wasm cli/wasm/bundle.mjs cli/wasm/wasi.js \
		$(wildcard data/*.json data/*/*.json docs/lessons/*.md docs/lessons/solutions/*.xsc)
	node cli/wasm/bundle.mjs $@ $< .

wasm: $(WASM)/xsc.wasm $(WASM)/xsc-bundle.js
	cd tests/cli && { XSC_WASM=$(CURDIR)/$< node ../../cli/wasm/loader.mjs --data /top/data \
		0123-sim-before-size.xsc; echo "exit $$?"; } 2>&1 </dev/null | cmp - 0123-sim-before-size.out
	@echo "make wasm: $< ($$(gzip -9c $< | wc -c) bytes gzipped) answers tests/cli/0123-sim-before-size as native xsc does"

$(WASM)/sysroot/.made:
	@mkdir -p $(WASM)/sysroot/lib $(WASM)/uapi
	ln -sfn /usr/include/wasm32-wasi $(WASM)/sysroot/include
	ln -sfn /usr/lib/wasm32-wasi $(WASM)/sysroot/lib/wasm32-wasi
	ln -sfn /usr/include/linux $(WASM)/uapi/linux
	ln -sfn /usr/include/asm-generic $(WASM)/uapi/asm-generic
	ln -sfn /usr/include/$$(gcc -print-multiarch)/asm $(WASM)/uapi/asm
	{ sed -n 's/^#define[ \t]\{1,\}\(E[A-Z0-9]*\)[ \t].*/#undef \1/p' /usr/include/asm-generic/errno-base.h \
		/usr/include/asm-generic/errno.h; } >$(WASM)/uapi/errno-undef.h
	sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/#define SYS_\1 __NR_\1/p' \
		/usr/include/$$(gcc -print-multiarch)/asm/unistd_64.h >$(WASM)/uapi/sys-names.h
	printf '#include <stdio.h>\n#include <string.h>\nint main(void){for(int e=0;e<134;e++)printf("\\"%%s\\",\\n",strerror(e));return 0;}\n' \
		>$(WASM)/strerror-gen.c
	$(CC) -o $(WASM)/strerror-gen $(WASM)/strerror-gen.c && $(WASM)/strerror-gen >$(WASM)/uapi/linux-strerror.h
	@touch $@

# jansson 2.14, Debian's source package (bookworm), fetched with a deb-src list of our own so
# the system's apt sources stay as they are; its two configure-made headers written here
$(JANSSON)/jansson_config.h:
	@mkdir -p $(WASM)/apt/lists/partial $(WASM)/src
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >$(WASM)/apt/src.sources
	apt-get -qq -o Dir::Etc::SourceList=$(CURDIR)/$(WASM)/apt/src.sources -o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists=$(CURDIR)/$(WASM)/apt/lists update
	cd $(WASM)/src && apt-get -qq -o Dir::Etc::SourceList=$(CURDIR)/$(WASM)/apt/src.sources \
		-o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists=$(CURDIR)/$(WASM)/apt/lists \
		source --download-only jansson=2.14-2
	tar -xzf $(WASM)/src/jansson_2.14.orig.tar.gz -C $(WASM)
	sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' -e 's/@json_have_localeconv@/1/' \
		-e 's/@json_have_atomic_builtins@/1/' -e 's/@json_have_sync_builtins@/1/' \
		$(JANSSON)/jansson_config.h.in >$@.tmp
	printf '#define HAVE_STDINT_H 1\n#define HAVE_UNISTD_H 1\n#define HAVE_SYS_TYPES_H 1\n' >$(JANSSON)/jansson_private_config.h
	@mv $@.tmp $@

$(JANSSON)/%.c: $(JANSSON)/jansson_config.h
	@test -f $@

$(JANSSON)/%.o: $(JANSSON)/%.c $(JANSSON)/jansson_config.h $(WASM)/sysroot/.made
	$(WASM_CC) $(WASM_FLAGS) -DHAVE_CONFIG_H -I$(JANSSON) -c -o $@ $<

$(WASM)/%.o: %.c cli/wasm/compat.h $(wildcard cli/wasm/include/sys/*.h) $(JANSSON)/jansson_config.h $(WASM)/sysroot/.made
	@mkdir -p $(@D)
	$(WASM_CC) $(WASM_FLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -MMD -MP \
		-Icli/wasm/include -I$(WASM)/uapi -include cli/wasm/compat.h -Icli -I$(JANSSON) -DXSC_VERSION='"$(VERSION)"' $(WASM_QUIET) -c -o $@ $<

-include $(WASM_OBJS:.o=.d)

$(WASM)/xsc.wasm: $(WASM_OBJS) $(JANSSON_OBJS)
	@mkdir -p $(@D)
	$(WASM_CC) $(WASM_FLAGS) -mexec-model=reactor -o $@ $^ $(WASM_LIBS) -Wl,--allow-undefined -Wl,--strip-debug \
		-Wl,--stack-first -Wl,-z,stack-size=8388608 -Wl,--export=__main_argc_argv
