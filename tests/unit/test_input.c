/* test_input.c — lines from files and pipes: splitting, numbering, line
 * ends, lines of any length, and the presentation noise input removes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <zlib.h>
#include "input/input.h"
#include "input/input_impl.h"
#include "threads.h"

/* A temporary file holding the bytes, open for reading at offset 0. */
static int file_with(const char *bytes, size_t n)
{
	char path[] = "/tmp/da-input-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, bytes + done, n - done);
		assert_true(w > 0);
		done += (size_t)w;
	}
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* A pipe whose writer (a child process) writes the pieces with a pause
 * between them, so the reader sees them in separate reads. */
struct piece { const char *p; size_t n; };

static int pipe_with(const struct piece *pieces, size_t npieces, pid_t *pid)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		close(fds[0]);
		for (size_t i = 0; i < npieces; i++) {
			size_t done = 0;
			while (done < pieces[i].n) {
				ssize_t w = write(fds[1], pieces[i].p + done, pieces[i].n - done);
				if (w <= 0)
					_exit(1);
				done += (size_t)w;
			}
			nanosleep(&(struct timespec){ 0, 50 * 1000000 }, NULL);
		}
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

static void reap(pid_t pid)
{
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void expect_line(struct input *in, const char *want, uint64_t no)
{
	struct line l;
	assert_int_equal(input_next(in, &l), 1);
	assert_int_equal(l.len, strlen(want));
	assert_memory_equal(l.p, want, l.len);
	assert_int_equal(l.no, no);
}

static void expect_end(struct input *in)
{
	struct line l;
	assert_int_equal(input_next(in, &l), 0);
	assert_int_equal(input_next(in, &l), 0);
}

static void close_all(struct input *in)
{
	int fd = in->fd;
	input_close(in);
	close(fd);
}

/* ---- lines ------------------------------------------------------------ */

static void test_lines_are_split_and_numbered(void **s)
{
	(void)s;
	const char text[] = "---- TRACE 1 start x.lua:1\n0001  FORI     1 => 0005\n---- TRACE 1 IR\n";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "---- TRACE 1 start x.lua:1", 1);
	expect_line(&in, "0001  FORI     1 => 0005", 2);
	expect_line(&in, "---- TRACE 1 IR", 3);
	expect_end(&in);
	assert_int_equal(in.bytes, sizeof(text) - 1);
	close_all(&in);
}

static void test_last_line_without_newline_is_returned(void **s)
{
	(void)s;
	const char text[] = "first\nlast";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "first", 1);
	expect_line(&in, "last", 2);
	expect_end(&in);
	close_all(&in);
}

static void test_empty_lines_are_lines(void **s)
{
	(void)s;
	const char text[] = "\n\na\n\n";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "", 1);
	expect_line(&in, "", 2);
	expect_line(&in, "a", 3);
	expect_line(&in, "", 4);
	expect_end(&in);
	close_all(&in);
}

/* A chunk of one-byte lines holds 16 times the lines its first line array
 * has room for: the array grows, and no line is lost or renumbered. */
static void test_a_megabyte_of_short_lines(void **s)
{
	(void)s;
	enum { N = 1 << 19 };
	char *text = malloc(2 * N);
	assert_non_null(text);
	for (size_t i = 0; i < N; i++) {
		text[2 * i] = (char)('a' + i % 26);
		text[2 * i + 1] = '\n';
	}
	struct input in;
	input_from_fd(&in, file_with(text, 2 * N));
	free(text);
	for (uint64_t i = 0; i < N; i++) {
		struct line l;
		assert_int_equal(input_next(&in, &l), 1);
		assert_int_equal(l.len, 1);
		assert_int_equal(l.p[0], 'a' + i % 26);
		assert_int_equal(l.no, i + 1);
	}
	expect_end(&in);
	close_all(&in);
}

static void test_crlf_is_stripped(void **s)
{
	(void)s;
	const char text[] = "a\r\nb\r\n\r\nin\rside\r\nlast\r";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "a", 1);
	expect_line(&in, "b", 2);
	expect_line(&in, "", 3);
	expect_line(&in, "in\rside", 4);       /* only the line end goes */
	expect_line(&in, "last", 5);
	expect_end(&in);
	close_all(&in);
}

