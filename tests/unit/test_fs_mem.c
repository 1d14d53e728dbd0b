/* test_fs_mem.c — the file system in memory (outdir/fs_mem.c): POSIX's
 * answers to what the output directory asks; the output directory on it
 * (files renamed into place, a disk that fills); and a whole run rendered
 * into it (the fuzz targets' tests/fuzz/fuzz_run.c), whose files are the
 * golden files the tool writes to disk, byte for byte. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include "outdir/fs_mem.h"
#include "outdir/outdir.h"
#include "draw/picture.h"
#include "../fuzz/fuzz_run.c"

#define CALL(fs, op, ...) FS_CALL(fs, op, __VA_ARGS__)

static void put(struct fs *fs, const char *path, const char *text)
{
	assert_int_equal(fs_write_file(fs, FS_CWD, path, text, strlen(text), 1), 0);
}

static void assert_data(const struct fs *fs, const char *path, const char *want)
{
	size_t len;
	const char *p = fs_mem_data(fs, path, &len);
	assert_non_null(p);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(p, want, len);
}

static void test_files_and_directories(void **s)
{
	(void)s;
	struct fs *fs = fs_mem_new();
	assert_int_equal(fs->flags & FS_NO_THREAD, FS_NO_THREAD);
	assert_int_equal(fs_mkdirs(fs, FS_CWD, "a/b/c"), 0);
	assert_int_equal(CALL(fs, mkdir, FS_CWD, "a/b"), -EEXIST);
	assert_int_equal(CALL(fs, mkdir, FS_CWD, "x/y"), -ENOENT);
	put(fs, "a/b/f", "hello");
	assert_int_equal(CALL(fs, mkdir, FS_CWD, "a/b/f/g"), -ENOTDIR);
	assert_data(fs, "a/b/f", "hello");
	assert_data(fs, "/a/b/f", "hello");

	/* through a directory handle, relative paths; "" is the handle */
	int d = CALL(fs, open, FS_CWD, "a/b", O_RDONLY | O_DIRECTORY, 0);
	assert_true(d >= 0);
	struct fs_stat st, st2;
	assert_int_equal(CALL(fs, stat, d, "", &st), 0);
	assert_int_equal(st.type, FS_DIR);
	assert_int_equal(CALL(fs, stat, d, "f", &st2), 0);
	assert_int_equal(st2.type, FS_FILE);
	assert_int_equal(st2.size, 5);
	assert_true(st.ino != st2.ino && st.dev == st2.dev);
	assert_int_equal(CALL(fs, open, d, "f", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	assert_int_equal(CALL(fs, open, d, "c", O_WRONLY, 0), -EISDIR);
	assert_int_equal(CALL(fs, open, d, "new", O_WRONLY, 0), -ENOENT);
	assert_int_equal(CALL(fs, open, d, "f", O_WRONLY | O_CREAT | O_EXCL, 0666), -EEXIST);

	/* write, append, read back, truncate */
	int f = CALL(fs, open, d, "g", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	assert_true(f >= 0);
	assert_int_equal(fs_write_all(fs, f, "abc", 3), 0);
	assert_int_equal(CALL(fs, close, f), 0);
	f = CALL(fs, open, d, "g", O_WRONLY | O_APPEND, 0);
	assert_int_equal(fs_write_all(fs, f, "def", 3), 0);
	assert_int_equal(CALL(fs, read, f, (char[4]){ 0 }, 4), -EBADF);     /* write-only */
	assert_int_equal(CALL(fs, close, f), 0);
	char *buf;
	assert_int_equal(fs_read_all(fs, d, "g", 100, &buf), 6);
	assert_string_equal(buf, "abcdef");
	free(buf);
	assert_int_equal(fs_read_all(fs, d, "g", 5, &buf), -EFBIG);
	assert_int_equal(fs_read_all(fs, d, "c", 100, &buf), -EINVAL);     /* not a file */
	f = CALL(fs, open, d, "g", O_WRONLY, 0);
	assert_int_equal(CALL(fs, truncate, f, 2), 0);
	assert_int_equal(CALL(fs, close, f), 0);
	assert_data(fs, "a/b/g", "ab");
	assert_int_equal(CALL(fs, close, f), -EBADF);

	/* the names in a directory */
	char **names;
	size_t n;
	assert_int_equal(CALL(fs, list, d, "", &names, &n), 0);
	assert_int_equal(n, 3);         /* c, f, g */
	fs_list_free(names, n);
	assert_int_equal(CALL(fs, writable, d, "c"), 0);
	assert_int_equal(CALL(fs, writable, d, "nothing"), -ENOENT);
	assert_int_equal(CALL(fs, close, d), 0);
	assert_int_equal(fs_mem_count(fs), 5);      /* a, a/b, a/b/c, a/b/f, a/b/g */
	fs_mem_free(fs);
}

static void test_rename_unlink_rmdir(void **s)
{
	(void)s;
	struct fs *fs = fs_mem_new();
	assert_int_equal(fs_mkdirs(fs, FS_CWD, "out/.stage"), 0);
	put(fs, "out/.stage/a", "new");
	put(fs, "out/a", "old");
	/* rename replaces at once */
	assert_int_equal(CALL(fs, rename, FS_CWD, "out/.stage/a", FS_CWD, "out/a"), 0);
	assert_data(fs, "out/a", "new");
	size_t len;
	assert_null(fs_mem_data(fs, "out/.stage/a", &len));
	assert_int_equal(CALL(fs, rename, FS_CWD, "out/.stage/a", FS_CWD, "out/b"), -ENOENT);
	assert_int_equal(CALL(fs, rename, FS_CWD, "out/a", FS_CWD, "out/.stage"), -EISDIR);
	assert_int_equal(CALL(fs, rename, FS_CWD, "out", FS_CWD, "out/.stage/x"), -EINVAL);
	/* a directory is removed only when empty, a file only by unlink */
	put(fs, "out/.stage/b", "b");
	assert_int_equal(CALL(fs, rmdir, FS_CWD, "out/.stage"), -ENOTEMPTY);
	assert_int_equal(CALL(fs, unlink, FS_CWD, "out/.stage"), -EISDIR);
	assert_int_equal(CALL(fs, rmdir, FS_CWD, "out/a"), -ENOTDIR);
	assert_int_equal(fs_remove_tree(fs, FS_CWD, "out/.stage", 2), 0);
	assert_int_equal(CALL(fs, stat, FS_CWD, "out/.stage", &(struct fs_stat){ 0 }), -ENOENT);
	/* a file unlinked while open lives on for its handle */
	int f = CALL(fs, open, FS_CWD, "out/a", O_RDONLY, 0);
	assert_int_equal(CALL(fs, unlink, FS_CWD, "out/a"), 0);
	char b[8] = { 0 };
	assert_int_equal(CALL(fs, read, f, b, sizeof(b)), 3);
	assert_string_equal(b, "new");
	assert_int_equal(CALL(fs, close, f), 0);
	/* one lock holder at a time */
	int l1 = CALL(fs, open, FS_CWD, "out/lock", O_WRONLY | O_CREAT, 0666);
	int l2 = CALL(fs, open, FS_CWD, "out/lock", O_WRONLY, 0);
	assert_int_equal(CALL(fs, lock, l1, 0), 0);
	assert_int_equal(CALL(fs, lock, l2, 0), -EAGAIN);
	assert_int_equal(CALL(fs, close, l1), 0);
	assert_int_equal(CALL(fs, lock, l2, 0), 0);
	/* a handle left open is freed with the file system */
	fs_mem_free(fs);
}

/* The output directory on it: files appear under their names when
 * published, none before; a disk that fills fails the file, is said, and
 * leaves no file. */
static void test_outdir_in_memory(void **s)
{
	(void)s;
	struct fs *fs = fs_mem_new();
	struct outdir *d = outdir_open_fs(fs, "run/out", NULL);
	assert_non_null(d);
	struct outfile *f = outfile_create(d, "a.txt");
	assert_non_null(f);
	fprintf(outfile_fp(f), "line %d\n", 1);
	char big[100000];
	memset(big, 'x', sizeof(big));
	assert_int_equal(outfile_write(f, big, sizeof(big)), 0);
	assert_int_equal(outfile_commit(f), 0);
	size_t len;
	assert_null(fs_mem_data(fs, "run/out/a.txt", &len));
	assert_int_equal(outdir_publish(d), 0);
	assert_int_equal(outdir_sync(d), 0);
	const char *p = fs_mem_data(fs, "run/out/a.txt", &len);
	assert_non_null(p);
	assert_int_equal(len, 7 + sizeof(big));
	assert_memory_equal(p, "line 1\n", 7);
	assert_int_equal(outdir_files_written(d), 1);
	outdir_close(d);
	assert_int_equal(fs_mem_count(fs), 3);      /* run, run/out, a.txt */

	/* 1000 bytes of room */
	fs_mem_limit(fs, 1000);
	d = outdir_open_fs(fs, "run/out", NULL);
	f = outfile_create(d, "b.txt");
	assert_int_equal(outfile_write(f, big, 5000), 0);
	outfile_commit(f);
	outdir_publish(d);
	assert_int_equal(outdir_sync(d), -1);
	outdir_close(d);
	assert_null(fs_mem_data(fs, "run/out/b.txt", &len));
	assert_int_equal(fs_mem_count(fs), 3);      /* no temporary file left */
	fs_mem_free(fs);
}

/* A whole run, as the fuzz targets render it, into memory: the files of
 * the golden case `flush` (--views default,bush-txt), byte for byte; its
 * pictures are there (golden.sh checks their pixels). */
static void test_run_in_memory_is_the_golden_files(void **s)
{
	(void)s;
	FILE *fp = fopen("samples/flush.dump", "rb");
	assert_non_null(fp);
	char *dump = NULL;
	size_t dump_len = 0;
	FILE *mem = open_memstream(&dump, &dump_len);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(fp);
	fclose(mem);

	struct fs *fs = fs_mem_new();
	struct fuzz_run run = {
		.views = "default,bush-txt",
		.name = "@SAMPLES@/flush.dump",     /* as the golden files say it */
		.roots = NULL,
		.nroots = 0,
		.fs = fs,
	};
	static const char *const none[] = { NULL };
	run.roots = none;
	assert_int_equal(fuzz_render((const uint8_t *)dump, dump_len, &run), 0);
	free(dump);

	const char *golden = "tests/cli/golden/flush/expected";
	char **names;
	assert_int_equal(CALL(fs, list, FS_CWD, FUZZ_OUT, &names, &n), 0);
	size_t compared = 0, pictures = 0;
	for (size_t i = 0; i < n; i++) {
		char path[256], want_path[512];
		snprintf(path, sizeof(path), FUZZ_OUT "/%s", names[i]);
		size_t len;
		const char *got = fs_mem_data(fs, path, &len);
		assert_non_null(got);
		size_t nl = strlen(names[i]);
		if (nl > 4 && strcmp(names[i] + nl - 4, ".png") == 0) {
			snprintf(want_path, sizeof(want_path), "%s/%s.sum", golden, names[i]);
			if (access(want_path, F_OK) != 0)
				fail_msg("%s: drawn in memory, not in %s", names[i], golden);
			assert_memory_equal(got, "\x89PNG", 4);
			pictures++;
			continue;
		}
		snprintf(want_path, sizeof(want_path), "%s/%s", golden, names[i]);
		char *want;
		ssize_t wl = fs_read_all(&fs_posix, FS_CWD, want_path, 1 << 24, &want);
		if (wl < 0)
			fail_msg("%s: written in memory, not in %s", names[i], golden);
		if ((size_t)wl != len || memcmp(want, got, len) != 0)
			fail_msg("%s: not the golden file's bytes", names[i]);
		free(want);
		compared++;
	}
	fs_list_free(names, n);
	/* every golden file but the manifest (the commit's, not the views') */
	assert_int_equal(compared + pictures, 49);
	assert_int_equal(pictures, 3);
	fs_mem_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files_and_directories),
		cmocka_unit_test(test_rename_unlink_rmdir),
		cmocka_unit_test(test_outdir_in_memory),
		cmocka_unit_test(test_run_in_memory_is_the_golden_files),
	};
	int r = cmocka_run_group_tests_name("fs_mem", tests, NULL, NULL);
	picture_release();
	return r;
}
