/* fuzz_combined_gen.c — fuzz_combined's input made into a dump, profiles
 * and Lua files that name the same places (see fuzz_combined_gen.h).  The
 * places are read from the dump's text as any "NAME:LINE" token (a
 * header's start or abort, a bytecode line's "; file:line", luajit2's
 * "(file:line)"), so that a mutated dump moves them too.  The formats
 * written are the ones profile/profile.c and profile/sysprof_read.c read,
 * as LuaJIT and Tarantool's fork write them. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_combined_gen.h"

/* ---- the dump's places ------------------------------------------------- */

static size_t name_of(struct gen *g, const uint8_t *p, size_t n, int32_t line)
{
	for (size_t i = 0; i < g->nnames; i++) {
		struct gen_name *x = &g->names[i];
		if (x->n == n && memcmp(x->p, p, n) == 0) {
			if (line < x->first)
				x->first = line;
			if (line > x->last)
				x->last = line;
			return i;
		}
	}
	if (g->nnames == GEN_NAMES)
		return GEN_NAMES;
	g->names[g->nnames] = (struct gen_name){ (const char *)p, n, line, line };
	return g->nnames++;
}

static void add_place(struct gen *g, size_t name, int32_t line)
{
	for (size_t i = 0; i < g->nplaces; i++)
		if (g->places[i].name == name && g->places[i].line == line)
			return;
	if (g->nplaces < GEN_PLACES)
		g->places[g->nplaces++] = (struct gen_place){ (unsigned)name, line };
}

static int ends_token(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == ')' || c == ']' || c == ',';
}

static int starts_token(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '(' || c == '[';
}

/* The places of one line [p, e); a trace header's start is kept with the
 * last of them (its "start [N/M] FILE:LINE"). */
static void scan_line(struct gen *g, const uint8_t *p, const uint8_t *e)
{
	size_t last = GEN_NAMES;
	int32_t last_line = 0;
	for (const uint8_t *c = p; c < e; c++) {
		if (*c != ':' || c == p)
			continue;
		const uint8_t *d = c + 1;
		int32_t line = 0;
		while (d < e && *d >= '0' && *d <= '9' && d - c <= 6)
			line = line * 10 + (*d++ - '0');
		if (d == c + 1 || (d < e && !ends_token(*d)) || line == 0)
			continue;
		const uint8_t *s = c;
		while (s > p && !starts_token(s[-1]))
			s--;
		if (s == c || c - s > 200)
			continue;
		size_t k = name_of(g, s, (size_t)(c - s), line);
		if (k == GEN_NAMES)
			continue;
		add_place(g, k, line);
		last = k;
		last_line = line;
	}
	static const char head[] = "---- TRACE ";
	size_t hn = sizeof(head) - 1;
	if (last == GEN_NAMES || (size_t)(e - p) < hn || memcmp(p, head, hn) != 0 ||
	    g->ntraces == GEN_TRACES)
		return;
	uint32_t no = 0;
	const uint8_t *c = p + hn;
	while (c < e && *c >= '0' && *c <= '9' && no < 100000)
		no = no * 10 + (uint32_t)(*c++ - '0');
	if (no && (size_t)(e - c) > 7 && memcmp(c, " start ", 7) == 0)
		g->traces[g->ntraces++] = (struct gen_trace){ no, (unsigned)last, last_line };
}

