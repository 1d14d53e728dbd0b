/* sysprof_read.c — the parser of a sysprof stream (see sysprof.h for the
 * grammar): bytes from a source through a 64 KiB buffer, never the whole
 * file, each symbol and sample handed on as an event.  Every way the bytes
 * can go wrong ends the parse with the offset of the byte at fault. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile/sysprof_read.h"
#include "util/alloc.h"
#include "util/diag.h"

#define BUF_SIZE (64u << 10)

struct parser {
	sp_source src;
	void *src_ctx;
	const struct sp_events *ev;
	unsigned char *buf;
	size_t len, pos;
	uint64_t base;              /* offset of buf[0] */
	int eof;
	unsigned symtab_version, version;
	uint64_t rec;               /* where the record being read starts */
	const char *rec_what;       /* and what it is, for a cut stream */
	char *str;                  /* SP_STR_KEEP bytes */
	struct sp_frame *lua;
	uint64_t *host;
	struct sysprof_error *e;
	int code;
	jmp_buf fail;
};

static uint64_t offset(const struct parser *p)
{
	return p->base + p->pos;
}

_Noreturn static void fail_at(struct parser *p, int code, uint64_t at, const char *fmt, ...)
	DA_PRINTF(4, 5);
static void fail_at(struct parser *p, int code, uint64_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->e->msg, sizeof(p->e->msg), fmt, ap);
	va_end(ap);
	p->e->offset = at;
	p->code = code;
	longjmp(p->fail, 1);
}

/* More bytes: 0 at the end of the stream. */
static int refill(struct parser *p)
{
	if (p->eof)
		return 0;
	p->base += p->len;
	p->len = p->pos = 0;
	for (;;) {
		long r = p->src(p->src_ctx, p->buf, BUF_SIZE);
		if (r > 0) {
			p->len = (size_t)r;
			return 1;
		}
		if (r == 0) {
			p->eof = 1;
			return 0;
		}
		if (r != -EINTR) {
			errno = (int)-r;
			fail_at(p, SYSPROF_EIO, p->base, "%s", strerror((int)-r));
		}
	}
}

/* The stream ended inside the record being read. */
_Noreturn static void cut(struct parser *p)
{
	fail_at(p, SYSPROF_EBAD, offset(p), "the stream ends at byte %llu, inside the %s "
	        "that starts at byte %llu (cut short)", (unsigned long long)offset(p), p->rec_what,
	        (unsigned long long)p->rec);
}

static inline uint8_t byte(struct parser *p)
{
	if (p->pos == p->len && !refill(p))
		cut(p);
	return p->buf[p->pos++];
}

static uint64_t uleb(struct parser *p)
{
	uint64_t at = offset(p), v = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = byte(p);
		if (shift == 63 && b > 1)
			fail_at(p, SYSPROF_EBAD, at, "a ULEB128 number at byte %llu does not fit 64 bits",
			        (unsigned long long)at);
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
}

/* A string: its length, then its bytes; see struct sp_str for what is
 * kept of a long one. */
static void string(struct parser *p, struct sp_str *s)
{
	uint64_t len = uleb(p);
	s->p = p->str;
	s->len = len;
	if (len <= SP_STR_KEEP) {
		for (uint64_t i = 0; i < len; i++)
			p->str[i] = (char)byte(p);
		s->n = s->head = (size_t)len;
		return;
	}
	/* The head, then the end in a ring of the rest of the buffer. */
	const size_t ring = SP_STR_KEEP - SP_STR_HEAD;
	char *r = p->str + SP_STR_HEAD;
	for (size_t i = 0; i < SP_STR_HEAD; i++)
		p->str[i] = (char)byte(p);
	uint64_t rest = len - SP_STR_HEAD;
	for (uint64_t i = 0; i < rest; i++)
		r[i % ring] = (char)byte(p);
	/* rotate the ring so that it reads in order */
	size_t start = (size_t)(rest % ring);
	char tmp[SP_STR_KEEP - SP_STR_HEAD];
	memcpy(tmp, r + start, ring - start);
	memcpy(tmp + ring - start, r, start);
	memcpy(r, tmp, ring);
	s->n = SP_STR_KEEP;
	s->head = SP_STR_HEAD;
}