static void test_crlf_split_across_read_blocks_is_stripped(void **s)
{
	(void)s;
	/* the '\r' is the last byte of the first block, '\n' the first of the
	 * next */
	size_t n = INPUT_BLOCK - 1;
	char *text = malloc(n + 8);
	memset(text, 'y', n);
	memcpy(text + n, "\r\nz\r\n", 5);
	struct input in;
	input_from_fd(&in, file_with(text, n + 5));
	struct line l;
	assert_int_equal(input_next(&in, &l), 1);
	assert_int_equal(l.len, n);
	assert_int_equal(l.p[n - 1], 'y');
	expect_line(&in, "z", 2);
	expect_end(&in);
	free(text);
	close_all(&in);
}

static void test_empty_file_gives_end_at_once(void **s)
{
	(void)s;
	struct input in;
	input_from_fd(&in, file_with("", 0));
	expect_end(&in);
	assert_int_equal(in.lineno, 0);
	close_all(&in);
}

static void test_empty_pipe_gives_end_at_once(void **s)
{
	(void)s;
	pid_t pid;
	int fd = pipe_with(NULL, 0, &pid);
	struct input in;
	input_from_fd(&in, fd);
	expect_end(&in);
	reap(pid);
	close_all(&in);
}

/* n bytes of letters. */
static char *letters(size_t n)
{
	char *big = malloc(n + 16);
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	return big;
}

static void expect_overlong(struct input *in, uint64_t no)
{
	struct line l;
	assert_int_equal(input_next(in, &l), 1);
	assert_true(input_line_overlong(&l));
	assert_int_equal(l.len, 0);
	assert_int_equal(l.no, no);
}

/* No chunk's buffer held much more than one line of the cap. */
static void expect_bounded(const struct input *in)
{
	for (int i = 0; i < INPUT_CHUNKS; i++)
		assert_true(in->rd->chunk[i].cap <= 2 * (size_t)INPUT_LINE_MAX + 2 * INPUT_BLOCK);
}

static void test_line_at_the_cap_is_returned_whole(void **s)
{
	(void)s;
	size_t n = INPUT_LINE_MAX;
	char *big = letters(n);
	memcpy(big + n, "\nnext\n", 6);
	struct input in;
	input_from_fd(&in, file_with(big, n + 6));
	struct line l;
	assert_int_equal(input_next(&in, &l), 1);
	assert_false(input_line_overlong(&l));
	assert_int_equal(l.len, n);
	assert_int_equal(l.no, 1);
	assert_memory_equal(l.p, big, n);
	expect_line(&in, "next", 2);
	expect_end(&in);
	free(big);
	close_all(&in);
}

static void test_line_past_the_cap_is_skipped(void **s)
{
	(void)s;
	size_t n = INPUT_LINE_MAX + 1;
	char *big = letters(n + 6);
	memcpy(big, "first\n", 6);
	memcpy(big + 6 + n, "\nnext\n", 6);
	struct input in;
	input_from_fd(&in, file_with(big, n + 12));
	expect_line(&in, "first", 1);
	expect_overlong(&in, 2);
	expect_line(&in, "next", 3);
	expect_end(&in);
	free(big);
	close_all(&in);
}

/* Ten times the cap, then lines: skipped as it is read, memory bounded,
 * every line after it where it was. */
static void test_ten_megabyte_line_is_skipped(void **s)
{
	(void)s;
	size_t n = 10u << 20;
	char *big = letters(n);
	memcpy(big + n, "\nnext\n\nlast", 11);
	struct input in;
	input_from_fd(&in, file_with(big, n + 11));
	expect_overlong(&in, 1);
	expect_line(&in, "next", 2);
	expect_line(&in, "", 3);
	expect_line(&in, "last", 4);
	expect_end(&in);
	expect_bounded(&in);
	assert_int_equal(in.bytes, n + 11);
	free(big);
	close_all(&in);
}

static void test_ten_megabyte_last_line_without_newline(void **s)
{
	(void)s;
	size_t n = 10u << 20;
	char *big = letters(n + 5);
	memcpy(big, "one\r\n", 5);
	struct input in;
	input_from_fd(&in, file_with(big, n + 5));
	expect_line(&in, "one", 1);
	expect_overlong(&in, 2);
	expect_end(&in);
	expect_bounded(&in);
	free(big);
	close_all(&in);
}

