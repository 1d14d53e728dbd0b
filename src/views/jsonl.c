/* jsonl.c — gen-N.jsonl: one JSON object a line for every trace, abort,
 * exit tally and bush of the generation ("type" says which), every field
 * of the model, for jq; findings.jsonl: the run's findings, one "finding"
 * object each, every field of struct da_finding, in rank order.  Written with jansson; bytes that are not UTF-8
 * (chunk names may hold any) become U+FFFD, since JSON strings cannot hold
 * them. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "views/view.h"
#include "output/json.h"
#include "outdir/outdir.h"
#include "util/intern.h"
#include "util/arena.h"

struct jsonl_state {
	struct outfile *file;
};

static json_t *json_interned(const char *s)
{
	return s ? json_text(s, intern_len(s)) : json_null();
}

static json_t *json_line(int32_t line)
{
	return line == LOC_NO_LINE ? json_null() : json_integer(line);
}

static json_t *json_parent_exit(int32_t e)
{
	if (e == PARENT_EXIT_NONE)
		return json_null();
	return e == PARENT_EXIT_STITCH ? json_string("stitch") : json_integer(e);
}

static int put(struct jsonl_state *s, json_t *obj)
{
	FILE *fp = outfile_fp(s->file);
	int r = fp ? json_dumpf(obj, fp, JSON_COMPACT | JSON_PRESERVE_ORDER) : -1;
	if (fp)
		putc('\n', fp);
	json_decref(obj);
	return r < 0 ? -1 : 0;
}

static int jsonl_gen_begin(struct view_ctx *c, const struct da_gen *g)
{
	struct jsonl_state *s = c->state;
	char name[32];
	snprintf(name, sizeof(name), "gen-%u.jsonl", g->number);
	s->file = outfile_create(c->out, name);
	return s->file ? 0 : -1;
}

static int jsonl_trace(struct view_ctx *c, const struct da_trace *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("trace"));
	json_object_set_new(o, "gen", json_integer(t->gen));
	json_object_set_new(o, "id", json_integer(t->id));
	json_object_set_new(o, "parent", t->parent_exit == PARENT_EXIT_NONE ? json_null() : json_integer(t->parent));
	json_object_set_new(o, "parent_exit", json_parent_exit(t->parent_exit));
	json_object_set_new(o, "orphan", json_boolean(t->parent_exit >= 0 && !t->parent_trace));
	json_object_set_new(o, "loc", json_interned(t->loc));
	json_object_set_new(o, "file", json_interned(t->file));
	json_object_set_new(o, "line", json_line(t->line));
	json_object_set_new(o, "link", json_interned(t->link));
	json_object_set_new(o, "link_kind", json_string(link_kind_word(t->link_kind)));
	json_object_set_new(o, "link_target", t->link_target ? json_integer(t->link_target) : json_null());
	json_object_set_new(o, "bush_root", json_integer(t->bush->root->id));
	json_object_set_new(o, "bush_dup", json_integer(t->bush->dup));
	json_object_set_new(o, "num_bc", t->counts_known ? json_integer(t->num_bc) : json_null());
	json_object_set_new(o, "num_ir", t->counts_known ? json_integer(t->num_ir) : json_null());
	json_object_set_new(o, "num_sn", t->counts_known ? json_integer(t->num_sn) : json_null());
	json_object_set_new(o, "size_mc", t->counts_known ? json_integer(t->size_mc) : json_null());
	json_t *ex = json_array();
	for (uint32_t i = 0; i < t->nexits; i++)
		json_array_append_new(ex, json_integer(t->exits[i]));
	json_object_set_new(o, "mcode_exits", ex);
	json_object_set_new(o, "start_line_no", json_integer((json_int_t)t->start_line));
	json_object_set_new(o, "stop_line_no", json_integer((json_int_t)t->stop_line));
	return put(c->state, o);
}

static int jsonl_abort(struct view_ctx *c, const struct da_abort *a)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("abort"));
	json_object_set_new(o, "gen", json_integer(a->gen));
	json_object_set_new(o, "id", a->id ? json_integer(a->id) : json_null());
	json_object_set_new(o, "parent", a->parent_exit == PARENT_EXIT_NONE ? json_null() : json_integer(a->parent));
	json_object_set_new(o, "parent_exit", json_parent_exit(a->parent_exit));
	json_object_set_new(o, "loc", json_interned(a->loc));
	json_object_set_new(o, "file", json_interned(a->file));
	json_object_set_new(o, "line", json_line(a->line));
	json_object_set_new(o, "reason", json_interned(a->reason));
	json_object_set_new(o, "start_file", json_interned(a->start_file));
	json_object_set_new(o, "start_line", a->start_file ? json_line(a->start_line) : json_null());
	json_object_set_new(o, "line_no", json_integer((json_int_t)a->line_no));
	json_object_set_new(o, "reason_normal", json_interned(a->reason_normal));
	json_object_set_new(o, "error", a->error ? json_string(a->error) : json_null());
	json_t *bc = json_array();
	for (uint32_t i = 0; i < a->nbytecode; i++)
		json_array_append_new(bc, json_text(a->bytecode[i], strlen(a->bytecode[i])));
	json_object_set_new(o, "bytecode", bc);
	return put(c->state, o);
}

static int jsonl_gen_end(struct view_ctx *c, const struct da_gen *g)
{
	struct jsonl_state *s = c->state;
	int r = 0;
	size_t n;
	struct tally_entry *e = tally_entries(gen_exits(g), &n);
	qsort(e, n, sizeof(*e), tally_by_c);
	for (size_t i = 0; i < n && r == 0; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "type", json_string("exit"));
		json_object_set_new(o, "gen", json_integer(g->number));
		json_object_set_new(o, "trace", json_integer(EXIT_KEY_ID(e[i].c)));
		json_object_set_new(o, "exit", json_integer(EXIT_KEY_EXIT(e[i].c)));
		json_object_set_new(o, "count", json_integer((json_int_t)e[i].count));
		uint64_t side = e[i].a ? tally_get(gen_sides(g), e[i].a, NULL, EXIT_KEY_EXIT(e[i].c)) : 0;
		json_object_set_new(o, "side_trace", side ? json_integer((json_int_t)side) : json_null());
		r = put(s, o);
	}
	free(e);
	for (const struct da_bush *b = g->bushes; b && r == 0; b = b->next) {
		json_t *o = json_object();
		json_object_set_new(o, "type", json_string("bush"));
		json_object_set_new(o, "gen", json_integer(g->number));
		json_object_set_new(o, "root", json_integer(b->root->id));
		json_object_set_new(o, "dup", json_integer(b->dup));
		json_t *ids = json_array();
		for (const struct da_trace *t = b->root; t; t = t->next_in_bush)
			json_array_append_new(ids, json_integer(t->id));
		json_object_set_new(o, "traces", ids);
		json_object_set_new(o, "mcode_bytes", json_integer((json_int_t)b->mcode_bytes));
		r = put(s, o);
	}
	if (r < 0)
		return -1;
	r = outfile_commit(s->file);
	s->file = NULL;
	return r;
}

static json_t *json_str(const char *s)
{
	return s ? json_text(s, strlen(s)) : json_null();
}

static json_t *json_finding(const struct da_finding *f, const struct da_profile_totals *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("finding"));
	json_object_set_new(o, "rank", json_integer(f->rank));
	json_object_set_new(o, "kind", json_str(f->kind_word));
	json_object_set_new(o, "severity", json_str(f->level_word));
	json_object_set_new(o, "rule", json_str(f->rule));
	json_object_set_new(o, "rule_name", json_str(f->rule_name));
	json_object_set_new(o, "file", json_str(f->file));
	json_object_set_new(o, "line", json_line(f->line));
	json_object_set_new(o, "end_line", json_line(f->end_line));
	json_object_set_new(o, "basis", json_str(f->basis_word));
	json_object_set_new(o, "at_file", json_str(f->at_file));
	json_object_set_new(o, "at_line", json_line(f->at_line));
	json_object_set_new(o, "cause_file", json_str(f->cause_file));
	json_object_set_new(o, "cause_line", json_line(f->cause_line));
	json_object_set_new(o, "reason", json_str(f->reason));
	json_object_set_new(o, "error", json_str(f->error));
	json_object_set_new(o, "reason_attempts", json_integer((json_int_t)f->reason_attempts));
	json_t *rs = json_array();
	for (uint32_t i = 0; i < f->nreasons; i++) {
		json_t *r = json_object();
		json_object_set_new(r, "reason", json_str(f->reasons[i].reason));
		json_object_set_new(r, "count", json_integer((json_int_t)f->reasons[i].count));
		json_array_append_new(rs, r);
	}
	json_object_set_new(o, "reasons", rs);
	json_object_set_new(o, "last_reason", json_str(f->last_reason));
	json_object_set_new(o, "attempts", json_integer((json_int_t)f->attempts));
	json_object_set_new(o, "count", json_integer((json_int_t)f->count));
	json_object_set_new(o, "traces", json_integer((json_int_t)f->traces));
	json_object_set_new(o, "blacklisted_gens", json_integer(f->blacklisted_gens));
	json_object_set_new(o, "gen_first", f->gen_first ? json_integer(f->gen_first) : json_null());
	json_object_set_new(o, "gen_last", f->gen_last ? json_integer(f->gen_last) : json_null());
	json_object_set_new(o, "bytecode", json_str(f->bytecode));
	json_object_set_new(o, "dump_line", f->dump_line ? json_integer((json_int_t)f->dump_line) : json_null());
	if (t) {
		static const char *const states[DA_VM_STATES] = {
			"interpreted", "compiled", "c", "gc", "jit" };
		json_object_set_new(o, "samples", json_integer((json_int_t)f->samples));
		json_object_set_new(o, "share", json_real(f->share));
		json_t *st = json_object();
		for (int s = 0; s < DA_VM_STATES; s++)
			json_object_set_new(st, states[s], json_integer((json_int_t)f->state_samples[s]));
		json_object_set_new(o, "state_samples", st);
	} else {
		json_object_set_new(o, "samples", json_null());
		json_object_set_new(o, "share", json_null());
		json_object_set_new(o, "state_samples", json_null());
	}
	json_object_set_new(o, "score", json_integer((json_int_t)f->score));
	json_object_set_new(o, "title", json_str(f->title));
	json_object_set_new(o, "why", json_str(f->why));
	json_object_set_new(o, "advice", json_str(f->advice));
	json_object_set_new(o, "id", json_str(f->id));
	json_object_set_new(o, "identity", json_str(f->identity));
	json_object_set_new(o, "start_text", json_str(f->start_text));
	json_object_set_new(o, "at_text", json_str(f->at_text));
	json_object_set_new(o, "order", json_integer(f->order));
	json_object_set_new(o, "trace", f->trace ? json_integer(f->trace) : json_null());
	json_object_set_new(o, "exit", json_parent_exit(f->exit));
	json_object_set_new(o, "same_cause", f->same_cause ? json_integer(f->same_cause) : json_null());
	json_object_set_new(o, "baseline_reason", json_str(f->baseline_reason));
	json_object_set_new(o, "extent", json_str(f->extent_word));
	json_object_set_new(o, "profile", json_str(f->profile));
	json_object_set_new(o, "failed", json_boolean(f->failed));
	json_object_set_new(o, "scope", json_str(f->scope_word));
	json_object_set_new(o, "scope_file", json_str(f->scope_file));
	json_object_set_new(o, "scope_line", json_line(f->scope_line));
	return o;
}

static int jsonl_finish(struct view_ctx *c)
{
	if (!c->out || !da_generations(c->dump))
		return 0;
	struct jsonl_state *s = c->state;
	s->file = outfile_create(c->out, "findings.jsonl");
	if (!s->file)
		return -1;
	const struct da_profile_totals *t = da_profile_totals(c->dump);
	int r = 0;
	for (size_t i = 0; i < da_findings(c->dump) && r == 0; i++)
		r = put(s, json_finding(da_finding(c->dump, i), t));
	if (r < 0)
		return -1;
	r = outfile_commit(s->file);
	s->file = NULL;
	return r;
}

const struct view view_jsonl = {
	.name = "jsonl",
	.files = "gen-N.jsonl findings.jsonl",
	.needs = NEEDS_FINDINGS,
	.is_default = 0,
	.state_size = sizeof(struct jsonl_state),
	.gen_begin = jsonl_gen_begin,
	.trace = jsonl_trace,
	.abort = jsonl_abort,
	.gen_end = jsonl_gen_end,
	.finish = jsonl_finish,
};
