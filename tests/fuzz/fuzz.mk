# fuzz.mk — the fuzz targets (included by the Makefile): every source
# built once with clang under libFuzzer's coverage, ASan and UBSan into
# build-fuzz/, then one binary per target.  `make fuzz` runs them,
# `make fuzz-merge` folds what they found into tests/fuzz/corpus-*/
# (tests/fuzz/fuzz.sh does both; tests/fuzz/README.md says how).

FUZZ_TARGETS = dump profile
# Seconds of fuzzing per target: FUZZ_SECONDS for fuzz_dump, FUZZ_SECONDS_READERS
# for each reader.
FUZZ_SECONDS ?= 60
FUZZ_SECONDS_READERS ?= 30
FUZZ_CC = clang
FUZZ_SAN = address,undefined
FUZZ_CFLAGS = -O1 -g -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -fno-sanitize-recover=all
FUZZ_LDFLAGS = -fsanitize=fuzzer,$(FUZZ_SAN)
FUZZ_OBJS = $(patsubst src/%.c,build-fuzz/obj/%.o,$(LIB_SRCS) $(TOOL_SRCS))
FUZZ_BINS = $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%)

build-fuzz/obj/%.o: src/%.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(WARN) $(DEPFLAGS) $(THREADS) $(CPPFLAGS) $(LIB_CFLAGS) $(TOOL_CFLAGS) \
	  $(FUZZ_CFLAGS) -c -o $@ $<

build-fuzz/obj/fuzz_%.o: tests/fuzz/fuzz_%.c | $(GEN_HDRS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(WARN) $(DEPFLAGS) $(THREADS) $(CPPFLAGS) $(LIB_CFLAGS) $(TOOL_CFLAGS) \
	  $(FUZZ_CFLAGS) -c -o $@ $<

# Kept between builds (make would remove them as intermediate).
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_TARGETS:%=build-fuzz/obj/fuzz_%.o) build-fuzz/obj/fuzz_run.o

tests/fuzz/fuzz_%: build-fuzz/obj/fuzz_%.o build-fuzz/obj/fuzz_run.o $(FUZZ_OBJS)
	@$(if $(Q),echo "  FUZZLD  $@")
	$(Q)$(FUZZ_CC) $(THREADS) $(FUZZ_LDFLAGS) -o $@ $^ $(TOOL_LIBS) $(LIB_LIBS)

build-fuzz/obj/fuzz_profile.o: build/gen/fuzz_profile_dump.h

# The dump fuzz_profile joins its profiles with (see fuzz_profile.c).
build/gen/fuzz_profile_dump.h: samples/costly.dump scripts/embed.sh tests/fuzz/seeds.sh
	@mkdir -p $(@D)
	{ sh tests/fuzz/seeds.sh --profile-dump > $@.dump && \
	  sh scripts/embed.sh profile_dump $@.dump; } > $@.tmp && mv $@.tmp $@ && rm -f $@.dump

fuzz: $(FUZZ_BINS)
	sh tests/fuzz/fuzz.sh run dump $(FUZZ_SECONDS)
	sh tests/fuzz/fuzz.sh run profile $(FUZZ_SECONDS_READERS)
	@sh tests/fuzz/fuzz.sh total

fuzz-merge: $(FUZZ_BINS)
	sh tests/fuzz/fuzz.sh merge dump
	sh tests/fuzz/fuzz.sh merge profile

-include $(FUZZ_OBJS:.o=.d) $(FUZZ_TARGETS:%=build-fuzz/obj/fuzz_%.d) build-fuzz/obj/fuzz_run.d
