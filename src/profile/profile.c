/* profile.c — reading -jp output; see profile.h.  The formats are those
 * of LuaJIT's src/jit/p.lua: "%5d  %s" (or "%2d%%  %s") for a key and
 * its count, the same after "  <- " / "  -- " for the second level of
 * keys, and "%s %d" for the folded stacks of -jp=G. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "profile/profile.h"
#include "util/arena.h"
#include "util/diag.h"
#include "input/input.h"
#include "luajit/recipe.h"

const char *const vm_state_names[VM_STATES] = {
	"Interpreted", "Compiled", "C code", "Garbage Collector", "JIT Compiler",
};

enum { FMT_NONE, FMT_TABLE, FMT_FOLDED, FMT_NO_SAMPLES };

#define NOT_A_LINE "not a line of a -jp profile dumpanalyze reads (-jp=lvr, vlr, lv, vl, Gl or Gvl)"

void profile_init(struct profile *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	p->path = path;
	p->cur_state = -1;
	intern_init(&p->strings);
	tally_init(&p->by_line);
}

static int state_of(const char *s, size_t n)
{
	for (int i = 0; i < VM_STATES; i++)
		if (strlen(vm_state_names[i]) == n && memcmp(vm_state_names[i], s, n) == 0)
			return i;
	return -1;
}

int profile_split_frame(const char *s, size_t n, size_t *file_len, int32_t *line)
{
	size_t i = n;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == n || i < 2 || s[i - 1] != ':' || n - i > 9)
		return 0;
	*file_len = i - 1;
	*line = (int32_t)strtol(s + i, NULL, 10);
	return 1;
}

int profile_frame_is_c_boundary(const char *s, size_t n)
{
	size_t fl;
	int32_t line;
	if (profile_split_frame(s, n, &fl, &line))
		return 0;
	return !((n == 5 && memcmp(s, "pcall", 5) == 0) || (n == 6 && memcmp(s, "xpcall", 6) == 0));
}

int profile_bc_source(const char *l, size_t n, const char **file, size_t *file_len,
                      int32_t *line)
{
	if (n < 5 || l[n - 1] != ')')
		return 0;
	size_t open = n - 1;
	while (open > 0 && l[open] != '(')
		open--;
	if (l[open] != '(' || !profile_split_frame(l + open + 1, n - open - 2, file_len, line))
		return 0;
	*file = l + open + 1;
	return 1;
}

const char *profile_basename(const char *file, size_t n, size_t *len)
{
	const char *slash = NULL;
	for (size_t i = 0; i < n; i++)
		if (file[i] == '/')
			slash = file + i;
	if (!slash) {
		*len = n;
		return file;
	}
	*len = n - (size_t)(slash + 1 - file);
	return slash + 1;
}

/* The entry of a source line, made on first sight. */
static struct profile_line *line_entry(struct profile *p, const char *file, size_t n, int32_t line)
{
	const char *f = intern_get(&p->strings, file, n);
	tally_add(&p->by_line, f, NULL, line, 1);
	const struct tally_entry *e = tally_find(&p->by_line, f, NULL, line);
	if (e->first == p->nlines) {
		ALLOC_GROW(p->lines, p->nlines + 1, p->lines_cap);
		memset(&p->lines[p->nlines], 0, sizeof(p->lines[0]));
		p->lines[p->nlines].file = f;
		p->lines[p->nlines].line = line;
		p->nlines++;
	}
	return &p->lines[e->first];
}

/* Samples at a location key: a source line, or "other" (C, builtins). */
static void add_at(struct profile *p, const char *key, size_t n, int state, uint64_t v)
{
	size_t flen;
	int32_t line;
	if (!profile_split_frame(key, n, &flen, &line)) {
		p->other += v;
		p->cur_is_line = 0;
		return;
	}
	struct profile_line *l = line_entry(p, key, flen, line);
	l->samples += v;
	if (state >= 0)
		l->state[state] += v;
	p->cur_line = (size_t)(l - p->lines);
	p->cur_is_line = 1;
}

/* "a.lua:3 < b.lua:9" (-jp=l2): the location sampled is the callee. */
static void callee_of(const char **key, size_t *n)
{
	for (size_t i = 0; i + 3 <= *n; i++)
		if (memcmp(*key + i, " < ", 3) == 0) {
			*n = i;
			return;
		}
	for (size_t i = *n; i >= 3; i--)
		if (memcmp(*key + i - 3, " > ", 3) == 0) {
			*key += i;
			*n -= i;
			return;
		}
}

/* A level-1 key's second-level lines were cut when they do not add up. */
static void close_group(struct profile *p)
{
	if (p->cur_count && p->cur_nested && p->cur_nested < (p->percent ? 97 : p->cur_count))
		p->thresholded = 1;
	p->cur_count = p->cur_nested = 0;
}

/* "%5d  KEY" or "%2d%%  KEY", after the indent: the count (a percentage
 * when *pct), and the key. */
