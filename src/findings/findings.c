/* findings.c — the ranked list of what to fix first, built once at the
 * end of a run (see findings.h): one finding per start where attempts
 * aborted (a loop, function, exit or stitch, grouping its abort sites),
 * per hot exit without a side trace, and per run-level diagnosis (flush
 * storm, machine code or trace limit, side-trace explosion, long chain).
 * Each takes its rule from the catalogue (its main reason's, or its
 * kind's), its place from the source (place.c), its identity
 * (identity.c), its cost from the profile (cost.c) and its advice
 * (advice.c); the list is ranked run-wide problems first (flush storms,
 * machine code and trace limits: they cost everything else), then by cost
 * when there is a profile, then by score = the rule's weight x the kind's
 * count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "findings/baseline.h"
#include "analysis/diagnose.h"
#include "util/alloc.h"

/* ---- the kinds ----------------------------------------------------------- */

static const struct finding_kind kinds[] = {
#define KIND(e, word, id, rn, sev, w, title, why, adv) \
	{ DA_KIND_##e, word, { id, rn, sev, w, why, adv, adv, NULL }, title },
#define UNKNOWN_RULE(id, rn, sev, w, why, adv)
#include "findings/kinds.def"
#undef KIND
#undef UNKNOWN_RULE
};
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == DA_KIND_COUNT, "kinds.def and enum da_finding_kind");

static const struct explain_rule unknown_rule =
#define KIND(e, word, id, rn, sev, w, title, why, adv)
#define UNKNOWN_RULE(id, rn, sev, w, why, adv) { id, rn, sev, w, why, adv, adv, NULL };
#include "findings/kinds.def"
#undef KIND
#undef UNKNOWN_RULE

const struct finding_kind *findings_kinds(size_t *n)
{
	*n = sizeof(kinds) / sizeof(kinds[0]);
	return kinds;
}

const struct finding_kind *findings_kind(enum da_finding_kind k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == k)
			return &kinds[i];
	return &kinds[0];
}

const struct explain_rule *findings_unknown_rule(void)
{
	return &unknown_rule;
}

/* ---- drafts -------------------------------------------------------------- */

struct drafts { struct draft *v; size_t n, cap; };

static struct draft *new_draft(struct drafts *ds, enum da_finding_kind kind)
{
	ALLOC_GROW(ds->v, ds->n + 1, ds->cap);
	struct draft *d = &ds->v[ds->n++];
	memset(d, 0, sizeof(*d));
	d->pub.kind = kind;
	d->pub.line = d->pub.end_line = d->pub.at_line = d->pub.cause_line = DA_NO_LINE;
	d->pub.exit = DA_PARENT_EXIT_NONE;
	d->bc_rule_index = -1;
	d->scope = "loop or function";
	d->scope_line = DA_NO_LINE;
	d->ctx_line = d->call_line = DA_NO_LINE;
	d->group = findings_kind(kind)->word;
	d->rule = findings_kind(kind)->rule.id ? &findings_kind(kind)->rule : NULL;
	return d;
}

/* A reason's rule: its bytecode's for NYIBC, else its error's, else the
 * catch-all; *bc_index the bytecode rule's index or -1. */
static const struct explain_rule *rule_of(const char *reason, const char *error, int *bc_index)
{
	*bc_index = -1;
	const struct explain_err *e = error ? explain_err_named(error, strlen(error)) : NULL;
	if (!e)
		return findings_unknown_rule();
	if (strcmp(e->name, "NYIBC") == 0 && reason) {
		struct explain_match m;
		explain_lookup(reason, strlen(reason), EXPLAIN_FLAVOUR_UNKNOWN, &m);
		const struct explain_rule *r = m.bc ? explain_bc_rule(m.bc) : NULL;
		if (r) {
			size_t n;
			const struct explain_rule *all = explain_bc_rules(&n, NULL);
			*bc_index = (int)(r - all);
			return r;
		}
	}
	return &e->rule;
}

