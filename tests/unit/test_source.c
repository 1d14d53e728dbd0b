/* test_source.c — the source stage's rules: chunk families, what a chunk
 * name is, and which files source_find opens (a scratch tree with a
 * symbolic link out of it, a ".." name, an absolute path, base names:
 * the closest by path, and none of several equally close). */
#define _GNU_SOURCE
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
#include "source/family.h"
#include "source/find.h"

static const char *family(const char *name)
{
	static char buf[128];
	size_t n = chunk_family(name, strlen(name), buf, sizeof(buf) - 1);
	if (!n)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static void test_family_rule(void **s)
{
	(void)s;
	assert_string_equal(family("tpl-1"), "tpl-*");
	assert_string_equal(family("tpl-20000"), "tpl-*");
	assert_string_equal(family("round6"), "round*");
	assert_string_equal(family("\"tpl-17\""), "\"tpl-*\"");
	assert_null(family("costly.lua"));          /* no counter at the end */
	assert_null(family("file2.lua"));
	assert_null(family("12345"));               /* nothing before the digits */
	assert_null(family("\"42\""));
	assert_null(family(""));
	char small[4];
	assert_int_equal(chunk_family("tpl-1", 5, small, sizeof(small)), 0);   /* too long */
}

static void test_classify(void **s)
{
	(void)s;
	assert_int_equal(chunk_classify("costly.lua", 10, 1), CHUNK_FILE);
	assert_int_equal(chunk_classify("\"s=0\"", 5, 1), CHUNK_STRING);
	assert_int_equal(chunk_classify("[string \"x\"]", 12, 1), CHUNK_STRING);
	assert_int_equal(chunk_classify("a\nb", 3, 1), CHUNK_STRING);
	assert_int_equal(chunk_classify("builtin:remove", 14, 1), CHUNK_BUILTIN);
	assert_int_equal(chunk_classify("string.upper", 12, 0), CHUNK_BUILTIN);
	assert_int_equal(chunk_classify("", 0, 1), CHUNK_STRING);
}

static char scratch[64];
static char *here;

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static int setup_tree(void **s)
{
	(void)s;
	here = getcwd(NULL, 0);
	strcpy(scratch, "/tmp/test_source.XXXXXX");
	assert_non_null(mkdtemp(scratch));
	assert_int_equal(chdir(scratch), 0);
	assert_int_equal(mkdir("work", 0755), 0);
	assert_int_equal(mkdir("root", 0755), 0);
	assert_int_equal(mkdir("root/a", 0755), 0);
	assert_int_equal(mkdir("root/b", 0755), 0);
	assert_int_equal(mkdir("root/lib", 0755), 0);
	assert_int_equal(mkdir("root/lib/lua", 0755), 0);
	assert_int_equal(mkdir("root/t", 0755), 0);
	assert_int_equal(mkdir("next", 0755), 0);
	assert_int_equal(mkdir("two", 0755), 0);
	assert_int_equal(mkdir("two/a", 0755), 0);
	assert_int_equal(mkdir("two/b", 0755), 0);
	put("secret.lua", "outside\n");
	put("work/here.lua", "here\n");
	put("root/a/x.lua", "a x\n");
	put("root/b/x.lua", "b x\n");
	put("root/lib/lua/app.lua", "lib lua app\n");
	put("root/t/app.lua", "t app\n");
	put("next/x.lua", "next x\n");
	put("two/a/router.lua", "a router\n");
	put("two/b/router.lua", "b router\n");
	assert_int_equal(mkdir("work/.git", 0755), 0);
	assert_int_equal(mkdir("work/src", 0755), 0);
	assert_int_equal(mkdir("work/src/.hidden", 0755), 0);
	put("work/.git/config", "token\n");
	put("work/.env", "env\n");
	put("work/src/.hidden/h.lua", "hidden\n");
	put("work/src/ok.lua", "ok\n");
	assert_int_equal(symlink(".git", "work/cfg"), 0);
	assert_int_equal(symlink("../secret.lua", "work/link.lua"), 0);
	assert_int_equal(symlink("../../secret.lua", "root/a/out.lua"), 0);
	/* links inside the root: the walk by base name indexes neither (it
	 * takes an entry's type from readdir, as lstat would say it) */
	assert_int_equal(symlink("lib", "root/d"), 0);
	assert_int_equal(symlink("../lib/lua/app.lua", "root/t/only-link.lua"), 0);
	assert_int_equal(chdir("work"), 0);
	return 0;
}

static int teardown_tree(void **s)
{
	(void)s;
	assert_int_equal(chdir(here), 0);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
	free(here);
	return 0;
}

/* The kind found, and the text when a file was read. */
static enum chunk_kind find(struct source_finder *f, const char *name, char **text)
{
	size_t len, amb;
	char *shown = NULL;
	*text = NULL;
	enum chunk_kind k = source_find(f, name, strlen(name), text, &len, &shown, &amb);
	free(shown);
	return k;
}

static void test_find(void **s)
{
	(void)s;
	struct source_finder f;
	source_finder_init(&f, NULL, 0);
	char *t;
	assert_int_equal(find(&f, "here.lua", &t), CHUNK_FILE);
	assert_string_equal(t, "here\n");
	free(t);
	assert_int_equal(find(&f, "link.lua", &t), CHUNK_MISSING);      /* leads out */
	assert_null(t);
	assert_int_equal(find(&f, "../secret.lua", &t), CHUNK_REFUSED);
	char abs[128];
	snprintf(abs, sizeof(abs), "%s/secret.lua", scratch);
	assert_int_equal(find(&f, abs, &t), CHUNK_REFUSED);
	assert_int_equal(find(&f, "x.lua", &t), CHUNK_MISSING);
	source_finder_free(&f);

	const char *roots[] = { "../root" };
	source_finder_init(&f, roots, 1);
	/* a/x.lua and b/x.lua match "x.lua" equally: neither is read */
	assert_int_equal(find(&f, "x.lua", &t), CHUNK_AMBIGUOUS);
	assert_null(t);
	assert_int_equal(find(&f, "b/x.lua", &t), CHUNK_FILE);          /* as written */
	assert_string_equal(t, "b x\n");
	free(t);
	assert_int_equal(find(&f, "deep/dir/x.lua", &t), CHUNK_AMBIGUOUS);
	/* "lua/app.lua" is not below the root as written; lib/lua/app.lua
	 * ends in two of its components, t/app.lua in one (d/lua/app.lua
	 * would tie, were the link d walked) */
	assert_int_equal(find(&f, "src/lua/app.lua", &t), CHUNK_FILE);
	assert_string_equal(t, "lib lua app\n");
	free(t);
	assert_int_equal(find(&f, "app.lua", &t), CHUNK_AMBIGUOUS);     /* one each */
	assert_int_equal(find(&f, "t/app.lua", &t), CHUNK_FILE);        /* as written */
	assert_string_equal(t, "t app\n");
	free(t);
	assert_int_equal(find(&f, "out.lua", &t), CHUNK_MISSING);       /* link out of the root */
	/* a link to a file of the root is not indexed by its base name */
	assert_int_equal(find(&f, "only-link.lua", &t), CHUNK_MISSING);
	assert_null(t);
	assert_int_equal(find(&f, abs, &t), CHUNK_REFUSED);
	source_finder_free(&f);

	const char *up[] = { ".." };
	source_finder_init(&f, up, 1);
	assert_int_equal(find(&f, abs, &t), CHUNK_FILE);                /* its directory given */
	assert_string_equal(t, "outside\n");
	free(t);
	source_finder_free(&f);
}

static void on_hidden(void *data, const char *name, size_t n)
{
	int *calls = data;
	(void)name;
	(void)n;
	(*calls)++;
}

/* No path through a hidden component below a root, as written, through a
 * link or by base name; told once per name; a hidden directory given as
 * a root is read below. */
static void test_hidden(void **s)
{
	(void)s;
	struct source_finder f;
	int calls = 0;
	const char *dot[] = { "." };
	source_finder_init(&f, dot, 1);
	f.on_hidden = on_hidden;
	f.ambiguous_data = &calls;
	char *t;
	assert_int_equal(find(&f, ".git/config", &t), CHUNK_HIDDEN);
	assert_null(t);
	assert_int_equal(find(&f, ".git/config", &t), CHUNK_HIDDEN);
	assert_int_equal(calls, 1);                                     /* once per name */
	assert_int_equal(find(&f, ".env", &t), CHUNK_HIDDEN);
	assert_int_equal(find(&f, "./.env", &t), CHUNK_HIDDEN);
	assert_int_equal(find(&f, "src/.hidden/h.lua", &t), CHUNK_HIDDEN);
	assert_int_equal(find(&f, "cfg/config", &t), CHUNK_HIDDEN);     /* a link to .git */
	assert_int_equal(find(&f, "h.lua", &t), CHUNK_MISSING);         /* the walk skips it */
	assert_int_equal(calls, 5);
	assert_int_equal(find(&f, "./src/ok.lua", &t), CHUNK_FILE);     /* "." is no hidden name */
	assert_string_equal(t, "ok\n");
	free(t);
	source_finder_free(&f);

	const char *git[] = { ".git" };
	source_finder_init(&f, git, 1);
	assert_int_equal(find(&f, ".git/config", &t), CHUNK_FILE);      /* by base name in it */
	assert_string_equal(t, "token\n");
	free(t);
	assert_int_equal(find(&f, "config", &t), CHUNK_FILE);
	free(t);
	source_finder_free(&f);
}

struct told { int calls; size_t ncands; char root[32], first[64], second[64]; };

static void on_ambiguous(void *data, const char *name, size_t n, const char *root,
                         const char *const *cands, size_t ncands)
{
	struct told *w = data;
	(void)name;
	(void)n;
	w->calls++;
	w->ncands = ncands;
	snprintf(w->root, sizeof(w->root), "%s", root);
	snprintf(w->first, sizeof(w->first), "%s", cands[0]);
	snprintf(w->second, sizeof(w->second), "%s", cands[1]);
}

/* An ambiguous name: told once per name, the candidates as the user would
 * type them, sorted; the search stops at that root (a later root holding
 * one file of that name is not tried); the size_t says how many tie. */
static void test_ambiguous(void **s)
{
	(void)s;
	struct source_finder f;
	const char *roots[] = { "../root", "../next" };
	source_finder_init(&f, roots, 2);
	struct told w = { 0 };
	f.on_ambiguous = on_ambiguous;
	f.ambiguous_data = &w;
	char *t = NULL, *shown = NULL;
	size_t len, amb;
	assert_int_equal(source_find(&f, "x.lua", 5, &t, &len, &shown, &amb), CHUNK_AMBIGUOUS);
	assert_null(t);
	assert_null(shown);
	assert_int_equal(amb, 2);
	assert_int_equal(w.calls, 1);
	assert_int_equal(w.ncands, 2);
	assert_string_equal(w.root, "../root");
	assert_string_equal(w.first, "../root/a/x.lua");
	assert_string_equal(w.second, "../root/b/x.lua");
	assert_int_equal(source_find(&f, "x.lua", 5, &t, &len, &shown, &amb), CHUNK_AMBIGUOUS);
	assert_int_equal(w.calls, 1);                                   /* once per name */
	assert_int_equal(source_find(&f, "deep/x.lua", 10, &t, &len, &shown, &amb), CHUNK_AMBIGUOUS);
	assert_int_equal(w.calls, 2);                                   /* another name */
	/* read, over the other file of its base name */
	assert_int_equal(source_find(&f, "src/lua/app.lua", 15, &t, &len, &shown, &amb), CHUNK_FILE);
	assert_int_equal(amb, 1);
	assert_string_equal(shown, "../root/lib/lua/app.lua");
	free(t);
	free(shown);
	assert_int_equal(w.calls, 2);
	source_finder_free(&f);

	/* the later root alone: its one x.lua is read */
	const char *next[] = { "../next" };
	source_finder_init(&f, next, 1);
	assert_int_equal(source_find(&f, "x.lua", 5, &t, &len, &shown, &amb), CHUNK_FILE);
	assert_string_equal(t, "next x\n");
	assert_int_equal(amb, 0);
	free(t);
	free(shown);
	source_finder_free(&f);
}

struct heard { int warnings, others; uint64_t line; char file[512], msg[512], last[1024]; };

static void on_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                    const char *msg)
{
	struct heard *h = data;
	if (sev != DA_WARNING) {
		h->others++;
		return;
	}
	if (h->warnings++) {
		snprintf(h->last, sizeof(h->last), "%s", msg);
		return;         /* the first one's place and message are kept */
	}
	h->line = line;
	snprintf(h->file, sizeof(h->file), "%s", file);
	snprintf(h->msg, sizeof(h->msg), "%s", msg);
}

