/* test_explain.c — the abort catalogue against LuaJIT's own message and
 * bytecode tables, and matching, normal forms and the numbering guess
 * against every NYI bytecode abort in the real dumps of samples/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "luajit/explain.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define F20 EXPLAIN_FLAVOUR_20
#define F21 EXPLAIN_FLAVOUR_21
#define FUNK EXPLAIN_FLAVOUR_UNKNOWN

/* -- LuaJIT's own tables (facts, as each build prints them) -------------- */

struct tredef { const char *name, *msg; };

/* v2.0's src/lj_traceerr.h: the "traceerr" of its jit/vmdef.lua. */
static const struct tredef lj20[] = {
	{ "RECERR", "error thrown or hook called during recording" },
	{ "TRACEOV", "trace too long" }, { "STACKOV", "trace too deep" },
	{ "SNAPOV", "too many snapshots" }, { "BLACKL", "blacklisted" },
	{ "NYIBC", "NYI: bytecode %d" },
	{ "LLEAVE", "leaving loop in root trace" }, { "LINNER", "inner loop in root trace" },
	{ "LUNROLL", "loop unroll limit reached" }, { "BADTYPE", "bad argument type" },
	{ "CJITOFF", "JIT compilation disabled for function" },
	{ "CUNROLL", "call unroll limit reached" }, { "DOWNREC", "down-recursion, restarting" },
	{ "NYICF", "NYI: C function %s" }, { "NYIFF", "NYI: FastFunc %s" },
	{ "NYIFFU", "NYI: unsupported variant of FastFunc %s" },
	{ "NYIRETL", "NYI: return to lower frame" }, { "STORENN", "store with nil or NaN key" },
	{ "NOMM", "missing metamethod" }, { "IDXLOOP", "looping index lookup" },
	{ "NYITMIX", "NYI: mixed sparse/dense table" }, { "NOCACHE", "symbol not in cache" },
	{ "NYICONV", "NYI: unsupported C type conversion" },
	{ "NYICALL", "NYI: unsupported C function type" },
	{ "GFAIL", "guard would always fail" }, { "PHIOV", "too many PHIs" },
	{ "TYPEINS", "persistent type instability" },
	{ "MCODEAL", "failed to allocate mcode memory" }, { "MCODEOV", "machine code too long" },
	{ "MCODELM", "hit mcode limit (retrying)" }, { "SPILLOV", "too many spill slots" },
	{ "BADRA", "inconsistent register allocation" },
	{ "NYIIR", "NYI: cannot assemble IR instruction %d" },
	{ "NYIPHI", "NYI: PHI shuffling too complex" },
	{ "NYICOAL", "NYI: register coalescing too complex" },
};

/* 2.1's: Debian's luajit 2.1.0-beta3 and OpenResty's luajit2 2.1-20230119
 * print this table message for message; 2.1 since 2024 differs only in
 * NYIBC, "NYI: bytecode %s" (lj21now below). */
static const struct tredef lj21[] = {
	{ "RECERR", "error thrown or hook called during recording" },
	{ "TRACEUV", "trace too short" }, { "TRACEOV", "trace too long" },
	{ "STACKOV", "trace too deep" }, { "SNAPOV", "too many snapshots" },
	{ "BLACKL", "blacklisted" }, { "RETRY", "retry recording" },
	{ "NYIBC", "NYI: bytecode %d" },
	{ "LLEAVE", "leaving loop in root trace" }, { "LINNER", "inner loop in root trace" },
	{ "LUNROLL", "loop unroll limit reached" }, { "BADTYPE", "bad argument type" },
	{ "CJITOFF", "JIT compilation disabled for function" },
	{ "CUNROLL", "call unroll limit reached" }, { "DOWNREC", "down-recursion, restarting" },
	{ "NYIFFU", "NYI: unsupported variant of FastFunc %s" },
	{ "NYIRETL", "NYI: return to lower frame" }, { "STORENN", "store with nil or NaN key" },
	{ "NOMM", "missing metamethod" }, { "IDXLOOP", "looping index lookup" },
	{ "NYITMIX", "NYI: mixed sparse/dense table" }, { "NOCACHE", "symbol not in cache" },
	{ "NYICONV", "NYI: unsupported C type conversion" },
	{ "NYICALL", "NYI: unsupported C function type" },
	{ "GFAIL", "guard would always fail" }, { "PHIOV", "too many PHIs" },
	{ "TYPEINS", "persistent type instability" },
	{ "MCODEAL", "failed to allocate mcode memory" }, { "MCODEOV", "machine code too long" },
	{ "MCODELM", "hit mcode limit (retrying)" }, { "SPILLOV", "too many spill slots" },
	{ "BADRA", "inconsistent register allocation" },
	{ "NYIIR", "NYI: cannot assemble IR instruction %d" },
	{ "NYIPHI", "NYI: PHI shuffling too complex" },
	{ "NYICOAL", "NYI: register coalescing too complex" },
};

/* "bcnames" of each build's jit/vmdef.lua, six characters a name. */
static const char bcnames20[] =
	"ISLT  ISGE  ISLE  ISGT  ISEQV ISNEV ISEQS ISNES ISEQN ISNEN ISEQP ISNEP "
	"ISTC  ISFC  IST   ISF   MOV   NOT   UNM   LEN   ADDVN SUBVN MULVN DIVVN "
	"MODVN ADDNV SUBNV MULNV DIVNV MODNV ADDVV SUBVV MULVV DIVVV MODVV POW   "
	"CAT   KSTR  KCDATAKSHORTKNUM  KPRI  KNIL  UGET  USETV USETS USETN USETP "
	"UCLO  FNEW  TNEW  TDUP  GGET  GSET  TGETV TGETS TGETB TSETV TSETS TSETB "
	"TSETM CALLM CALL  CALLMTCALLT ITERC ITERN VARG  ISNEXTRETM  RET   RET0  "
	"RET1  FORI  JFORI FORL  IFORL JFORL ITERL IITERLJITERLLOOP  ILOOP JLOOP "
	"JMP   FUNCF IFUNCFJFUNCFFUNCV IFUNCVJFUNCVFUNCC FUNCCW";
static const char bcnames21[] =
	"ISLT  ISGE  ISLE  ISGT  ISEQV ISNEV ISEQS ISNES ISEQN ISNEN ISEQP ISNEP "
	"ISTC  ISFC  IST   ISF   ISTYPEISNUM MOV   NOT   UNM   LEN   ADDVN SUBVN "
	"MULVN DIVVN MODVN ADDNV SUBNV MULNV DIVNV MODNV ADDVV SUBVV MULVV DIVVV "
	"MODVV POW   CAT   KSTR  KCDATAKSHORTKNUM  KPRI  KNIL  UGET  USETV USETS "
	"USETN USETP UCLO  FNEW  TNEW  TDUP  GGET  GSET  TGETV TGETS TGETB TGETR "
	"TSETV TSETS TSETB TSETM TSETR CALLM CALL  CALLMTCALLT ITERC ITERN VARG  "
	"ISNEXTRETM  RET   RET0  RET1  FORI  JFORI FORL  IFORL JFORL ITERL IITERL"
	"JITERLLOOP  ILOOP JLOOP JMP   FUNCF IFUNCFJFUNCFFUNCV IFUNCVJFUNCVFUNCC "
	"FUNCCW";