const struct explain_rule *findings_reason_rule(const char *reason)
{
	const struct explain_err *e = explain_lookup(reason, strlen(reason), EXPLAIN_FLAVOUR_UNKNOWN,
	                                             NULL);
	int bi;
	return rule_of(reason, e ? e->name : NULL, &bi);
}

/* "0009  FNEW  8  0  ; annotated.lua:21   (annotated.lua:21)": the
 * closure's own line, after "; ", before luajit2's "(file:line)". */
static int closure_line(const char *bc, const char **file, size_t *flen, int32_t *line)
{
	const char *semi = strstr(bc, "; ");
	if (!semi)
		return 0;
	const char *s = semi + 2;
	size_t n = strlen(s);
	if (n && s[n - 1] == ')') {
		const char *open = strrchr(s, '(');
		if (open && open > s && open[-1] == ' ')
			n = (size_t)(open - s);
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!profile_split_frame(s, n, flen, line))
		return 0;
	*file = s;
	return 1;
}

static void cause_of(struct findings *f, struct draft *d)
{
	struct da_finding *p = &d->pub;
	const struct start_reason *m = d->main;
	if (!m || !m->error)
		return;
	const char *file;
	size_t flen;
	int32_t line;
	if (strcmp(m->error, "NYIBC") == 0 && m->bytecode && strstr(m->reason, "FNEW") &&
	    closure_line(m->bytecode, &file, &flen, &line)) {
		p->cause_file = intern_get(&f->text, file, flen);
		p->cause_line = line;
		return;
	}
	/* "NYI: FastFunc string.find", "... variant of FastFunc string.gsub" */
	const char *ff = strstr(m->reason, "FastFunc ");
	if (ff && (strcmp(m->error, "NYIFF") == 0 || strcmp(m->error, "NYIFFU") == 0)) {
		ff += strlen("FastFunc ");
		p->cause_file = intern_get(&f->text, ff, strlen(ff));
	}
}

/* A start's reasons summed by reason, most first (ties: first seen), then
 * the deciding one moved to the front: the one whose rule is the most
 * severe, of those the one most attempts ended with.  An attempt that
 * ended with a costly reason shows code on a path through the start that
 * no retry compiles, whatever the other attempts ended with first (an
 * early exit, an inner loop not yet compiled), so one is enough.  Its
 * place is where most of its attempts failed. */
