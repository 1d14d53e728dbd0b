/* explain.c — abort reasons against the catalogue: match, normalise,
 * guess the bytecode numbering, look up and suggest; see explain.h. */
#include <string.h>
#include "luajit/explain.h"

enum err_index {
#define TRACEERR(nm, b, p, m, f, id, rn, sev, w, why, adv) ERR_##nm,
#define TRACEERR_FORM(nm, b, p)
#include "luajit/traceerr.def"
#undef TRACEERR
#undef TRACEERR_FORM
	ERR_COUNT
};

static const struct explain_err errs[ERR_COUNT] = {
#define TRACEERR(nm, b, p, m, f, id, rn, sev, w, why, adv) \
	[ERR_##nm] = { #nm, p, b, m, f, { id, rn, sev, w, why, adv, adv, NULL } },
#define TRACEERR_FORM(nm, b, p)
#include "luajit/traceerr.def"
#undef TRACEERR
#undef TRACEERR_FORM
};

/* Kept apart from errs: setting a member of an entry already initialised
 * is what -Woverride-init warns about. */
static const struct form {
	enum err_index err;
	const char *pattern;
	unsigned builds;
} forms[] = {
#define TRACEERR(nm, b, p, m, f, id, rn, sev, w, why, adv)
#define TRACEERR_FORM(nm, b, p) { ERR_##nm, p, b },
#include "luajit/traceerr.def"
#undef TRACEERR
#undef TRACEERR_FORM
};
#define NFORMS (sizeof(forms) / sizeof(forms[0]))

static const struct explain_bc bcs[] = {
#define BC(nm, n20, n21, nyi, meaning) { #nm, n20, n21, nyi, meaning },
#define BC_RULE(nm, id, rn, sev, w, why, a20, a21, seen)
#include "luajit/bytecodes.def"
#undef BC
#undef BC_RULE
};
#define NBCS (sizeof(bcs) / sizeof(bcs[0]))

static const struct explain_rule bc_rules[] = {
#define BC(nm, n20, n21, nyi, meaning)
#define BC_RULE(nm, id, rn, sev, w, why, a20, a21, seen) { id, rn, sev, w, why, a20, a21, seen },
#include "luajit/bytecodes.def"
#undef BC
#undef BC_RULE
};
static const char *const bc_rule_names[] = {
#define BC(nm, n20, n21, nyi, meaning)
#define BC_RULE(nm, id, rn, sev, w, why, a20, a21, seen) #nm,
#include "luajit/bytecodes.def"
#undef BC
#undef BC_RULE
};
#define NBC_RULES (sizeof(bc_rules) / sizeof(bc_rules[0]))

#define NYIBC_PREFIX "NYI: bytecode "
#define NYICF_TEXT "NYI: C function"

const struct explain_err *explain_errs(size_t *n)
{
	*n = ERR_COUNT;
	return errs;
}

const struct explain_bc *explain_bcs(size_t *n)
{
	*n = NBCS;
	return bcs;
}

const struct explain_rule *explain_bc_rule(const struct explain_bc *bc)
{
	for (size_t i = 0; bc && i < NBC_RULES; i++)
		if (strcmp(bc_rule_names[i], bc->name) == 0)
			return &bc_rules[i];
	return NULL;
}

const struct explain_rule *explain_bc_rules(size_t *n, const char *const **names)
{
	*n = NBC_RULES;
	if (names)
		*names = bc_rule_names;
	return bc_rules;
}

const char *explain_err_form(const struct explain_err *e, unsigned *builds)
{
	for (size_t i = 0; i < NFORMS; i++)
		if (&errs[forms[i].err] == e) {
			if (builds)
				*builds = forms[i].builds;
			return forms[i].pattern;
		}
	return NULL;
}

unsigned explain_err_builds(const struct explain_err *e)
{
	unsigned b = 0;
	const char *form = explain_err_form(e, &b);
	return e->builds | (form ? b : 0);
}

/* -- text helpers --------------------------------------------------------- */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static char lower(char c)
{
	return is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_blank(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_blank((*s)[*n - 1]))
		(*n)--;
}

static int same(const char *a, const char *b, size_t n, int fold)
{
	if (!fold)
		return memcmp(a, b, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (lower(a[i]) != lower(b[i]))
			return 0;
	return 1;
}

/* s[0..n) is a whole word equal to the NUL-terminated w. */
static int equals(const char *s, size_t n, const char *w, int fold)
{
	/* the first byte rules out most names before strlen: callers scan
	 * whole tables, once per abort */
	if (n && (fold ? lower(s[0]) != lower(w[0]) : s[0] != w[0]))
		return 0;
	return strlen(w) == n && same(s, w, n, fold);
}

/* An optional minus sign, then digits only. */
static int is_number(const char *s, size_t n, long *v)
{
	size_t i = (n && s[0] == '-');
	long x = 0;
	if (i == n || n - i > 9)
		return 0;
	for (; i < n; i++) {
		if (!is_digit(s[i]))
			return 0;
		x = x * 10 + (s[i] - '0');
	}
	*v = s[0] == '-' ? -x : x;
	return 1;
}

/* "C:" and hex digits: how dump.lua names a C function by its address. */
static int is_c_address(const char *s, size_t n)
{
	if (n < 3 || s[0] != 'C' || s[1] != ':')
		return 0;
	for (size_t i = 2; i < n; i++) {
		char c = lower(s[i]);
		if (!is_digit(c) && !(c >= 'a' && c <= 'f'))
			return 0;
	}
	return 1;
}

/* Does s[0..n) read as pattern pat?  Every placeholder in the catalogue
 * ends its pattern or comes before a literal tail, so a match is the
 * literal head, the placeholder's text, the literal tail. */
static int match_pattern(const char *pat, const char *s, size_t n, int fold,
                         const char **arg, size_t *arg_len)
{
	const char *pc = strchr(pat, '%');
	if (!pc)
		return equals(s, n, pat, fold);
	size_t head = (size_t)(pc - pat), tail = strlen(pc + 2);
	if (n < head + tail + 1 || !same(s, pat, head, fold) ||
	    !same(s + n - tail, pc + 2, tail, fold))
		return 0;
	const char *a = s + head;
	size_t an = n - head - tail;
	long v;
	if (pc[1] == 'd' && !is_number(a, an, &v))
		return 0;
	*arg = a;
	*arg_len = an;
	return 1;
}

/* -- bytecodes ------------------------------------------------------------ */

const struct explain_bc *explain_bc_named(const char *name, size_t len)
{
	for (size_t i = 0; i < NBCS; i++)
		if (equals(name, len, bcs[i].name, 1))
			return &bcs[i];
	return NULL;
}

const struct explain_bc *explain_bc_numbered(long n, enum explain_flavour fl)
{
	if (fl == EXPLAIN_FLAVOUR_UNKNOWN || n < 0)
		return NULL;
	for (size_t i = 0; i < NBCS; i++)
		if ((fl == EXPLAIN_FLAVOUR_20 ? bcs[i].n20 : bcs[i].n21) == n)
			return &bcs[i];
	return NULL;
}

const struct explain_err *explain_err_named(const char *name, size_t len)
{
	for (size_t i = 0; i < ERR_COUNT; i++)
		if (equals(name, len, errs[i].name, 1))
			return &errs[i];
	return NULL;
}

const struct explain_bc *explain_bcline(const char *line, size_t len)
{
	/* jit/bc.lua writes "%04d %s %-6s": the pc, " ." per inlined call
	 * level, the name.  IR lines have flags, a register or a lower-case
	 * type where the name would be, so they never look like this. */
	if (len < 7 || !is_digit(line[0]) || !is_digit(line[1]) || !is_digit(line[2]) ||
	    !is_digit(line[3]) || line[4] != ' ')
		return NULL;
	size_t i = 5;
	while (i + 1 < len && line[i] == ' ' && line[i + 1] == '.')
		i += 2;
	if (i >= len || line[i] != ' ')
		return NULL;
	size_t start = ++i;
	while (i < len && i - start < 6 && (is_upper(line[i]) || is_digit(line[i])))
		i++;
	if (i == start || !is_upper(line[start]) || (i < len && line[i] != ' '))
		return NULL;
	return explain_bc_named(line + start, i - start);
}

/* -- matching ------------------------------------------------------------- */

/* Fill in an NYIBC match's bytecode from its placeholder text. */
static void resolve_bc(struct explain_match *m, enum explain_flavour fl)
{
	long n;
	if (!is_number(m->arg, m->arg_len, &n)) {
		m->bc = explain_bc_named(m->arg, m->arg_len);
		return;
	}
	m->bc20 = explain_bc_numbered(n, EXPLAIN_FLAVOUR_20);
	m->bc21 = explain_bc_numbered(n, EXPLAIN_FLAVOUR_21);
	if (fl != EXPLAIN_FLAVOUR_UNKNOWN)
		m->bc = fl == EXPLAIN_FLAVOUR_20 ? m->bc20 : m->bc21;
	else if (m->bc20 == m->bc21)
		m->bc = m->bc20;
}

static const struct explain_err *match_text(const char *s, size_t n, int fold,
                                            enum explain_flavour fl, struct explain_match *m)
{
	memset(m, 0, sizeof(*m));
	trim(&s, &n);
	for (size_t i = 0; i < ERR_COUNT && !m->err; i++)
		if (match_pattern(errs[i].pattern, s, n, fold, &m->arg, &m->arg_len))
			m->err = &errs[i];
	for (size_t i = 0; i < NFORMS && !m->err; i++)
		if (match_pattern(forms[i].pattern, s, n, fold, &m->arg, &m->arg_len))
			m->err = &errs[forms[i].err];
	if (m->err == &errs[ERR_NYIBC])
		resolve_bc(m, fl);
	return m->err;
}

const struct explain_err *explain_match(const char *reason, size_t len,
                                        enum explain_flavour fl, struct explain_match *m)
{
	struct explain_match local;
	return match_text(reason, len, 0, fl, m ? m : &local);
}

const struct explain_err *explain_lookup(const char *query, size_t len,
                                         enum explain_flavour fl, struct explain_match *m)
{
	struct explain_match local;
	if (!m)
		m = &local;
	memset(m, 0, sizeof(*m));
	trim(&query, &len);
	if ((m->err = explain_err_named(query, len)))
		return m->err;
	if ((m->bc = explain_bc_named(query, len))) {
		m->err = &errs[ERR_NYIBC];
		return m->err;
	}
	return match_text(query, len, 1, fl, m);
}

/* -- the normal form ------------------------------------------------------ */

struct out {
	char *p;
	size_t cap, len;            /* len: what the whole text needs */
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->cap) {
		size_t room = o->cap - o->len;
		memcpy(o->p + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

int explain_normalise(const char *reason, size_t len, enum explain_flavour fl,
                      const char *opcode, char *out, size_t cap, size_t *out_len)
{
	struct out o = { out, cap, 0 };
	struct explain_match m;
	trim(&reason, &len);
	const struct explain_err *e = explain_match(reason, len, fl, &m);
	long n;
	if (e == &errs[ERR_NYIBC]) {
		const struct explain_bc *name = m.bc;
		const struct explain_bc *hint = opcode ? explain_bc_named(opcode, strlen(opcode)) : NULL;
		/* The printed opcode beats any numbering, when it can be the
		 * number at all: a wrong line must not rename the abort. */
		if (is_number(m.arg, m.arg_len, &n) && hint && (hint->n20 == n || hint->n21 == n))
			name = hint;
		put(&o, NYIBC_PREFIX, strlen(NYIBC_PREFIX));
		if (name)
			put(&o, name->name, strlen(name->name));
		else
			put(&o, m.arg, m.arg_len);
	} else if (e == &errs[ERR_NYICF] && is_c_address(m.arg, m.arg_len)) {
		put(&o, NYICF_TEXT, strlen(NYICF_TEXT));
	} else {
		put(&o, reason, len);
	}
	if (out_len)
		*out_len = o.len;
	if (cap == 0)
		return -1;
	out[o.len < cap ? o.len : cap - 1] = '\0';
	return o.len < cap ? 0 : -1;
}

/* -- the numbering -------------------------------------------------------- */

void explain_note_reason(struct explain_evidence *ev, const char *reason, size_t len,
                         const char *opcode)
{
	struct explain_match m;
	explain_match(reason, len, EXPLAIN_FLAVOUR_UNKNOWN, &m);
	explain_note_match(ev, &m, opcode);
}

void explain_note_match(struct explain_evidence *ev, const struct explain_match *mp,
                        const char *opcode)
{
	const struct explain_match m = *mp;
	const struct explain_err *e = m.err;
	long n;
	if (!e)
		return;
	if (e == &errs[ERR_NYIFF])
		ev->nyi_ffunc++;
	else if (e == &errs[ERR_NYICF])
		ev->nyi_cfunc++;
	else if (!(explain_err_builds(e) & EXPLAIN_LJ20))
		ev->err21++;
	if (e != &errs[ERR_NYIBC])
		return;
	if (!is_number(m.arg, m.arg_len, &n)) {
		ev->nyi_name++;
		return;
	}
	const struct explain_bc *hint = opcode ? explain_bc_named(opcode, strlen(opcode)) : NULL;
	if (hint && (hint->n20 == n) != (hint->n21 == n))
		*(hint->n20 == n ? &ev->pair20 : &ev->pair21) += 1;
	int f20 = m.bc20 && (m.bc20->nyi & EXPLAIN_NYI20);
	int f21 = m.bc21 && (m.bc21->nyi & EXPLAIN_NYI21);
	if (f20 != f21)
		*(f20 ? &ev->fits20 : &ev->fits21) += 1;
}

void explain_note_bc(struct explain_evidence *ev, const struct explain_bc *bc)
{
	if (bc && bc->n20 < 0)
		ev->bc21++;
}

void explain_note_bcline(struct explain_evidence *ev, const char *line, size_t len)
{
	explain_note_bc(ev, explain_bcline(line, len));
}

enum explain_flavour explain_flavour_guess(const struct explain_evidence *ev, const char **why)
{
	const char *w;
	enum explain_flavour fl = EXPLAIN_FLAVOUR_UNKNOWN;
	uint32_t s21 = ev->stitch + ev->err21 + ev->nyi_name + ev->bc21;
	uint32_t s20 = ev->nyi_ffunc + ev->nyi_cfunc;
	if (ev->pair20 || ev->pair21) {
		if (ev->pair20 && ev->pair21)
			w = "NYI bytecode numbers match the printed opcodes in both numberings";
		else if (ev->pair20)
			fl = EXPLAIN_FLAVOUR_20, w = "NYI bytecode numbers are the printed opcodes in 2.0's numbering";
		else
			fl = EXPLAIN_FLAVOUR_21, w = "NYI bytecode numbers are the printed opcodes in 2.1's numbering";
	} else if (s20 || s21) {
		if (s20 && s21)
			w = "the dump shows signs of both 2.0 and 2.1";
		else if (ev->stitch)
			fl = EXPLAIN_FLAVOUR_21, w = "traces are stitched, which only 2.1 does";
		else if (ev->nyi_name)
			fl = EXPLAIN_FLAVOUR_21, w = "NYI bytecodes are named, as 2.1 writes them since 2024";
		else if (ev->bc21)
			fl = EXPLAIN_FLAVOUR_21, w = "bytecode lines name ISTYPE, ISNUM, TGETR or TSETR, which only 2.1 has";
		else if (ev->err21)
			fl = EXPLAIN_FLAVOUR_21, w = "an abort message only 2.1 has";
		else if (ev->nyi_ffunc)
			fl = EXPLAIN_FLAVOUR_20, w = "NYI: FastFunc aborts, which only 2.0 has";
		else
			fl = EXPLAIN_FLAVOUR_20, w = "NYI: C function aborts, which only 2.0 has";
	} else if (ev->fits20 || ev->fits21) {
		if (ev->fits20 && ev->fits21)
			w = "NYI bytecode numbers fit both numberings";
		else if (ev->fits20)
			fl = EXPLAIN_FLAVOUR_20, w = "NYI bytecode numbers name opcodes only 2.0's recorder rejects";
		else
			fl = EXPLAIN_FLAVOUR_21, w = "NYI bytecode numbers name opcodes only 2.1's recorder rejects";
	} else {
		w = "no evidence of either numbering";
	}
	if (why)
		*why = w;
	return fl;
}

const char *explain_flavour_name(enum explain_flavour fl)
{
	return fl == EXPLAIN_FLAVOUR_20 ? "2.0" : fl == EXPLAIN_FLAVOUR_21 ? "2.1" : "unknown";
}

/* -- closest matches ------------------------------------------------------ */

#define KEY_MAX 64              /* longer queries are compared by their head */

/* Case-folded edit distance (Levenshtein) between a[0..an) and b[0..bn),
 * both at most KEY_MAX long. */
static unsigned distance(const char *a, size_t an, const char *b, size_t bn)
{
	unsigned row[KEY_MAX + 1];
	for (size_t j = 0; j <= bn; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= an; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= bn; j++) {
			unsigned up = row[j];
			unsigned best = diag + (lower(a[i - 1]) != lower(b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[bn];
}

static int contains(const char *h, size_t hn, const char *nd, size_t nn)
{
	for (size_t i = 0; nn <= hn && i + nn <= hn; i++)
		if (same(h + i, nd, nn, 1))
			return 1;
	return 0;
}

/* The score of one key (lower is closer), or -1 when too different:
 * containment scores below any edit distance. */
static long key_score(const char *q, size_t qn, const char *key, size_t kn)
{
	if (kn > KEY_MAX)
		kn = KEY_MAX;
	if (contains(key, kn, q, qn) || contains(q, qn, key, kn))
		return (long)(kn > qn ? kn - qn : qn - kn);
	unsigned d = distance(q, qn, key, kn);
	if (2 * (size_t)d > (qn > kn ? qn : kn))
		return -1;
	return KEY_MAX + (long)d;
}

/* A pattern's literal text: up to its placeholder, blanks trimmed. */
static size_t literal_len(const char *pat)
{
	const char *pc = strchr(pat, '%');
	size_t n = pc ? (size_t)(pc - pat) : strlen(pat);
	while (n && is_blank(pat[n - 1]))
		n--;
	return n;
}

static long best(long a, long b)
{
	return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

/* Put a candidate into out[0..*n), kept sorted by score; equal scores
 * keep the order they came in (catalogue order). */
static void rank(struct explain_match *out, long *scores, size_t max, size_t *n,
                 const struct explain_match *c, long score)
{
	if (score < 0)
		return;
	size_t at = *n;
	while (at > 0 && scores[at - 1] > score)
		at--;
	if (at >= max)
		return;
	size_t last = *n < max ? *n : max - 1;
	memmove(out + at + 1, out + at, (last - at) * sizeof(*out));
	memmove(scores + at + 1, scores + at, (last - at) * sizeof(*scores));
	out[at] = *c;
	scores[at] = score;
	if (*n < max)
		(*n)++;
}

size_t explain_closest(const char *query, size_t len, struct explain_match *out, size_t max)
{
	long scores[ERR_COUNT + NBCS];
	size_t n = 0;
	trim(&query, &len);
	if (len == 0 || max == 0)
		return 0;
	if (max > ERR_COUNT + NBCS)
		max = ERR_COUNT + NBCS;
	if (len > KEY_MAX)
		len = KEY_MAX;
	for (size_t i = 0; i < ERR_COUNT; i++) {
		const struct explain_err *e = &errs[i];
		long s = key_score(query, len, e->name, strlen(e->name));
		s = best(s, key_score(query, len, e->pattern, literal_len(e->pattern)));
		const char *form = explain_err_form(e, NULL);
		if (form)
			s = best(s, key_score(query, len, form, literal_len(form)));
		struct explain_match c = { .err = e };
		rank(out, scores, max, &n, &c, s);
	}
	for (size_t i = 0; i < NBCS; i++) {
		if (!bcs[i].meaning)
			continue;       /* only the bytecodes NYI aborts name */
		struct explain_match c = { .err = &errs[ERR_NYIBC], .bc = &bcs[i] };
		rank(out, scores, max, &n, &c, key_score(query, len, bcs[i].name, strlen(bcs[i].name)));
	}
	return n;
}