/* -- helpers --------------------------------------------------------------- */

static const struct explain_err *err(const char *name)
{
	const struct explain_err *e = explain_err_named(name, strlen(name));
	assert_non_null(e);
	return e;
}

static const struct explain_bc *bc(const char *name)
{
	const struct explain_bc *b = explain_bc_named(name, strlen(name));
	assert_non_null(b);
	return b;
}

static void assert_normal(const char *reason, enum explain_flavour fl, const char *opcode,
                          const char *want)
{
	char out[128];
	size_t n = 0;
	assert_int_equal(explain_normalise(reason, strlen(reason), fl, opcode, out, sizeof(out), &n), 0);
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
}

/* A message of LuaJIT's table as a dump would show it. */
static void instance(const struct tredef *t, char *out, size_t cap)
{
	const char *pc = strstr(t->msg, "%");
	if (!pc) {
		snprintf(out, cap, "%s", t->msg);
		return;
	}
	const char *arg = pc[1] == 'd' ? "51" : strcmp(t->name, "NYIBC") == 0 ? "FNEW  " :
	                  strcmp(t->name, "NYICF") == 0 ? "C:55e706e13ba0" : "string.find";
	snprintf(out, cap, "%.*s%s%s", (int)(pc - t->msg), t->msg, arg, pc + 2);
}

/* The catalogue has msg, in the wording build writes. */
static void assert_known(const struct tredef *t, unsigned build)
{
	const struct explain_err *e = err(t->name);
	unsigned fb = 0;
	const char *form = explain_err_form(e, &fb);
	int as_pattern = strcmp(e->pattern, t->msg) == 0 && (e->builds & build);
	int as_form = form && strcmp(form, t->msg) == 0 && (fb & build);
	if (!as_pattern && !as_form)
		fail_msg("%s: \"%s\" not in the catalogue for build %#x", t->name, t->msg, build);
	char text[128];
	instance(t, text, sizeof(text));
	assert_ptr_equal(explain_match(text, strlen(text), FUNK, NULL), e);
}

static size_t count_builds(unsigned build)
{
	size_t n, k = 0;
	const struct explain_err *es = explain_errs(&n);
	for (size_t i = 0; i < n; i++)
		k += (explain_err_builds(&es[i]) & build) != 0;
	return k;
}

/* -- the catalogue ---------------------------------------------------------- */

static void test_rows_are_complete_and_unique(void **s)
{
	(void)s;
	size_t n;
	const struct explain_err *es = explain_errs(&n);
	assert_int_equal(n, 37);        /* 33 shared, NYICF NYIFF, TRACEUV RETRY */
	for (size_t i = 0; i < n; i++) {
		const struct explain_err *e = &es[i];
		assert_true(strlen(e->name) >= 4 && strlen(e->pattern) > 0);
		assert_true(e->builds != 0 && (e->builds & ~EXPLAIN_ALL) == 0);
		/* one sentence each: a capital, a full stop, no line break */
		const char *text[] = { e->meaning, e->fix };
		for (size_t k = 0; k < 2; k++) {
			size_t len = strlen(text[k]);
			assert_true(len > 10 && len < 170);
			assert_true(text[k][0] >= 'A' && text[k][0] <= 'Z');
			assert_int_equal(text[k][len - 1], '.');
			assert_null(strchr(text[k], '\n'));
		}
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(es[j].name, e->name);
			assert_string_not_equal(es[j].pattern, e->pattern);
		}
		assert_ptr_equal(explain_err_named(e->name, strlen(e->name)), e);
	}
}

static void test_every_message_of_every_build_is_known(void **s)
{
	(void)s;
	for (size_t i = 0; i < N(lj20); i++)
		assert_known(&lj20[i], EXPLAIN_LJ20);
	for (size_t i = 0; i < N(lj21); i++) {
		assert_known(&lj21[i], EXPLAIN_LJ21B);
		assert_known(&lj21[i], EXPLAIN_LJ2);
		if (strcmp(lj21[i].name, "NYIBC") != 0)
			assert_known(&lj21[i], EXPLAIN_LJ21);
	}
	static const struct tredef lj21now = { "NYIBC", "NYI: bytecode %s" };
	assert_known(&lj21now, EXPLAIN_LJ21);
	/* and no build is said to have more than its table */
	assert_int_equal(N(lj20), 35);
	assert_int_equal(N(lj21), 35);
	assert_int_equal(count_builds(EXPLAIN_LJ20), N(lj20));
	assert_int_equal(count_builds(EXPLAIN_LJ21B), N(lj21));
	assert_int_equal(count_builds(EXPLAIN_LJ2), N(lj21));
	assert_int_equal(count_builds(EXPLAIN_LJ21), N(lj21));
	assert_true(explain_err_builds(err("NYICF")) == EXPLAIN_LJ20);
	assert_true(explain_err_builds(err("TRACEUV")) == EXPLAIN_LJ21ALL);
	assert_true(explain_err_builds(err("NYIBC")) == EXPLAIN_ALL);
	assert_null(explain_err_form(err("MCODEAL"), NULL));
}

static void check_numbering(const char *names, size_t len, enum explain_flavour fl)
{
	size_t count = len / 6;
	assert_int_equal(len % 6, 0);
	for (size_t i = 0; i < count; i++) {
		char name[7];
		size_t k = 0;
		for (; k < 6 && names[6 * i + k] != ' '; k++)
			name[k] = names[6 * i + k];
		name[k] = '\0';
		const struct explain_bc *b = explain_bc_numbered((long)i, fl);
		assert_non_null(b);
		assert_string_equal(b->name, name);
	}
	assert_null(explain_bc_numbered((long)count, fl));
	assert_null(explain_bc_numbered(-1, fl));
}

static void test_bytecodes_in_both_numberings(void **s)
{
	(void)s;
	check_numbering(bcnames20, sizeof(bcnames20) - 1, F20);
	check_numbering(bcnames21, sizeof(bcnames21) - 1, F21);
	size_t n, in20 = 0;
	const struct explain_bc *bs = explain_bcs(&n);
	for (size_t i = 0; i < n; i++)
		in20 += bs[i].n20 >= 0;
	assert_int_equal(n, (sizeof(bcnames21) - 1) / 6);
	assert_int_equal(in20, (sizeof(bcnames20) - 1) / 6);
	/* the numbers the issue names */
	assert_int_equal(bc("FNEW")->n20, 49);
	assert_int_equal(bc("FNEW")->n21, 51);
	assert_int_equal(bc("VARG")->n20, 67);
	assert_int_equal(bc("VARG")->n21, 71);
	assert_int_equal(bc("CAT")->n20, 36);
	assert_string_equal(explain_bc_numbered(36, F21)->name, "MODVV");
	assert_int_equal(bc("ISTYPE")->n20, -1);
	assert_int_equal(bc("TSETR")->n20, -1);
	assert_null(explain_bc_numbered(1, FUNK));
	assert_non_null(strstr(bc("FNEW")->meaning, "closure is created"));
	assert_null(bc("ADDVV")->meaning);
	assert_ptr_equal(explain_bc_named("fnew", 4), bc("FNEW"));
	assert_null(explain_bc_named("FNEWX", 5));
}

