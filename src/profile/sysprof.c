/* sysprof.c — a sysprof profile from its stream (sysprof_read.c): samples
 * by VM state, TRACE samples on the newest record of their trace number,
 * interpreted samples on Lua functions, the other samples folded into
 * stacks; see sysprof.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "input/decode.h"
#include "profile/profile.h"
#include "profile/sysprof.h"
#include "profile/sysprof_index.h"
#include "util/alloc.h"

const char *const sp_state_names[SP_STATES] = {
	"INTERP", "LFUNC", "FFUNC", "CFUNC", "GC", "EXIT", "RECORD", "OPT", "ASM", "TRACE",
};

int sp_state_jp(int state)
{
	switch (state) {
	case SP_INTERP:
	case SP_LFUNC:
	case SP_FFUNC: return VM_INTERPRETED;
	case SP_CFUNC: return VM_C;
	case SP_GC: return VM_GC;
	case SP_TRACE: return VM_COMPILED;
	default: return VM_JIT;
	}
}

void sysprof_jp_states(const struct sysprof *p, uint64_t out[VM_STATES])
{
	memset(out, 0, VM_STATES * sizeof(*out));
	for (int s = 0; s < SP_STATES; s++)
		out[sp_state_jp(s)] += p->state[s];
}

void sysprof_init(struct sysprof *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	p->path = path;
	intern_init(&p->strings);
	tally_init(&p->host_names);
}

/* ---- events ---- */

/* The function of that name and defining line: its index in p->funcs. */
static uint32_t func_of(struct sysprof *p, const char *name, int32_t line)
{
	struct tally *t = &p->index->funcs_by;
	tally_add(t, name, NULL, line, 1);
	const struct tally_entry *e = tally_find(t, name, NULL, line);
	if (e->first == p->nfuncs) {
		ALLOC_GROW(p->funcs, p->nfuncs + 1, p->funcs_cap);
		p->funcs[p->nfuncs++] = (struct sp_func){ .file = name, .line = line,
		                                          .last = SP_LAST_UNKNOWN };
	}
	return (uint32_t)e->first;
}

static void on_lfunc(void *ctx, uint64_t addr, const struct sp_str *chunk, uint64_t line,
                     uint64_t at)
{
	(void)at;
	struct sysprof *p = ctx;
	struct sp_index *x = p->index;
	int builtin;
	const char *name = sp_chunk_name(&p->strings, chunk, addr, line, &builtin);
	struct sp_proto pr = { .name = name, .line = builtin ? -1 : sp_line(line) };
	if (builtin) {
		pr.frame = name;
	} else {
		char buf[SP_STR_KEEP + 24];
		size_t n = intern_len(name);
		memcpy(buf, name, n);
		n += (size_t)snprintf(buf + n, 24, ":%d", pr.line);
		pr.frame = intern_get(&p->strings, buf, n);
	}
	pr.func = func_of(p, name, pr.line);
	p->funcs[pr.func].frame = pr.frame;
	ALLOC_GROW(x->proto, x->nproto + 1, x->proto_cap);
	x->proto[x->nproto] = pr;
	sp_map_set(&x->protos, addr, (uint32_t)x->nproto++);
	p->protos++;
}

static void on_cfunc(void *ctx, uint64_t addr, const struct sp_str *name)
{
	struct sysprof *p = ctx;
	struct sp_index *x = p->index;
	ALLOC_GROW(x->csym, x->ncsym + 1, x->csym_cap);
	x->csym[x->ncsym++] = (struct sp_csym){ addr, intern_get(&p->strings, name->p, name->n) };
	p->csyms++;
}

static void on_trace(void *ctx, uint64_t no, uint64_t proto, uint64_t line, uint64_t at,
                     int initial)
{
	struct sysprof *p = ctx;
	struct sp_index *x = p->index;
	uint32_t k = sp_map_get(&x->protos, proto);
	ALLOC_GROW(p->traces, p->ntraces + 1, p->traces_cap);
	p->traces[p->ntraces] = (struct sp_trace){
		.traceno = no > UINT32_MAX ? UINT32_MAX : (uint32_t)no,
		.file = k == SP_NONE ? NULL : x->proto[k].name,
		.line = sp_line(line),
		.proto = proto,
		.offset = at,
		.initial = initial,
	};
	sp_map_set(&x->traces, no, (uint32_t)p->ntraces++);
}

static void on_versions(void *ctx, unsigned symtab, unsigned ljp)
{
	struct sysprof *p = ctx;
	p->symtab_version = symtab;
	p->version = ljp;
}

