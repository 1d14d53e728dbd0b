# dumpanalyze — build, test, install.  No generated configuration: the
# dependencies are Debian packages found with pkg-config.
#
# The tree is the pipeline (ARCHITECTURE.md): src/<stage>/ holds a stage's
# sources and private headers; include/dumpanalyze.h is the only public
# header.  libdumpanalyze is the stages up to the model, its answers and
# findings (with the profile and source readers they need);
# the views, pictures, output directory and CLI are the tool, its first
# client.  Objects go to build/, sources are found by folder.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
MANDIR  ?= $(PREFIX)/share/man
PCDIR   ?= $(LIBDIR)/pkgconfig
CC      ?= cc
# The version and the library's ABI (the soname's number, raised on every
# incompatible change of include/dumpanalyze.h) are also the header's
# DA_VERSION_* and DA_ABI: src/lib/api.c does not build when they differ.
VERSION  = 0.4.0
ABI      = 2
VERSION_NUM = $(shell echo $(VERSION) | awk -F. '{ printf "0x%02x%02x%02x", $$1, $$2, $$3 }')
SONAME   = libdumpanalyze.so.$(ABI)

CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
THREADS  = -pthread
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -DDA_MAKE_VERSION_NUM=$(VERSION_NUM) -DDA_MAKE_ABI=$(ABI) \
	    -Iinclude -Isrc -Ibuild/gen
# Only da_ names leave the shared library (DA_API in dumpanalyze.h).
VIS      = -fvisibility=hidden
DEPFLAGS = -MMD -MP
LIB_PKGS  = zlib liblzma libzstd
TOOL_PKGS = cairo fontconfig libdeflate jansson
LIB_CFLAGS  := $(shell pkg-config --cflags $(LIB_PKGS) 2>/dev/null)
LIB_LIBS    := $(shell pkg-config --libs $(LIB_PKGS) 2>/dev/null)
TOOL_CFLAGS := $(shell pkg-config --cflags $(TOOL_PKGS) 2>/dev/null)
TOOL_LIBS   := $(shell pkg-config --libs $(TOOL_PKGS) 2>/dev/null) -lcsv -lm
COMPILE = $(CC) $(WARN) $(VIS) $(DEPFLAGS) $(THREADS) $(CPPFLAGS) $(LIB_CFLAGS) $(TOOL_CFLAGS) $(CFLAGS)