static void expect(struct parser *p, const char *magic, const char *what)
{
	uint64_t at = offset(p);
	char got[3];
	for (int i = 0; i < 3; i++) {
		if (p->pos == p->len && !refill(p)) {
			if (at == 0 && i == 0)
				fail_at(p, SYSPROF_EFORMAT, 0, "an empty file, not a sysprof profile");
			cut(p);
		}
		got[i] = (char)p->buf[p->pos++];
	}
	if (memcmp(got, magic, 3) == 0)
		return;
	if (strcmp(magic, "ljp") == 0 && memcmp(got, "ljm", 3) == 0)
		fail_at(p, SYSPROF_EFORMAT, at, "a memory profile (memprof's \"ljm\" at byte %llu), "
		        "not a sysprof one", (unsigned long long)at);
	fail_at(p, at == 0 ? SYSPROF_EFORMAT : SYSPROF_EBAD, at,
	        "no %s at byte %llu (\"%s\" expected)", what, (unsigned long long)at, magic);
}

static unsigned version(struct parser *p, unsigned lo, unsigned hi, const char *what)
{
	uint64_t at = offset(p);
	unsigned v = byte(p);
	if (v < lo || v > hi)
		fail_at(p, SYSPROF_EFORMAT, at, "%s format version %u at byte %llu: dumpanalyze "
		        "reads versions %u to %u", what, v, (unsigned long long)at, lo, hi);
	for (int i = 0; i < 3; i++)
		byte(p);                /* reserved */
	return v;
}

static void sym_lfunc(struct parser *p, uint64_t at)
{
	uint64_t addr = uleb(p);
	struct sp_str s;
	string(p, &s);
	uint64_t line = uleb(p);
	p->ev->lfunc(p->ev->ctx, addr, &s, line, at);
}

static void sym_cfunc(struct parser *p)
{
	uint64_t addr = uleb(p);
	struct sp_str s;
	string(p, &s);
	p->ev->cfunc(p->ev->ctx, addr, &s);
}

static void sym_trace(struct parser *p, uint64_t at, int initial)
{
	uint64_t no = uleb(p), proto = uleb(p), line = uleb(p);
	p->ev->trace(p->ev->ctx, no, proto, line, at, initial);
}

/* The symbol table before the samples: "ljs" version reserved sym* final. */
static void symtab(struct parser *p)
{
	p->rec = 0;
	p->rec_what = "symbol table prologue";
	expect(p, "ljs", "symbol table");
	p->symtab_version = version(p, 1, 3, "symbol table");
	for (;;) {
		p->rec = offset(p);
		p->rec_what = "symbol table";
		uint8_t h = byte(p);
		if (h & 0x80)
			return;
		unsigned type = h & 3;
		if ((h & 0x7c) || type == 3 || (type == 2 && p->symtab_version < 2) ||
		    (type == 1 && p->symtab_version < 3))
			fail_at(p, SYSPROF_EBAD, p->rec, "unknown symbol header 0x%02x at byte %llu "
			        "(symbol table version %u)", h, (unsigned long long)p->rec,
			        p->symtab_version);
		p->rec_what = type == 0 ? "Lua function symbol" : type == 1 ? "C symbol" : "trace symbol";
		if (type == 0)
			sym_lfunc(p, p->rec);
		else if (type == 1)
			sym_cfunc(p);
		else
			sym_trace(p, p->rec, 1);
	}
}

static void host_stack(struct parser *p, struct sp_sample *s)
{
	for (;;) {
		uint64_t a = uleb(p);
		if (a == 0)
			return;
		if (s->nhost < SP_MAX_FRAMES)
			p->host[s->nhost++] = a;
		else
			s->host_cut++;
	}
}

