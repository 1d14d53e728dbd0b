/* advice.c — a finding's advice: its rule's text for the dump's build
 * (2.0, or 2.1 and luajit2, or "seen": the dump shows this build
 * recording the bytecode elsewhere, so the advice may not say it never
 * does), with the places filled in: {start} the loop or function (of an
 * exit or stitch, the innermost one around the line its side traces
 * failed at, place.c: never the exit's own line, which is no loop's;
 * when that is not known "the {scope} at {start}" says "the loop or
 * function around" the failing line), {scope} "loop", "function" or
 * "loop or function", {at} the failing line, {cause}
 * the code the dump names (a closure's line, a built-in), {closure} a
 * UCLO's closure ("the closure at F:L", else "a closure that captured a
 * local"), {n} the
 * count, {try} a value to try.  Anything else in braces is text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "findings/findings.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* FILE:LINE, control bytes of a chunk name as '?'. */
static void put_place(struct strbuf *b, const char *file, int32_t line)
{
	if (!file) {
		strbuf_add(b, "?", 1);
		return;
	}
	size_t n = intern_len(file);
	for (size_t i = 0; i < n; i++) {
		char c = (unsigned char)file[i] < 0x20 ? '?' : file[i];
		strbuf_add(b, &c, 1);
	}
	if (line != DA_NO_LINE) {
		char num[16];
		int k = snprintf(num, sizeof(num), ":%d", line);
		strbuf_add(b, num, (size_t)k);
	}
}

static int is_word(const char *p, const char *w)
{
	return strncmp(p, w, strlen(w)) == 0;
}

/* A start LuaJIT gave up on after attempts that ended with a usually
 * harmless reason: what the retries were waiting for never happened. */
static const char *given_up_template(const struct draft *d)
{
	const char *e = d->main && d->main->error ? d->main->error : "";
	if (strcmp(e, "LINNER") == 0)
		return "Not nothing here: LuaJIT gave up on the {scope} at {start} after its attempts "
		       "kept meeting the inner loop at {at}, which never compiled first; it stays "
		       "interpreted until a flush. Make the inner loop run long enough to get hot, or "
		       "move it into a function of its own called from here.";
	if (strcmp(e, "LLEAVE") == 0)
		return "Not nothing here: LuaJIT gave up on the {scope} at {start} after its attempts "
		       "kept leaving it at {at} before it closed; it stays interpreted until a flush. "
		       "Move the early exit (break, return, error) off the hot path, or make the loop "
		       "run longer.";
	return "Not nothing here: LuaJIT gave up on the {scope} at {start} after its attempts "
	       "kept ending at {at} with a usually harmless reason; it stays interpreted until a "
	       "flush. Look at what makes every attempt end there.";
}

/* The rule's text for the build. */
static const char *template_of(const struct draft *d, enum explain_flavour fl, unsigned recorded)
{
	const struct explain_rule *r = d->rule;
	if (!r)
		return NULL;
	if (r->severity == EXPLAIN_HARMLESS && d->failed && d->start)
		return given_up_template(d);
	if (r->advice_seen && d->bc_rule_index >= 0 && (recorded & (1u << d->bc_rule_index)))
		return r->advice_seen;
	const char *first = fl == EXPLAIN_FLAVOUR_20 ? r->advice20 : r->advice21;
	return first ? first : fl == EXPLAIN_FLAVOUR_20 ? r->advice21 : r->advice20;
}

const char *advice_of(const struct draft *d, enum explain_flavour fl, unsigned recorded,
                      struct intern *text)
{
	const char *t = template_of(d, fl, recorded);
	if (!t)
		return NULL;
	const struct da_finding *p = &d->pub;
	struct strbuf b = STRBUF_INIT;
	char num[32];
	while (*t) {
		const char *brace = strchr(t, '{');
		if (!brace) {
			strbuf_add(&b, t, strlen(t));
			break;
		}
		strbuf_add(&b, t, (size_t)(brace - t));
		t = brace;
		if (is_word(t, "{scope} at {start}") && !d->scope_file && d->start &&
		    d->start->kind != START_ROOT) {
			/* an exit or stitch whose loop or function is not known
			 * (its failing line's file not read): the one around the
			 * failing line, unnamed; never the exit's own line */
			strbuf_add(&b, "loop or function around ", 24);
			put_place(&b, p->at_file ? p->at_file : p->file, p->at_file ? p->at_line : p->line);
			t += 18;
		} else if (is_word(t, "{start}")) {
			if (d->scope_file)
				put_place(&b, d->scope_file, d->scope_line);
			else
				put_place(&b, p->file, p->line);
			t += 7;
		} else if (is_word(t, "{scope}")) {
			strbuf_add(&b, d->scope, strlen(d->scope));
			t += 7;
		} else if (is_word(t, "{at}")) {
			put_place(&b, p->at_file ? p->at_file : p->file, p->at_file ? p->at_line : p->line);
			t += 4;
		} else if (is_word(t, "{cause}")) {
			if (p->cause_file)
				put_place(&b, p->cause_file, p->cause_line);
			else
				put_place(&b, p->at_file ? p->at_file : p->file, p->at_file ? p->at_line : p->line);
			t += 7;
		} else if (is_word(t, "{closure}")) {
			/* a UCLO's closure, when the source named it (place.c) */
			if (p->cause_file) {
				strbuf_add(&b, "the closure at ", 15);
				put_place(&b, p->cause_file, p->cause_line);
			} else {
				strbuf_add(&b, "a closure that captured a local", 31);
			}
			t += 9;
		} else if (is_word(t, "{n}")) {
			strbuf_add(&b, num, (size_t)snprintf(num, sizeof(num), "%llu", (unsigned long long)p->count));
			t += 3;
		} else if (is_word(t, "{try}")) {
			strbuf_add(&b, num, (size_t)snprintf(num, sizeof(num), "%llu", (unsigned long long)d->try_value));
			t += 5;
		} else {
			strbuf_add(&b, t, 1);
			t++;
		}
	}
	const char *s = intern_get(text, b.buf ? b.buf : "", b.len);
	strbuf_release(&b);
	return s;
}