static void start_draft(struct findings *f, struct drafts *ds, const struct fstart *s,
                        struct da_reason_count **rows, size_t *nrows, size_t *rows_cap)
{
	enum da_finding_kind kind = s->kind == START_ROOT
	                            ? (s->blacklisted_gens ? DA_KIND_BLACKLISTED_START : DA_KIND_ABORTING_START)
	                            : s->kind == START_STITCH ? DA_KIND_BLACKLISTED_STITCH
	                            : s->blacklisted_gens ? DA_KIND_GIVEN_UP_EXIT : DA_KIND_ABORTING_EXIT;
	struct draft *d = new_draft(ds, kind);
	struct da_finding *p = &d->pub;
	d->start = s;
	d->group = s->kind == START_ROOT ? "start" : "exit";
	size_t first = *nrows;
	for (size_t i = 0; i < s->nreasons; i++) {
		const struct start_reason *r = &f->reasons[s->reasons[i]];
		size_t k = first;
		while (k < *nrows && (*rows)[k].reason != r->reason)
			k++;
		if (k == *nrows) {
			ALLOC_GROW(*rows, *nrows + 1, *rows_cap);
			(*rows)[(*nrows)++] = (struct da_reason_count){ r->reason, 0 };
		}
		(*rows)[k].count += r->count;
	}
	/* most first; ties keep the order of first appearance (already so) */
	for (size_t i = first + 1; i < *nrows; i++)
		for (size_t k = i; k > first && (*rows)[k].count > (*rows)[k - 1].count; k--) {
			struct da_reason_count t = (*rows)[k];
			(*rows)[k] = (*rows)[k - 1];
			(*rows)[k - 1] = t;
		}
	/* the deciding reason: the most severe rule, the first (most
	 * attempts) of equals; the others keep their order behind it */
	size_t decide = first;
	enum explain_severity sev = EXPLAIN_HARMLESS + 1;
	for (size_t k = first; k < *nrows; k++)
		for (size_t i = 0; i < s->nreasons; i++) {
			const struct start_reason *r = &f->reasons[s->reasons[i]];
			int bi;
			if (r->reason != (*rows)[k].reason)
				continue;
			enum explain_severity v = rule_of(r->reason, r->error, &bi)->severity;
			if (v < sev) {
				sev = v;
				decide = k;
			}
			break;
		}
	for (size_t k = decide; k > first; k--) {
		struct da_reason_count t = (*rows)[k];
		(*rows)[k] = (*rows)[k - 1];
		(*rows)[k - 1] = t;
	}
	p->nreasons = (uint32_t)(*nrows - first);
	p->reasons = (const void *)(uintptr_t)(first + 1);     /* fixed up at the end */
	const char *main = (*rows)[first].reason;
	const struct start_reason *best = NULL;
	for (size_t i = 0; i < s->nreasons; i++) {
		const struct start_reason *r = &f->reasons[s->reasons[i]];
		if (r->reason == main && (!best || r->count > best->count))
			best = r;
	}
	d->main = best;
	p->file = s->file;
	p->line = p->end_line = s->line;
	p->at_file = best->at_file;
	p->at_line = best->at_line;
	p->reason = best->reason;
	p->error = best->error;
	p->reason_attempts = (*rows)[first].count;
	p->last_reason = s->last_reason;
	p->attempts = p->count = s->attempts;
	p->traces = tally_get(&f->compiled, s->file, (const void *)(uintptr_t)(s->kind + 1), s->line);
	p->blacklisted_gens = s->blacklisted_gens;
	p->gen_first = s->gen_first;
	p->gen_last = s->gen_last;
	p->bytecode = best->bytecode;
	p->dump_line = best->last_line_no;
	if (s->kind != START_ROOT) {
		p->trace = s->parent;
		p->exit = s->exit;
	}
	d->rule = rule_of(best->reason, best->error, &d->bc_rule_index);
	/* blacklisted: interpreted until the next flush, 10 attempts' worth */
	d->units = s->attempts + 10 * (uint64_t)s->blacklisted_gens;
	/* Failed (charged, counted by the gate, a failed callee) is what is
	 * not usually harmless, for loops, functions, exits and stitches
	 * alike, and what LuaJIT gave up on whatever the reason: a usually
	 * harmless reason that led to a blacklist keeps its code interpreted
	 * until a flush.  (A trace that runs into a blacklisted loop or
	 * function aborts with "blacklisted", lj_record.c BC_IFORL ...
	 * BC_IFUNCV: a costly reason of the finding around it.) */
	d->failed = d->rule->severity != EXPLAIN_HARMLESS || s->blacklisted_gens;
	cause_of(f, d);
}

/* One finding per place of a run-level list (several generations' rows
 * of one place summed): count = what sum says, or the largest. */
static struct draft *place_draft(struct drafts *ds, enum da_finding_kind kind, const char *file,
                                 int32_t line, int32_t exit)
{
	for (size_t i = 0; i < ds->n; i++)
		if (ds->v[i].pub.kind == kind && ds->v[i].pub.file == file && ds->v[i].pub.line == line &&
		    ds->v[i].pub.exit == exit)
			return &ds->v[i];
	struct draft *d = new_draft(ds, kind);
	d->pub.file = d->pub.at_file = file;
	d->pub.line = d->pub.end_line = d->pub.at_line = line;
	d->pub.exit = exit;
	return d;
}

static void gens_seen(struct da_finding *p, uint32_t gen)
{
	if (!p->gen_first || gen < p->gen_first)
		p->gen_first = gen;
	if (gen > p->gen_last)
		p->gen_last = gen;
}