/* A bare number can hint at the numbering only because no number is an
 * opcode 2.0's recorder rejects and one 2.1's rejects at once. */
static void test_rejected_numbers_never_collide(void **s)
{
	(void)s;
	size_t named = 0;
	for (long i = 0; i < 100; i++) {
		const struct explain_bc *a = explain_bc_numbered(i, F20);
		const struct explain_bc *b = explain_bc_numbered(i, F21);
		assert_false(a && b && (a->nyi & EXPLAIN_NYI20) && (b->nyi & EXPLAIN_NYI21));
	}
	size_t n;
	const struct explain_bc *bs = explain_bcs(&n);
	for (size_t i = 0; i < n; i++)
		if (bs[i].nyi) {
			assert_non_null(bs[i].meaning);
			named++;
		} else {
			assert_null(bs[i].meaning);
		}
	assert_int_equal(named, 7);     /* CAT UCLO FNEW TSETM ITERN VARG ISNEXT */
}

/* -- bytecode lines --------------------------------------------------------- */

static void test_bcline_names_the_opcode(void **s)
{
	(void)s;
	static const struct { const char *line, *op; } yes[] = {
		{ "0027  GGET     4   2      ; \"unpack\"", "GGET" },
		{ "0009  FNEW  11 0 ; prog.lua:100", "FNEW" },
		{ "0000  . FUNCC               ; string.match", "FUNCC" },
		{ "0000  . FUNCC               ; C:55e706e13ba0", "FUNCC" },
		{ "0047  . . . . . UCLO     0 =&gt; 0048", "UCLO" },        /* -jdump=H */
		{ "0095  FNEW    23  19      ; penlight.lua:34       (penlight.lua:34)", "FNEW" },
		{ "0019  LEN     10   4       (penlight.lua:15)", "LEN" },       /* luajit2 */
		{ "0017  VARG    10   0   2", "VARG" },
		{ "0005  FNEW     4   0      ; \"for i=1,99 do", "FNEW" },
		{ "0012  KCDATA   3   0      ; 1LL", "KCDATA" },
		{ "0003  ISTYPE   0  11", "ISTYPE" },
		{ "0001  RET0", "RET0" },
	};
	static const char *const no[] = {
		"0001 rbp      fun SLOAD  #0    R",                     /* IR, -jdump=r */
		"0001 [8]   >  str SLOAD  #2    T",
		"0001 >  int SLOAD  #2    CI",
		"0005    int ADD    0004  +1",
		"0007 >  fun HLOAD  0006",
		"0008 ------------ LOOP ------------",
		"0064 ------ LOOP ------------",
		"....              SNAP   #1   [ ---- ---- 0001 ]",
		"#0   0001 [ ---- ---- ---- ---- ]",
		"0bccff9d  jge 0xbcc0014\t->1",
		"55bbc524cec7  jmp 0x55bbc524ce26\t->LOOP",
		"12345678  mov eax, 1",
		"->LOOP:",
		" 000055bbc524ff81 00007f572b275a80 00007f572b2575a8 00007f572b2bc7f0",
		"---- TRACE 1 start penlight.lua:14",
		"io.write: ..57",
		"0012  XYZW     1",                                     /* not an opcode */
		"0012  FNEWXYZ  1",
		"0012  fnew     1",
		"012  FNEW",
		"0012 FNEW",
		"0012  ",
		"",
	};
	for (size_t i = 0; i < N(yes); i++) {
		const struct explain_bc *b = explain_bcline(yes[i].line, strlen(yes[i].line));
		assert_non_null(b);
		assert_string_equal(b->name, yes[i].op);
	}
	for (size_t i = 0; i < N(no); i++)
		if (explain_bcline(no[i], strlen(no[i])))
			fail_msg("\"%s\" read as a bytecode line", no[i]);
}

/* -- matching ----------------------------------------------------------------- */

static void test_real_reasons_match_their_entry(void **s)
{
	(void)s;
	/* every distinct reason in samples/, bytes as in the dumps */
	static const struct { const char *reason, *name, *arg; } cases[] = {
		{ "NYI: bytecode 51", "NYIBC", "51" },
		{ "NYI: bytecode FNEW  ", "NYIBC", "FNEW" },
		{ "NYI: bytecode VARG  ", "NYIBC", "VARG" },
		{ "NYI: FastFunc string.find", "NYIFF", "string.find" },
		{ "NYI: FastFunc pairs", "NYIFF", "pairs" },
		{ "NYI: C function C:55e706e13ba0", "NYICF", "C:55e706e13ba0" },
		{ "NYI: return to lower frame", "NYIRETL", NULL },
		{ "failed to allocate mcode memory", "MCODEAL", NULL },
		{ "leaving loop in root trace", "LLEAVE", NULL },
		{ "inner loop in root trace", "LINNER", NULL },
		{ "blacklisted", "BLACKL", NULL },
		{ "loop unroll limit reached", "LUNROLL", NULL },
		{ "down-recursion, restarting", "DOWNREC", NULL },
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct explain_match m;
		const struct explain_err *e = explain_match(cases[i].reason, strlen(cases[i].reason),
		                                            FUNK, &m);
		assert_ptr_equal(e, err(cases[i].name));
		assert_ptr_equal(m.err, e);
		if (cases[i].arg) {
			assert_int_equal(m.arg_len, strlen(cases[i].arg));
			assert_memory_equal(m.arg, cases[i].arg, m.arg_len);
		}
	}
	struct explain_match m;
	/* a number: both readings, no decision without a flavour */
	assert_non_null(explain_match("NYI: bytecode 51", 16, FUNK, &m));
	assert_null(m.bc);
	assert_string_equal(m.bc20->name, "TDUP");
	assert_string_equal(m.bc21->name, "FNEW");
	explain_match("NYI: bytecode 51", 16, F21, &m);
	assert_ptr_equal(m.bc, bc("FNEW"));
	explain_match("NYI: bytecode 49", 16, F20, &m);
	assert_ptr_equal(m.bc, bc("FNEW"));
	explain_match("NYI: bytecode 5", 15, FUNK, &m);     /* ISNEV in both */
	assert_ptr_equal(m.bc, bc("ISNEV"));
	explain_match("NYI: bytecode VARG  ", 20, F20, &m);  /* a name needs no flavour */
	assert_ptr_equal(m.bc, bc("VARG"));
	/* the length given is what counts, not a NUL */
	assert_non_null(explain_match("blacklistedXYZ", 11, FUNK, NULL));
	/* unknown: Lua errors that aborted recording, near misses, nothing */
	static const char *const unknown[] = {
		"attempt to index a nil value", "", "   ", "NYI: bytecode", "NYI: FastFunc",
		"blacklisted!", "Blacklisted", "NYI: cannot assemble IR instruction x",
		"failed to allocate mcode", "leaving loop in root trace again",
	};
	for (size_t i = 0; i < N(unknown); i++)
		if (explain_match(unknown[i], strlen(unknown[i]), FUNK, &m) || m.err)
			fail_msg("\"%s\" matched", unknown[i]);
	/* a name LuaJIT never had still reads as the 2.1 form */
	assert_ptr_equal(explain_match("NYI: bytecode FOO", 17, FUNK, &m), err("NYIBC"));
	assert_null(m.bc);
}

/* -- the normal form ------------------------------------------------------ */