/* Through a pipe in pieces: the long line's end and the next line's
 * start in one read, a second long line at the end of the input. */
static void test_long_lines_through_a_pipe(void **s)
{
	(void)s;
	size_t n = 3 * (size_t)INPUT_LINE_MAX;
	char *big = letters(n);
	big[INPUT_LINE_MAX + 10] = '\n';       /* line 2 ends here */
	memcpy(big, "head\n", 5);
	pid_t pid;
	struct piece parts[] = { { big, 4000 }, { big + 4000, INPUT_LINE_MAX }, { big + 4000 + INPUT_LINE_MAX, n - 4000 - INPUT_LINE_MAX } };
	struct input in;
	input_from_fd(&in, pipe_with(parts, 3, &pid));
	expect_line(&in, "head", 1);
	expect_overlong(&in, 2);
	expect_overlong(&in, 3);    /* from INPUT_LINE_MAX + 11 to the end */
	expect_end(&in);
	expect_bounded(&in);
	reap(pid);
	free(big);
	input_close(&in);
}

static void test_pipe_lines_in_small_pieces(void **s)
{
	(void)s;
	static const struct piece parts[] = {
		{ "---- TRA", 8 }, { "CE 1 IR\n00", 10 }, { "01 x\r", 5 }, { "\n", 1 }, { "tail", 4 },
	};
	pid_t pid;
	struct input in;
	input_from_fd(&in, pipe_with(parts, 5, &pid));
	expect_line(&in, "---- TRACE 1 IR", 1);
	expect_line(&in, "0001 x", 2);
	expect_line(&in, "tail", 3);
	expect_end(&in);
	reap(pid);
	close_all(&in);
}

/* ---- opening ---------------------------------------------------------- */

static void test_open_directory_is_eisdir(void **s)
{
	(void)s;
	struct input in;
	assert_int_equal(input_open(&in, "/"), -EISDIR);
	assert_int_equal(input_open(&in, "/tmp"), -EISDIR);
}

static void test_open_missing_file_is_enoent(void **s)
{
	(void)s;
	struct input in;
	assert_int_equal(input_open(&in, "/nonexistent/dump"), -ENOENT);
	assert_int_equal(input_open(&in, "/tmp/da-input-does-not-exist.dump"), -ENOENT);
}

static void test_open_file_reads_and_closes_it(void **s)
{
	(void)s;
	char path[] = "/tmp/da-input-XXXXXX";
	int wfd = mkstemp(path);
	assert_true(wfd >= 0);
	assert_int_equal(write(wfd, "one\ntwo\n", 8), 8);
	close(wfd);
	struct input in;
	assert_int_equal(input_open(&in, path), 0);
	assert_true(in.owns_fd);
	int fd = in.fd;
	expect_line(&in, "one", 1);
	expect_line(&in, "two", 2);
	expect_end(&in);
	assert_string_equal(input_compression(&in), "plain");
	input_close(&in);
	assert_int_equal(fcntl(fd, F_GETFD), -1);   /* it owned the fd */
	unlink(path);
}

static void test_from_fd_leaves_the_fd_open(void **s)
{
	(void)s;
	int fd = file_with("x\n", 2);
	struct input in;
	input_from_fd(&in, fd);
	expect_line(&in, "x", 1);
	input_close(&in);
	assert_true(fcntl(fd, F_GETFD) >= 0);
	close(fd);
}

/* The reading thread stays after the end until input_close joins it: a
 * thread that ended on its own could be caught by a fork halfway through
 * freeing its memory (forkguard.h). */
static void test_reading_thread_ends_only_when_closed(void **s)
{
	(void)s;
	int before = threads_now();
	int fd = file_with("x\n", 2);
	struct input in;
	input_from_fd(&in, fd);
	expect_line(&in, "x", 1);
	expect_end(&in);
	/* A chance for a thread that would end on its own to do so; on a busy
	 * machine it may not take it, and the check only passes more easily. */
	nanosleep(&(struct timespec){ 0, 50 * 1000000 }, NULL);
	assert_int_equal(threads_now(), before + 1);
	input_close(&in);
	assert_int_equal(threads_now(), before);
	close(fd);
}

