/* cmd_explain.c — dumpanalyze --explain REASON: the catalogue's entry for a
 * rule (its id or name, rules.c) or an abort reason in any of its forms
 * (a message as any LuaJIT writes it, an error name, a bytecode name),
 * like rustc --explain; the closest entries for an unknown one. */
#include <errno.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "luajit/explain.h"
#include "luajit/vmdef.h"
#include "output/message.h"
#include "output/termtext.h"

#define CLOSEST_SHOWN 5

static const struct {
	unsigned bit;
	const char *name;
} builds[] = {
	{ EXPLAIN_LJ20, "LuaJIT 2.0" },
	{ EXPLAIN_LJ21B, "LuaJIT 2.1 before 2024 (2.1.0-beta3)" },
	{ EXPLAIN_LJ2, "OpenResty luajit2" },
	{ EXPLAIN_LJ21, "LuaJIT 2.1 since 2024" },
};

static void put_builds(FILE *fp, unsigned bits)
{
	const char *sep = "";
	for (size_t i = 0; i < sizeof(builds) / sizeof(builds[0]); i++)
		if (bits & builds[i].bit) {
			fprintf(fp, "%s%s", sep, builds[i].name);
			sep = ", ";
		}
}

static void put_bc(FILE *fp, const char *label, const struct explain_bc *bc)
{
	fprintf(fp, "%-10s %s, ", label, bc->name);
	if (bc->n20 >= 0)
		fprintf(fp, "number %d in LuaJIT 2.0 and %d in 2.1", bc->n20, bc->n21);
	else
		fprintf(fp, "number %d in LuaJIT 2.1 (not in 2.0)", bc->n21);
	if (bc->meaning)
		fprintf(fp, ": %s", bc->meaning);
	if (!bc->nyi)
		fputs(" (no recorder aborts on it)", fp);
	fputc('\n', fp);
}

/* The findings' rule for it: id, name, severity and why. */
static void put_rule(FILE *fp, const struct explain_rule *r)
{
	fprintf(fp, "%-10s %s %s, %s: %s\n", "rule:", r->id, r->name,
	        explain_severity_text(r->severity), r->why);
}

static void put_entry(FILE *fp, const struct explain_match *m, const char *vm_name)
{
	const struct explain_err *e = m->err;
	unsigned form_builds = 0;
	const char *form = explain_err_form(e, &form_builds);
	fprintf(fp, "%s: %s\n", e->name, e->pattern);
	fprintf(fp, "%-10s ", "builds:");
	put_builds(fp, e->builds);
	fputc('\n', fp);
	if (form) {
		fprintf(fp, "%-10s %s (", "also:", form);
		put_builds(fp, form_builds);
		fputs(")\n", fp);
	}
	fprintf(fp, "%-10s %s\n", "meaning:", e->meaning);
	fprintf(fp, "%-10s %s\n", "try:", e->fix);
	/* an NYI bytecode has a rule of its own once the bytecode is known */
	const struct explain_bc *known = vm_name ? explain_bc_named(vm_name, strlen(vm_name)) : m->bc;
	const struct explain_rule *bc_rule = known ? explain_bc_rule(known) : NULL;
	put_rule(fp, bc_rule ? bc_rule : &e->rule);
	if (vm_name) {
		const struct explain_bc *bc = known;
		if (bc) {
			put_bc(fp, "bytecode:", bc);
		} else {
			fprintf(fp, "%-10s ", "bytecode:");
			term_puts(fp, vm_name);         /* read from a file: shown as text */
			fputs(" (in the given vmdef.lua)\n", fp);
		}
	} else if (m->bc) {
		put_bc(fp, "bytecode:", m->bc);
	} else if (m->bc20 || m->bc21) {
		/* a number both numberings read differently: both readings */
		if (m->bc20)
			put_bc(fp, "if 2.0:", m->bc20);
		if (m->bc21)
			put_bc(fp, "if 2.1:", m->bc21);
	}
}

int explain_start(struct cmdline *cl)
{
	struct explain_opts o = { cl->explain, cl->run.vmdef, stdout };
	return cmd_explain(&o);
}

int cmd_explain(const struct explain_opts *o)
{
	const char *query = o->query, *vmdef_path = o->vmdef;
	FILE *fp = o->out;
	struct vmdef vm;
	if (vmdef_path && cli_read_vmdef(vmdef_path, &vm) < 0)
		return EXIT_USAGE;
	size_t len = strlen(query);
	if (explain_rule_command(query, fp) == 0)
		return EXIT_OK;
	struct explain_match m;
	if (explain_lookup(query, len, EXPLAIN_FLAVOUR_UNKNOWN, &m)) {
		const char *vm_name = NULL;
		if (vmdef_path && strcmp(m.err->name, "NYIBC") == 0)
			vm_name = vmdef_bcname(&vm, m.arg, m.arg_len);
		put_entry(fp, &m, vm_name);
		return EXIT_OK;
	}
	struct explain_match near[CLOSEST_SHOWN];
	size_t n = explain_closest(query, len, near, CLOSEST_SHOWN);
	msg_error("no rule, abort reason or bytecode like '%s' is known (--explain list lists the "
	          "rules)%s", query,
	          n ? "; the closest:" : "");
	for (size_t i = 0; i < n; i++) {
		if (near[i].bc)
			fprintf(stderr, "  %s (%s)\n", near[i].bc->name, near[i].err->pattern);
		else
			fprintf(stderr, "  %s: %s\n", near[i].err->name, near[i].err->pattern);
	}
	return EXIT_USAGE;
}

int cli_read_vmdef(const char *path, struct vmdef *v)
{
	int r = vmdef_read(path, v);
	if (r == -1)
		msg_error("cannot read --luajit-vmdef %s: %s", path, strerror(errno));
	else if (r < 0)
		msg_error("--luajit-vmdef %s: no bcnames string of six-character names "
		          "(is it a build's jit/vmdef.lua?)", path);
	return r;
}