static uint64_t next(struct gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void gen_read(struct gen *g, const uint8_t *data, size_t size)
{
	g->what = size > 0 ? data[0] : 0;
	memset(g->recipe, 0, sizeof(g->recipe));
	if (size > 1)
		memcpy(g->recipe, data + 1, size - 1 < 8 ? size - 1 : 8);
	g->dump = size > GEN_HEAD ? data + GEN_HEAD : data + size;
	g->dump_len = size > GEN_HEAD ? size - GEN_HEAD : 0;
	g->nnames = g->nplaces = g->ntraces = 0;
	g->rng = 0;
	for (int i = 0; i < 8; i++)
		g->rng = g->rng << 8 | g->recipe[i];
	/* Plain text only: a compressed dump's places are not in its bytes
	 * (the profile then names a place of its own). */
	const uint8_t *p = g->dump, *end = p + g->dump_len;
	while (p < end) {
		const uint8_t *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		scan_line(g, p, e);
		p = e + 1;
	}
	if (!g->nplaces) {
		static const uint8_t none[] = "gen.lua";
		g->names[0] = (struct gen_name){ (const char *)none, 7, 1, 1 };
		g->places[0] = (struct gen_place){ 0, 1 };
		g->nnames = g->nplaces = 1;
	}
}

/* ---- writing ------------------------------------------------------------ */

static void put(struct gen_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;                 /* (b->p may be NULL yet: memcpy's) */
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->n + n)
			cap *= 2;
		uint8_t *q = realloc(b->p, cap);
		if (!q)
			abort();
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void putf(struct gen_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct gen_buf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put(b, tmp, n < 0 ? 0 : (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* A place as a profile's frame "NAME:LINE": mostly as the dump has it;
 * now and then a line off by one, the base name alone, or a file the
 * dump never names. */
static void put_frame(struct gen *g, struct gen_buf *b, size_t place)
{
	const struct gen_place *pl = &g->places[place % g->nplaces];
	const struct gen_name *nm = &g->names[pl->name];
	const char *p = nm->p;
	size_t n = nm->n;
	int32_t line = pl->line;
	switch (next(g) % 16) {
	case 0: line++; break;
	case 1: line = line > 1 ? line - 1 : line; break;
	case 2: p = "gen.lua"; n = 7; break;
	case 3: {
		const char *slash = memrchr(p, '/', n);
		if (slash) {
			n -= (size_t)(slash + 1 - p);
			p = slash + 1;
		}
		break;
	}
	default: break;
	}
	put(b, p, n);
	putf(b, ":%d", (int)line);
}

static const char *const jp_states[] = {
	"Interpreted", "Compiled", "C code", "Garbage Collector", "JIT Compiler",
};

/* Interpreted most of the time: the samples the callee columns count. */
static unsigned pick_state(struct gen *g)
{
	uint64_t r = next(g) % 8;
	return r < 4 ? 0 : (unsigned)(r - 3);
}

static void jp_lines(struct gen *g)
{
	struct gen_buf *b = &g->jp;
	unsigned form = g->recipe[0] & 3;       /* lvr, lr, lv, vlr */
	if (form == 3) {
		for (unsigned s = 0; s < 5; s++) {
			if (next(g) % 3 == 0)
				continue;
			putf(b, "%5u  %s\n", (unsigned)(1 + next(g) % 300), jp_states[s]);
			for (size_t i = 0; i < g->nplaces; i++) {
				if (next(g) % 2)
					continue;
				putf(b, "  --  %5u  ", (unsigned)(1 + next(g) % 100));
				put_frame(g, b, i);
				put(b, "\n", 1);
			}
		}
		return;
	}
	for (size_t i = 0; i < g->nplaces; i++) {
		if (form == 2)
			putf(b, "%2u%%  ", (unsigned)(1 + next(g) % 99));
		else
			putf(b, "%5u  ", (unsigned)(1 + next(g) % 300));
		put_frame(g, b, i);
		put(b, "\n", 1);
		if (form == 1)
			continue;
		unsigned k = 1 + (unsigned)(next(g) % 3);
		for (unsigned j = 0; j < k; j++) {
			const char *st = jp_states[pick_state(g)];
			if (form == 2)
				putf(b, "  <- %3u%%  %s\n", (unsigned)(1 + next(g) % 100), st);
			else
				putf(b, "  <-  %5u  %s\n", (unsigned)(1 + next(g) % 300), st);
		}
	}
}

/* Folded stacks (-jp=Gl, or Gvl: a "STATE TOTAL" line before each
 * state's stacks): frames outermost first, walking the places with a
 * stride, so that a caller and the chunk it calls into meet. */
static void jp_stacks(struct gen *g)
{
	struct gen_buf *b = &g->jp;
	int states = (g->recipe[0] & 4) != 0;
	int host = (g->recipe[0] & 8) != 0;     /* an "@0x..." root frame */
	unsigned nstacks = 1 + g->recipe[1] % 12;
	struct { uint64_t seed; unsigned state, count; } st[12];
	for (unsigned i = 0; i < nstacks; i++) {
		st[i].seed = next(g);
		st[i].state = states ? pick_state(g) : 0;
		st[i].count = 1 + (unsigned)(next(g) % 64);
	}
	for (unsigned s = 0; s < (states ? 5u : 1u); s++) {
		unsigned total = 0;
		for (unsigned i = 0; i < nstacks; i++)
			total += st[i].state == s ? st[i].count : 0;
		if (!total)
			continue;
		if (states)
			putf(b, "%s %u\n", jp_states[s], total);
		for (unsigned i = 0; i < nstacks; i++) {
			if (st[i].state != s)
				continue;
			uint64_t saved = g->rng;
			g->rng = st[i].seed;
			unsigned depth = 1 + (unsigned)(next(g) % 4);
			size_t at = next(g) % g->nplaces, stride = 1 + next(g) % g->nplaces;
			if (host)
				put(b, "@0x1;", 5);
			for (unsigned k = 0; k < depth; k++) {
				if (k)
					put(b, ";", 1);
				put_frame(g, b, at + k * stride);
			}
			putf(b, " %u\n", st[i].count);
			g->rng = saved;
		}
	}
}

void gen_jp(struct gen *g, int stacks)
{
	g->jp.n = 0;
	if (stacks)
		jp_stacks(g);
	else
		jp_lines(g);
}

/* ---- sysprof ------------------------------------------------------------ */

static void uleb(struct gen_buf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		put(b, &c, 1);
	} while (v);
}

static void byte(struct gen_buf *b, uint8_t c)
{
	put(b, &c, 1);
}

/* Each place is a Lua function (a prototype whose defining line is the
 * place's), at an address of its own. */
static uint64_t proto(size_t place)
{
	return 0x10000 + 0x40 * (uint64_t)place;
}

static size_t place_of(const struct gen *g, unsigned name, int32_t line)
{
	size_t first = 0;
	for (size_t i = g->nplaces; i-- > 0;) {
		if (g->places[i].name == name && g->places[i].line == line)
			return i;
		if (g->places[i].name == name)
			first = i;
	}
	return first;
}

static void sp_trace(struct gen *g, uint64_t r)
{
	struct gen_buf *b = &g->sysprof;
	if (!g->ntraces) {
		uleb(b, 1 + r % 8);
		uleb(b, proto(r % g->nplaces));
		uleb(b, (uint64_t)g->places[r % g->nplaces].line);
		return;
	}
	const struct gen_trace *t = &g->traces[r % g->ntraces];
	uleb(b, t->no);
	uleb(b, proto(place_of(g, t->name, t->line)));
	uleb(b, (uint64_t)t->line);
}

void gen_sysprof(struct gen *g)
{
	struct gen_buf *b = &g->sysprof;
	b->n = 0;
	put(b, "ljs\3\0\0\0", 7);
	for (size_t i = 0; i < g->nplaces; i++) {
		const struct gen_name *nm = &g->names[g->places[i].name];
		/* as the fork writes a chunk's name: "=name" for one a loader
		 * named (LuaJIT shows it as given, '/' and all), "@path" for a
		 * file (shown by its base name) */
		int given = memchr(nm->p, '/', nm->n) != NULL;
		byte(b, 0);
		uleb(b, proto(i));
		uleb(b, nm->n + 1);
		byte(b, given ? '=' : '@');
		put(b, nm->p, nm->n);
		uleb(b, (uint64_t)g->places[i].line);
	}
	for (size_t i = 0; i < g->ntraces; i++) {
		byte(b, 2);
		sp_trace(g, i);
	}
	byte(b, 0x80);
	put(b, "ljp\2\0\0\0", 7);
	unsigned n = 4 + (unsigned)(g->recipe[1] % 60);
	for (unsigned k = 0; k < n; k++) {
		uint64_t r = next(g);
		static const uint8_t states[16] = { 1, 1, 1, 1, 1, 1, 9, 9, 9, 9, 0, 2, 3, 4, 5, 7 };
		uint8_t s = states[r % 16];
		if (r % 29 == 0) {         /* a trace compiled while it ran */
			byte(b, 12);
			sp_trace(g, r >> 8);
		}
		byte(b, s);
		if (s == 9) {
			sp_trace(g, r >> 8);
			continue;
		}
		if (s >= 1 && s <= 3) {
			unsigned depth = 1 + (unsigned)((r >> 8) % 4);
			size_t at = (size_t)(r >> 16) % g->nplaces, stride = 1 + (size_t)(r >> 24) % g->nplaces;
			if (s != 1) {           /* a fast or C function on top */
				byte(b, s == 2 ? 3 : 2);
				uleb(b, s == 2 ? 1 + (r >> 32) % 100 : 0x400000 + (r >> 32) % 64);
			}
			for (unsigned i = 0; i < depth; i++) {
				size_t pl = (at + i * stride) % g->nplaces;
				byte(b, 1);
				uleb(b, proto(pl));
				uleb(b, (uint64_t)g->places[pl].line);
			}
			byte(b, 0x80);
		}
		if ((r >> 40) % 2)
			uleb(b, 0x401000 + (r >> 41) % 32);
		uleb(b, 0);
	}
	byte(b, 0x80);
}

/* ---- Lua files ---------------------------------------------------------- */

int gen_name_writable(const struct gen *g, size_t i)
{
	const struct gen_name *nm = &g->names[i];
	const char *p = nm->p;
	size_t n = nm->n;
	if (n == 0 || n > 120 || p[0] == '/')
		return 0;
	for (size_t k = 0; k < n; k++)
		if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f || p[k] == '\\')
			return 0;
	size_t parts = 0;
	for (size_t k = 0; k < n;) {
		size_t e = k;
		while (e < n && p[e] != '/')
			e++;
		if (e == k || p[k] == '.')  /* empty, ".", "..", hidden */
			return 0;
		parts++;
		k = e + 1;
	}
	/* at most three directories: fuzz_combined.c undoes what it made */
	return p[n - 1] != '/' && parts <= 4;
}

int gen_source(struct gen *g, size_t i)
{
	static const char *const lines[] = {
		"local function f%u(t)", "  for i = 1, #t do", "  end", "end",
		"  local x = t[i] or %u", "  t[#t + 1] = function() return x end",
		"return { run = f%u }", "", "local s = (\"%u\"):rep(2)", "while true do break end",
		"  if x then return x end", "local M = {}",
	};
	const struct gen_name *nm = &g->names[i];
	if (nm->last > 600)
		return -1;
	struct gen_buf *b = &g->text;
	b->n = 0;
	int32_t n = nm->last + 2;
	for (int32_t k = 1; k <= n; k++) {
		uint64_t r = next(g);
		putf(b, lines[r % (sizeof(lines) / sizeof(*lines))], (unsigned)k);
		put(b, "\n", 1);
	}
	return 0;
}

void gen_free(struct gen *g)
{
	free(g->jp.p);
	free(g->sysprof.p);
	free(g->text.p);
	memset(g, 0, sizeof(*g));
}
