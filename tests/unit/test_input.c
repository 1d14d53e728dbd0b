/* test_input.c — lines from files and pipes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <zlib.h>
#include "dumpanalyze/input.h"

/* A temporary file holding the bytes, opened for reading. */
static int file_with(const char *bytes, size_t n)
{
	char path[] = "/tmp/da-input-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, bytes, n), (ssize_t)n);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static void expect_line(struct input *in, const char *want, uint64_t no)
{
	struct line l;
	assert_int_equal(input_next(in, &l), 1);
	assert_int_equal(l.len, strlen(want));
	assert_memory_equal(l.p, want, l.len);
	assert_int_equal(l.no, no);
}

static void test_lines_split_and_numbered(void **s)
{
	(void)s;
	const char text[] = "---- TRACE 1 start x.lua:1\n0001  FORI\n\nlast";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "---- TRACE 1 start x.lua:1", 1);
	expect_line(&in, "0001  FORI", 2);
	expect_line(&in, "", 3);
	expect_line(&in, "last", 4);       /* no final newline */
	struct line l;
	assert_int_equal(input_next(&in, &l), 0);
	assert_int_equal(input_next(&in, &l), 0);
	close(in.fd);
	input_close(&in);
}

static void test_crlf_is_stripped(void **s)
{
	(void)s;
	const char text[] = "a\r\nb\r\n\r\n";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "a", 1);
	expect_line(&in, "b", 2);
	expect_line(&in, "", 3);
	close(in.fd);
	input_close(&in);
}

static void test_empty_input(void **s)
{
	(void)s;
	struct input in;
	input_from_fd(&in, file_with("", 0));
	struct line l;
	assert_int_equal(input_next(&in, &l), 0);
	close(in.fd);
	input_close(&in);
}

static void test_ten_megabyte_line_whole(void **s)
{
	(void)s;
	size_t n = 10u << 20;
	char *big = malloc(n + 8);
	memset(big, 'x', n);
	memcpy(big + n, "\nnext\n", 6);
	struct input in;
	input_from_fd(&in, file_with(big, n + 6));
	struct line l;
	assert_int_equal(input_next(&in, &l), 1);
	assert_int_equal(l.len, n);
	assert_int_equal(l.p[0], 'x');
	assert_int_equal(l.p[n - 1], 'x');
	expect_line(&in, "next", 2);
	free(big);
	close(in.fd);
	input_close(&in);
}

static void test_pipe_in_small_pieces(void **s)
{
	(void)s;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		const char *parts[] = { "---- TRA", "CE 1 IR\n00", "01 x\n", "tail" };
		close(fds[0]);
		for (int i = 0; i < 4; i++) {
			if (write(fds[1], parts[i], strlen(parts[i])) < 0)
				_exit(1);
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		}
		_exit(0);
	}
	close(fds[1]);
	struct input in;
	input_from_fd(&in, fds[0]);
	expect_line(&in, "---- TRACE 1 IR", 1);
	expect_line(&in, "0001 x", 2);
	expect_line(&in, "tail", 3);
	struct line l;
	assert_int_equal(input_next(&in, &l), 0);
	close(fds[0]);
	input_close(&in);
}

static void test_ansi_escapes_removed(void **s)
{
	(void)s;
	char line[] = "0004 >  \033[35mint\033[m EQ     0003  \033[35m+63 \033[m";
	size_t n = input_strip_ansi(line, strlen(line));
	assert_int_equal(n, strlen("0004 >  int EQ     0003  +63 "));
	assert_memory_equal(line, "0004 >  int EQ     0003  +63 ", n);
}

static void test_html_tags_and_entities_removed(void **s)
{
	(void)s;
	char line[] = "0005  JMP      6 =&gt; 0020 <span class=\"irt_int\">int</span> a&amp;b &lt;x&gt;";
	size_t n = input_strip_html(line, strlen(line));
	const char *want = "0005  JMP      6 => 0020 int a&b <x>";
	assert_int_equal(n, strlen(want));
	assert_memory_equal(line, want, n);
}

static void test_html_dump_lines(void **s)
{
	(void)s;
	const char text[] = "<style type=\"text/css\">\npre.ljdump {\n}\n</style>\n"
	                    "<pre class=\"ljdump\">\n---- TRACE 1 start x.lua:1\n"
	                    "0001    <span class=\"irt_int\">int</span> SLOAD  #2    CI\n</pre>\n";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "", 1);
	expect_line(&in, "", 2);
	expect_line(&in, "", 3);
	expect_line(&in, "", 4);
	expect_line(&in, "", 5);
	expect_line(&in, "---- TRACE 1 start x.lua:1", 6);
	expect_line(&in, "0001    int SLOAD  #2    CI", 7);
	expect_line(&in, "", 8);
	close(in.fd);
	input_close(&in);
}

static void test_gzip_detected_by_magic(void **s)
{
	(void)s;
	const char text[] = "---- TRACE 1 start x.lua:1\n0001  FORI\n";
	unsigned char gz[256];
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = sizeof(text) - 1;
	z.next_out = gz;
	z.avail_out = sizeof(gz);
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = sizeof(gz) - z.avail_out;
	deflateEnd(&z);
	struct input in;
	input_from_fd(&in, file_with((const char *)gz, n));
	expect_line(&in, "---- TRACE 1 start x.lua:1", 1);
	expect_line(&in, "0001  FORI", 2);
	struct line l;
	assert_int_equal(input_next(&in, &l), 0);
	assert_string_equal(input_compression(&in), "gzip");
	assert_false(input_truncated(&in));
	close(in.fd);
	input_close(&in);
	/* cut in the middle: what was there, then "truncated" */
	input_from_fd(&in, file_with((const char *)gz, n - 8));
	expect_line(&in, "---- TRACE 1 start x.lua:1", 1);
	while (input_next(&in, &l) > 0)
		;
	assert_true(input_truncated(&in));
	close(in.fd);
	input_close(&in);
}

static void test_open_errors(void **s)
{
	(void)s;
	struct input in;
	assert_int_equal(input_open(&in, "/"), -EISDIR);
	assert_int_equal(input_open(&in, "/nonexistent/dump"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_split_and_numbered),
		cmocka_unit_test(test_crlf_is_stripped),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_ten_megabyte_line_whole),
		cmocka_unit_test(test_pipe_in_small_pieces),
		cmocka_unit_test(test_ansi_escapes_removed),
		cmocka_unit_test(test_html_tags_and_entities_removed),
		cmocka_unit_test(test_html_dump_lines),
		cmocka_unit_test(test_gzip_detected_by_magic),
		cmocka_unit_test(test_open_errors),
	};
	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