/* A host frame's name: its symbol, or its address. */
static const char *host_frame(struct sysprof *p, uint64_t addr)
{
	const char *name = sp_csym_find(p->index, addr);
	if (!name) {
		char buf[24];
		name = intern_get(&p->strings, buf, (size_t)snprintf(buf, sizeof(buf), "0x%llx",
		                                                     (unsigned long long)addr));
	}
	if (!tally_get(&p->host_names, name, NULL, 0))
		tally_add(&p->host_names, name, NULL, 0, 1);
	return name;
}

/* A Lua stack frame's name, as -jp=G writes one: "file:line" (the
 * function's defining line here), "[builtin#N]" for a fast function,
 * "@name" (or "@0xADDR") for a C function. */
static const char *lua_frame(struct sysprof *p, const struct sp_frame *f, uint32_t *func)
{
	char buf[40];
	*func = SP_NONE;
	if (f->type == SP_FRAME_LFUNC) {
		uint32_t k = sp_map_get(&p->index->protos, f->addr);
		if (k != SP_NONE) {
			*func = p->index->proto[k].func;
			return p->index->proto[k].frame;
		}
		p->frames_unknown++;
		return intern_get(&p->strings, buf, (size_t)snprintf(buf, sizeof(buf), "0x%llx:%d",
		                  (unsigned long long)f->addr, sp_line(f->line)));
	}
	if (f->type == SP_FRAME_FFUNC)
		return intern_get(&p->strings, buf, (size_t)snprintf(buf, sizeof(buf), "[builtin#%llu]",
		                  (unsigned long long)f->addr));
	const char *name = sp_csym_find(p->index, f->addr);
	if (name && strlen(name) < sizeof(buf) - 1) {
		snprintf(buf, sizeof(buf), "@%s", name);
		return intern_get(&p->strings, buf, strlen(buf));
	}
	return intern_get(&p->strings, buf, (size_t)snprintf(buf, sizeof(buf), "@0x%llx",
	                  (unsigned long long)f->addr));
}

static int host_entry(const char *name)
{
	return strcmp(name, "lua_pcall") == 0 || strcmp(name, "lua_call") == 0 ||
	       strcmp(name, "lua_cpcall") == 0 || strcmp(name, "lua_resume") == 0;
}

/* ---- folded stacks: each distinct stack once, found by its hash ---- */

static uint64_t stack_hash(uint8_t state, const char *const *frames, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL ^ state;
	for (uint32_t i = 0; i < n; i++) {
		h ^= (uint64_t)(uintptr_t)frames[i];
		h *= 1099511628211ULL;
	}
	return h ^ n;
}

static int same_stack(const struct sysprof *p, const struct sp_stack *s, uint8_t state,
                      const char *const *frames, uint32_t n)
{
	return s->state == state && s->nframes == n &&
	       (n == 0 || memcmp(p->frames + s->first, frames, n * sizeof(*frames)) == 0);
}

static void slots_grow(struct sysprof *p)
{
	struct sp_index *x = p->index;
	size_t n = x->nstack_slots ? x->nstack_slots * 2 : 1024;
	uint32_t *slots = xrealloc(NULL, n * sizeof(*slots));
	memset(slots, 0, n * sizeof(*slots));
	for (size_t i = 0; i < p->nstacks; i++) {
		const struct sp_stack *s = &p->stacks[i];
		size_t k = sp_slot_of(stack_hash(s->state, s->nframes ? p->frames + s->first : NULL,
		                              s->nframes), n);
		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = (uint32_t)i + 1;
	}
	free(x->stack_slots);
	x->stack_slots = slots;
	x->nstack_slots = n;
}

/* Count one sample of stack frames[0..n) (outermost first) in state. */
static void fold(struct sysprof *p, uint8_t state, const char *const *frames, uint32_t n)
{
	struct sp_index *x = p->index;
	if ((p->nstacks + 1) * 2 > x->nstack_slots)
		slots_grow(p);
	size_t k = sp_slot_of(stack_hash(state, frames, n), x->nstack_slots);
	while (x->stack_slots[k]) {
		struct sp_stack *s = &p->stacks[x->stack_slots[k] - 1];
		if (same_stack(p, s, state, frames, n)) {
			s->count++;
			return;
		}
		k = (k + 1) & (x->nstack_slots - 1);
	}
	if (n) {
		ALLOC_GROW(p->frames, p->nframes + n, p->frames_cap);
		memcpy(p->frames + p->nframes, frames, n * sizeof(*frames));
	}
	ALLOC_GROW(p->stacks, p->nstacks + 1, p->stacks_cap);
	p->stacks[p->nstacks] = (struct sp_stack){ (uint32_t)p->nframes, n, state, 1 };
	p->nframes += n;
	x->stack_slots[k] = (uint32_t)++p->nstacks;
}