/* Through the API: shop-regressed.dump names "router.lua", which two
 * files under the root match equally: diag hears it once, a warning at
 * line 0 that is not counted and not fatal under DA_STRICT, and the
 * findings there have no text from either file. */
static void test_ambiguous_api(void **s)
{
	(void)s;
	char dump[4096];
	snprintf(dump, sizeof(dump), "%s/samples/shop-regressed.dump", here);
	struct heard h = { 0 };
	struct da_options o = DA_OPTIONS(.flags = DA_FINDINGS | DA_STRICT, .name = "shop-regressed.dump",
	                                 .diag = on_diag, .diag_data = &h);
	int err;
	da_dump *d = da_open_path(dump, &o, &err);
	assert_non_null(d);
	assert_int_equal(da_use_source_root(d, "../two", DA_SOURCE_BY_NAME), 0);
	assert_int_equal(da_read(d), 0);
	/* then, after the findings, the files no directory held (router.lua,
	 * said already, is not among them) */
	assert_int_equal(h.warnings, 2);
	assert_int_equal(h.others, 0);
	assert_int_equal(h.line, 0);
	assert_string_equal(h.file, "shop-regressed.dump");
	assert_true(strncmp(h.last, "sources not found: ", 19) == 0);
	assert_null(strstr(h.last, "router.lua"));
	assert_string_equal(h.msg, "router.lua: 2 files of that name under the source root ../two match "
	                    "it equally (../two/a/router.lua, ../two/b/router.lua): none is read, nothing "
	                    "is placed on it; give the directory that holds it as an earlier source root");
	assert_int_equal(da_warnings(d), 0);
	size_t n = da_findings(d), routers = 0;
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(d, i);
		if (!f->file || strcmp(f->file, "router.lua") != 0)
			continue;
		routers++;
		assert_null(f->start_text);
		assert_null(f->at_text);
	}
	assert_int_equal(routers, 3);           /* findings.csv's rows of router.lua */
	da_close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_rule),
		cmocka_unit_test(test_classify),
		cmocka_unit_test_setup_teardown(test_find, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_ambiguous, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_hidden, setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_ambiguous_api, setup_tree, teardown_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
