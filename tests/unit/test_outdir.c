/* test_outdir.c — atomic output files, the LRU of open streams, and the
 * writing thread: each case runs with it and without it (every operation
 * done at once), and what the directory holds is looked at after
 * outdir_sync(). */
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
#include "outdir/fs.h"
#include "outdir/outdir.h"
#include "threads.h"

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

static struct outdir *open_dir(int threaded)
{
	struct outdir *d = outdir_open(dir);
	assert_non_null(d);
	if (!threaded)
		outdir_without_thread(d);
	return d;
}

static void file_appears_only_when_committed(int threaded)
{
	struct outdir *d = open_dir(threaded);
	struct outfile *f = outfile_create(d, "gen-1-traces.csv");
	fputs("ID,PARENT\r\n", outfile_fp(f));
	assert_int_equal(outdir_sync(d), 0);
	assert_false(exists("gen-1-traces.csv"));
	assert_int_equal(entries(), 1);         /* the temporary file */
	assert_int_equal(outfile_commit(f), 0);
	assert_int_equal(outdir_sync(d), 0);
	assert_false(exists("gen-1-traces.csv"));      /* complete, not published */
	assert_int_equal(outdir_publish(d), 0);
	assert_int_equal(outdir_sync(d), 0);
	assert_true(exists("gen-1-traces.csv"));
	assert_int_equal(entries(), 1);
	char buf[64];
	read_back("gen-1-traces.csv", buf, sizeof(buf));
	assert_string_equal(buf, "ID,PARENT\r\n");
	assert_int_equal(outdir_files_written(d), 1);
	outdir_close(d);
}

static void test_file_appears_only_when_committed(void **s)
{
	(void)s;
	file_appears_only_when_committed(1);
}

static void test_file_appears_only_when_committed_without_thread(void **s)
{
	(void)s;
	file_appears_only_when_committed(0);
}

static void many_open_files_keep_their_content(int threaded)
{
	enum { N = 3 * OUTDIR_MAX_OPEN };
	struct outdir *d = open_dir(threaded);
	struct outfile *f[N];
	char name[32];
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "gen-1-bush-%d.txt", i);
		f[i] = outfile_create(d, name);
		assert_non_null(f[i]);
	}
	/* the middle round past stdio, into files the LRU suspended */
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < N; i++) {
			char line[32];
			int n = snprintf(line, sizeof(line), "%d:%d\n", i, round);
			if (round == 1)
				assert_int_equal(outfile_write(f[i], line, (size_t)n), 0);
			else
				fputs(line, outfile_fp(f[i]));
		}
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

static void test_many_open_files_keep_their_content(void **s)
{
	(void)s;
	many_open_files_keep_their_content(1);
}

static void test_many_open_files_keep_their_content_without_thread(void **s)
{
	(void)s;
	many_open_files_keep_their_content(0);
}

/* More than the queue holds (the caller then waits for the writing
 * thread), in writes of every size, through stdio and past it in turn:
 * the bytes arrive whole and in order. */