static void on_sample(void *ctx, const struct sp_sample *s)
{
	struct sysprof *p = ctx;
	struct sp_index *x = p->index;
	p->samples++;
	p->state[s->state]++;
	if (s->state == SP_TRACE) {
		uint32_t k = sp_map_get(&x->traces, s->traceno);
		if (k == SP_NONE) {
			p->trace_unknown++;
			return;
		}
		p->traces[k].samples++;
		if (p->traces[k].proto != s->trace_proto)
			p->trace_other++;
		return;
	}
	/* frames outermost first: a cut marker, the host's frames up to its
	 * entry into Lua (all of them for a sample without Lua frames), the
	 * Lua frames */
	const char *fr[2 * SP_MAX_FRAMES + 1];
	uint32_t n = 0;
	if (s->lua_cut || s->host_cut) {
		p->cut_stacks++;
		fr[n++] = intern_get(&p->strings, "[deeper frames]", 15);
	}
	p->host_frames += s->nhost;
	uint32_t h = s->nhost;
	while (h > 0) {
		const char *name = host_frame(p, s->host[--h]);
		fr[n++] = name;
		if (s->nlua && host_entry(name))
			break;
	}
	if (x->stamp_cap < p->nfuncs) {
		size_t old = x->stamp_cap;
		ALLOC_GROW(x->stamp, p->nfuncs, x->stamp_cap);
		memset(x->stamp + old, 0, (x->stamp_cap - old) * sizeof(*x->stamp));
	}
	uint32_t top = SP_NONE;             /* the innermost Lua function's */
	for (uint32_t i = s->nlua; i-- > 0;) {
		uint32_t func;
		fr[n++] = lua_frame(p, &s->lua[i], &func);
		if (s->lua[i].type == SP_FRAME_LFUNC)
			top = func;
		if (func != SP_NONE && x->stamp[func] != p->samples) {
			x->stamp[func] = p->samples;
			p->funcs[func].on_stack++;
		}
	}
	/* interpreted time: in the function on top, or in a fast function it
	 * called; C time: in a C function it called */
	if (top != SP_NONE) {
		int leaf_lua = s->lua[0].type == SP_FRAME_LFUNC;
		if (s->state == SP_LFUNC && leaf_lua)
			p->funcs[top].interpreted++;
		else if (s->state == SP_FFUNC && !leaf_lua)
			p->funcs[top].interpreted++;
		else if (s->state == SP_CFUNC && !leaf_lua)
			p->funcs[top].c++;
	}
	fold(p, s->state, fr, n);
}

/* ---- sources ---- */

/* A file: the bytes read to recognise it, then the rest. */
struct fd_source {
	int fd;
	unsigned char head[8];
	size_t nhead, head_pos;
	struct decoder *dec;        /* compressed: it reads fd, head first */
};

static long fd_read(void *ctx, unsigned char *buf, size_t n)
{
	struct fd_source *f = ctx;
	if (f->head_pos < f->nhead) {
		size_t k = f->nhead - f->head_pos < n ? f->nhead - f->head_pos : n;
		memcpy(buf, f->head + f->head_pos, k);
		f->head_pos += k;
		return (long)k;
	}
	for (;;) {
		ssize_t r = read(f->fd, buf, n);
		if (r >= 0)
			return (long)r;
		if (errno != EINTR)
			return -errno;
	}
}

static long dec_read(void *ctx, unsigned char *buf, size_t n)
{
	struct fd_source *f = ctx;
	long r = decode_read(f->dec, buf, n);
	if (r < 0)
		return -EIO;
	if (r == 0 && decode_truncated(f->dec))
		return -EPIPE;
	return r;
}

struct mem_source {
	const unsigned char *p;
	size_t n;
};

static long mem_read(void *ctx, unsigned char *buf, size_t n)
{
	struct mem_source *m = ctx;
	size_t k = m->n < n ? m->n : n;
	if (k)
		memcpy(buf, m->p, k);
	m->p += k;
	m->n -= k;
	return (long)k;
}

/* ---- loading ---- */

