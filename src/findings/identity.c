/* identity.c — a finding's identity: a string that stays the same when
 * lines are inserted or removed elsewhere in its file, so that --compare
 * and CI can say "the same finding" across runs, and a short hash of it
 * (the ID column).
 *
 *   v1|GROUP|FILE|ERROR|S:START TEXT#K|A:FAILING TEXT#K[@AT FILE]
 *       when the source was read: the start's and the failing line's
 *       text, whitespace normalised, each with its index K among the
 *       lines of equal text in its file (0: the first);
 *   v1|GROUP|FILE|ERROR|o:N
 *       without it: N, the finding's order among those of its file,
 *       group and error, by line (as --compare matches abort sites);
 *   v1|KIND  for a run-level finding (a flush storm: one per run).
 * GROUP is "start" for loops and functions (whether aborting or
 * blacklisted: the same code getting worse is the same finding), "exit"
 * for exits and stitches, else the kind's word; ERROR the main reason's
 * LuaJIT name (or its normal form when LuaJIT does not list it), empty
 * where there is none; an exit adds "|exit:E". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "util/alloc.h"
#include "util/strbuf.h"

size_t identity_normalise(const char *s, size_t n, char *out)
{
	size_t k = 0;
	int blank = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
			blank = k > 0;
			continue;
		}
		if (blank)
			out[k++] = ' ';
		blank = 0;
		/* one line in the identity: no '|' or control bytes */
		out[k++] = (unsigned char)c < 0x20 || c == 0x7f ? '?' : c;
	}
	out[k] = '\0';
	return k;
}

void identity_hash(const char *s, size_t n, char out[13])
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	snprintf(out, 13, "%012llx", (unsigned long long)(h >> 16));
}

static void put_interned(struct strbuf *b, const char *s)
{
	/* a chunk name may hold any byte: '|' and newlines as '?' */
	size_t n = intern_len(s);
	for (size_t i = 0; i < n; i++) {
		char c = s[i] == '|' || (unsigned char)s[i] < 0x20 ? '?' : s[i];
		strbuf_add(b, &c, 1);
	}
}

static const char *error_of(const struct draft *d)
{
	if (d->pub.error)
		return d->pub.error;
	return d->pub.reason ? d->pub.reason : "";
}

/* Same file, group and error: the drafts an order counts among. */
static int same_group(const struct draft *a, const struct draft *b)
{
	return a->pub.file == b->pub.file && strcmp(a->group, b->group) == 0 &&
	       strcmp(error_of(a), error_of(b)) == 0;
}

static int before(const struct draft *a, const struct draft *b)
{
	if (a->pub.line != b->pub.line)
		return a->pub.line < b->pub.line;
	if (a->pub.at_line != b->pub.at_line)
		return a->pub.at_line < b->pub.at_line;
	return a->pub.count < b->pub.count;
}

/* Drafts by file, group, error, then place: equal groups in a row. */
static int by_group(const void *x, const void *y)
{
	const struct draft *a = *(const struct draft *const *)x, *b = *(const struct draft *const *)y;
	int k = intern_cmp(a->pub.file, b->pub.file);
	if (!k)
		k = strcmp(a->group, b->group);
	if (!k)
		k = strcmp(error_of(a), error_of(b));
	if (k)
		return k;
	return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

void identity_drafts(struct draft *d, size_t n, struct intern *text)
{
	struct strbuf b = STRBUF_INIT;
	/* the order among equals: drafts sorted, counted along each run (a
	 * draft's order is how many of its group come before it, ties
	 * sharing one) */
	struct draft **v = xrealloc(NULL, (n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = &d[i];
	qsort(v, n, sizeof(*v), by_group);
	for (size_t i = 0, run = 0; i < n; i++) {
		if (i && !same_group(v[i - 1], v[i]))
			run = i;
		size_t k = i;
		while (k > run && !before(v[k - 1], v[i]))
			k--;
		v[i]->pub.order = (uint32_t)(k - run);
	}
	free(v);
	for (size_t i = 0; i < n; i++) {
		struct draft *x = &d[i];
		struct da_finding *p = &x->pub;
		b.len = 0;
		strbuf_addstr(&b, "v1|");
		strbuf_addstr(&b, x->group);
		if (p->file) {
			strbuf_addstr(&b, "|");
			put_interned(&b, p->file);
			strbuf_addstr(&b, "|");
			strbuf_addstr(&b, error_of(x));
			char num[48];
			if (p->start_text) {
				strbuf_addstr(&b, "|S:");
				strbuf_addstr(&b, p->start_text);
				snprintf(num, sizeof(num), "#%u", x->start_index);
				strbuf_addstr(&b, num);
				if (p->at_text) {
					strbuf_addstr(&b, "|A:");
					strbuf_addstr(&b, p->at_text);
					snprintf(num, sizeof(num), "#%u", x->at_index);
					strbuf_addstr(&b, num);
					if (p->at_file != p->file) {
						strbuf_addstr(&b, "@");
						put_interned(&b, p->at_file);
					}
				}
			} else {
				snprintf(num, sizeof(num), "|o:%u", p->order);
				strbuf_addstr(&b, num);
			}
			if (p->kind == DA_KIND_HOT_EXIT) {
				snprintf(num, sizeof(num), "|exit:%d", p->exit);
				strbuf_addstr(&b, num);
			}
		}
		p->identity = intern_get(text, b.buf, b.len);
		char h[13];
		identity_hash(b.buf, b.len, h);
		p->id = intern_get(text, h, 12);
	}
	strbuf_release(&b);
}