# The stages, in pipeline order.  LIB_DIRS make libdumpanalyze.
LIB_DIRS  = util luajit input parse model analysis profile source findings lib
TOOL_DIRS = output outdir draw views views/html compare cli
LIB_SRCS  := $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))
TOOL_SRCS := $(filter-out src/cli/main.c,$(foreach d,$(TOOL_DIRS),$(wildcard src/$(d)/*.c)))
LIB_OBJS  = $(LIB_SRCS:src/%.c=build/%.o)
PIC_OBJS  = $(LIB_SRCS:src/%.c=build/pic/%.o)
TOOL_OBJS = $(TOOL_SRCS:src/%.c=build/%.o)
UNIT_TESTS = $(patsubst tests/unit/%.c,tests/unit/%,$(wildcard tests/unit/test_*.c))
GEN_HDRS  = build/gen/html_assets.h build/gen/cli_help.h
# The pages every option and view is documented by (docs/README.md).
DOC_PAGES = $(wildcard docs/options/*.md docs/options/record/*.md docs/views/*.md) \
  docs/exit-status.md docs/usage.md docs/record-usage.md

all: dumpanalyze libdumpanalyze.so libdumpanalyze.a

# findings.sarif's tool.driver.informationUri: where a reader learns about
# the tool.  The installed man page unless a packager names a web page.
URL ?= file://$(MANDIR)/man1/dumpanalyze.1
build/views/sarif.o: CPPFLAGS += -DDA_URL='"$(URL)"'

# V=1 shows the commands.
Q = $(if $(V),,@)

build/%.o: src/%.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(COMPILE) -c -o $@ $<

build/pic/%.o: src/%.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(COMPILE) -fPIC -c -o $@ $<

# The HTML report's CSS and JavaScript, compiled in.
build/gen/html_assets.h: src/views/html/report.css src/views/html/report.js \
		src/views/html/bushes.js scripts/embed.sh
	@mkdir -p $(@D)
	{ sh scripts/embed.sh html_css src/views/html/report.css && \
	  sh scripts/embed.sh html_js src/views/html/report.js && \
	  sh scripts/embed.sh html_bushes_js src/views/html/bushes.js; } > $@.tmp && mv $@.tmp $@

# --help's text and --views list's lines, made from the pages of docs/
# (the C tables give the order and are checked against the pages).
build/gen/cli_help.h: $(DOC_PAGES) scripts/docgen.sh src/cli/options.c src/cli/record_options.c \
  src/views/view.c
	@mkdir -p $(@D)
	sh scripts/docgen.sh help-c > $@.tmp && mv $@.tmp $@

# Every object, unlocalised: what the tool and the unit tests link.
build/libda-all.a: $(LIB_OBJS) $(TOOL_OBJS)
	rm -f $@ && ar rcs $@ $^

dumpanalyze: build/cli/main.o build/libda-all.a
	$(CC) $(THREADS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LIBS) $(LIB_LIBS)

libdumpanalyze.so: $(PIC_OBJS)
	$(CC) -shared $(THREADS) $(CFLAGS) $(LDFLAGS) -Wl,-soname,$(SONAME) -Wl,--no-undefined \
	  -o $@ $^ $(LIB_LIBS)

# One relocatable object whose hidden symbols are made local, so that a
# static user sees only da_ names too (no clash with their xrealloc).
libdumpanalyze.a: $(LIB_OBJS)
	$(LD) -r -o build/libdumpanalyze.o $^
	objcopy --localize-hidden build/libdumpanalyze.o
	rm -f $@ && ar rcs $@ build/libdumpanalyze.o

# pkg-config's file, written for the PREFIX of the install.
PC_TEXT = 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCDIR)' '' \
	  'Name: dumpanalyze' 'Description: read LuaJIT -jdump output: traces, bushes, aborts, exits' \
	  'Version: $(VERSION)' 'Requires.private: $(LIB_PKGS)' \
	  'Libs: -L$${libdir} -ldumpanalyze' 'Libs.private: -pthread' \
	  'Cflags: -I$${includedir}'

tests/unit/test_%: tests/unit/test_%.c $(wildcard tests/unit/*.h) build/libda-all.a
	$(CC) $(WARN) -Wno-missing-prototypes $(THREADS) $(CPPFLAGS) $(LIB_CFLAGS) $(TOOL_CFLAGS) $(CFLAGS) \
	  -o $@ $< build/libda-all.a $(TOOL_LIBS) $(LIB_LIBS) -lcmocka -lm

# The tool with the tests' file system operations (tests/faults/): it
# fails or kills itself at the N-th operation DA_FAULT names.  Built for
# the tests only, never installed: the hook is not in dumpanalyze.
FAULTS_CFLAGS = -DDA_TEST_FAULTS -Itests
build/cli/main-faults.o: src/cli/main.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(FAULTS_CFLAGS) -c -o $@ $<
build/faults/fs_fault.o: tests/faults/fs_fault.c tests/faults/fs_fault.h
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(FAULTS_CFLAGS) -c -o $@ $<
build/dumpanalyze-faults: build/cli/main-faults.o build/faults/fs_fault.o build/libda-all.a
	$(CC) $(THREADS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LIBS) $(LIB_LIBS)

# The README's test command: what the tests need installed first (the
# unit tests do not build without cmocka), then the build, the unit tests,
# the installed library's examples, the end-to-end tests on real dumps.
# The build is a second make, whose pkg-config runs after the install.
check:
	@sh scripts/install-deps.sh test
	@$(MAKE) --no-print-directory all $(UNIT_TESTS) build/dumpanalyze-faults
	@sh tests/check.sh $(UNIT_TESTS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer, in a
# separate build tree so the normal objects stay untouched.
check-asan:
	rm -rf build-asan && mkdir -p build-asan
	cp -r Makefile README.md docs src include tests samples man scripts build-asan/
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) -C build-asan check \
	  CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DDA_ARENA_POISON -DDA_ALLOC_MOVE' \
	  LDFLAGS='-fsanitize=address,undefined'

# The threads (input reading ahead, the output directory writing behind)
# under ThreadSanitizer, in a build tree of their own.
check-tsan:
	@sh scripts/install-deps.sh test
	rm -rf build-tsan && mkdir -p build-tsan
	cp -r Makefile docs src include tests samples scripts build-tsan/
	$(MAKE) -C build-tsan dumpanalyze tests/unit/test_input tests/unit/test_outdir \
	  tests/unit/test_forkguard tests/unit/test_bgthread tests/unit/test_api \
	  CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS='-fsanitize=thread'
	sh build-tsan/tests/tsan.sh build-tsan/dumpanalyze build-tsan/tests/unit/test_input \
	  build-tsan/tests/unit/test_outdir build-tsan/tests/unit/test_forkguard \
	  build-tsan/tests/unit/test_bgthread build-tsan/tests/unit/test_api

check-valgrind:
	@sh scripts/install-deps.sh test
	@$(MAKE) --no-print-directory all $(UNIT_TESTS) build/dumpanalyze-faults
	@DA_VALGRIND=1 sh tests/check.sh $(UNIT_TESTS)

# README's Quick start, read from README.md and run as written in a bare
# Debian 12 root (debootstrap minbase) with a clone of this repository's
# HEAD, then dumpanalyze on a sample (tests/quickstart.sh; the root is
# cached outside the clone).
check-fresh:
	@sh scripts/install-deps.sh fresh
	@bash tests/quickstart.sh

# docs/recipes.md's nginx and Tarantool recipes, run as written on Debian
# 12's servers, downloaded from its mirror and unpacked (never installed)
# into /var/cache/dumpanalyze-recipes (tests/recipes.sh).  Not in check.
check-recipes: all
	@sh scripts/install-deps.sh nginx
	@bash tests/recipes.sh

# The whole tree once more with clang, warnings as errors (CI).
check-clang:
	rm -rf build-clang && mkdir -p build-clang
	cp -r Makefile docs src include tests scripts build-clang/
	$(MAKE) -C build-clang CC=clang all

# The fuzz targets: `make fuzz` (FUZZ_SECONDS), `make fuzz-merge`.
include tests/fuzz/fuzz.mk

# The man page's OPTIONS, VIEWS, EXIT STATUS and RECORD OPTIONS, README's
# view table and docs/README.md's tables, rewritten from the pages of
# docs/ (one per option and view); the man page's rules from the
# catalogue (--explain list); tests/cli/docs.sh fails until this is run.
docs: dumpanalyze
	DUMPANALYZE=./dumpanalyze sh scripts/gen-docs.sh

# Benchmark on large real dumps (generated once into bench/data/).
bench: dumpanalyze
	sh bench/run.sh

demo: dumpanalyze
	./dumpanalyze --dump samples/penlight-x.dump --out-dir demo-out
	@echo; echo "demo-out/ now holds:"; ls demo-out | head -8; echo "..."
	@echo; head -5 demo-out/gen-1-traces.csv

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	  $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(PCDIR)
	install -m 755 dumpanalyze $(DESTDIR)$(BINDIR)/dumpanalyze
	install -m 644 man/dumpanalyze.1 $(DESTDIR)$(MANDIR)/man1/dumpanalyze.1
	install -m 644 man/dumpanalyze.3 $(DESTDIR)$(MANDIR)/man3/dumpanalyze.3
	install -m 755 libdumpanalyze.so $(DESTDIR)$(LIBDIR)/$(SONAME).0
	ln -sf $(SONAME).0 $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libdumpanalyze.so
	install -m 644 libdumpanalyze.a $(DESTDIR)$(LIBDIR)/libdumpanalyze.a
	install -m 644 include/dumpanalyze.h $(DESTDIR)$(INCDIR)/dumpanalyze.h
	printf '%s\n' $(PC_TEXT) > $(DESTDIR)$(PCDIR)/dumpanalyze.pc

clean:
	rm -rf build dumpanalyze libdumpanalyze.so libdumpanalyze.a $(UNIT_TESTS)
	rm -rf build-asan build-tsan build-clang build-fuzz demo-out $(FUZZ_BINS)

.PHONY: all check check-asan check-tsan check-valgrind check-fresh check-recipes check-clang fuzz fuzz-merge fuzz-sysprof docs bench demo install clean

-include $(LIB_OBJS:.o=.d) $(PIC_OBJS:.o=.d) $(TOOL_OBJS:.o=.d) build/cli/main.d \
  build/cli/main-faults.d build/faults/fs_fault.d
