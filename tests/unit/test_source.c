/* test_source.c — the source stage's rules: chunk families, what a chunk
 * name is, and which files source_find opens (a scratch tree with a
 * symbolic link out of it, a ".." name, an absolute path, base names). */
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
	put("secret.lua", "outside\n");
	put("work/here.lua", "here\n");
	put("root/a/x.lua", "a x\n");
	put("root/b/x.lua", "b x\n");
	assert_int_equal(symlink("../secret.lua", "work/link.lua"), 0);
	assert_int_equal(symlink("../../secret.lua", "root/a/out.lua"), 0);
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
	assert_int_equal(find(&f, "x.lua", &t), CHUNK_FILE);            /* by base name: a/ first */
	assert_string_equal(t, "a x\n");
	free(t);
	assert_int_equal(find(&f, "b/x.lua", &t), CHUNK_FILE);          /* as written */
	assert_string_equal(t, "b x\n");
	free(t);
	assert_int_equal(find(&f, "deep/dir/x.lua", &t), CHUNK_FILE);   /* its base name */
	free(t);
	assert_int_equal(find(&f, "out.lua", &t), CHUNK_MISSING);       /* link out of the root */
	assert_int_equal(find(&f, abs, &t), CHUNK_REFUSED);
	source_finder_free(&f);

	const char *up[] = { ".." };
	source_finder_init(&f, up, 1);
	assert_int_equal(find(&f, abs, &t), CHUNK_FILE);                /* its directory given */
	assert_string_equal(t, "outside\n");
	free(t);
	source_finder_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_rule),
		cmocka_unit_test(test_classify),
		cmocka_unit_test_setup_teardown(test_find, setup_tree, teardown_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
