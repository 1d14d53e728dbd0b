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
		cmocka_unit_test(test_open_errors),
	};
	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