static void lua_stack(struct parser *p, struct sp_sample *s)
{
	for (;;) {
		uint64_t at = offset(p);
		uint8_t h = byte(p);
		if (h & 0x80)
			return;
		struct sp_frame f = { h, 0, 0 };
		if (h == SP_FRAME_LFUNC) {
			f.addr = uleb(p);
			f.line = uleb(p);
		} else if (h == SP_FRAME_CFUNC || h == SP_FRAME_FFUNC) {
			f.addr = uleb(p);
		} else {
			fail_at(p, SYSPROF_EBAD, at, "unknown Lua frame header 0x%02x at byte %llu", h,
			        (unsigned long long)at);
		}
		if (s->nlua < SP_MAX_FRAMES)
			p->lua[s->nlua++] = f;
		else
			s->lua_cut++;
	}
}

static void sample(struct parser *p, uint8_t state)
{
	struct sp_sample s = { .state = state, .offset = p->rec, .lua = p->lua, .host = p->host };
	p->rec_what = "sample";
	switch (state) {
	case SP_LFUNC:
	case SP_FFUNC:
	case SP_CFUNC:
		lua_stack(p, &s);
		host_stack(p, &s);
		break;
	case SP_TRACE:
		s.traceno = uleb(p);
		s.trace_proto = uleb(p);
		s.trace_line = uleb(p);
		break;
	default:
		host_stack(p, &s);
		break;
	}
	p->ev->sample(p->ev->ctx, &s);
}

/* "ljp" version reserved, then samples and symbols up to the epilogue,
 * then nothing. */
static void samples(struct parser *p)
{
	p->rec = offset(p);
	p->rec_what = "sysprof prologue";
	expect(p, "ljp", "sysprof prologue after the symbol table");
	p->version = version(p, 1, 2, "sysprof");
	if (p->ev->versions)
		p->ev->versions(p->ev->ctx, p->symtab_version, p->version);
	for (;;) {
		p->rec = offset(p);
		if (p->pos == p->len && !refill(p))
			fail_at(p, SYSPROF_EBAD, p->rec, "no epilogue: the stream ends at byte %llu "
			        "(the profiler was not stopped, or the file was cut)",
			        (unsigned long long)p->rec);
		uint8_t h = p->buf[p->pos++];
		if (h & 0x80)
			break;
		if (h < SP_STATES) {
			sample(p, h);
		} else if (p->version == 1 && h == 10) {
			p->rec_what = "C symbol";
			sym_cfunc(p);
		} else if (p->version >= 2 && h == 10) {
			p->rec_what = "Lua function symbol";
			sym_lfunc(p, p->rec);
		} else if (p->version >= 2 && h == 11) {
			p->rec_what = "C symbol";
			sym_cfunc(p);
		} else if (p->version >= 2 && h == 12) {
			p->rec_what = "trace symbol";
			sym_trace(p, p->rec, 0);
		} else {
			fail_at(p, SYSPROF_EBAD, p->rec, "unknown sample header 0x%02x at byte %llu", h,
			        (unsigned long long)p->rec);
		}
	}
	uint64_t end = offset(p);
	if (p->pos < p->len || refill(p))
		fail_at(p, SYSPROF_EBAD, end, "bytes after the epilogue, from byte %llu",
		        (unsigned long long)end);
}

int sp_parse(sp_source src, void *src_ctx, const struct sp_events *ev,
             struct sysprof_error *e, uint64_t *bytes)
{
	struct parser *p = xrealloc(NULL, sizeof(*p));
	memset(p, 0, sizeof(*p));
	memset(e, 0, sizeof(*e));
	p->src = src;
	p->src_ctx = src_ctx;
	p->ev = ev;
	p->e = e;
	p->buf = xrealloc(NULL, BUF_SIZE);
	p->str = xrealloc(NULL, SP_STR_KEEP);
	p->lua = xrealloc(NULL, SP_MAX_FRAMES * sizeof(*p->lua));
	p->host = xrealloc(NULL, SP_MAX_FRAMES * sizeof(*p->host));
	int code = SYSPROF_OK;
	if (setjmp(p->fail) == 0) {
		symtab(p);
		samples(p);
	} else {
		code = p->code;
	}
	*bytes = offset(p);
	int saved = errno;
	free(p->buf);
	free(p->str);
	free(p->lua);
	free(p->host);
	free(p);
	errno = saved;
	return code;
}