static int count_and_key(const char *s, size_t n, uint64_t *v, int *pct, const char **key, size_t *klen)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	size_t d = i;
	uint64_t x = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9' && i - d < 18)
		x = x * 10 + (uint64_t)(s[i++] - '0');
	if (i == d)
		return -1;
	*pct = i < n && s[i] == '%';
	if (*pct)
		i++;
	if (i + 2 >= n || s[i] != ' ' || s[i + 1] != ' ' || s[i + 2] == ' ')
		return -1;
	*v = x;
	*key = s + i + 2;
	*klen = n - i - 2;
	return 0;
}

/* LuaJIT's base functions: the only names without a '.' that -jp=l
 * shows (a sample in a fast function is named, not located). */
static const char *const base_functions[] = {
	"assert", "type", "next", "pairs", "ipairs", "getmetatable", "setmetatable",
	"getfenv", "setfenv", "rawget", "rawset", "rawequal", "rawlen", "unpack", "select",
	"tonumber", "tostring", "error", "pcall", "xpcall", "loadfile", "load", "loadstring",
	"dofile", "gcinfo", "collectgarbage", "newproxy", "print", "require", "module", NULL
};

/* A first-level key that -jp=f (function names) prints and -jp=l never
 * does: a Lua function's name, or a main chunk as "FILE:0" (its line
 * defined; -jp=l prints the line sampled, never 0). */