static void test_one_cause_one_normal_form(void **s)
{
	(void)s;
	/* a closure in a loop, as 2.0, 2.1 beta3 and 2.1 since 2024 write it */
	assert_normal("NYI: bytecode 49", F20, NULL, "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode 51", F21, NULL, "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode FNEW  ", F21, NULL, "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode FNEW  ", FUNK, NULL, "NYI: bytecode FNEW");
	/* varargs, the same three ways */
	assert_normal("NYI: bytecode 67", F20, NULL, "NYI: bytecode VARG");
	assert_normal("NYI: bytecode 71", F21, NULL, "NYI: bytecode VARG");
	assert_normal("NYI: bytecode VARG  ", FUNK, NULL, "NYI: bytecode VARG");
	/* the numbering decides; without one a number stays a number */
	assert_normal("NYI: bytecode 36", F20, NULL, "NYI: bytecode CAT");
	assert_normal("NYI: bytecode 36", F21, NULL, "NYI: bytecode MODVV");
	assert_normal("NYI: bytecode 36", FUNK, NULL, "NYI: bytecode 36");
	assert_normal("NYI: bytecode 7", FUNK, NULL, "NYI: bytecode ISNES");
	assert_normal("NYI: bytecode 150", F21, NULL, "NYI: bytecode 150");
	/* the printed opcode beats the numbering when it can be the number */
	assert_normal("NYI: bytecode 51", FUNK, "FNEW", "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode 51", FUNK, "TDUP", "NYI: bytecode TDUP");
	assert_normal("NYI: bytecode 51", F20, "FNEW", "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode 51", FUNK, "GGET", "NYI: bytecode 51");
	assert_normal("NYI: bytecode 51", F21, "GGET", "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode 51", F21, "NOSUCH", "NYI: bytecode FNEW");
	assert_normal("NYI: bytecode VARG  ", F21, "FNEW", "NYI: bytecode VARG");
	/* addresses go, names stay, padding goes, the rest is kept */
	assert_normal("NYI: C function C:55e706e13ba0", F20, NULL, "NYI: C function");
	assert_normal("NYI: C function C:7F00AB", FUNK, NULL, "NYI: C function");
	assert_normal("NYI: C function (?)", FUNK, NULL, "NYI: C function (?)");
	assert_normal("NYI: FastFunc string.find", F20, NULL, "NYI: FastFunc string.find");
	assert_normal("NYI: unsupported variant of FastFunc string.format", F21, NULL,
	              "NYI: unsupported variant of FastFunc string.format");
	assert_normal("  blacklisted  ", FUNK, NULL, "blacklisted");
	assert_normal("failed to allocate mcode memory", F21, NULL, "failed to allocate mcode memory");
	assert_normal("x.lua:3: attempt to call a nil value", FUNK, NULL,
	              "x.lua:3: attempt to call a nil value");
	assert_normal("", FUNK, NULL, "");
}

static void test_normal_form_respects_the_buffer(void **s)
{
	(void)s;
	const char *r = "NYI: bytecode 51";
	char out[64];
	size_t n = 0;
	memset(out, 'x', sizeof(out));
	assert_int_equal(explain_normalise(r, strlen(r), F21, NULL, out, 10, &n), -1);
	assert_int_equal(n, strlen("NYI: bytecode FNEW"));
	assert_string_equal(out, "NYI: byte");
	assert_int_equal(out[10], 'x');
	assert_int_equal(explain_normalise(r, strlen(r), F21, NULL, out, 19, NULL), 0);
	assert_string_equal(out, "NYI: bytecode FNEW");
	assert_int_equal(explain_normalise(r, strlen(r), F21, NULL, out, 18, &n), -1);
	assert_int_equal(explain_normalise(r, strlen(r), F21, NULL, out, 0, &n), -1);
	assert_int_equal(n, 18);
	/* the bound holds for every number of either numbering */
	size_t tried = 0;
	for (int fl = F20; fl <= F21; fl++)
		for (int i = 0; i < 100; i++) {
			char g[32];
			snprintf(g, sizeof(g), "NYI: bytecode %d", i);
			assert_int_equal(explain_normalise(g, strlen(g), (enum explain_flavour)fl, NULL,
			                                   out, strlen(g) + EXPLAIN_NORMAL_EXTRA + 1, &n), 0);
			tried++;
		}
	assert_int_equal(tried, 200);
	const char *g = "NYI: bytecode 16";
	assert_int_equal(explain_normalise(g, strlen(g), F21, NULL, out, sizeof(out), &n), 0);
	assert_string_equal(out, "NYI: bytecode ISTYPE");
}

/* -- the numbering ---------------------------------------------------------- */

static void test_flavour_guess_tiers(void **s)
{
	(void)s;
	const char *why = NULL;
	struct explain_evidence ev;
	memset(&ev, 0, sizeof(ev));
	assert_int_equal(explain_flavour_guess(&ev, &why), FUNK);
	assert_string_equal(why, "no evidence of either numbering");

	explain_note_reason(&ev, "NYI: bytecode 51", 16, NULL);
	assert_int_equal(ev.fits21, 1);
	assert_int_equal(explain_flavour_guess(&ev, &why), F21);
	explain_note_reason(&ev, "NYI: bytecode 49", 16, NULL);
	assert_int_equal(ev.fits20, 1);
	assert_int_equal(explain_flavour_guess(&ev, &why), FUNK);       /* conflict */
	struct explain_evidence only20;
	memset(&only20, 0, sizeof(only20));
	explain_note_reason(&only20, "NYI: bytecode 36", 16, NULL);     /* CAT, not MODVV */
	assert_int_equal(only20.fits20, 1);
	assert_int_equal(explain_flavour_guess(&only20, &why), F20);
	assert_non_null(strstr(why, "2.0's recorder"));

	/* a stronger tier overrides a weaker one */
	explain_note_reason(&ev, "NYI: FastFunc string.find", 25, NULL);
	assert_int_equal(ev.nyi_ffunc, 1);
	assert_int_equal(explain_flavour_guess(&ev, &why), F20);
	assert_non_null(strstr(why, "FastFunc"));
	ev.stitch = 2;
	assert_int_equal(explain_flavour_guess(&ev, &why), FUNK);
	assert_non_null(strstr(why, "both"));
	explain_note_reason(&ev, "NYI: bytecode 51", 16, "FNEW");
	assert_int_equal(ev.pair21, 1);
	assert_int_equal(explain_flavour_guess(&ev, &why), F21);
	assert_non_null(strstr(why, "2.1's numbering"));
	explain_note_reason(&ev, "NYI: bytecode 49", 16, "FNEW");
	assert_int_equal(ev.pair20, 1);
	assert_int_equal(explain_flavour_guess(&ev, NULL), FUNK);

	/* each 2.1-only sign on its own */
	memset(&ev, 0, sizeof(ev));
	explain_note_reason(&ev, "NYI: bytecode FNEW  ", 20, NULL);
	assert_int_equal(ev.nyi_name, 1);
	assert_int_equal(ev.fits20 + ev.fits21 + ev.pair20 + ev.pair21, 0);
	assert_int_equal(explain_flavour_guess(&ev, &why), F21);
	assert_non_null(strstr(why, "named"));
	memset(&ev, 0, sizeof(ev));
	explain_note_reason(&ev, "trace too short", 15, NULL);
	assert_int_equal(ev.err21, 1);
	assert_int_equal(explain_flavour_guess(&ev, NULL), F21);
	memset(&ev, 0, sizeof(ev));
	explain_note_bcline(&ev, "0003  ISTYPE   0  11", 20);
	explain_note_bcline(&ev, "0004  TGETV    0   0   1", 24);
	assert_int_equal(ev.bc21, 1);
	assert_int_equal(explain_flavour_guess(&ev, &why), F21);
	assert_non_null(strstr(why, "ISTYPE"));
	memset(&ev, 0, sizeof(ev));
	explain_note_reason(&ev, "NYI: C function C:55e706e13ba0", 30, NULL);
	assert_int_equal(ev.nyi_cfunc, 1);
	assert_int_equal(explain_flavour_guess(&ev, NULL), F20);
	/* neutral reasons and numbers both read alike count nothing */
	memset(&ev, 0, sizeof(ev));
	explain_note_reason(&ev, "blacklisted", 11, NULL);
	explain_note_reason(&ev, "NYI: bytecode 5", 15, "ISNEV");
	explain_note_reason(&ev, "attempt to call a nil value", 27, NULL);
	struct explain_evidence zero;
	memset(&zero, 0, sizeof(zero));
	assert_memory_equal(&ev, &zero, sizeof(ev));
	assert_string_equal(explain_flavour_name(F20), "2.0");
	assert_string_equal(explain_flavour_name(F21), "2.1");
	assert_string_equal(explain_flavour_name(FUNK), "unknown");
}

