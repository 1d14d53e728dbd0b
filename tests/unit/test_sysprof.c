/* test_sysprof.c — the sysprof reader: the real samples of
 * samples/sysprof/ (made by Tarantool's LuaJIT, samples/README.md) read
 * to counts equal to the fork's own counters; the small one cut at every
 * byte offset and corrupted at every byte, never read as anything but an
 * error at an offset inside it; tiny hand-built streams for each rule of
 * the format (versions, symbols added and replaced as the program runs,
 * trace numbers reused, chunk names as the dump writes them) and for each
 * way a stream can be malformed; the join of trace records with a
 * dump's traces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "input/decode.h"
#include "profile/sysprof.h"
#include "profile/sysprof_join.h"

/* ---- files ---- */

static long file_read(void *ctx, unsigned char *buf, size_t n)
{
	size_t k = fread(buf, 1, n, ctx);
	return ferror((FILE *)ctx) ? -5 : (long)k;
}

/* A sample's profile, decompressed, in memory. */
static unsigned char *read_xz(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	unsigned char head[6];      /* the magic, as the input layer reads it first */
	assert_int_equal(fread(head, 1, sizeof(head), fp), sizeof(head));
	assert_int_equal(decode_detect(head, sizeof(head)), COMP_XZ);
	struct decoder *d = decode_new(COMP_XZ, file_read, fp, head, sizeof(head));
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	long r;
	while ((r = decode_read(d, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	assert_int_equal(r, 0);
	assert_false(decode_truncated(d));
	decode_free(d);
	fclose(fp);
	*len = n;
	return buf;
}

/* The fork's counters kept beside a sample: "NAME COUNT" lines. */
static uint64_t counter(const char *path, const char *name)
{
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char key[32];
	unsigned long long v;
	while (fscanf(fp, "%31s %llu", key, &v) == 2)
		if (strcmp(key, name) == 0) {
			fclose(fp);
			return v;
		}
	fclose(fp);
	fail_msg("%s has no %s", path, name);
	return 0;
}

static const char *const SAMPLES[] = { "annotated", "costly", "phases", "hoststacks", "small" };

static void test_samples_equal_the_forks_counters(void **s)
{
	(void)s;
	for (size_t k = 0; k < sizeof(SAMPLES) / sizeof(SAMPLES[0]); k++) {
		char path[256], counters[256];
		snprintf(path, sizeof(path), "samples/sysprof/%s.sysprof.xz", SAMPLES[k]);
		snprintf(counters, sizeof(counters), "samples/sysprof/%s.counters.txt", SAMPLES[k]);
		struct sysprof p;
		struct sysprof_error e;
		sysprof_init(&p, path);
		assert_int_equal(sysprof_load(&p, path, &e), SYSPROF_OK);
		assert_int_equal(p.symtab_version, 3);
		assert_int_equal(p.version, 2);
		for (int st = 0; st < SP_STATES; st++)
			assert_int_equal(p.state[st], counter(counters, sp_state_names[st]));
		assert_int_equal(p.samples, counter(counters, "samples"));
		/* every compiled sample on a trace record of its number, with
		 * its record's start function */
		uint64_t on_records = 0;
		for (size_t i = 0; i < p.ntraces; i++)
			on_records += p.traces[i].samples;
		assert_int_equal(p.trace_unknown, 0);
		assert_int_equal(p.trace_other, 0);
		assert_int_equal(on_records, p.state[SP_TRACE]);
		assert_int_equal(p.frames_unknown, 0);
		/* mode C's stacks have host frames, mode L's none */
		if (strcmp(SAMPLES[k], "hoststacks") == 0)
			assert_true(p.host_frames > 0);
		else
			assert_int_equal(p.host_frames, 0);
		/* the small one is small because its luajit wrote no C symbols */
		if (strcmp(SAMPLES[k], "small") == 0)
			assert_int_equal(p.csyms, 0);
		else
			assert_true(p.csyms > 1000);
		sysprof_free(&p);
	}
}

/* Cut at every byte: an error (never a profile), at an offset inside
 * what was given, with a message naming it. */
static void test_small_cut_at_every_byte(void **s)
{
	(void)s;
	size_t n;
	unsigned char *buf = read_xz("samples/sysprof/small.sysprof.xz", &n);
	assert_true(n > 4000 && n < 20000);
	struct sysprof p;
	struct sysprof_error e;
	sysprof_init(&p, "small");
	assert_int_equal(sysprof_load_memory(&p, buf, n, &e), SYSPROF_OK);
	sysprof_free(&p);
	size_t tried = 0;
	for (size_t k = 0; k < n; k++) {
		sysprof_init(&p, "cut");
		int r = sysprof_load_memory(&p, buf, k, &e);
		if (k == 0)
			assert_int_equal(r, SYSPROF_EFORMAT);
		else
			assert_int_equal(r, SYSPROF_EBAD);
		assert_true(e.offset <= k);
		char at[32];
		snprintf(at, sizeof(at), "byte %zu", k);
		if (k > 0 && !strstr(e.msg, at))
			fail_msg("cut at %zu: \"%s\" names no byte %zu", k, e.msg, k);
		sysprof_free(&p);
		tried++;
	}
	assert_int_equal(tried, n);
	free(buf);
}

/* Any byte changed to 0x00, 0xff or its high bit flipped: read or
 * refused with an offset inside the stream, never anything else. */
static void test_small_corrupted_at_every_byte(void **s)
{
	(void)s;
	size_t n;
	unsigned char *buf = read_xz("samples/sysprof/small.sysprof.xz", &n);
	unsigned char *bad = malloc(n);
	size_t refused = 0, read = 0;
	for (size_t k = 0; k < n; k++)
		for (int v = 0; v < 3; v++) {
			memcpy(bad, buf, n);
			bad[k] = v == 0 ? 0x00 : v == 1 ? 0xff : (unsigned char)(buf[k] ^ 0x80);
			struct sysprof p;
			struct sysprof_error e;
			sysprof_init(&p, "bad");
			int r = sysprof_load_memory(&p, bad, n, &e);
			assert_true(r == SYSPROF_OK || r == SYSPROF_EBAD || r == SYSPROF_EFORMAT);
			if (r == SYSPROF_OK) {
				read++;
			} else {
				refused++;
				assert_true(e.offset <= n);
				assert_true(strlen(e.msg) > 0);
			}
			sysprof_free(&p);
		}
	assert_int_equal(read + refused, 3 * n);
	assert_true(refused > 0 && read > 0);
	free(bad);
	free(buf);
}

/* ---- hand-built streams ---- */

struct bytes {
	unsigned char p[4096];
	size_t n;
};

static void put(struct bytes *b, int v) { b->p[b->n++] = (unsigned char)v; }

static void uleb(struct bytes *b, uint64_t v)
{
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		put(b, c | (v ? 0x80 : 0));
	} while (v);
}

static void str(struct bytes *b, const char *s)
{
	uleb(b, strlen(s));
	memcpy(b->p + b->n, s, strlen(s));
	b->n += strlen(s);
}

/* "ljs" and its version: the symbol table's prologue. */
static void prologue(struct bytes *b, int symtab_version)
{
	memcpy(b->p + b->n, "ljs", 3);
	b->n += 3;
	put(b, symtab_version);
	put(b, 0), put(b, 0), put(b, 0);
}

static void ljp(struct bytes *b, const char *magic, int version)
{
	memcpy(b->p + b->n, magic, 3);
	b->n += 3;
	put(b, version);
	put(b, 0), put(b, 0), put(b, 0);
}

static void sym_lfunc(struct bytes *b, uint64_t addr, const char *chunk, uint64_t line)
{
	put(b, 0);
	uleb(b, addr);
	str(b, chunk);
	uleb(b, line);
}

static void lfunc_sample(struct bytes *b, uint64_t addr, uint64_t line)
{
	put(b, SP_LFUNC);
	put(b, 1);                  /* an LFUNC frame */
	uleb(b, addr);
	uleb(b, line);
	put(b, 0x80);               /* the last Lua frame */
	uleb(b, 0);                 /* no host frames */
}

static int load(struct sysprof *p, const struct bytes *b, struct sysprof_error *e)
{
	sysprof_init(p, "hand-built");
	return sysprof_load_memory(p, b->p, b->n, e);
}

static const struct sp_func *func(const struct sysprof *p, const char *file, int32_t line)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (strcmp(p->funcs[i].file, file) == 0 && p->funcs[i].line == line)
			return &p->funcs[i];
	return NULL;
}

/* A prototype's address taken again by another function (the first was
 * collected): samples before the new record are the old one's. */
static void test_symbols_in_stream_order(void **s)
{
	(void)s;
	struct bytes b = { .n = 0 };
	prologue(&b, 3);
	sym_lfunc(&b, 0x1000, "@/srv/app/old.lua", 5);
	put(&b, 0x80);
	ljp(&b, "ljp", 2);
	lfunc_sample(&b, 0x1000, 5);
	lfunc_sample(&b, 0x1000, 5);
	put(&b, 10);                /* a function loaded while profiling, at the same address */
	uleb(&b, 0x1000);
	str(&b, "=new");
	uleb(&b, 9);
	lfunc_sample(&b, 0x1000, 9);
	put(&b, 0x80);
	struct sysprof p;
	struct sysprof_error e;
	assert_int_equal(load(&p, &b, &e), SYSPROF_OK);
	assert_int_equal(p.samples, 3);
	assert_int_equal(p.state[SP_LFUNC], 3);
	assert_int_equal(func(&p, "old.lua", 5)->interpreted, 2);
	assert_int_equal(func(&p, "new", 9)->interpreted, 1);
	size_t n;
	const struct sp_func *f = sysprof_functions(&p, &n);
	assert_int_equal(n, 2);
	assert_string_equal(f[0].file, "old.lua");      /* most samples first */
	sysprof_free(&p);
}

/* Trace records: a number reused gets a new record; its samples from then
 * on are the new one's. */
static void test_trace_numbers_reused(void **s)
{
	(void)s;
	struct bytes b = { .n = 0 };
	prologue(&b, 3);
	sym_lfunc(&b, 0x2000, "@a.lua", 1);
	sym_lfunc(&b, 0x3000, "@b.lua", 10);
	put(&b, 2);                 /* trace 1, alive when profiling began */
	uleb(&b, 1), uleb(&b, 0x2000), uleb(&b, 3);
	put(&b, 0x80);
	ljp(&b, "ljp", 2);
	for (int i = 0; i < 3; i++) {
		put(&b, SP_TRACE);
		uleb(&b, 1), uleb(&b, 0x2000), uleb(&b, 1);
	}
	put(&b, 12);                /* trace 1 again, in b.lua (after a flush) */
	uleb(&b, 1), uleb(&b, 0x3000), uleb(&b, 12);
	put(&b, SP_TRACE);
	uleb(&b, 1), uleb(&b, 0x3000), uleb(&b, 10);
	put(&b, SP_TRACE);          /* a number no record named */
	uleb(&b, 7), uleb(&b, 0x3000), uleb(&b, 10);
	put(&b, 0x80);
	struct sysprof p;
	struct sysprof_error e;
	assert_int_equal(load(&p, &b, &e), SYSPROF_OK);
	assert_int_equal(p.ntraces, 2);
	assert_int_equal(p.traces[0].initial, 1);
	assert_string_equal(p.traces[0].file, "a.lua");
	assert_int_equal(p.traces[0].line, 3);
	assert_int_equal(p.traces[0].samples, 3);
	assert_int_equal(p.traces[1].initial, 0);
	assert_string_equal(p.traces[1].file, "b.lua");
	assert_int_equal(p.traces[1].line, 12);
	assert_int_equal(p.traces[1].samples, 1);
	assert_int_equal(p.trace_unknown, 1);
	assert_int_equal(p.state[SP_TRACE], 5);
	sysprof_free(&p);
}

/* Chunk names as LuaJIT's dump writes them (lj_debug_pushloc). */
static void test_chunk_names(void **s)
{
	(void)s;
	static const struct { const char *chunk; uint64_t addr; const char *name; } c[] = {
		{ "@/usr/share/lua/5.1/pl/tablex.lua", 1, "tablex.lua" },
		{ "@C:\\lua\\win.lua", 2, "win.lua" },
		{ "@/x", 3, "/x" },             /* the byte after '@' is never a separator */
		{ "@plain.lua", 4, "plain.lua" },
		{ "=tpl-17", 5, "tpl-17" },
		{ "return 1", 6, "\"return 1\"" },
		{ "local s = 0 for i = 1, 99 do s = s + i end return s", 0x7ffae30925e0ULL, "0x7ffae30925e0" },
		{ "a chunk name that is longer than forty bytes", 0x40b391d0, "0x40b391d0" },
	};
	struct bytes b = { .n = 0 };
	prologue(&b, 3);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		sym_lfunc(&b, c[i].addr, c[i].chunk, 2);
	put(&b, 0);                 /* a builtin: line ~0 */
	uleb(&b, 0x50);
	str(&b, "remove");
	uleb(&b, UINT64_MAX);
	put(&b, 0x80);
	ljp(&b, "ljp", 2);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		lfunc_sample(&b, c[i].addr, 2);
	lfunc_sample(&b, 0x50, UINT64_MAX);
	put(&b, 0x80);
	struct sysprof p;
	struct sysprof_error e;
	assert_int_equal(load(&p, &b, &e), SYSPROF_OK);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (!func(&p, c[i].name, 2))
			fail_msg("%s: no function %s:2", c[i].chunk, c[i].name);
	assert_non_null(func(&p, "builtin:remove", -1));
	/* the frames of the folded stacks are the same names */
	int found = 0;
	for (size_t i = 0; i < p.nframes; i++)
		found += strcmp(p.frames[i], "tablex.lua:2") == 0 || strcmp(p.frames[i], "builtin:remove") == 0;
	assert_int_equal(found, 2);
	sysprof_free(&p);
}

/* Version 1 of the sample stream: byte 10 is a C symbol. */
static void test_version_1(void **s)
{
	(void)s;
	struct bytes b = { .n = 0 };
	prologue(&b, 2);
	put(&b, 0x80);
	ljp(&b, "ljp", 1);
	put(&b, 10);
	uleb(&b, 0x400000);
	str(&b, "main");
	put(&b, SP_GC);
	uleb(&b, 0x400010);         /* a host frame in main */
	uleb(&b, 0);
	put(&b, 0x80);
	struct sysprof p;
	struct sysprof_error e;
	assert_int_equal(load(&p, &b, &e), SYSPROF_OK);
	assert_int_equal(p.version, 1);
	assert_int_equal(p.symtab_version, 2);
	assert_int_equal(p.csyms, 1);
	assert_int_equal(p.state[SP_GC], 1);
	assert_int_equal(p.nstacks, 1);
	assert_string_equal(p.frames[p.stacks[0].first], "main");
	assert_true(sysprof_is_host_frame(&p, p.frames[p.stacks[0].first]));
	sysprof_free(&p);
}

/* A malformed stream: its code, the offset at fault, a word of why. */
struct bad {
	const char *what;
	int code;
	uint64_t at;
	const char *says;
	struct bytes b;
};

static void test_malformed(void **s)
{
	(void)s;
	struct bad t[12];
	size_t n = 0;
	struct bytes *b;
	/* 0: symbol table version 4 */
	b = &t[n].b; b->n = 0; prologue(b, 4);
	t[n++] = (struct bad){ "version 4", SYSPROF_EFORMAT, 3, "version 4", *b };
	/* 1: a memory profile */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljm", 2);
	t[n++] = (struct bad){ "memprof", SYSPROF_EFORMAT, 8, "memprof", *b };
	/* 2: sysprof version 3 */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljp", 3);
	t[n++] = (struct bad){ "ljp version 3", SYSPROF_EFORMAT, 11, "version 3", *b };
	/* 3: not a profile at all */
	b = &t[n].b; b->n = 0; memcpy(b->p, "---- TRACE 1 start", 18); b->n = 18;
	t[n++] = (struct bad){ "text", SYSPROF_EFORMAT, 0, "symbol table", *b };
	/* 4: bytes after the epilogue */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljp", 2);
	put(b, 0x80); put(b, 0);
	t[n++] = (struct bad){ "trailing", SYSPROF_EBAD, 16, "after the epilogue", *b };
	/* 5: no epilogue */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljp", 2);
	put(b, SP_GC); uleb(b, 0);
	t[n++] = (struct bad){ "no epilogue", SYSPROF_EBAD, 17, "no epilogue", *b };
	/* 6: an unknown sample header */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljp", 2);
	put(b, 13);
	t[n++] = (struct bad){ "header 13", SYSPROF_EBAD, 15, "0x0d", *b };
	/* 7: a ULEB128 of 11 bytes */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljp", 2);
	put(b, SP_GC); for (int i = 0; i < 10; i++) put(b, 0xff); put(b, 1);
	t[n++] = (struct bad){ "uleb", SYSPROF_EBAD, 16, "64 bits", *b };
	/* 8: an unknown Lua frame */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0x80); ljp(b, "ljp", 2);
	put(b, SP_LFUNC); put(b, 5);
	t[n++] = (struct bad){ "frame 5", SYSPROF_EBAD, 16, "Lua frame header 0x05", *b };
	/* 9: a C symbol in a version 2 symbol table */
	b = &t[n].b; b->n = 0; prologue(b, 2); put(b, 1); uleb(b, 1); str(b, "f");
	t[n++] = (struct bad){ "cfunc in v2", SYSPROF_EBAD, 7, "symbol header 0x01", *b };
	/* 10: a string longer than the stream */
	b = &t[n].b; b->n = 0; prologue(b, 3); put(b, 0); uleb(b, 1); uleb(b, 1000000);
	t[n++] = (struct bad){ "long string", SYSPROF_EBAD, 12, "Lua function symbol that starts at byte 7", *b };
	/* 11: empty */
	b = &t[n].b; b->n = 0;
	t[n++] = (struct bad){ "empty", SYSPROF_EFORMAT, 0, "empty", *b };
	for (size_t i = 0; i < n; i++) {
		struct sysprof p;
		struct sysprof_error e;
		int r = load(&p, &t[i].b, &e);
		if (r != t[i].code || e.offset != t[i].at || !strstr(e.msg, t[i].says))
			fail_msg("%s: %d at %llu \"%s\"; want %d at %llu saying \"%s\"", t[i].what, r,
			         (unsigned long long)e.offset, e.msg, t[i].code,
			         (unsigned long long)t[i].at, t[i].says);
		sysprof_free(&p);
	}
	assert_int_equal(n, 12);
}