static void run_drafts(struct drafts *ds, const struct answers *a)
{
	for (size_t i = 0; i < ANSWERS_TOP && a->cold[i].count; i++) {
		const struct top_exit *x = &a->cold[i];
		if (x->count < FINDINGS_HOT_EXIT || !x->file)
			continue;
		struct draft *d = place_draft(ds, DA_KIND_HOT_EXIT, x->file, x->line, (int32_t)x->exit);
		d->pub.count += x->count;
		d->pub.trace = x->trace;
		gens_seen(&d->pub, x->gen);
		d->units = d->pub.count / FINDINGS_HOT_EXIT;
	}
	struct flush_summary fs;
	diagnose_flushes(&a->diag, &fs, NULL);
	if (fs.flushes >= DIAG_STORM_FLUSHES) {
		struct draft *d = new_draft(ds, DA_KIND_FLUSH_STORM);
		d->pub.count = d->units = fs.flushes;
	}
	if (fs.n[FLUSH_MCODE]) {
		struct draft *d = new_draft(ds, DA_KIND_MCODE_FLUSHES);
		d->pub.count = d->units = fs.n[FLUSH_MCODE];
		d->try_value = fs.try_maxmcode;
	}
	if (fs.n[FLUSH_MAXTRACE]) {
		struct draft *d = new_draft(ds, DA_KIND_TRACE_LIMIT);
		d->pub.count = d->units = fs.n[FLUSH_MAXTRACE];
		d->try_value = fs.try_maxtrace;
	}
	for (size_t i = 0; i < DIAG_TOP && a->diag.bursts[i].n; i++) {
		const struct diag_line *b = &a->diag.bursts[i];
		struct draft *d = place_draft(ds, DA_KIND_SIDE_EXPLOSION, b->file, b->line, DA_PARENT_EXIT_NONE);
		if (b->n > d->pub.count)
			d->pub.count = b->n;
		gens_seen(&d->pub, b->gen);
		d->units = d->pub.count / 10;
	}
	for (size_t i = 0; i < DIAG_TOP && a->diag.chains[i].n; i++) {
		const struct diag_line *c = &a->diag.chains[i];
		struct draft *d = place_draft(ds, DA_KIND_LONG_CHAIN, c->file, c->line, DA_PARENT_EXIT_NONE);
		if (c->n > d->pub.count)
			d->pub.count = c->n;
		d->pub.trace = c->trace;
		gens_seen(&d->pub, c->gen);
		d->units = d->pub.count / 8;
	}
}

/* A root start's kind once its place says loop or function. */
static enum da_finding_kind scoped(enum da_finding_kind k, const char *scope)
{
	int loop = strcmp(scope, "loop") == 0, fn = strcmp(scope, "function") == 0;
	if (k == DA_KIND_ABORTING_START)
		return loop ? DA_KIND_ABORTING_LOOP : fn ? DA_KIND_ABORTING_FUNCTION : k;
	if (k == DA_KIND_BLACKLISTED_START)
		return loop ? DA_KIND_BLACKLISTED_LOOP : fn ? DA_KIND_BLACKLISTED_FUNCTION : k;
	return k;
}

/* A run-wide problem: every trace thrown away, everything else's cost. */
static int run_wide(enum da_finding_kind k)
{
	return k == DA_KIND_FLUSH_STORM || k == DA_KIND_MCODE_FLUSHES || k == DA_KIND_TRACE_LIMIT;
}

static int by_rank(const void *x, const void *y)
{
	const struct draft *a = x, *b = y;
	if (run_wide(a->pub.kind) != run_wide(b->pub.kind))
		return run_wide(a->pub.kind) ? -1 : 1;
	if (a->pub.samples != b->pub.samples)
		return a->pub.samples > b->pub.samples ? -1 : 1;
	if (a->pub.score != b->pub.score)
		return a->pub.score > b->pub.score ? -1 : 1;
	if (a->pub.level != b->pub.level)
		return a->pub.level < b->pub.level ? -1 : 1;
	if (a->pub.attempts != b->pub.attempts)
		return a->pub.attempts > b->pub.attempts ? -1 : 1;
	return strcmp(a->pub.identity, b->pub.identity);
}