/* -- lookup and suggestions --------------------------------------------------- */

static void test_lookup_by_any_form(void **s)
{
	(void)s;
	struct explain_match m;
	assert_ptr_equal(explain_lookup("NYIBC", 5, FUNK, &m), err("NYIBC"));
	assert_null(m.bc);
	assert_ptr_equal(explain_lookup(" mcodeal ", 9, FUNK, &m), err("MCODEAL"));
	assert_ptr_equal(explain_lookup("FNEW", 4, FUNK, &m), err("NYIBC"));
	assert_ptr_equal(m.bc, bc("FNEW"));
	assert_ptr_equal(explain_lookup("varg", 4, FUNK, &m), err("NYIBC"));
	assert_ptr_equal(m.bc, bc("VARG"));
	const char *q = "NYI: bytecode 51";
	assert_ptr_equal(explain_lookup(q, strlen(q), F21, &m), err("NYIBC"));
	assert_ptr_equal(m.bc, bc("FNEW"));
	assert_ptr_equal(explain_lookup(q, strlen(q), FUNK, &m), err("NYIBC"));
	assert_null(m.bc);
	assert_ptr_equal(m.bc21, bc("FNEW"));
	assert_ptr_equal(m.bc20, bc("TDUP"));
	q = "nyi: bytecode fnew";
	assert_ptr_equal(explain_lookup(q, strlen(q), FUNK, &m), err("NYIBC"));
	assert_ptr_equal(m.bc, bc("FNEW"));
	q = "failed to allocate mcode memory";
	assert_ptr_equal(explain_lookup(q, strlen(q), FUNK, NULL), err("MCODEAL"));
	q = "  Failed To Allocate MCODE Memory\t";
	assert_ptr_equal(explain_lookup(q, strlen(q), FUNK, NULL), err("MCODEAL"));
	q = "NYI: FastFunc string.find";
	assert_ptr_equal(explain_lookup(q, strlen(q), FUNK, &m), err("NYIFF"));
	assert_int_equal(m.arg_len, 11);
	q = "no such thing";
	assert_null(explain_lookup(q, strlen(q), FUNK, &m));
	assert_null(m.err);
}

static void test_closest_matches_are_ranked(void **s)
{
	(void)s;
	struct explain_match out[8], again[8];
	/* containment first, ties in catalogue order */
	assert_int_equal(explain_closest("mcode", 5, out, 3), 3);
	assert_ptr_equal(out[0].err, err("MCODEAL"));
	assert_ptr_equal(out[1].err, err("MCODEOV"));
	assert_ptr_equal(out[2].err, err("MCODELM"));
	/* a typo of a bytecode gives NYIBC and the bytecode */
	size_t n = explain_closest("FNEQ", 4, out, 8);
	assert_true(n >= 1);
	assert_ptr_equal(out[0].err, err("NYIBC"));
	assert_ptr_equal(out[0].bc, bc("FNEW"));
	/* typos of messages and names */
	const char *q = "trace too lnog";
	assert_true(explain_closest(q, strlen(q), out, 8) >= 1);
	assert_ptr_equal(out[0].err, err("TRACEOV"));
	assert_null(out[0].bc);
	assert_true(explain_closest("blacklist", 9, out, 8) >= 1);
	assert_ptr_equal(out[0].err, err("BLACKL"));
	assert_true(explain_closest("LLEAV", 5, out, 1) == 1);
	assert_ptr_equal(out[0].err, err("LLEAVE"));
	q = "leaving the loop in a root trace";
	assert_true(explain_closest(q, strlen(q), out, 8) >= 1);
	assert_ptr_equal(out[0].err, err("LLEAVE"));
	/* deterministic, and sorted: the first of max is the first of more */
	n = explain_closest("nyi", 3, out, 8);
	assert_int_equal(n, 8);
	assert_int_equal(explain_closest("nyi", 3, again, 8), n);
	assert_memory_equal(out, again, sizeof(out[0]) * n);
	assert_int_equal(explain_closest("nyi", 3, again, 2), 2);
	assert_memory_equal(out, again, sizeof(out[0]) * 2);
	/* nothing close, nothing asked */
	assert_int_equal(explain_closest("zzzzzzzzzz", 10, out, 8), 0);
	assert_int_equal(explain_closest("   ", 3, out, 8), 0);
	assert_int_equal(explain_closest("mcode", 5, out, 0), 0);
	/* a query longer than any key is compared by its head */
	char longq[300];
	memset(longq, 'q', sizeof(longq));
	memcpy(longq, "blacklisted", 11);
	assert_true(explain_closest(longq, sizeof(longq), out, 8) >= 1);
	assert_ptr_equal(out[0].err, err("BLACKL"));
}

/* -- the real dumps ------------------------------------------------------------ */

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open %s (run from the top directory)", path);
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* Every "NYI: bytecode" abort of samples/, counted by reason and the
 * opcode on the attempt's last recorded bytecode line (found with grep and
 * awk).  With -jdump=+a an IR section comes between that line and the
 * abort (abort-ir.dump); jv.dump is a -jv log, which lists no bytecode. */