/* A long chunk name: its start and end kept, the name from the end. */
static void test_long_names(void **s)
{
	(void)s;
	size_t len = 10000;
	char *path = malloc(len + 1);
	memset(path, 'd', len);
	path[0] = '@';
	memcpy(path + len - 9, "/long.lua", 9);
	path[len] = '\0';
	unsigned char *buf = malloc(len + 64);
	size_t n = 0;
	memcpy(buf, "ljs\3\0\0\0", 7);
	n = 7;
	buf[n++] = 0;
	buf[n++] = 0x11;            /* address */
	uint64_t v = len;
	do {
		buf[n++] = (unsigned char)((v & 0x7f) | (v >> 7 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	memcpy(buf + n, path, len);
	n += len;
	buf[n++] = 4;               /* line */
	buf[n++] = 0x80;
	memcpy(buf + n, "ljp\2\0\0\0", 7);
	n += 7;
	buf[n++] = SP_LFUNC, buf[n++] = 1, buf[n++] = 0x11, buf[n++] = 4, buf[n++] = 0x80, buf[n++] = 0;
	buf[n++] = 0x80;
	struct sysprof p;
	struct sysprof_error e;
	sysprof_init(&p, "long");
	assert_int_equal(sysprof_load_memory(&p, buf, n, &e), SYSPROF_OK);
	assert_non_null(func(&p, "long.lua", 4));
	sysprof_free(&p);
	free(buf);
	free(path);
}

/* ---- the join ---- */

static void add_dump_trace(struct sysprof_join *j, uint32_t gen, uint32_t id, const char *file,
                           int32_t line)
{
	j->traces = realloc(j->traces, (j->ntraces + 1) * sizeof(*j->traces));
	j->traces[j->ntraces++] = (struct sj_trace){ gen, id, intern_get(&j->strings, file, strlen(file)),
	                                             line, 1, UINT32_MAX, UINT32_MAX, 0 };
}

static void add_record(struct sysprof *p, uint32_t no, const char *file, int32_t line, int initial,
                       uint64_t samples)
{
	p->traces = realloc(p->traces, (p->ntraces + 1) * sizeof(*p->traces));
	p->traces[p->ntraces++] = (struct sp_trace){ no, intern_get(&p->strings, file, strlen(file)),
	                                             line, 0, 0, initial, samples };
	p->state[SP_TRACE] += samples;
	p->samples += samples;
}

/* Records compiled while profiling, matched in order after P; numbers
 * and starts repeated over generations go to the right one. */
static void test_join_in_order(void **s)
{
	(void)s;
	struct sysprof_join j;
	struct sysprof p;
	sj_init(&j);
	sysprof_init(&p, "join");
	add_dump_trace(&j, 1, 1, "a.lua", 3);   /* 0: before profiling */
	add_dump_trace(&j, 1, 2, "a.lua", 8);   /* 1: alive at the start */
	add_dump_trace(&j, 2, 1, "a.lua", 3);   /* 2: gen 2, after a flush */
	add_dump_trace(&j, 2, 1, "b.lua", 4);   /* 3: number 1 again, same gen */
	add_dump_trace(&j, 3, 1, "a.lua", 3);   /* 4: gen 3 */
	add_record(&p, 2, "a.lua", 8, 1, 5);    /* the symbol table's */
	add_record(&p, 1, "a.lua", 3, 0, 7);    /* -> 2 (not 0: that one is before P) */
	add_record(&p, 1, "b.lua", 4, 0, 11);   /* -> 3 */
	add_record(&p, 1, "a.lua", 3, 0, 13);   /* -> 4 */
	add_record(&p, 9, "c.lua", 1, 0, 17);   /* the dump has no trace 9 */
	sj_build(&j, &p);
	assert_int_equal(j.start, 2);
	assert_int_equal(j.traces[0].samples, 0);
	assert_int_equal(j.traces[1].samples, 5);
	assert_int_equal(j.traces[2].samples, 7);
	assert_int_equal(j.traces[3].samples, 11);
	assert_int_equal(j.traces[4].samples, 13);
	assert_int_equal(j.matched, 4);
	assert_int_equal(j.initial_matched, 1);
	assert_int_equal(j.samples, 36);
	assert_int_equal(j.samples_apart, 17);
	size_t n, *rank = sj_ranked_traces(&j, &n);
	assert_int_equal(n, 4);
	assert_int_equal(rank[0], 4);
	assert_int_equal(rank[3], 1);
	free(rank);
	char buf[16];
	sj_percent(buf, sizeof(buf), 1, 3);
	assert_string_equal(buf, "33.33");
	sj_percent(buf, sizeof(buf), 2, 3);
	assert_string_equal(buf, "66.67");
	sj_free(&j);
	sysprof_free(&p);
}

/* No symbol-table records: P is the start of the dump. */
static void test_join_from_the_start(void **s)
{
	(void)s;
	struct sysprof_join j;
	struct sysprof p;
	sj_init(&j);
	sysprof_init(&p, "join");
	add_dump_trace(&j, 1, 1, "a.lua", 3);
	add_dump_trace(&j, 2, 1, "a.lua", 3);
	add_record(&p, 1, "a.lua", 3, 0, 2);
	add_record(&p, 1, "a.lua", 3, 0, 3);
	sj_build(&j, &p);
	assert_int_equal(j.start, 0);
	assert_int_equal(j.traces[0].samples, 2);
	assert_int_equal(j.traces[1].samples, 3);
	sj_free(&j);
	sysprof_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_equal_the_forks_counters),
		cmocka_unit_test(test_small_cut_at_every_byte),
		cmocka_unit_test(test_small_corrupted_at_every_byte),
		cmocka_unit_test(test_symbols_in_stream_order),
		cmocka_unit_test(test_trace_numbers_reused),
		cmocka_unit_test(test_chunk_names),
		cmocka_unit_test(test_version_1),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_join_in_order),
		cmocka_unit_test(test_join_from_the_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