static int by_time(const void *a, const void *b)
{
	const struct sp_func *x = a, *y = b;
	if (x->interpreted != y->interpreted)
		return x->interpreted > y->interpreted ? -1 : 1;
	if (x->c != y->c)
		return x->c > y->c ? -1 : 1;
	if (x->on_stack != y->on_stack)
		return x->on_stack > y->on_stack ? -1 : 1;
	int c = intern_cmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

struct load { struct sysprof *p; sp_source src; void *ctx; struct sysprof_error *e; int r; };

static void load_run(void *arg)
{
	struct load *l = arg;
	struct sysprof *p = l->p;
	static const struct sp_events ev_template = {
		NULL, on_lfunc, on_cfunc, on_trace, on_sample, on_versions,
	};
	struct sp_events ev = ev_template;
	ev.ctx = p;
	p->index = xrealloc(NULL, sizeof(*p->index));
	memset(p->index, 0, sizeof(*p->index));
	tally_init(&p->index->funcs_by);
	l->r = sp_parse(l->src, l->ctx, &ev, l->e, &p->bytes);
	int saved = errno;
	sp_index_free(p->index);
	p->index = NULL;
	/* those with samples first: the others only say where functions
	 * begin (see sysprof_defined) */
	if (p->nfuncs > 1)
		qsort(p->funcs, p->nfuncs, sizeof(*p->funcs), by_time);
	p->nsampled = 0;
	while (p->nsampled < p->nfuncs && p->funcs[p->nsampled].on_stack)
		p->nsampled++;
	errno = saved;
}

static int load(struct sysprof *p, sp_source src, void *ctx, struct sysprof_error *e)
{
	struct load l = { p, src, ctx, e, 0 };
	if (oom_call(load_run, &l) < 0) {
		sp_index_free(p->index);
		p->index = NULL;
		e->offset = p->bytes;
		snprintf(e->msg, sizeof(e->msg), "out of memory");
		return SYSPROF_ENOMEM;
	}
	return l.r;
}

int sysprof_load_memory(struct sysprof *p, const void *buf, size_t n, struct sysprof_error *e)
{
	struct mem_source m = { buf, n };
	return load(p, mem_read, &m, e);
}

int sysprof_sniff(const unsigned char *p, size_t n)
{
	return n >= 3 && p[0] == 'l' && p[1] == 'j' && p[2] == 's';
}

/* Open path and read its first bytes: the source, decompressing when
 * they say so.  0 or -errno. */
static int open_source(struct fd_source *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	while (f->nhead < sizeof(f->head)) {
		ssize_t r = read(f->fd, f->head + f->nhead, sizeof(f->head) - f->nhead);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(f->fd);
			return -err;
		}
		if (r == 0)
			break;
		f->nhead += (size_t)r;
	}
	enum compression c = decode_detect(f->head, f->nhead);
	if (c != COMP_NONE) {
		/* the decoder takes the head itself, then reads the rest */
		f->head_pos = f->nhead;
		f->dec = decode_new(c, fd_read, f, f->head, f->nhead);
	}
	return 0;
}

static void close_source(struct fd_source *f)
{
	if (f->dec)
		decode_free(f->dec);
	close(f->fd);
}

int sysprof_file_is(const char *path)
{
	struct fd_source f;
	int r = open_source(&f, path);
	if (r < 0)
		return r;
	unsigned char b[4];
	long n = 0;
	while (n < 4) {
		long k = f.dec ? dec_read(&f, b + n, (size_t)(4 - n)) : fd_read(&f, b + n, (size_t)(4 - n));
		if (k <= 0)
			break;
		n += k;
	}
	close_source(&f);
	return sysprof_sniff(b, (size_t)n);
}

int sysprof_load(struct sysprof *p, const char *path, struct sysprof_error *e)
{
	struct fd_source f;
	memset(e, 0, sizeof(*e));
	int r = open_source(&f, path);
	if (r < 0) {
		errno = -r;
		snprintf(e->msg, sizeof(e->msg), "%s", strerror(-r));
		return SYSPROF_EIO;
	}
	r = f.dec ? load(p, dec_read, &f, e) : load(p, fd_read, &f, e);
	int saved = errno;
	if (r == SYSPROF_EIO && saved == EPIPE)
		snprintf(e->msg, sizeof(e->msg), "the compressed stream is cut short after byte %llu "
		         "of its contents", (unsigned long long)p->bytes);
	else if (r == SYSPROF_EIO && f.dec)
		snprintf(e->msg, sizeof(e->msg), "%s", decode_error(f.dec));
	if (r == SYSPROF_EIO && saved == EPIPE)
		r = SYSPROF_EBAD;
	close_source(&f);
	errno = saved;
	return r;
}

void sysprof_free(struct sysprof *p)
{
	sp_index_free(p->index);
	intern_free(&p->strings);
	tally_free(&p->host_names);
	free(p->funcs);
	free(p->traces);
	free(p->stacks);
	free(p->frames);
	memset(p, 0, sizeof(*p));
}

const struct sp_func *sysprof_functions(const struct sysprof *p, size_t *n)
{
	*n = p->nsampled;
	return p->funcs;
}

int sysprof_is_host_frame(const struct sysprof *p, const char *frame)
{
	return tally_get(&p->host_names, frame, NULL, 0) != 0;
}