static const struct nyi_case {
	const char *file, *reason, *opcode;
	unsigned count;
} nyi_cases[] = {
	{ "abort-ir.dump", "NYI: bytecode 51", "FNEW", 3 },
	{ "abort-ir.dump", "NYI: bytecode 71", "VARG", 5 },
	{ "ansi.dump", "NYI: bytecode 50", "UCLO", 1 },
	{ "ansi.dump", "NYI: bytecode 71", "VARG", 7 },
	{ "blacklist-luajit20.dump", "NYI: bytecode 36", "CAT", 21 },
	{ "blacklist-luajit20.dump", "NYI: bytecode 49", "FNEW", 22 },
	{ "blacklist-luajit21.dump", "NYI: bytecode FNEW  ", "FNEW", 22 },
	{ "blacklist-luajit21.dump", "NYI: bytecode UCLO  ", "UCLO", 1 },
	{ "blacklist.dump", "NYI: bytecode 50", "UCLO", 1 },
	{ "blacklist.dump", "NYI: bytecode 51", "FNEW", 22 },
	{ "builtin.dump", "NYI: bytecode 50", "UCLO", 5 },
	{ "builtin.dump", "NYI: bytecode 51", "FNEW", 2 },
	{ "chunknames.dump", "NYI: bytecode 51", "FNEW", 4 },
	{ "costly-luajit2.dump", "NYI: bytecode 50", "UCLO", 8 },
	{ "costly-luajit2.dump", "NYI: bytecode 51", "FNEW", 15 },
	{ "costly-luajit2.dump", "NYI: bytecode 71", "VARG", 37 },
	{ "costly-luajit20.dump", "NYI: bytecode 36", "CAT", 35 },
	{ "costly-luajit20.dump", "NYI: bytecode 48", "UCLO", 8 },
	{ "costly-luajit20.dump", "NYI: bytecode 49", "FNEW", 15 },
	{ "costly-luajit20.dump", "NYI: bytecode 67", "VARG", 11 },
	{ "costly-luajit21.dump", "NYI: bytecode FNEW  ", "FNEW", 15 },
	{ "costly-luajit21.dump", "NYI: bytecode UCLO  ", "UCLO", 8 },
	{ "costly-luajit21.dump", "NYI: bytecode VARG  ", "VARG", 37 },
	{ "costly.dump", "NYI: bytecode 50", "UCLO", 8 },
	{ "costly.dump", "NYI: bytecode 51", "FNEW", 15 },
	{ "costly.dump", "NYI: bytecode 71", "VARG", 37 },
	{ "hostile.dump", "NYI: bytecode 51", "FNEW", 4 },
	{ "html.dump", "NYI: bytecode 50", "UCLO", 1 },
	{ "html.dump", "NYI: bytecode 71", "VARG", 3 },
	{ "luacheck.dump", "NYI: bytecode 71", "VARG", 4 },
	{ "luajit2.dump", "NYI: bytecode 50", "UCLO", 8 },
	{ "luajit2.dump", "NYI: bytecode 51", "FNEW", 20 },
	{ "luajit2.dump", "NYI: bytecode 71", "VARG", 27 },
	{ "mcode-full.dump", "NYI: bytecode 71", "VARG", 3 },
	{ "penlight-luajit20.dump", "NYI: bytecode 36", "CAT", 28 },
	{ "penlight-luajit20.dump", "NYI: bytecode 49", "FNEW", 8 },
	{ "penlight-luajit20.dump", "NYI: bytecode 67", "VARG", 12 },
	{ "penlight-luajit21.dump", "NYI: bytecode FNEW  ", "FNEW", 20 },
	{ "penlight-luajit21.dump", "NYI: bytecode UCLO  ", "UCLO", 8 },
	{ "penlight-luajit21.dump", "NYI: bytecode VARG  ", "VARG", 27 },
	{ "penlight-x.dump", "NYI: bytecode 50", "UCLO", 4 },
	{ "penlight-x.dump", "NYI: bytecode 51", "FNEW", 14 },
	{ "penlight-x.dump", "NYI: bytecode 71", "VARG", 21 },
	{ "rsx.dump", "NYI: bytecode 50", "UCLO", 1 },
	{ "rsx.dump", "NYI: bytecode 71", "VARG", 3 },
	{ "snapshots.dump", "NYI: bytecode 50", "UCLO", 1 },
	{ "snapshots.dump", "NYI: bytecode 71", "VARG", 7 },
};

/* The dumps, with the numbering of the LuaJIT that wrote each. */
static const struct { const char *file; enum explain_flavour fl; } dumps[] = {
	{ "abort-ir.dump", F21 }, { "ansi.dump", F21 }, { "blacklist-luajit20.dump", F20 },
	{ "blacklist-luajit21.dump", F21 }, { "blacklist.dump", F21 }, { "builtin.dump", F21 },
	{ "chunknames.dump", F21 }, { "costly-luajit2.dump", F21 },
	{ "costly-luajit20.dump", F20 }, { "costly-luajit21.dump", F21 }, { "costly.dump", F21 },
	{ "hostile.dump", F21 }, { "html.dump", F21 }, { "luacheck.dump", F21 },
	{ "luajit2.dump", F21 }, { "mcode-full.dump", F21 }, { "penlight-luajit20.dump", F20 },
	{ "penlight-luajit21.dump", F21 }, { "penlight-x.dump", F21 }, { "rsx.dump", F21 },
	{ "snapshots.dump", F21 },
};

#define MAX_REASONS 32

/* What one pass over a dump collects. */
struct scan {
	struct explain_evidence ev;     /* with the printed opcodes */
	struct explain_evidence bare;   /* without them: the weaker tiers */
	unsigned found[N(nyi_cases)];   /* NYI aborts per case */
	unsigned nyi, aborts;
	char reasons[MAX_REASONS][128]; /* the normal forms, each once */
	size_t nreasons;
};

static int starts(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n >= k && memcmp(p, w, k) == 0;
}

static int has(const char *p, size_t n, const char *w)
{
	for (size_t i = 0; i < n; i++)
		if (starts(p + i, n - i, w))
			return 1;
	return 0;
}

/* The last " -- " of the line: a reason follows it (a chunk name may
 * hold " -- " too, but no LuaJIT message does). */
static const char *reason_of(const char *p, size_t n, size_t *len)
{
	const char *r = NULL;
	for (size_t i = 0; i + 4 <= n; i++)
		if (memcmp(p + i, " -- ", 4) == 0)
			r = p + i + 4;
	if (r)
		*len = n - (size_t)(r - p);
	return r;
}

static int is_abort_header(const char *p, size_t n)
{
	if (!starts(p, n, "---- TRACE "))
		return 0;
	size_t i = 11;
	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	return i > 11 && starts(p + i, n - i, " abort ");
}

static void add_reason(struct scan *sc, const char *r)
{
	for (size_t i = 0; i < sc->nreasons; i++)
		if (strcmp(sc->reasons[i], r) == 0)
			return;
	assert_true(sc->nreasons < MAX_REASONS);
	assert_true(strlen(r) < sizeof(sc->reasons[0]));
	memcpy(sc->reasons[sc->nreasons++], r, strlen(r) + 1);
}

/* Read samples/NAME line by line, as a caller of explain.h would: the
 * last bytecode line of each attempt, the evidence, each abort. */
