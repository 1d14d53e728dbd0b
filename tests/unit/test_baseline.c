/* test_baseline.c — the baseline file (findings/baseline.c): read and
 * matched by identity, every way a file is refused with its line, written
 * sorted with the reasons kept; through the public API on a real sample
 * (da_use_baseline, baseline_reason, the stale entries); and the lines'
 * fingerprints (findings/lines.c) that --compare matches sites by. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "findings/baseline.h"
#include "findings/findings.h"
#include "findings/lines.h"

static char dir[] = "/tmp/test_baseline.XXXXXX";

static const char *put_file(const char *name, const char *text, size_t n)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
	return path;
}

#define PUT(name, lit) put_file(name, lit, sizeof(lit) - 1)

static void test_read_and_match(void **st)
{
	(void)st;
	/* unsorted, CRLF on some lines, a tab before a key, comments */
	const char *p = PUT("ok", "# accepted on purpose\n"
	                    "dumpanalyze-baseline 1\r\n"
	                    "\n"
	                    "finding v1|start|b.lua|NYIBC|S:for i = 1, n do#0|A:x#0\n"
	                    "  kind: aborting-loop\n"
	                    "\tplace: b.lua:3-9\n"
	                    "  accepted:   known, PR 7   \r\n"
	                    "# another\n"
	                    "finding v1|flush-storm\n"
	                    "finding v1|exit|a.lua|NYIRETL|o:0\n"
	                    "  accepted:\n");
	struct baseline b;
	struct baseline_error e;
	assert_int_equal(baseline_read(&b, p, &e), 0);
	assert_int_equal(b.n, 3);
	assert_string_equal(b.v[0].pub.identity, "v1|exit|a.lua|NYIRETL|o:0");
	assert_string_equal(b.v[1].pub.identity, "v1|flush-storm");
	assert_string_equal(b.v[2].pub.identity, "v1|start|b.lua|NYIBC|S:for i = 1, n do#0|A:x#0");
	assert_int_equal(b.v[2].pub.line, 4);
	assert_string_equal(b.v[2].pub.kind, "aborting-loop");
	assert_string_equal(b.v[2].pub.place, "b.lua:3-9");
	assert_null(b.v[2].pub.reason);
	assert_string_equal(b.v[2].pub.accepted, "known, PR 7");
	assert_string_equal(b.v[0].pub.accepted, "");
	assert_string_equal(b.v[1].pub.accepted, "");
	/* an identity matches byte for byte, nothing else */
	assert_null(baseline_lookup(&b, "v1|flush-storm "));
	assert_null(baseline_lookup(&b, "v1|exit|a.lua|NYIRETL|o:1"));
	assert_int_equal(b.v[1].matched, 0);
	assert_ptr_equal(baseline_lookup(&b, "v1|flush-storm"), &b.v[1]);
	assert_int_equal(b.v[1].matched, 0);
	assert_ptr_equal(baseline_match(&b, "v1|flush-storm"), &b.v[1]);
	assert_int_equal(b.v[1].matched, 1);
	baseline_free(&b);
}

struct bad { const char *text; size_t n; uint64_t line; const char *msg; };

static void test_refused(void **st)
{
	(void)st;
#define B(lit, line, msg) { lit, sizeof(lit) - 1, line, msg }
	static const struct bad bad[] = {
		B("", 0, "not a dumpanalyze baseline: no 'dumpanalyze-baseline 1' line"),
		B("# only\n\n", 2, "not a dumpanalyze baseline: no 'dumpanalyze-baseline 1' line"),
		B("RANK,KIND\n", 1, "not a dumpanalyze baseline: its first line that is not a comment must be 'dumpanalyze-baseline 1'"),
		B("dumpanalyze-baseline 10\n", 1, "a baseline of another version: this dumpanalyze reads version 1"),
		B("dumpanalyze-baseline 1\n  kind: x\n", 2, "an indented line before the first 'finding' line"),
		B("dumpanalyze-baseline 1\nfinding v1|a\n  why: x\n", 3, "not a KEY: VALUE line of a known key (kind, severity, reason, place, accepted)"),
		B("dumpanalyze-baseline 1\nfinding v1|a\n  accepted\n", 3, "not a KEY: VALUE line of a known key (kind, severity, reason, place, accepted)"),
		B("dumpanalyze-baseline 1\nfinding v1|a\n  place: x\n  place: y\n", 4, "a second place: line for this finding"),
		B("dumpanalyze-baseline 1\nfinding x\n", 2, "an identity starts with v1| (as --write-baseline writes it, or findings.csv's IDENTITY)"),
		B("dumpanalyze-baseline 1\nfinding\n", 2, "not a line of a baseline ('finding IDENTITY', an indented 'KEY: VALUE', a '#' comment or a blank line)"),
		B("dumpanalyze-baseline 1\nfinding v1|b\nfinding v1|a\nfinding v1|b\n", 4, "the finding of line 2 again"),
		B("dumpanalyze-baseline 1\nfinding v1|a\0\n", 2, "a control byte (0x00): a baseline is text"),
		B("dumpanalyze-baseline 1\nfinding v1|a\rb\n", 2, "a control byte (0x0d): a baseline is text"),
		B("\x7f" "ELF\n", 1, "a control byte (0x7f): a baseline is text"),
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *p = put_file("bad", bad[i].text, bad[i].n);
		struct baseline b;
		struct baseline_error e;
		assert_int_equal(baseline_read(&b, p, &e), -1);
		assert_int_equal(e.line, bad[i].line);
		assert_string_equal(e.msg, bad[i].msg);
		baseline_free(&b);
	}
	/* not a regular file, past the cap, missing: said without a line */
	struct baseline b;
	struct baseline_error e;
	assert_int_equal(baseline_read(&b, dir, &e), -1);
	assert_string_equal(e.msg, "not a regular file: a baseline is a text file");
	baseline_free(&b);
	const char *p = PUT("big", "");
	assert_int_equal(truncate(p, (off_t)BASELINE_MAX_BYTES + 1), 0);
	assert_int_equal(baseline_read(&b, p, &e), -1);
	assert_string_equal(e.msg, "67108865 bytes, more than a baseline's 64 MiB");
	baseline_free(&b);
	char missing[256];
	snprintf(missing, sizeof(missing), "%s/nosuch", dir);
	assert_int_equal(baseline_read(&b, missing, &e), -2);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "No such file or directory");
	baseline_free(&b);
}