static void test_more_than_the_queue_holds_arrives_whole(void **s)
{
	(void)s;
	struct outdir *d = open_dir(1);
	struct outfile *f = outfile_create(d, "gen-1-bush-1.txt");
	size_t total = 0, big = 3u << 20;
	char *chunk = malloc(big);
	unsigned sum = 0;
	for (size_t i = 0; i < big; i++)
		chunk[i] = (char)('a' + i % 23);
	for (size_t n = 1; total < (20u << 20); n = n * 7 % big + 1) {
		if (n % 2)
			assert_int_equal(outfile_write(f, chunk, n), 0);
		else
			assert_int_equal(fwrite(chunk, 1, n, outfile_fp(f)), n);
		for (size_t i = 0; i < n; i++)
			sum = sum * 31 + (unsigned char)chunk[i];
		total += n;
	}
	assert_int_equal(outfile_commit(f), 0);
	assert_int_equal(outdir_publish(d), 0);
	assert_int_equal(outdir_sync(d), 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/gen-1-bush-1.txt", dir);
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	unsigned got = 0;
	size_t n = 0, k;
	while ((k = fread(chunk, 1, big, fp)) > 0) {
		for (size_t i = 0; i < k; i++)
			got = got * 31 + (unsigned char)chunk[i];
		n += k;
	}
	fclose(fp);
	assert_int_equal(n, total);
	assert_int_equal(got, sum);
	free(chunk);
	outdir_close(d);
}

static void discard_leaves_nothing(int threaded)
{
	struct outdir *d = open_dir(threaded);
	outfile_create(d, "gen-1-a.csv");
	fputs("x", outfile_fp(outfile_create(d, "gen-1-b.csv")));
	struct outfile *c = outfile_create(d, "gen-1-c.csv");
	assert_int_equal(outfile_commit(c), 0);     /* complete, not published */
	assert_int_equal(outdir_sync(d), 0);
	assert_int_equal(entries(), 3);
	outdir_close(d);                        /* discards what is pending */
	assert_int_equal(entries(), 0);
}

static void test_discard_leaves_nothing(void **s)
{
	(void)s;
	discard_leaves_nothing(1);
}

static void test_discard_leaves_nothing_without_thread(void **s)
{
	(void)s;
	discard_leaves_nothing(0);
}

/* A write fails (the file size limit): one message naming the file, the
 * failure reported to the caller, nothing renamed from then on, not even
 * a later generation's good file, and no temporary file left. */
static void write_failure_leaves_no_final_file(int threaded)
{
	struct rlimit old, small = { 4096, 4096 };
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	char errpath[128];
	snprintf(errpath, sizeof(errpath), "%s.err", dir);
	int saved = dup(2), err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(err, 2);
	struct outdir *d = open_dir(threaded);
	struct outfile *f = outfile_create(d, "gen-1-bush-1.txt");
	setrlimit(RLIMIT_FSIZE, &small);
	for (int i = 0; i < 2000; i++)
		fputs("0001  KSHORT   2   1\n", outfile_fp(f));
	outfile_commit(f);
	outdir_publish(d);
	int r = outdir_sync(d);
	setrlimit(RLIMIT_FSIZE, &old);
	/* the next generation's file, small enough */
	struct outfile *g = outfile_create(d, "gen-2-traces.csv");
	int r2 = outdir_publish(d);
	outdir_close(d);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(err);
	assert_int_equal(r, -1);
	assert_null(g);
	assert_int_equal(r2, -1);
	assert_false(exists("gen-1-bush-1.txt"));
	assert_int_equal(entries(), 0);
	char want[160], got[160] = "";
	snprintf(want, sizeof(want), "dumpanalyze: %s/gen-1-bush-1.txt: File too large\n", dir);
	FILE *fp = fopen(errpath, "r");
	size_t n = fread(got, 1, sizeof(got) - 1, fp);
	got[n] = '\0';
	fclose(fp);
	unlink(errpath);
	assert_string_equal(got, want);
}

static void test_write_failure_leaves_no_final_file(void **s)
{
	(void)s;
	write_failure_leaves_no_final_file(1);
}

static void test_write_failure_leaves_no_final_file_without_thread(void **s)
{
	(void)s;
	write_failure_leaves_no_final_file(0);
}

/* The writing thread starts with the first file (a directory that only
 * forks, as several dumps' does, has none for its children to inherit)
 * and ends only in outdir_close, which joins it (forkguard.h). */
static void test_writing_thread_lives_from_first_file_to_close(void **s)
{
	(void)s;
	int before = threads_now();
	struct outdir *d = open_dir(1);
	assert_int_equal(threads_now(), before);
	struct outfile *f = outfile_create(d, "summary.txt");
	assert_non_null(f);
	assert_int_equal(threads_now(), before + 1);
	assert_int_equal(outfile_commit(f), 0);
	assert_int_equal(outdir_publish(d), 0);
	assert_int_equal(outdir_sync(d), 0);
	assert_int_equal(threads_now(), before + 1);
	outdir_close(d);
	assert_int_equal(threads_now(), before);
	assert_true(exists("summary.txt"));
}

/* Without a thread every operation is done at once, by the caller: no
 * thread ever starts, and the temporary name still carries the pid. */
static void test_without_thread_no_thread_starts(void **s)
{
	(void)s;
	int before = threads_now();
	struct outdir *d = open_dir(0);
	struct outfile *f = outfile_create(d, "summary.txt");
	assert_non_null(f);
	fputs("x\n", outfile_fp(f));
	char tmp[64];
	snprintf(tmp, sizeof(tmp), ".summary.txt.tmp%ld", (long)getpid());
	assert_true(exists(tmp));               /* created at once */
	assert_int_equal(threads_now(), before);
	assert_int_equal(outfile_commit(f), 0);
	assert_int_equal(outdir_publish(d), 0);
	assert_true(exists("summary.txt"));     /* renamed at once */
	assert_false(exists(tmp));
	assert_int_equal(threads_now(), before);
	outdir_close(d);
	assert_int_equal(threads_now(), before);
	char buf[16];
	read_back("summary.txt", buf, sizeof(buf));
	assert_string_equal(buf, "x\n");
}

static void test_creates_missing_parents(void **s)
{
	(void)s;
	char path[128];
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	struct outdir *d = outdir_open(path);
	assert_non_null(d);
	assert_string_equal(outdir_path(d), path);
	assert_string_equal(outdir_shown(d), path);
	outdir_close(d);
	/* written in one place, named as another in messages */
	d = outdir_open_fs(&fs_posix, path, "OUT");
	assert_non_null(d);
	assert_string_equal(outdir_path(d), path);
	assert_string_equal(outdir_shown(d), "OUT");
	outdir_close(d);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file_appears_only_when_committed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_appears_only_when_committed_without_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_open_files_keep_their_content, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_open_files_keep_their_content_without_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_more_than_the_queue_holds_arrives_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discard_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discard_leaves_nothing_without_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_failure_leaves_no_final_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_failure_leaves_no_final_file_without_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writing_thread_lives_from_first_file_to_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_thread_no_thread_starts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_creates_missing_parents, setup, teardown),
	};
	return cmocka_run_group_tests_name("outdir", tests, NULL, NULL);
}