static void scan_dump(const char *name, enum explain_flavour fl, struct scan *sc)
{
	char path[128];
	size_t len;
	snprintf(path, sizeof(path), "samples/%s", name);
	char *text = slurp(path, &len);
	memset(sc, 0, sizeof(*sc));
	const struct explain_bc *last = NULL;
	for (size_t at = 0; at < len; ) {
		const char *p = text + at;
		const char *nl = memchr(p, '\n', len - at);
		size_t n = nl ? (size_t)(nl - p) : len - at;
		at += n + 1;
		if (starts(p, n, "---- TRACE ") && has(p, n, " start ")) {
			last = NULL;
			if (has(p, n, "/stitch "))
				sc->ev.stitch++, sc->bare.stitch++;
			continue;
		}
		const struct explain_bc *b = explain_bcline(p, n);
		if (b) {
			last = b;
			explain_note_bcline(&sc->ev, p, n);
			explain_note_bcline(&sc->bare, p, n);
		}
		size_t rlen;
		const char *r = reason_of(p, n, &rlen);
		int nyi = r && starts(r, rlen, "NYI: bytecode ");
		/* a chunk name over lines puts the reason on a later line */
		if (!r || (!is_abort_header(p, n) && !nyi))
			continue;
		sc->aborts++;
		const char *op = last ? last->name : NULL;
		explain_note_reason(&sc->ev, r, rlen, op);
		explain_note_reason(&sc->bare, r, rlen, NULL);
		char out[128];
		assert_int_equal(explain_normalise(r, rlen, fl, op, out, sizeof(out), NULL), 0);
		add_reason(sc, out);
		if (!nyi)
			continue;
		sc->nyi++;
		assert_non_null(op);
		size_t k = 0;
		while (k < N(nyi_cases) && !(strcmp(nyi_cases[k].file, name) == 0 &&
		       strlen(nyi_cases[k].reason) == rlen &&
		       memcmp(nyi_cases[k].reason, r, rlen) == 0 &&
		       strcmp(nyi_cases[k].opcode, op) == 0))
			k++;
		if (k == N(nyi_cases))
			fail_msg("%s: \"%.*s\" after %s is not in nyi_cases", name, (int)rlen, r, op);
		sc->found[k]++;
		/* the name of the printed bytecode, however LuaJIT wrote it:
		 * from the numbering alone, and from the line alone */
		char want[32];
		snprintf(want, sizeof(want), "NYI: bytecode %s", op);
		assert_string_equal(out, want);
		assert_int_equal(explain_normalise(r, rlen, fl, NULL, out, sizeof(out), NULL), 0);
		assert_string_equal(out, want);
		assert_int_equal(explain_normalise(r, rlen, FUNK, op, out, sizeof(out), NULL), 0);
		assert_string_equal(out, want);
	}
	free(text);
}

static void test_every_real_nyi_bytecode_gets_its_printed_name(void **s)
{
	(void)s;
	unsigned total = 0, files = 0;
	unsigned seen[N(nyi_cases)] = { 0 };
	for (size_t d = 0; d < N(dumps); d++) {
		struct scan sc;
		scan_dump(dumps[d].file, dumps[d].fl, &sc);
		unsigned want = 0;
		for (size_t k = 0; k < N(nyi_cases); k++) {
			if (strcmp(nyi_cases[k].file, dumps[d].file) != 0)
				continue;
			if (sc.found[k] != nyi_cases[k].count)
				fail_msg("%s: %u of \"%s\" after %s, want %u", dumps[d].file,
				         sc.found[k], nyi_cases[k].reason, nyi_cases[k].opcode,
				         nyi_cases[k].count);
			want += nyi_cases[k].count;
			seen[k]++;
		}
		assert_true(want > 0);
		assert_int_equal(sc.nyi, want);
		total += sc.nyi;
		files++;
		/* the numbering, from the dump alone: with the printed opcodes,
		 * and from the weaker signs without them */
		const char *why = NULL;
		if (explain_flavour_guess(&sc.ev, &why) != dumps[d].fl)
			fail_msg("%s: guessed %s (%s)", dumps[d].file,
			         explain_flavour_name(explain_flavour_guess(&sc.ev, NULL)), why);
		if (explain_flavour_guess(&sc.bare, &why) != dumps[d].fl)
			fail_msg("%s: without opcodes guessed %s (%s)", dumps[d].file,
			         explain_flavour_name(explain_flavour_guess(&sc.bare, NULL)), why);
	}
	for (size_t k = 0; k < N(nyi_cases); k++)
		assert_int_equal(seen[k], 1);   /* every case belongs to a dump read */
	assert_int_equal(files, 21);
	assert_int_equal(total, 589);
}

static size_t find_reason(const struct scan *sc, const char *r)
{
	for (size_t i = 0; i < sc->nreasons; i++)
		if (strcmp(sc->reasons[i], r) == 0)
			return i;
	return sc->nreasons;
}

static void assert_reasons(const struct scan *sc, const char *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (find_reason(sc, want[i]) == sc->nreasons)
			fail_msg("\"%s\" missing", want[i]);
	assert_int_equal(sc->nreasons, n);
}

/* Every NYI bytecode in the 2.0 set that 2.1's recorder rejects too is in
 * the 2.1 set: the same closure or vararg aborts under either. */
static void assert_shared_nyi(const struct scan *s20, const struct scan *s21)
{
	size_t checked = 0;
	for (size_t i = 0; i < s20->nreasons; i++) {
		const char *r = s20->reasons[i];
		if (strncmp(r, "NYI: bytecode ", 14) != 0)
			continue;
		const struct explain_bc *b = bc(r + 14);
		if (b->nyi & EXPLAIN_NYI21) {
			assert_true(find_reason(s21, r) < s21->nreasons);
			checked++;
		}
	}
	assert_true(checked >= 2);
}

/* One program under 2.0, 2.1 beta3 (Debian) and 2.1 since 2024 gives the
 * same normal forms where the LuaJITs behave alike.  What differs, and
 * why it may:
 *   - 2.0 alone: CAT (2.1 compiles concatenation), "NYI: FastFunc" and
 *     "NYI: C function" (2.1 compiles those built-ins or stitches around
 *     the call), and "inner loop in root trace" (2.0's root traces abort at
 *     other places, so different loops are tried first);
 *   - 2.1 alone: UCLO and "return to lower frame", on paths where 2.0 had
 *     already aborted at an earlier unsupported call. */
static void test_penlight_reads_the_same_under_every_luajit(void **s)
{
	(void)s;
	struct scan s20, s21, sx;
	scan_dump("penlight-luajit20.dump", F20, &s20);
	scan_dump("penlight-luajit21.dump", F21, &s21);
	scan_dump("penlight-x.dump", F21, &sx);
	static const char *const both21[] = {
		"NYI: bytecode VARG", "NYI: bytecode FNEW", "NYI: bytecode UCLO",
		"NYI: return to lower frame", "leaving loop in root trace",
	};
	assert_reasons(&s21, both21, N(both21));
	assert_reasons(&sx, both21, N(both21));
	static const char *const only20[] = {
		"NYI: bytecode CAT", "NYI: bytecode VARG", "NYI: bytecode FNEW",
		"NYI: FastFunc string.find", "NYI: FastFunc unpack", "NYI: FastFunc string.upper",
		"NYI: FastFunc table.concat", "NYI: FastFunc string.format",
		"NYI: FastFunc string.gsub", "NYI: C function", "inner loop in root trace",
		"leaving loop in root trace",
	};
	assert_reasons(&s20, only20, N(only20));
	assert_shared_nyi(&s20, &s21);
	assert_int_equal(s20.aborts, 113);
	assert_int_equal(s21.aborts, 63);
}

/* The profiled workload under four LuaJITs: 2.0, 2.1 since 2024, Debian's
 * 2.1 beta3 and OpenResty's luajit2.  2.1's three agree exactly; 2.0
 * differs as for penlight (CAT, FastFuncs, C functions), and its UCLO
 * aborts are the same as 2.1's. */
