/* test_outdir.c — atomic output files and the LRU of open streams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "dumpanalyze/outdir.h"

static char dir[64];

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/da-outdir-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int entries(void)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

static int exists(const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void read_back(const char *name, char *buf, size_t n)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	size_t got = fread(buf, 1, n - 1, fp);
	buf[got] = '\0';
	fclose(fp);
}

static void test_file_appears_only_when_committed(void **s)
{
	(void)s;
	struct outdir *d = outdir_open(dir);
	assert_non_null(d);
	struct outfile *f = outfile_create(d, "gen-1-traces.csv");
	fputs("ID,PARENT\r\n", outfile_fp(f));
	assert_false(exists("gen-1-traces.csv"));
	assert_int_equal(entries(), 1);         /* the temporary file */
	assert_int_equal(outfile_commit(f), 0);
	assert_false(exists("gen-1-traces.csv"));      /* complete, not published */
	assert_int_equal(outdir_publish(d), 0);
	assert_true(exists("gen-1-traces.csv"));
	assert_int_equal(entries(), 1);
	char buf[64];
	read_back("gen-1-traces.csv", buf, sizeof(buf));
	assert_string_equal(buf, "ID,PARENT\r\n");
	assert_int_equal(outdir_files_written(d), 1);
	outdir_close(d);
}

static void test_many_open_files_keep_their_content(void **s)
{
	(void)s;
	enum { N = 3 * OUTDIR_MAX_OPEN };
	struct outdir *d = outdir_open(dir);
	struct outfile *f[N];
	char name[32];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "gen-1-bush-%d.txt", i);
		f[i] = outfile_create(d, name);
		assert_non_null(f[i]);
	}
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < N; i++)
			fprintf(outfile_fp(f[i]), "%d:%d\n", i, round);
	for (int i = 0; i < N; i++)
		assert_int_equal(outfile_commit(f[i]), 0);
	assert_int_equal(outdir_publish(d), 0);
	assert_int_equal(outdir_files_written(d), N);
	for (int i = 0; i < N; i++) {
		char buf[64], want[64];
		snprintf(name, sizeof(name), "gen-1-bush-%d.txt", i);
		snprintf(want, sizeof(want), "%d:0\n%d:1\n%d:2\n", i, i, i);
		read_back(name, buf, sizeof(buf));
		assert_string_equal(buf, want);
	}
	outdir_close(d);
}

static void test_discard_leaves_nothing(void **s)
{
	(void)s;
	struct outdir *d = outdir_open(dir);
	outfile_create(d, "gen-1-a.csv");
	fputs("x", outfile_fp(outfile_create(d, "gen-1-b.csv")));
	assert_int_equal(entries(), 2);
	outdir_close(d);                        /* discards what is pending */
	assert_int_equal(entries(), 0);
}

static void test_write_failure_leaves_no_final_file(void **s)
{
	(void)s;
	struct rlimit old, small = { 4096, 4096 };
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	struct outdir *d = outdir_open(dir);
	struct outfile *f = outfile_create(d, "gen-1-bush-1.txt");
	setrlimit(RLIMIT_FSIZE, &small);
	for (int i = 0; i < 2000; i++)
		fputs("0001  KSHORT   2   1\n", outfile_fp(f));
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	int r = outfile_commit(f);
	dup2(saved, 2);
	close(saved);
	close(null);
	setrlimit(RLIMIT_FSIZE, &old);
	assert_int_equal(r, -1);
	assert_false(exists("gen-1-bush-1.txt"));
	assert_int_equal(entries(), 0);
	outdir_close(d);
}

static void test_creates_missing_parents(void **s)
{
	(void)s;
	char path[128];
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	struct outdir *d = outdir_open(path);
	assert_non_null(d);
	assert_string_equal(outdir_path(d), path);
	outdir_close(d);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file_appears_only_when_committed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_open_files_keep_their_content, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discard_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_failure_leaves_no_final_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_creates_missing_parents, setup, teardown),
	};
	return cmocka_run_group_tests_name("outdir", tests, NULL, NULL);
}