static void test_put(void **st)
{
	(void)st;
	const char *p = PUT("prev", "dumpanalyze-baseline 1\nfinding v1|b|x\n  accepted: kept\n"
	                    "finding v1|gone\n  accepted: dropped\n");
	struct baseline prev;
	struct baseline_error e;
	assert_int_equal(baseline_read(&prev, p, &e), 0);
	struct baseline_item items[] = {
		{ "v1|c|y", "aborting-loop", "costly", "NYI: bytecode FNEW", "y.lua", 3, 9 },
		{ "v1|b|x", "hot-exit", "worth-a-look", NULL, "x.lua", 7, 7 },
		{ "v1|flush-storm", "flush-storm", "costly", NULL, NULL, DA_NO_LINE, DA_NO_LINE },
		{ "v1|c|y", "aborting-loop", "costly", "NYI: bytecode FNEW", "y.lua", 3, 9 },
	};
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	size_t kept = 99;
	/* three entries (one identity twice), one reason kept from prev */
	assert_int_equal(baseline_put(fp, items, 4, &prev, &kept), 3);
	assert_int_equal(kept, 1);
	fclose(fp);
	const char *body = strstr(text, "dumpanalyze-baseline 1\n");
	assert_non_null(body);
	assert_string_equal(body,
		"dumpanalyze-baseline 1\n"
		"\n"
		"finding v1|b|x\n"
		"  kind: hot-exit\n"
		"  severity: worth-a-look\n"
		"  reason:\n"
		"  place: x.lua:7\n"
		"  accepted: kept\n"
		"\n"
		"finding v1|c|y\n"
		"  kind: aborting-loop\n"
		"  severity: costly\n"
		"  reason: NYI: bytecode FNEW\n"
		"  place: y.lua:3-9\n"
		"  accepted:\n"
		"\n"
		"finding v1|flush-storm\n"
		"  kind: flush-storm\n"
		"  severity: costly\n"
		"  reason:\n"
		"  place: (the whole run)\n"
		"  accepted:\n");
	/* and it reads back */
	p = put_file("again", text, len);
	struct baseline b;
	assert_int_equal(baseline_read(&b, p, &e), 0);
	assert_int_equal(b.n, 3);
	assert_string_equal(b.v[0].pub.accepted, "kept");
	baseline_free(&b);
	baseline_free(&prev);
	free(text);
}

static void note(void *data, enum da_severity sev, const char *file, uint64_t line, const char *msg)
{
	char *out = data;
	snprintf(out, 512, "%d %s:%llu: %s", (int)sev, strrchr(file, '/') + 1, (unsigned long long)line,
	         msg);
}

static da_dump *open_shop(char *said)
{
	struct da_options o = DA_OPTIONS(.flags = DA_FINDINGS, .diag = note, .diag_data = said);
	int err;
	da_dump *d = da_open_path("samples/shop-regressed.dump", &o, &err);
	assert_non_null(d);
	assert_int_equal(da_use_source_root(d, "samples/lua/shop-regressed", DA_SOURCE_BY_NAME), 0);
	return d;
}