/* Without a thread (input_without_thread, or none to be had) the caller
 * makes the chunks itself: the same lines, and no thread ever. */
static void test_without_thread_no_thread_starts(void **s)
{
	(void)s;
	int before = threads_now();
	const char text[] = "a\nbb\n";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	input_without_thread(&in);
	expect_line(&in, "a", 1);
	assert_int_equal(threads_now(), before);
	expect_line(&in, "bb", 2);
	expect_end(&in);
	assert_int_equal(threads_now(), before);
	assert_int_equal(in.bytes, sizeof(text) - 1);
	close_all(&in);
	assert_int_equal(threads_now(), before);
}

/* ---- presentation noise ----------------------------------------------- */

static void test_ansi_escapes_removed(void **s)
{
	(void)s;
	char line[] = "0004 >  \033[35mint\033[m EQ     0003  \033[35m+63 \033[m";
	size_t n = input_strip_ansi(line, strlen(line));
	const char *want = "0004 >  int EQ     0003  +63 ";
	assert_int_equal(n, strlen(want));
	assert_memory_equal(line, want, n);
}

static void test_ansi_dump_lines_come_out_plain(void **s)
{
	(void)s;
	const char text[] = "---- TRACE 1 IR\n0001    \033[1mfun\033[m SLOAD  #0    R\n";
	struct input in;
	input_from_fd(&in, file_with(text, sizeof(text) - 1));
	expect_line(&in, "---- TRACE 1 IR", 1);
	expect_line(&in, "0001    fun SLOAD  #0    R", 2);
	expect_end(&in);
	close_all(&in);
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
	for (uint64_t i = 1; i <= 5; i++)
		expect_line(&in, "", i);
	expect_line(&in, "---- TRACE 1 start x.lua:1", 6);
	expect_line(&in, "0001    int SLOAD  #2    CI", 7);
	expect_line(&in, "", 8);
	expect_end(&in);
	close_all(&in);
}

/* Lines are cleaned after a block of them is split, in order: a CRLF or
 * markup line among tens of thousands of short ones (the line array grows
 * in between), and -jdump=H's mode switching on in the middle of a chunk
 * cleans the lines after it, not those before. */
static void test_noise_among_many_lines_is_cleaned_in_order(void **s)
{
	(void)s;
	enum { EMPTY = 40000 };
	const char *mid = "a\r\n<b>kept</b>\n<pre class=\"ljdump\">\n"
	                  "<span class=\"irt_int\">int</span> &amp;\n";
	size_t n = 2 * EMPTY + strlen(mid) + 3;
	char *text = malloc(n);
	assert_non_null(text);
	memset(text, '\n', EMPTY);
	memcpy(text + EMPTY, mid, strlen(mid));
	memset(text + EMPTY + strlen(mid), '\n', EMPTY);
	memcpy(text + n - 3, "z\r\n", 3);
	struct input in;
	input_from_fd(&in, file_with(text, n));
	free(text);
	uint64_t no = 0;
	for (int i = 0; i < EMPTY; i++)
		expect_line(&in, "", ++no);
	expect_line(&in, "a", ++no);
	expect_line(&in, "<b>kept</b>", ++no);     /* before the mode: as it is */
	expect_line(&in, "", ++no);
	expect_line(&in, "int &", ++no);
	for (int i = 0; i < EMPTY; i++)
		expect_line(&in, "", ++no);
	expect_line(&in, "z", ++no);
	expect_end(&in);
	close_all(&in);
}

/* ---- compression ------------------------------------------------------ */