static const char *basis_word(enum da_basis b)
{
	static const char *const w[] = { "none", "source", "trace", "line", "function" };
	return b <= DA_BASIS_FUNCTION ? w[b] : "none";
}

/* The same rule at the same cause (or failing line): one change fixes
 * both; the lower-ranked gets the higher's rank.  By sorting, not pairs.
 * A UCLO whose cause is a closure counts as that closure's rule.  A
 * finding some of whose attempts ended with another reason that is not
 * usually harmless shares none: the one change does not fix it. */
static const char *cause_file(const struct da_finding *p)
{
	return p->cause_file ? p->cause_file : p->at_file;
}

static int32_t cause_line(const struct da_finding *p)
{
	return p->cause_file ? p->cause_line : p->at_line;
}

/* The rule a cause is fixed by: a UCLO's (its cause a closure, place.c)
 * is the closure's, so that the symptom shares the closure's SAME_CAUSE. */
static const char *cause_rule(const struct da_finding *p)
{
	static const char *closure_rule;
	if (!closure_rule) {
		const struct explain_bc *bc = explain_bc_named("FNEW", 4);
		closure_rule = bc && explain_bc_rule(bc) ? explain_bc_rule(bc)->id : p->rule;
	}
	if (p->cause_file && p->cause_line != DA_NO_LINE && p->reason && strstr(p->reason, "UCLO"))
		return closure_rule;
	return p->rule;
}

static int by_cause(const void *x, const void *y)
{
	const struct da_finding *a = *(const struct da_finding *const *)x;
	const struct da_finding *b = *(const struct da_finding *const *)y;
	int k = strcmp(cause_rule(a), cause_rule(b));
	if (!k)
		k = strcmp(cause_file(a), cause_file(b));
	if (!k)
		k = (cause_line(a) > cause_line(b)) - (cause_line(a) < cause_line(b));
	return k ? k : (a->rank > b->rank) - (a->rank < b->rank);
}

/* Attempts of it that ended with another reason, not usually harmless:
 * fixing its cause leaves those (a function that also closes upvalues,
 * aborts on another closure), so it shares no cause. */
static int other_costly(const struct da_finding *p)
{
	for (uint32_t k = 1; k < p->nreasons; k++)
		if (p->reasons[k].reason != p->reason &&
		    findings_reason_rule(p->reasons[k].reason)->severity != EXPLAIN_HARMLESS)
			return 1;
	return 0;
}

static void same_causes(struct da_finding *list, size_t n)
{
	struct da_finding **v = xrealloc(NULL, (n ? n : 1) * sizeof(*v));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (cause_file(&list[i]))
			v[m++] = &list[i];
	qsort(v, m, sizeof(*v), by_cause);
	/* each to the first (best ranked) of its cause */
	const struct da_finding *head = m ? v[0] : NULL;
	for (size_t i = 1; i < m; i++) {
		if (strcmp(cause_rule(head), cause_rule(v[i])) != 0 ||
		    strcmp(cause_file(head), cause_file(v[i])) != 0 || cause_line(head) != cause_line(v[i])) {
			head = v[i];
			continue;
		}
		if (!other_costly(v[i]))
			v[i]->same_cause = head->rank;
	}
	free(v);
}

/* The baseline's entries on the findings they match; the others, in the
 * file's order, are stale. */
static int by_line(const void *x, const void *y)
{
	const struct da_baseline_entry *a = *(const struct da_baseline_entry *const *)x;
	const struct da_baseline_entry *b = *(const struct da_baseline_entry *const *)y;
	return (a->line > b->line) - (a->line < b->line);
}

