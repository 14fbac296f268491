# xsc — the extensible-syscall explorer.
#   make            build build/xsc            make run     set up, build, start the REPL
#   make test       set up, build, run the suite (ends with "N passed, N failed")
#   make deps       install missing Debian packages (apt-get, as root)
#   make install / uninstall (PREFIX, DESTDIR)    make clean    make bench
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
# Debian packages the build and the tests need (pkg-config names above come from these).
DEB_PKGS := gcc make pkg-config libreadline-dev libjansson-dev tmux libbpf-dev

ifeq ($(SANITIZE),1)
BUILD   ?= build/asan
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
BUILD   ?= build
endif

XCFLAGS  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -Icli -MMD -MP \
           -DXSC_DATADIR='"$(DATADIR)/data"'
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

SRCS     := $(sort $(wildcard cli/*.c cli/*/*.c))
LIB_SRCS := $(filter-out cli/main.c,$(SRCS))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# Extra flags and libraries for one unit test: TEST_CFLAGS_<name>, TEST_LIBS_<name>.
TEST_CFLAGS_test_layout = $(shell pkg-config --cflags libbpf 2>/dev/null)
TEST_LIBS_test_layout   = $(shell pkg-config --libs libbpf 2>/dev/null)

.PHONY: all build run test check deps install uninstall clean bench
.DEFAULT_GOAL := all

all: deps
	@$(MAKE) --no-print-directory build

build: $(BUILD)/xsc $(BUILD)/libxsc.a $(UNIT_BINS)

$(BUILD)/xsc: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/libxsc-core.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The C API (kernel/sys_features.h) and what it stands on; link with -ljansson.
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

run: all
	$(BUILD)/xsc --data data

test: all
	@BUILD=$(BUILD) sh tests/run.sh

check:
	@$(MAKE) --no-print-directory test SANITIZE=1

bench: all
	@BUILD=$(BUILD) sh bench/run.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/data $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/xsc
	install -m 755 $(BUILD)/xsc $(DESTDIR)$(BINDIR)/xsc
	install -m 644 data/*.json $(DESTDIR)$(DATADIR)/data/
	install -m 644 $(BUILD)/libxsc.a $(DESTDIR)$(LIBDIR)/libxsc.a
	install -m 644 cli/kernel/sys_features.h $(DESTDIR)$(INCDIR)/xsc/sys_features.h

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/xsc $(DESTDIR)$(LIBDIR)/libxsc.a
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(INCDIR)/xsc

clean:
	rm -rf build

-include $(OBJS:.o=.d) $(UNIT_BINS:=.d)