static size_t gzip_bytes(const char *text, unsigned char *out, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

static void test_gzip_detected_by_magic(void **s)
{
	(void)s;
	unsigned char gz[256];
	size_t n = gzip_bytes("---- TRACE 1 start x.lua:1\n0001  FORI\n", gz, sizeof(gz));
	struct input in;
	input_from_fd(&in, file_with((const char *)gz, n));
	expect_line(&in, "---- TRACE 1 start x.lua:1", 1);
	expect_line(&in, "0001  FORI", 2);
	expect_end(&in);
	assert_string_equal(input_compression(&in), "gzip");
	assert_false(input_truncated(&in));
	close_all(&in);
}

static void test_gzip_cut_short_is_truncated(void **s)
{
	(void)s;
	unsigned char gz[256];
	size_t n = gzip_bytes("---- TRACE 1 start x.lua:1\n0001  FORI\n", gz, sizeof(gz));
	struct input in;
	input_from_fd(&in, file_with((const char *)gz, n - 8));
	expect_line(&in, "---- TRACE 1 start x.lua:1", 1);
	struct line l;
	while (input_next(&in, &l) > 0)
		;
	assert_true(input_truncated(&in));
	close_all(&in);
}

static void test_gzip_magic_split_across_pipe_reads_is_detected(void **s)
{
	(void)s;
	unsigned char gz[256];
	size_t n = gzip_bytes("---- TRACE 1 IR\n", gz, sizeof(gz));
	/* the first read sees one byte of the two-byte magic */
	const struct piece parts[] = { { (const char *)gz, 1 }, { (const char *)gz + 1, n - 1 } };
	pid_t pid;
	struct input in;
	input_from_fd(&in, pipe_with(parts, 2, &pid));
	struct line l;
	int r = input_next(&in, &l);
	while (input_next(&in, &(struct line){ 0 }) > 0)
		;
	reap(pid);
	const char *kind = input_compression(&in);   /* a static string */
	close_all(&in);
	assert_string_equal(kind, "gzip");
	assert_int_equal(r, 1);
}

/* l is the next line of bytes[0, n) after *start, numbered *no + 1, CR
 * of a CRLF dropped; both move on past it. */
static void expect_reference_line(const struct line *l, const char *bytes, size_t n,
                                  size_t *start, uint64_t *no)
{
	const char *nl = memchr(bytes + *start, '\n', n - *start);
	size_t stop = nl ? (size_t)(nl - bytes) : n, len = stop - *start;
	if (len && bytes[*start + len - 1] == '\r')
		len--;
	assert_int_equal(l->no, ++*no);
	assert_int_equal(l->len, len);
	assert_memory_equal(l->p, bytes + *start, len);
	*start = stop + 1;
}

/* Newlines are found 64 bytes at a time: lines of every length from 0 to
 * 300, CRLF or not, at every offset against the 64-byte windows and the
 * 1 MiB read blocks, come out exactly as a byte-by-byte split gives them. */
static void check_against_reference_split(const char *bytes, size_t n, int fd)
{
	struct input in;
	input_from_fd(&in, fd);
	struct line l;
	size_t start = 0;
	uint64_t no = 0;
	while (start < n) {
		assert_int_equal(input_next(&in, &l), 1);
		expect_reference_line(&l, bytes, n, &start, &no);
	}
	expect_end(&in);
	close_all(&in);
}

/* The same, in batches of up to max lines: every line of a batch must
 * still hold its bytes when the batch is handed over. */
static void check_batches_against_reference_split(const char *bytes, size_t n, int fd, int max)
{
	struct input in;
	input_from_fd(&in, fd);
	struct line l[300];
	size_t start = 0, want_lines = 0;
	uint64_t no = 0;
	for (size_t i = 0; i < n; i++)
		want_lines += bytes[i] == '\n';
	if (n && bytes[n - 1] != '\n')
		want_lines++;
	int got;
	while ((got = input_next_lines(&in, l, max)) > 0) {
		assert_true(got <= max);
		for (int k = 0; k < got; k++) {
			expect_reference_line(&l[k], bytes, n, &start, &no);
		}
	}
	assert_int_equal(got, 0);
	assert_int_equal(no, want_lines);
	close_all(&in);
}

/* The same, a chunk at a time, as dumpanalyze reads: the caller now and
 * then takes its time, so the reading thread fills every other chunk of
 * its ring meanwhile, and the lines held must still hold their bytes. */
static void check_chunks_against_reference_split(const char *bytes, size_t n, int fd, int threaded)
{
	struct input in;
	input_from_fd(&in, fd);
	if (!threaded)
		input_without_thread(&in);
	const struct line *l;
	size_t start = 0, want_lines = 0, chunks = 0;
	uint64_t no = 0;
	for (size_t i = 0; i < n; i++)
		want_lines += bytes[i] == '\n';
	if (n && bytes[n - 1] != '\n')
		want_lines++;
	int got;
	while ((got = input_next_chunk(&in, &l)) > 0) {
		if (++chunks % 3 == 0)
			nanosleep(&(struct timespec){ 0, 5 * 1000000 }, NULL);
		for (int k = 0; k < got; k++) {
			expect_reference_line(&l[k], bytes, n, &start, &no);
		}
		assert_int_equal(in.lineno, no);
	}
	assert_int_equal(got, 0);
	assert_int_equal(no, want_lines);
	assert_int_equal(in.bytes, n);
	/* several laps of the ring */
	assert_true(chunks >= 2 * INPUT_CHUNKS);
	close_all(&in);
}

static void test_every_line_length_at_every_window_offset(void **s)
{
	(void)s;
	size_t cap = 3 * INPUT_CHUNKS * INPUT_BLOCK, n = 0;
	char *bytes = malloc(cap);
	assert_non_null(bytes);
	unsigned seed = 12345;
	for (size_t len = 0; n + 700 < cap; len = (len + 1) % 301) {
		for (size_t k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			bytes[n++] = (char)('a' + (seed >> 16) % 26);
		}
		if (len % 7 == 3)
			bytes[n++] = '\r';
		bytes[n++] = '\n';
	}
	memcpy(bytes + n, "last line without a newline", 27);
	n += 27;
	check_against_reference_split(bytes, n, file_with(bytes, n));
	/* The same bytes cut so a block ends at each offset of a window. */
	check_against_reference_split(bytes, INPUT_BLOCK + 37, file_with(bytes, INPUT_BLOCK + 37));
	pid_t pid;
	struct piece parts[] = { { bytes, 100 }, { bytes + 100, 63 }, { bytes + 163, 1 },
	                         { bytes + 164, 65 }, { bytes + 229, n - 229 } };
	check_against_reference_split(bytes, n, pipe_with(parts, 5, &pid));
	reap(pid);
	for (int max = 1; max <= 300; max = max * 3 + 1)
		check_batches_against_reference_split(bytes, n, file_with(bytes, n), max);
	check_batches_against_reference_split(bytes, n, pipe_with(parts, 5, &pid), INPUT_BATCH);
	reap(pid);
	check_chunks_against_reference_split(bytes, n, file_with(bytes, n), 1);
	check_chunks_against_reference_split(bytes, n, file_with(bytes, n), 0);
	check_chunks_against_reference_split(bytes, n, pipe_with(parts, 5, &pid), 1);
	reap(pid);
	free(bytes);
}

/* ---- stopping early ----------------------------------------------------- */

/* A writer that sends the bytes, then keeps the pipe open for a minute
 * without a word, as a long-running `luajit -jdump` does. */
static int quiet_pipe_with(const char *bytes, size_t n, pid_t *pid)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		close(fds[0]);
		if (write(fds[1], bytes, n) != (ssize_t)n)
			_exit(1);
		sleep(60);
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

/* The caller stops after a line (a rejected dump) while the reading thread
 * waits for more from a writer that says nothing: closing must not wait
 * for the writer, who sleeps a minute and is still there when close
 * returns.  SIGALRM ends the test if it hangs. */
static void close_while_writer_is_quiet(const char *bytes, size_t n, const char *first)
{
	pid_t pid;
	struct input in;
	input_from_fd(&in, quiet_pipe_with(bytes, n, &pid));
	alarm(10);
	expect_line(&in, first, 1);
	close_all(&in);
	alarm(0);
	assert_int_equal(waitpid(pid, NULL, WNOHANG), 0);  /* still writing nothing */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_close_while_a_pipe_writer_is_quiet(void **s)
{
	(void)s;
	close_while_writer_is_quiet("---- TRACE 1 start x.lua:1\n0001  FORI\n", 39,
	                            "---- TRACE 1 start x.lua:1");
}

static void test_close_while_a_gzip_pipe_writer_is_quiet(void **s)
{
	(void)s;
	unsigned char gz[256];
	size_t n = gzip_bytes("---- TRACE 1 start x.lua:1\n0001  FORI\n", gz, sizeof(gz));
	/* the stream without its end: the decoder waits for more */
	close_while_writer_is_quiet((const char *)gz, n - 8, "---- TRACE 1 start x.lua:1");
}

/* An interrupt (a signal handler's input_interrupt, which wakes no one)
 * while every chunk is made and the reading thread waits for room: the
 * caller gets the chunks made, then -ECANCELED; it once waited for ever
 * for a chunk the stopped thread would never make (SIGALRM ends a hang). */
static void test_interrupt_while_every_chunk_is_made(void **s)
{
	(void)s;
	size_t n = (INPUT_CHUNKS + 2) * (size_t)INPUT_BLOCK;
	char *text = malloc(n);
	for (size_t i = 0; i < n; i++)
		text[i] = i % 64 == 63 ? '\n' : 'x';
	struct input in;
	input_from_fd(&in, file_with(text, n));
	free(text);
	alarm(30);
	const struct line *l;
	assert_true(input_next_chunk(&in, &l) > 0);      /* the thread starts */
	struct input_reader *rd = in.rd;
	for (int full = 0; !full;) {                     /* until every chunk is made */
		pthread_mutex_lock(&rd->lock);
		full = rd->made - rd->used == INPUT_CHUNKS;
		pthread_mutex_unlock(&rd->lock);
		if (!full)
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	input_interrupt(&in);
	int r, chunks = 0;
	while ((r = input_next_chunk(&in, &l)) > 0)
		chunks++;
	alarm(0);
	assert_int_equal(r, -ECANCELED);
	assert_int_equal(chunks, INPUT_CHUNKS - 1);      /* the first was taken before */
	assert_int_equal(input_next_chunk(&in, &l), -ECANCELED);   /* and it stays so */
	close_all(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_are_split_and_numbered),
		cmocka_unit_test(test_last_line_without_newline_is_returned),
		cmocka_unit_test(test_empty_lines_are_lines),
		cmocka_unit_test(test_a_megabyte_of_short_lines),
		cmocka_unit_test(test_crlf_is_stripped),
		cmocka_unit_test(test_crlf_split_across_read_blocks_is_stripped),
		cmocka_unit_test(test_empty_file_gives_end_at_once),
		cmocka_unit_test(test_empty_pipe_gives_end_at_once),
		cmocka_unit_test(test_line_at_the_cap_is_returned_whole),
		cmocka_unit_test(test_line_past_the_cap_is_skipped),
		cmocka_unit_test(test_ten_megabyte_line_is_skipped),
		cmocka_unit_test(test_ten_megabyte_last_line_without_newline),
		cmocka_unit_test(test_long_lines_through_a_pipe),
		cmocka_unit_test(test_pipe_lines_in_small_pieces),
		cmocka_unit_test(test_open_directory_is_eisdir),
		cmocka_unit_test(test_open_missing_file_is_enoent),
		cmocka_unit_test(test_open_file_reads_and_closes_it),
		cmocka_unit_test(test_from_fd_leaves_the_fd_open),
		cmocka_unit_test(test_reading_thread_ends_only_when_closed),
		cmocka_unit_test(test_without_thread_no_thread_starts),
		cmocka_unit_test(test_ansi_escapes_removed),
		cmocka_unit_test(test_ansi_dump_lines_come_out_plain),
		cmocka_unit_test(test_html_tags_and_entities_removed),
		cmocka_unit_test(test_html_dump_lines),
		cmocka_unit_test(test_noise_among_many_lines_is_cleaned_in_order),
		cmocka_unit_test(test_gzip_detected_by_magic),
		cmocka_unit_test(test_gzip_cut_short_is_truncated),
		cmocka_unit_test(test_gzip_magic_split_across_pipe_reads_is_detected),
		cmocka_unit_test(test_every_line_length_at_every_window_offset),
		cmocka_unit_test(test_close_while_a_pipe_writer_is_quiet),
		cmocka_unit_test(test_close_while_a_gzip_pipe_writer_is_quiet),
		cmocka_unit_test(test_interrupt_while_every_chunk_is_made),
	};
	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