static void accept(struct findings *f)
{
	struct baseline *b = f->baseline;
	if (!b)
		return;
	for (size_t i = 0; i < f->n; i++) {
		const struct baseline_entry *e = baseline_match(b, f->list[i].identity);
		if (e)
			f->list[i].baseline_reason = e->pub.accepted;
	}
	f->stale = xrealloc(NULL, (b->n ? b->n : 1) * sizeof(*f->stale));
	for (size_t i = 0; i < b->n; i++)
		if (!b->v[i].matched)
			f->stale[f->nstale++] = &b->v[i].pub;
	if (f->nstale > 1)
		qsort(f->stale, f->nstale, sizeof(*f->stale), by_line);
}

void findings_build(struct findings *f, const struct findings_input *in)
{
	struct drafts ds = { NULL, 0, 0 };
	struct da_reason_count *rows = NULL;
	size_t nrows = 0, rows_cap = 0;
	for (size_t i = 0; i < f->nstarts; i++)
		if (f->starts[i].attempts)
			start_draft(f, &ds, &f->starts[i], &rows, &nrows, &rows_cap);
	run_drafts(&ds, in->answers);
	place_drafts(ds.v, ds.n, in->texts, &f->text);
	for (size_t i = 0; i < ds.n; i++) {
		struct draft *d = &ds.v[i];
		d->pub.kind = scoped(d->pub.kind, d->start_scope ? d->start_scope : d->scope);
	}
	identity_drafts(ds.v, ds.n, &f->text);
	f->nfailed = cost_extents(ds.v, ds.n, &f->failed);
	cost_drafts(ds.v, ds.n, f->failed, f->nfailed, in->profile, in->sysprof, in->texts,
	            &f->totals);
	f->has_totals = in->profile != NULL || in->sysprof != NULL;
	for (size_t i = 0; i < ds.n; i++) {
		struct draft *d = &ds.v[i];
		struct da_finding *p = &d->pub;
		const struct finding_kind *k = findings_kind(p->kind);
		const struct explain_rule *r = d->rule ? d->rule : findings_unknown_rule();
		p->kind_word = k->word;
		p->title = k->title;
		p->rule = r->id;
		p->rule_name = r->name;
		p->level = (enum da_level)r->severity;
		p->level_word = explain_severity_word(r->severity);
		if (d->failed && r->severity == EXPLAIN_HARMLESS) {
			/* given up on: worth a look, whatever the reason says */
			p->level = (enum da_level)EXPLAIN_LOOK;
			p->level_word = explain_severity_word(EXPLAIN_LOOK);
		}
		p->why = r->why;
		p->basis_word = basis_word(p->basis);
		p->extent_word = basis_word(p->extent_basis);
		p->score = (uint64_t)r->weight * d->units;
		p->advice = advice_of(d, in->flavour, f->recorded, &f->text);
		p->failed = d->failed && p->basis != DA_BASIS_NONE && p->file;
		p->scope_file = d->scope_file;
		p->scope_line = d->scope_line;
		p->scope_word = d->scope;
		d->index = i;
	}
	if (ds.n)
		qsort(ds.v, ds.n, sizeof(*ds.v), by_rank);
	/* the failed extents name their findings by rank now */
	size_t *ranked = xrealloc(NULL, (ds.n ? ds.n : 1) * sizeof(*ranked));
	for (size_t i = 0; i < ds.n; i++)
		ranked[ds.v[i].index] = i;
	for (size_t i = 0; i < f->nfailed; i++)
		f->failed[i].finding = (uint32_t)ranked[f->failed[i].finding];
	free(ranked);
	f->list = xrealloc(NULL, (ds.n ? ds.n : 1) * sizeof(*f->list));
	f->reason_rows = rows;
	for (size_t i = 0; i < ds.n; i++) {
		f->list[i] = ds.v[i].pub;
		f->list[i].rank = (uint32_t)i + 1;
		uintptr_t r = (uintptr_t)f->list[i].reasons;
		f->list[i].reasons = r ? rows + (r - 1) : NULL;
	}
	f->n = ds.n;
	free(ds.v);
	same_causes(f->list, f->n);
	accept(f);
}
