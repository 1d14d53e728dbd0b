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
 * count, {try} a value to try; {scope} says a function's name when the
 * source has one, and {start} the start as context when the failing code
 * is in a function it calls ("called from the loop at json.lua:81"); a
 * factory's advice ({ctx}, {call}) names the call in the start.
 * Anything else in braces is text. */
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
	const char *t = d->factory && d->ctx_word
	                ? "{cause} creates the closure that the {scope} at {start} returns, each time it "
	                  "runs: it is a factory, and the fix is where it is called, {call}: call it once "
	                  "outside the {ctx} and reuse the closure (or keep the state in a table the "
	                  "{ctx} passes along)."
	                : d->factory
	                ? "{cause} creates the closure that the {scope} at {start} returns, each time it "
	                  "runs: it is a factory, and the fix is the call that runs it in a loop (the "
	                  "profile's stacks show which): call it once outside that loop and reuse the "
	                  "closure."
	                : template_of(d, fl, recorded);
	if (!t)
		return NULL;
	const struct da_finding *p = &d->pub;
	struct strbuf b = STRBUF_INIT;
	char num[32];
	int ctx_said = 0;
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
			/* the start, when the code is in a function it calls */
			if (d->ctx_word && !d->factory && !ctx_said) {
				strbuf_add(&b, " (called from the ", 18);
				strbuf_add(&b, d->ctx_word, strlen(d->ctx_word));
				if (d->ctx_name) {
					strbuf_add(&b, " ", 1);
					put_place(&b, d->ctx_name, DA_NO_LINE);
				}
				strbuf_add(&b, " at ", 4);
				put_place(&b, d->scope_file, d->ctx_line);
				strbuf_add(&b, ")", 1);
				ctx_said = 1;
			}
			t += 7;
		} else if (is_word(t, "{scope}")) {
			strbuf_add(&b, d->scope, strlen(d->scope));
			if (d->scope_name) {
				strbuf_add(&b, " ", 1);
				put_place(&b, d->scope_name, DA_NO_LINE);
			}
			t += 7;
		} else if (is_word(t, "{ctx}")) {
			strbuf_add(&b, d->ctx_word ? d->ctx_word : "", d->ctx_word ? strlen(d->ctx_word) : 0);
			t += 5;
		} else if (is_word(t, "{call}")) {
			strbuf_add(&b, d->call_line != DA_NO_LINE ? "at " : "in ", 3);
			if (d->call_line == DA_NO_LINE)
				strbuf_add(&b, "the ", 4);
			if (d->call_line == DA_NO_LINE && d->ctx_word) {
				strbuf_add(&b, d->ctx_word, strlen(d->ctx_word));
				strbuf_add(&b, " at ", 4);
			}
			put_place(&b, d->scope_file, d->call_line != DA_NO_LINE ? d->call_line : d->ctx_line);
			t += 6;
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