static void test_costly_reads_the_same_under_every_luajit(void **s)
{
	(void)s;
	struct scan s20, s21, sdeb, slj2;
	scan_dump("costly-luajit20.dump", F20, &s20);
	scan_dump("costly-luajit21.dump", F21, &s21);
	scan_dump("costly.dump", F21, &sdeb);
	scan_dump("costly-luajit2.dump", F21, &slj2);
	static const char *const all21[] = {
		"NYI: bytecode VARG", "NYI: bytecode FNEW", "NYI: bytecode UCLO", "blacklisted",
		"inner loop in root trace", "leaving loop in root trace", "loop unroll limit reached",
	};
	assert_reasons(&s21, all21, N(all21));
	assert_reasons(&sdeb, all21, N(all21));
	assert_reasons(&slj2, all21, N(all21));
	static const char *const in20[] = {
		"NYI: bytecode CAT", "NYI: bytecode VARG", "NYI: bytecode FNEW", "NYI: bytecode UCLO",
		"NYI: FastFunc pairs", "NYI: FastFunc string.find", "NYI: FastFunc string.format",
		"NYI: C function", "blacklisted", "inner loop in root trace",
		"leaving loop in root trace",
	};
	assert_reasons(&s20, in20, N(in20));
	assert_shared_nyi(&s20, &s21);
}

/* Every placeholder in an advice is one the findings fill. */
static void check_placeholders(const char *text, const char *what)
{
	static const char *const known[] = { "{start}", "{scope}", "{at}", "{cause}", "{closure}" };
	for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
		int lower = p[1] >= 'a' && p[1] <= 'z';
		for (const char *q = p + 1; lower && *q && *q != '}'; q++)
			lower = *q >= 'a' && *q <= 'z';
		if (!lower)
			continue;           /* "{f()}", "{...}": text */
		int ok = 0;
		for (size_t k = 0; k < N(known); k++)
			ok |= strncmp(p, known[k], strlen(known[k])) == 0;
		if (!ok)
			fail_msg("%s: unknown placeholder in \"%s\"", what, text);
	}
}

static void check_rule(const struct explain_rule *r, const char *what, char prefix,
                       const char **ids, const char **names, size_t *n)
{
	if (!r->id || strlen(r->id) != 5 || strncmp(r->id, "DA", 2) != 0 || r->id[2] != prefix)
		fail_msg("%s: rule id \"%s\" is not DA%cNN", what, r->id ? r->id : "(none)", prefix);
	for (size_t k = 0; k < *n; k++) {
		if (strcmp(ids[k], r->id) == 0)
			fail_msg("%s: rule id %s used twice", what, r->id);
		if (strcmp(names[k], r->name) == 0)
			fail_msg("%s: rule name %s used twice", what, r->name);
	}
	ids[*n] = r->id;
	names[(*n)++] = r->name;
	assert_true(r->severity < EXPLAIN_SEVERITIES);
	assert_true(r->weight <= 100);
	assert_true(r->why && strlen(r->why) > 10);
	assert_true(!strstr(r->why, "{start}") && !strstr(r->why, "{scope}") &&
	            !strstr(r->why, "{at}") && !strstr(r->why, "{cause}"));
	assert_true(r->advice20 || r->advice21);
	const char *adv[] = { r->advice20, r->advice21, r->advice_seen };
	for (size_t k = 0; k < N(adv); k++)
		if (adv[k])
			check_placeholders(adv[k], what);
}

/* The findings' rules: one per trace error and per NYI bytecode, ids
 * unique and never shared, texts complete; severities as decided. */
static void test_every_row_has_a_rule(void **state)
{
	(void)state;
	size_t ne, nb, nr;
	const struct explain_err *e = explain_errs(&ne);
	const struct explain_bc *b = explain_bcs(&nb);
	const char *const *rnames;
	const struct explain_rule *rules = explain_bc_rules(&nr, &rnames);
	const char *ids[128], *names[128];
	size_t n = 0;
	for (size_t i = 0; i < ne; i++)
		check_rule(&e[i].rule, e[i].name, '1', ids, names, &n);
	size_t nyi = 0;
	for (size_t i = 0; i < nb; i++) {
		const struct explain_rule *r = explain_bc_rule(&b[i]);
		if (!b[i].nyi) {
			if (r)
				fail_msg("%s: a rule for a bytecode no NYI abort names", b[i].name);
			continue;
		}
		nyi++;
		if (!r)
			fail_msg("%s: an NYI bytecode without a rule", b[i].name);
		check_rule(r, b[i].name, '2', ids, names, &n);
		/* a build that never aborts on it has no advice for it */
		assert_int_equal(r->advice20 != NULL, (b[i].nyi & EXPLAIN_NYI20) != 0);
		assert_int_equal(r->advice21 != NULL, (b[i].nyi & EXPLAIN_NYI21) != 0);
	}
	assert_int_equal(nr, nyi);
	assert_int_equal(n, ne + nyi);
	assert_int_equal(n, 37 + 7);
	/* the decisions the issue names */
	assert_int_equal(explain_bc_rule(bc("FNEW"))->severity, EXPLAIN_COSTLY);
	assert_string_equal(explain_bc_rule(bc("FNEW"))->id, "DA203");
	assert_int_equal(explain_err_named("LLEAVE", 6)->rule.severity, EXPLAIN_HARMLESS);
	assert_int_equal(explain_err_named("NYIBC", 5)->rule.severity, EXPLAIN_COSTLY);
	assert_int_equal(explain_err_named("RETRY", 5)->rule.severity, EXPLAIN_HARMLESS);
	assert_string_equal(explain_severity_word(EXPLAIN_LOOK), "worth-a-look");
	/* no advice for 2.1 tells to avoid pairs(), which 2.1 compiles */
	for (size_t i = 0; i < nr; i++)
		if (rules[i].advice21 && strcmp(rnames[i], "ITERN") != 0 && strcmp(rnames[i], "ISNEXT") != 0)
			assert_null(strstr(rules[i].advice21, "pairs"));
	for (size_t i = 0; i < ne; i++)
		assert_null(strstr(e[i].rule.advice21, "pairs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_are_complete_and_unique),
		cmocka_unit_test(test_every_row_has_a_rule),
		cmocka_unit_test(test_every_message_of_every_build_is_known),
		cmocka_unit_test(test_bytecodes_in_both_numberings),
		cmocka_unit_test(test_rejected_numbers_never_collide),
		cmocka_unit_test(test_bcline_names_the_opcode),
		cmocka_unit_test(test_real_reasons_match_their_entry),
		cmocka_unit_test(test_one_cause_one_normal_form),
		cmocka_unit_test(test_normal_form_respects_the_buffer),
		cmocka_unit_test(test_flavour_guess_tiers),
		cmocka_unit_test(test_lookup_by_any_form),
		cmocka_unit_test(test_closest_matches_are_ranked),
		cmocka_unit_test(test_every_real_nyi_bytecode_gets_its_printed_name),
		cmocka_unit_test(test_penlight_reads_the_same_under_every_luajit),
		cmocka_unit_test(test_costly_reads_the_same_under_every_luajit),
	};
	return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