static void test_api(void **st)
{
	(void)st;
	char said[512] = "";
	da_dump *d = open_shop(said);
	assert_int_equal(da_read(d), 0);
	/* the regression's finding: FNEW at the router's exit */
	const struct da_finding *f = NULL;
	for (size_t i = 0; i < da_findings(d); i++)
		if (strcmp(da_finding(d, i)->file, "router.lua") == 0 && da_finding(d, i)->line == 35)
			f = da_finding(d, i);
	assert_non_null(f);
	assert_null(f->baseline_reason);
	char text[1024];
	int n = snprintf(text, sizeof(text), "dumpanalyze-baseline 1\n\nfinding %s\n  accepted: ships\n\n"
	                 "finding v1|start|gone.lua|NYIBC|o:0\n", f->identity);
	const char *p = put_file("api", text, (size_t)n);
	assert_int_equal(da_baseline_stale(d), 0);
	assert_int_equal(da_use_baseline(d, p), DA_EINVAL);        /* too late */
	da_close(d);

	d = open_shop(said);
	assert_int_equal(da_use_baseline(d, p), 0);
	assert_int_equal(da_use_baseline(d, p), DA_EINVAL);        /* one */
	assert_int_equal(da_baseline_stale(d), 0);                 /* not read yet */
	assert_int_equal(da_read(d), 0);
	size_t accepted = 0;
	for (size_t i = 0; i < da_findings(d); i++) {
		const struct da_finding *g = da_finding(d, i);
		if (g->baseline_reason) {
			accepted++;
			assert_string_equal(g->baseline_reason, "ships");
			assert_int_equal(g->line, 35);
		}
	}
	assert_int_equal(accepted, 1);
	assert_int_equal(da_baseline_stale(d), 1);
	const struct da_baseline_entry *s = da_baseline_stale_entry(d, 0);
	assert_string_equal(s->identity, "v1|start|gone.lua|NYIBC|o:0");
	assert_int_equal(s->line, 6);
	assert_null(da_baseline_stale_entry(d, 1));
	da_close(d);

	/* a file that is none: DA_EFORMAT, said through diag */
	d = open_shop(said);
	p = PUT("apibad", "dumpanalyze-baseline 1\nfinding v1|a\n  why: x\n");
	assert_int_equal(da_use_baseline(d, p), DA_EFORMAT);
	assert_string_equal(said, "1 apibad:3: not a KEY: VALUE line of a known key (kind, severity, "
	                    "reason, place, accepted)");
	da_close(d);
	/* without DA_FINDINGS there is nothing to mark */
	struct da_options o = DA_OPTIONS(.flags = 0);
	d = da_open_path("samples/shop-regressed.dump", &o, NULL);
	assert_non_null(d);
	assert_int_equal(da_use_baseline(d, p), DA_EINVAL);
	da_close(d);
}

/* "F:FUNCTION#J|L:TEXT#K" hashed: the function's first line and the
 * line's index among equal texts in it. */
static void expect_fp(struct text_files *fs, int32_t line, const char *key)
{
	char want[13], got[13];
	identity_hash(key, strlen(key), want);
	assert_int_equal(text_files_fingerprint(fs, "f.lua", 5, line, got), 0);
	assert_string_equal(got, want);
}

static void test_fingerprints(void **st)
{
	(void)st;
	char sub[256];
	snprintf(sub, sizeof(sub), "%s/src", dir);
	mkdir(sub, 0755);
	static const char lua[] = "local function a()\n  x = 1\nend\n\nlocal function b()\n"
	                          "  x  =  1\n  x = 1\nend\nx = 1\n";
	snprintf(sub, sizeof(sub), "src/f.lua");
	put_file(sub, lua, sizeof(lua) - 1);
	snprintf(sub, sizeof(sub), "%s/src", dir);
	struct source_finder finder;
	source_finder_empty(&finder);
	source_finder_add(&finder, sub, 0);
	struct text_files fs;
	text_files_init(&fs, &finder, NULL);
	expect_fp(&fs, 2, "F:local function a()#0|L:x = 1#0");
	expect_fp(&fs, 6, "F:local function b()#0|L:x = 1#0");
	expect_fp(&fs, 7, "F:local function b()#0|L:x = 1#1");
	expect_fp(&fs, 9, "F:#0|L:x = 1#0");
	char out[13];
	assert_int_equal(text_files_fingerprint(&fs, "f.lua", 5, 4, out), -1);     /* blank */
	assert_int_equal(text_files_fingerprint(&fs, "f.lua", 5, 10, out), -1);    /* past the end */
	assert_int_equal(text_files_fingerprint(&fs, "f.lua", 5, 0, out), -1);
	assert_int_equal(text_files_fingerprint(&fs, "g.lua", 5, 1, out), -1);     /* not found */
	text_files_free(&fs);
	/* lines inserted above move them, fingerprints and all */
	static const char moved[] = "-- one\n-- two\nlocal function a()\n  x = 1\nend\n\n"
	                            "local function b()\n  x  =  1\n  x = 1\nend\nx = 1\n";
	snprintf(sub, sizeof(sub), "src/f.lua");
	put_file(sub, moved, sizeof(moved) - 1);
	text_files_init(&fs, &finder, NULL);
	expect_fp(&fs, 4, "F:local function a()#0|L:x = 1#0");
	expect_fp(&fs, 9, "F:local function b()#0|L:x = 1#1");
	expect_fp(&fs, 11, "F:#0|L:x = 1#0");
	text_files_free(&fs);
	source_finder_free(&finder);
}

static int setup(void **st)
{
	(void)st;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_and_match),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_api),
		cmocka_unit_test(test_fingerprints),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
