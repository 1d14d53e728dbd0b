# dumpanalyze — build, test, install.  No generated configuration: the
# dependencies are Debian packages found with pkg-config.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
CC      ?= cc
VERSION  = 0.1.0

CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
THREADS  = -pthread
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -DDA_VERSION='"$(VERSION)"' -Iinclude
PKG_CFLAGS := $(shell pkg-config --cflags cairo fontconfig libdeflate zlib liblzma libzstd jansson 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs cairo fontconfig libdeflate zlib liblzma libzstd jansson 2>/dev/null) -lcsv -lm

LIB_SRCS = src/forkguard.c src/answers.c src/picture.c src/profile.c src/profile_join.c src/flamegraph.c src/layout.c src/workers.c src/csvin.c src/merge.c src/compare.c src/attempts.c src/decode.c src/jv.c src/arena.c src/intern.c src/tally.c src/diag.c src/input.c \
           src/loc.c src/header.c src/parser.c src/model.c src/outdir.c \
           src/csvout.c src/view.c \
           src/views/traces.c src/views/abort_reasons.c \
           src/views/abort_reasons_txt.c src/views/abort_sites.c \
           src/views/exits.c src/views/blacklist.c src/views/bush_txt.c \
           src/views/bush_png.c src/views/bush_svg.c src/views/jsonl.c src/views/profile.c src/views/flamegraph.c src/views/html.c src/views/summary.c src/bush_draw.c
LIB_OBJS = $(LIB_SRCS:.c=.o)
UNIT_TESTS = $(patsubst tests/unit/%.c,tests/unit/%,$(wildcard tests/unit/test_*.c))

all: dumpanalyze

%.o: %.c $(wildcard include/dumpanalyze/*.h) $(wildcard src/*.def)
	$(CC) $(WARN) $(THREADS) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -c -o $@ $<

# The HTML report's CSS and JavaScript, compiled in.
src/views/html_assets.h: src/views/html/report.css src/views/html/report.js scripts/embed.sh
	{ sh scripts/embed.sh html_css src/views/html/report.css && \
	  sh scripts/embed.sh html_js src/views/html/report.js; } > $@.tmp && mv $@.tmp $@
src/views/html.o: src/views/html_assets.h

libdumpanalyze.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

dumpanalyze: src/main.o libdumpanalyze.a
	$(CC) $(THREADS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

tests/unit/test_%: tests/unit/test_%.c $(wildcard tests/unit/*.h) libdumpanalyze.a
	$(CC) $(WARN) $(THREADS) $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -o $@ $< libdumpanalyze.a $(PKG_LIBS) -lcmocka -lm

# The README's test command: unit tests, then end-to-end tests on real dumps.
check: dumpanalyze $(UNIT_TESTS)
	@sh tests/check.sh $(UNIT_TESTS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer, in a
# separate build tree so the normal objects stay untouched.
check-asan:
	rm -rf build-asan && mkdir -p build-asan
	cp -r Makefile README.md src include tests samples man scripts build-asan/
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) -C build-asan check \
	  CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DDA_ARENA_POISON' \
	  LDFLAGS='-fsanitize=address,undefined'

# The threads (input reading ahead, the output directory writing behind)
# under ThreadSanitizer, in a build tree of their own.
check-tsan:
	rm -rf build-tsan && mkdir -p build-tsan
	cp -r Makefile src include tests samples scripts build-tsan/
	$(MAKE) -C build-tsan dumpanalyze tests/unit/test_input tests/unit/test_outdir \
	  tests/unit/test_forkguard CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS='-fsanitize=thread'
	sh build-tsan/tests/tsan.sh build-tsan/dumpanalyze build-tsan/tests/unit/test_input \
	  build-tsan/tests/unit/test_outdir build-tsan/tests/unit/test_forkguard

check-valgrind: dumpanalyze $(UNIT_TESTS)
	@DA_VALGRIND=1 sh tests/check.sh $(UNIT_TESTS)

# libFuzzer over input + parser + model (needs clang); FUZZ_SECONDS of
# fuzzing, seeded with the samples; crashers land in tests/fuzz/crashes/.
FUZZ_SECONDS ?= 60
tests/fuzz/fuzz_dump: tests/fuzz/fuzz_dump.c $(LIB_SRCS) $(wildcard include/dumpanalyze/*.h)
	clang -std=c11 $(THREADS) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $(CPPFLAGS) $(PKG_CFLAGS) -o $@ tests/fuzz/fuzz_dump.c $(LIB_SRCS) $(PKG_LIBS)

fuzz: tests/fuzz/fuzz_dump
	rm -rf tests/fuzz/corpus && mkdir -p tests/fuzz/corpus tests/fuzz/crashes
	cp samples/*.dump samples/*.prof tests/fuzz/regressions/* tests/fuzz/corpus/ 2>/dev/null; \
	gzip -c samples/rsx.dump > tests/fuzz/corpus/rsx.gz; \
	xz -c samples/rsx.dump > tests/fuzz/corpus/rsx.xz; \
	zstd -q -c samples/rsx.dump > tests/fuzz/corpus/rsx.zst
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp ./tests/fuzz/fuzz_dump -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=65536 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 -artifact_prefix=tests/fuzz/crashes/ \
	  -print_final_stats=1 tests/fuzz/corpus

# Benchmark on large real dumps (generated once into bench/data/).
bench: dumpanalyze
	sh bench/run.sh

demo: dumpanalyze
	./dumpanalyze --dump samples/penlight-x.dump --out-dir demo-out
	@echo; echo "demo-out/ now holds:"; ls demo-out | head -8; echo "..."
	@echo; head -5 demo-out/gen-1-traces.csv

install: dumpanalyze
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 dumpanalyze $(DESTDIR)$(BINDIR)/dumpanalyze
	install -m 644 man/dumpanalyze.1 $(DESTDIR)$(MANDIR)/dumpanalyze.1

clean:
	rm -f dumpanalyze libdumpanalyze.a src/*.o src/views/*.o src/views/html_assets.h $(UNIT_TESTS)
	rm -rf build-asan build-tsan demo-out tests/fuzz/fuzz_dump tests/fuzz/corpus

.PHONY: all check check-asan check-tsan check-valgrind fuzz bench demo install clean