static int function_key(const char *k, size_t n)
{
	if (n > 2 && k[n - 2] == ':' && k[n - 1] == '0')
		return 1;
	for (size_t i = 0; i < n; i++)
		if (!(k[i] == '_' || (k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') ||
		      (i > 0 && k[i] >= '0' && k[i] <= '9')))
			return 0;
	for (size_t i = 0; base_functions[i]; i++)
		if (strlen(base_functions[i]) == n && memcmp(base_functions[i], k, n) == 0)
			return 0;
	return n > 0;
}

static int table_line(struct profile *p, const char *s, size_t n, const char **why)
{
	int nested = n > 5 && s[0] == ' ' && s[1] == ' ' &&
	             (s[2] == '<' || s[2] == '-') && (s[3] == '-' || s[3] == '>') && s[4] == ' ';
	uint64_t v;
	int pct;
	const char *key;
	size_t klen;
	if (count_and_key(nested ? s + 5 : s, nested ? n - 5 : n, &v, &pct, &key, &klen) < 0 ||
	    pct != p->percent) {
		*why = NOT_A_LINE;
		return -1;
	}
	int st = state_of(key, klen);
	if (!nested) {
		close_group(p);
		if (p->nlines == 0 && p->other == 0 && p->total == 0)
			p->top_is_state = st >= 0;
		if ((st >= 0) != p->top_is_state) {
			*why = "VM states and source lines mixed at the first level";
			return -1;
		}
		uint64_t units = p->percent ? v * 100 : v;     /* percentages: 0.01% units */
		p->total += units;
		p->cur_count = v;
		if (st >= 0) {
			p->states = 1;
			p->cur_state = st;
			p->cur_is_line = 0;
			p->state_total[st] += units;
		} else {
			callee_of(&key, &klen);
			if (function_key(key, klen)) {
				*why = "function names, not source lines (-jp=f): record with " RECIPE_JP;
				return -1;
			}
			add_at(p, key, klen, -1, units);
		}
		return 0;
	}
	if (!p->cur_count) {
		*why = "a second-level line before any first-level one";
		return -1;
	}
	p->cur_nested += v;
	uint64_t parent = p->percent ? p->cur_count * 100 : p->cur_count;
	uint64_t units = p->percent ? parent * v / 100 : v;
	if (p->top_is_state) {
		if (st >= 0) {
			*why = "a VM state under a VM state";
			return -1;
		}
		callee_of(&key, &klen);
		add_at(p, key, klen, p->cur_state, units);
		return 0;
	}
	if (st < 0) {
		/* -jp=l2 and the like split by caller: nothing for us. */
		return 0;
	}
	p->states = 1;
	p->state_total[st] += units;
	if (p->cur_is_line)
		p->lines[p->cur_line].state[st] += units;
	return 0;
}

static int folded_line(struct profile *p, const char *s, size_t n, const char **why)
{
	size_t sp = n;
	while (sp > 0 && s[sp - 1] != ' ')
		sp--;
	uint64_t v = 0;
	size_t i = sp;
	while (i < n && s[i] >= '0' && s[i] <= '9' && i - sp < 18)
		v = v * 10 + (uint64_t)(s[i++] - '0');
	if (sp < 2 || i != n || i == sp || s[0] == ' ') {
		*why = NOT_A_LINE;
		return -1;
	}
	size_t klen = sp - 1;
	int st = state_of(s, klen);
	if (st >= 0) {
		if (p->cur_nested != p->cur_count) {
			*why = "the stacks of a VM state do not add up to its count (-jp=Glv? record with " RECIPE_JP ")";
			return -1;
		}
		p->states = 1;
		p->cur_state = st;
		p->cur_count = v;
		p->cur_nested = 0;
		return 0;
	}
	if (p->states)
		p->cur_nested += v;
	ALLOC_GROW(p->stacks, p->nstacks + 1, p->stacks_cap);
	struct profile_stack *k = &p->stacks[p->nstacks++];
	k->first = (uint32_t)p->nframes;
	k->nframes = 0;
	k->state = p->states ? p->cur_state : -1;
	k->count = v;
	const char *leaf = s;
	size_t leaf_len = klen;
	for (size_t a = 0; a <= klen;) {
		const char *semi = memchr(s + a, ';', klen - a);
		size_t b = semi ? (size_t)(semi - s) : klen;
		ALLOC_GROW(p->frames, p->nframes + 1, p->frames_cap);
		p->frames[p->nframes++] = intern_get(&p->strings, s + a, b - a);
		k->nframes++;
		leaf = s + a;
		leaf_len = b - a;
		a = b + 1;
	}
	p->total += v;
	if (k->state >= 0)
		p->state_total[k->state] += v;
	add_at(p, leaf, leaf_len, k->state, v);
	return 0;
}

int profile_line(struct profile *p, const char *s, size_t n, const char **why)
{
	p->lineno++;
	if (n == 0)
		return 0;
	if (p->format == FMT_NONE || p->format == FMT_NO_SAMPLES) {
		if (n == 22 && memcmp(s, "[No samples collected]", 22) == 0) {
			p->format = FMT_NO_SAMPLES;
			return 0;
		}
		if (p->format == FMT_NO_SAMPLES) {
			*why = "text after \"[No samples collected]\"";
			return -1;
		}
		uint64_t v;
		const char *key;
		size_t klen;
		int pct;
		if (count_and_key(s, n, &v, &pct, &key, &klen) == 0) {
			p->format = FMT_TABLE;
			p->percent = pct;
		} else if (s[0] != ' ') {
			p->format = FMT_FOLDED;
		} else {
			*why = NOT_A_LINE;
			return -1;
		}
	}
	return p->format == FMT_TABLE ? table_line(p, s, n, why) : folded_line(p, s, n, why);
}

int profile_end(struct profile *p, const char **why)
{
	if (p->format == FMT_FOLDED && p->states && p->cur_nested != p->cur_count) {
		*why = "the stacks of a VM state do not add up to its count (-jp=Glv? record with " RECIPE_JP ")";
		return -1;
	}
	if (p->format == FMT_TABLE)
		close_group(p);
	if (p->format == FMT_NONE) {
		*why = "no profile lines (record one with " RECIPE_JP ",FILE)";
		return -1;
	}
	if (p->format == FMT_NO_SAMPLES) {
		p->kind = PROFILE_EMPTY;
		return 0;
	}
	if (p->nlines == 0) {
		*why = "no file:line in the profile (record with " RECIPE_JP ", "
		       "not with function names, -jp=f, or VM states alone, -jp=v)";
		return -1;
	}
	p->kind = p->format == FMT_FOLDED ? PROFILE_STACKS : PROFILE_LINES;
	if (p->percent) {
		p->total = 10000;
		/* First-level percentages that do not reach 100: lines cut. */
		uint64_t listed = p->other;
		for (size_t i = 0; i < p->nlines; i++)
			listed += p->lines[i].samples;
		if (!p->top_is_state && listed < 9700)
			p->thresholded = 1;
	} else if (p->format == FMT_TABLE && !p->top_is_state && p->nlines >= 3) {
		/* Without m0, -jp shows no line under 3% (rounded): a profile
		 * whose every line is at least that looks cut. */
		int all_big = 1;
		for (size_t i = 0; i < p->nlines && all_big; i++)
			all_big = p->lines[i].samples * 1000 >= p->total * 25;
		if (all_big)
			p->thresholded = 1;
	}
	return 0;
}

int profile_load(struct profile *p, const char *path, struct profile_error *e)
{
	struct input in;
	memset(e, 0, sizeof(*e));
	int r = input_open(&in, path);
	if (r < 0) {
		snprintf(e->msg, sizeof(e->msg), "%s", strerror(-r));
		errno = -r;
		return -2;
	}
	struct line l;
	const char *why = NULL;
	while ((r = input_next(&in, &l)) > 0) {
		if (input_line_overlong(&l)) {
			why = "line longer than 1048576 bytes";
			break;
		}
		if (profile_line(p, l.p, l.len, &why) < 0)
			break;
	}
	if (r < 0) {
		snprintf(e->msg, sizeof(e->msg), "%s", input_error(&in));
		input_close(&in);
		errno = EIO;
		return -2;
	}
	if (r > 0) {
		e->line = l.no;
		if (input_line_overlong(&l))
			snprintf(e->msg, sizeof(e->msg), "%s", why);
		else
			snprintf(e->msg, sizeof(e->msg), "%s: %.*s", why, (int)(l.len > 80 ? 80 : l.len), l.p);
		input_close(&in);
		return -1;
	}
	input_close(&in);
	if (profile_end(p, &why) < 0) {
		e->line = p->lineno;
		snprintf(e->msg, sizeof(e->msg), "%s", why);
		return -1;
	}
	return 0;
}

void profile_free(struct profile *p)
{
	intern_free(&p->strings);
	tally_free(&p->by_line);
	free(p->lines);
	free(p->stacks);
	free(p->frames);
	memset(p, 0, sizeof(*p));
}
