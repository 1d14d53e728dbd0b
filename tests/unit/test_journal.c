/* test_journal.c — a commit's intent record: written and read back byte
 * for byte (names with blanks, '%', newlines, any byte); every record cut
 * short or with any byte changed is no record; a record whose check is
 * right but that names a path out of the directory is refused. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>
#include "outdir/journal.h"

struct dir {
	char path[64];
	int fd;
};

static void dir_make(struct dir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/test_journal.XXXXXX");
	assert_non_null(mkdtemp(d->path));
	d->fd = FS_CALL(&fs_posix, open, FS_CWD, d->path, O_RDONLY | O_DIRECTORY, 0);
	assert_true(d->fd >= 0);
}

static void dir_remove(struct dir *d)
{
	FS_CALL(&fs_posix, unlink, d->fd, JOURNAL_NAME);
	FS_CALL(&fs_posix, close, d->fd);
	assert_int_equal(rmdir(d->path), 0);
}

static char *names[] = { "summary.txt", "a b", "100%", "new\nline", "t\xe9st", "x.dump/gen-1-traces.csv",
                         "x.dump/manifest.json" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void fill(struct journal *j)
{
	memset(j, 0, sizeof(*j));
	j->pid = 4242;
	j->manifest_bytes = 1234;
	j->manifest_crc = 0xdeadbeef;
	for (size_t i = 0; i < NNAMES; i++) {
		journal_add(&j->moves, &j->nmoves, names[i]);
		journal_add(&j->backups, &j->nbackups, names[NNAMES - 1 - i]);
	}
	journal_add(&j->mkdirs, &j->nmkdirs, "x.dump");
	journal_add(&j->rmdirs, &j->nrmdirs, "old.dump");
}

static void same_list(char **a, size_t na, char **b, size_t nb)
{
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++)
		assert_string_equal(a[i], b[i]);
}

static void test_written_record_reads_back_as_it_was(void **s)
{
	(void)s;
	struct dir d;
	dir_make(&d);
	struct journal w, r;
	fill(&w);
	assert_int_equal(journal_write(&fs_posix, d.fd, &w), 0);
	assert_int_equal(journal_read(&fs_posix, d.fd, &r), 0);
	assert_int_equal(r.pid, 4242);
	assert_int_equal(r.manifest_bytes, 1234);
	assert_int_equal(r.manifest_crc, 0xdeadbeef);
	same_list(w.moves, w.nmoves, r.moves, r.nmoves);
	same_list(w.backups, w.nbackups, r.backups, r.nbackups);
	same_list(w.mkdirs, w.nmkdirs, r.mkdirs, r.nmkdirs);
	same_list(w.rmdirs, w.nrmdirs, r.rmdirs, r.nrmdirs);
	journal_free(&w);
	journal_free(&r);
	dir_remove(&d);
}

static void test_no_record_is_one(void **s)
{
	(void)s;
	struct dir d;
	dir_make(&d);
	struct journal r;
	assert_int_equal(journal_read(&fs_posix, d.fd, &r), 1);
	dir_remove(&d);
}

/* The record's bytes as written. */
static char *record(struct dir *d, size_t *len)
{
	struct journal w;
	fill(&w);
	assert_int_equal(journal_write(&fs_posix, d->fd, &w), 0);
	journal_free(&w);
	char *text;
	ssize_t n = fs_read_all(&fs_posix, d->fd, JOURNAL_NAME, 1 << 20, &text);
	assert_true(n > 0);
	*len = (size_t)n;
	return text;
}

static void put(struct dir *d, const char *bytes, size_t n)
{
	int fd = FS_CALL(&fs_posix, open, d->fd, JOURNAL_NAME, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	assert_true(fd >= 0);
	assert_int_equal(fs_write_all(&fs_posix, fd, bytes, n), 0);
	FS_CALL(&fs_posix, close, fd);
}

/* A record torn at any byte, as a crash while writing it leaves it, is
 * no record. */
static void test_every_cut_is_no_record(void **s)
{
	(void)s;
	struct dir d;
	dir_make(&d);
	size_t len;
	char *text = record(&d, &len);
	size_t cuts = 0;
	for (size_t n = 0; n < len; n++) {
		put(&d, text, n);
		struct journal r;
		assert_int_equal(journal_read(&fs_posix, d.fd, &r), -EBADMSG);
		cuts++;
	}
	assert_int_equal(cuts, len);
	assert_true(len > 100);
	free(text);
	dir_remove(&d);
}

/* Any byte changed (a damaged sector) makes it no record. */
static void test_every_changed_byte_is_no_record(void **s)
{
	(void)s;
	struct dir d;
	dir_make(&d);
	size_t len;
	char *text = record(&d, &len);
	for (size_t i = 0; i < len; i++) {
		text[i] ^= 0x20;
		put(&d, text, len);
		struct journal r;
		int got = journal_read(&fs_posix, d.fd, &r);
		if (got == 0)
			fail_msg("byte %zu changed, record still read", i);
		assert_int_equal(got, -EBADMSG);
		text[i] ^= 0x20;
	}
	free(text);
	dir_remove(&d);
}

/* A record with a right check that names a path out of the directory:
 * refused, whatever wrote it. */
static void test_paths_out_of_the_directory_are_refused(void **s)
{
	(void)s;
	struct dir d;
	dir_make(&d);
	const char *bad[] = { "../x", "..", ".", "a/../../x", "/etc/passwd", "a/b/c", "a//b", "a/",
	                      "%2E%2E", "x/%2E%2E" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char body[512];
		snprintf(body, sizeof(body), "dumpanalyze-commit 1\npid 1\nmanifest 1 0\nmove %s\n", bad[i]);
		unsigned long crc = crc32(0L, (const unsigned char *)body, (unsigned)strlen(body));
		char text[600];
		int n = snprintf(text, sizeof(text), "%send %08lx\n", body, crc);
		put(&d, text, (size_t)n);
		struct journal r;
		if (journal_read(&fs_posix, d.fd, &r) != -EBADMSG)
			fail_msg("path '%s' was read", bad[i]);
	}
	/* and the same record with a good path is read */
	const char *body = "dumpanalyze-commit 1\npid 1\nmanifest 1 0\nmove x.dump/a%20b\n";
	char text[600];
	int n = snprintf(text, sizeof(text), "%send %08lx\n", body,
	                 crc32(0L, (const unsigned char *)body, (unsigned)strlen(body)));
	put(&d, text, (size_t)n);
	struct journal r;
	assert_int_equal(journal_read(&fs_posix, d.fd, &r), 0);
	assert_int_equal(r.nmoves, 1);
	assert_string_equal(r.moves[0], "x.dump/a b");
	journal_free(&r);
	assert_true(journal_path_ok("gen-1-traces.csv"));
	assert_true(journal_path_ok("w.dump/summary.txt"));
	assert_false(journal_path_ok(""));
	dir_remove(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_record_reads_back_as_it_was),
		cmocka_unit_test(test_no_record_is_one),
		cmocka_unit_test(test_every_cut_is_no_record),
		cmocka_unit_test(test_every_changed_byte_is_no_record),
		cmocka_unit_test(test_paths_out_of_the_directory_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
