/* test_push.c — da_open_push and da_feed: the same bytes give the same
 * callbacks (every field of every record, records.h) as reading the file,
 * whole and in pieces of random sizes (seeded; one byte at a time too),
 * on every sample, plain and compressed; and what a push handle refuses:
 * feeding after the last piece, from a callback, a handle of another
 * kind; errors that end the reading and stay. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <zlib.h>
#include <zstd.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "records.h"
#include "samples.h"

/* Two serialisations equal, or the first line where they differ. */
static void same_records(const char *what, const struct rec *want, const struct rec *got)
{
	if (want->len == got->len && memcmp(want->buf, got->buf, want->len) == 0)
		return;
	size_t i = 0, line = 1, bol = 0;
	while (i < want->len && i < got->len && want->buf[i] == got->buf[i])
		if (want->buf[i++] == '\n') {
			line++;
			bol = i;
		}
	fail_msg("%s: records differ at line %zu:\n  want: %.200s\n  got:  %.200s", what, line,
	         want->buf + bol, got->buf + bol);
}

#define FLAGS (DA_KEEP_TEXT | DA_ANSWERS)

static struct da_options options(struct rec *r, unsigned flags)
{
	struct da_options o = DA_OPTIONS(.flags = flags, .name = "sample", .sink = &rec_sink,
	                                 .sink_data = r, .diag = rec_diag, .diag_data = r);
	return o;
}

/* The file read by its path: what every other way must give. */
static void by_path(const char *path, struct rec *r)
{
	memset(r, 0, sizeof(*r));
	struct da_options o = options(r, FLAGS);
	int err;
	da_dump *d = da_open_path(path, &o, &err);
	assert_non_null(d);
	rec_printf(r, "result %d\n", da_read(d));
	rec_end(r, d);
	da_close(d);
}

/* A small random number generator of the test's own (xorshift64*), so
 * that a seed gives the same pieces everywhere. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/* The size of the next piece for a seed: 0 one byte at a time; else
 * mostly small pieces (a line split anywhere), some large ones (many
 * lines in place), now and then a single byte or an empty piece. */
static size_t piece(uint64_t seed, uint64_t *state)
{
	if (seed == 0)
		return 1;
	uint64_t r = next_random(state);
	switch (r % 8) {
	case 0: return 0;
	case 1: return 1;
	case 2: case 3: case 4: return 1 + (size_t)(r >> 8) % 200;
	case 5: case 6: return 1 + (size_t)(r >> 8) % 8192;
	default: return 1 + (size_t)(r >> 8) % 400000;
	}
}

/* bytes pushed in pieces; seed 0: one byte at a time; whole: one piece. */
static void pushed(const char *bytes, size_t len, uint64_t seed, int whole, unsigned flags,
                   struct rec *r)
{
	memset(r, 0, sizeof(*r));
	struct da_options o = options(r, flags);
	int err;
	da_dump *d = da_open_push(&o, &err);
	assert_non_null(d);
	assert_int_equal(err, DA_OK);
	uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
	/* The last piece says so itself, or an empty call after it does. */
	int last_apart = (int)(seed & 1), res = 0, ended = 0;
	size_t at = 0;
	while (res == 0 && !ended) {
		size_t n = whole ? len - at : piece(seed, &state);
		if (n > len - at)
			n = len - at;
		ended = at + n == len && !last_apart;
		res = da_feed(d, bytes + at, n, ended);
		at += n;
		if (res == 0 && at == len && !ended) {
			res = da_feed(d, NULL, 0, 1);
			ended = 1;
		}
	}
	rec_printf(r, "result %d\n", res);
	rec_end(r, d);
	/* after the last piece, nothing more */
	assert_int_equal(da_feed(d, "x", 1, 0), res == DA_OK ? DA_EINVAL : res);
	da_close(d);
}

static void test_every_sample_pushed_whole_and_in_pieces_gives_the_same_records(void **state)
{
	(void)state;
	size_t n;
	char **paths = sample_paths(&n);
	assert_true(n >= 34);       /* samples/README.md lists them */
	unsigned compared = 0, xz = 0;
	uint64_t records = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *bytes = slurp(paths[i], &len);
		struct rec want, got;
		by_path(paths[i], &want);
		assert_true(want.gens >= 1);
		records += want.traces + want.aborts + want.exits;
		char what[256];
		snprintf(what, sizeof(what), "%s whole", paths[i]);
		pushed(bytes, len, 1, 1, FLAGS, &got);
		same_records(what, &want, &got);
		free(got.buf);
		/* seeds 1-3 in random pieces, seed 0 a byte at a time; seed 2
		 * with records valid only during their callback, which is all
		 * the serialiser needs */
		for (uint64_t seed = 0; seed <= 3; seed++) {
			snprintf(what, sizeof(what), "%s seed %llu", paths[i], (unsigned long long)seed);
			pushed(bytes, len, seed, 0, seed == 2 ? FLAGS | DA_CALLBACK_ONLY : FLAGS, &got);
			same_records(what, &want, &got);
			free(got.buf);
			compared++;
		}
		xz += strstr(paths[i], ".xz") != NULL;
		free(want.buf);
		free(bytes);
		free(paths[i]);
	}
	free(paths);
	assert_int_equal(compared, 4 * n);
	assert_int_equal(xz, 6);       /* nginx-worker, templates, serializer and its three fixes */
	assert_true(records > 100000);
	print_message("compared %u pushes of %zu samples, %llu records each way\n", compared, n,
	              (unsigned long long)records);
}

/* The records of compressed bytes against the plain ones': the same up
 * to the accounting, which has the bytes read and the compression. */
static void same_but_compressed(const char *what, const struct rec *want, const struct rec *got,
                                size_t len, const char *comp)
{
	char *line = strstr(got->buf, "\nend bytes=");
	char *wline = strstr(want->buf, "\nend bytes=");
	assert_non_null(line);
	assert_non_null(wline);
	char head[64];
	snprintf(head, sizeof(head), "\nend bytes=%zu ", len);
	assert_memory_equal(line, head, strlen(head));
	assert_non_null(strstr(line, comp));
	struct rec a = *want, b = *got;
	a.len = (size_t)(wline - want->buf);
	b.len = (size_t)(line - got->buf);
	same_records(what, &a, &b);
}

/* gzip and zstd pushed in pieces: the records of the plain file. */
static void test_gzip_and_zstd_pushed_in_pieces(void **state)
{
	(void)state;
	const char *path = "samples/flush.dump";
	size_t len;
	char *text = slurp(path, &len);
	struct rec want, got;
	by_path(path, &want);

	size_t gz_len;
	unsigned char *gz = gzip_bytes(text, len, &gz_len);

	size_t zs_cap = ZSTD_compressBound(len);
	char *zs = malloc(zs_cap);
	assert_non_null(zs);
	size_t zs_len = ZSTD_compress(zs, zs_cap, text, len, 3);
	assert_false(ZSTD_isError(zs_len));

	const struct { const char *name, *comp; const char *bytes; size_t len; } c[] = {
		{ "gzip", "gzip", (const char *)gz, gz_len }, { "zstd", "zstd", zs, zs_len },
	};
	for (size_t k = 0; k < 2; k++)
		for (uint64_t seed = 0; seed <= 3; seed++) {
			pushed(c[k].bytes, c[k].len, seed, 0, FLAGS, &got);
			same_but_compressed(c[k].name, &want, &got, c[k].len, c[k].comp);
			free(got.buf);
		}
	free(want.buf);
	free(zs);
	free(gz);
	free(text);
}

/* ---- what a push handle refuses -------------------------------------- */

struct nested {
	da_dump *d;
	int inner;                  /* da_feed's answer inside the callback */
	int step;                   /* da_step's */
	unsigned traces;
};

static int feed_inside(void *data, const struct da_trace *t)
{
	(void)t;
	struct nested *s = data;
	if (s->traces++ == 0) {
		s->inner = da_feed(s->d, "---- TRACE 9 start x.lua:1\n", 27, 0);
		s->step = da_step(s->d);
	}
	return 0;
}

static void test_feed_from_a_callback_after_the_last_or_elsewhere_is_einval(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp("samples/penlight-x.dump", &len);
	struct nested s = { 0 };
	struct da_sink sink = DA_SINK(.trace = feed_inside);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &s);
	int err;
	da_dump *d = da_open_push(&o, &err);
	assert_non_null(d);
	s.d = d;
	/* a push handle is not read with da_step or da_read */
	assert_int_equal(da_step(d), DA_EINVAL);
	assert_int_equal(da_read(d), DA_EINVAL);
	assert_int_equal(da_feed(d, NULL, 10, 0), DA_EINVAL);   /* no bytes for 10 */
	assert_int_equal(da_feed(d, text, len / 2, 0), DA_OK);
	assert_int_equal(s.inner, DA_EINVAL);
	assert_int_equal(s.step, DA_EINVAL);
	/* the refused calls changed nothing: the rest reads on */
	assert_int_equal(da_feed(d, text + len / 2, len - len / 2, 1), DA_OK);
	assert_int_equal(s.traces, 74);
	assert_int_equal(da_totals(d)->traces, 74);
	assert_int_equal(da_lines_read(d), 9475);
	/* after the last piece: refused, and still refused */
	assert_int_equal(da_feed(d, "\n", 1, 0), DA_EINVAL);
	assert_int_equal(da_feed(d, NULL, 0, 1), DA_EINVAL);
	assert_int_equal(da_totals(d)->traces, 74);
	da_close(d);

	/* a handle that reads a file takes no pieces */
	d = da_open_path("samples/penlight-x.dump", NULL, &err);
	assert_non_null(d);
	assert_int_equal(da_feed(d, "x", 1, 0), DA_EINVAL);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(da_totals(d)->traces, 74);
	da_close(d);
	assert_int_equal(da_feed(NULL, "x", 1, 1), DA_EINVAL);
	free(text);
}

static int stop_at_second_abort(void *data, const struct da_abort *a)
{
	(void)a;
	return ++*(unsigned *)data == 2;
}

static void test_errors_end_the_push_and_stay(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp("samples/penlight-x.dump", &len);
	/* a callback stops it: the rest of that piece and every later one
	 * get DA_ESTOPPED, and no other callback runs */
	unsigned aborts = 0;
	struct da_sink sink = DA_SINK(.abort = stop_at_second_abort);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &aborts, .flags = DA_ANSWERS);
	da_dump *d = da_open_push(&o, NULL);
	assert_non_null(d);
	size_t at = 0;
	int r = 0;
	while (r == 0 && at < len) {
		size_t n = len - at < 1000 ? len - at : 1000;
		r = da_feed(d, text + at, n, 0);
		at += n;
	}
	assert_int_equal(r, DA_ESTOPPED);
	assert_int_equal(aborts, 2);
	assert_int_equal(da_feed(d, text, 10, 0), DA_ESTOPPED);
	assert_int_equal(da_feed(d, NULL, 0, 1), DA_ESTOPPED);
	assert_int_equal(aborts, 2);
	/* the generation was not finished: totals have none, current has
	 * what was read, the answers the two aborts */
	assert_int_equal(da_generations(d), 0);
	assert_int_equal(da_totals(d)->aborts, 0);
	assert_int_equal(da_current(d)->aborts, 2);
	assert_int_equal(da_abort_reasons(d), 1);
	assert_int_equal(da_abort_reason(d, 0)->count, 2);
	assert_null(da_abort_reason(d, 1));
	da_close(d);

	/* interrupted */
	d = da_open_push(NULL, NULL);
	assert_int_equal(da_feed(d, text, 5000, 0), DA_OK);
	da_interrupt(d);
	assert_int_equal(da_feed(d, text + 5000, 100, 0), DA_EINTR);
	assert_int_equal(da_feed(d, NULL, 0, 1), DA_EINTR);
	assert_string_equal(da_dump_error(d), "interrupted");
	da_close(d);

	/* corrupt gzip: DA_EIO, with the decoder's words */
	static const unsigned char bad[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff,
		                             0xff, 0xff, 0xff, 0xff, 0xff };
	d = da_open_push(NULL, NULL);
	r = da_feed(d, bad, 3, 0);
	if (r == DA_OK)
		r = da_feed(d, bad + 3, sizeof(bad) - 3, 1);
	assert_int_equal(r, DA_EIO);
	assert_string_equal(da_dump_error(d), "corrupt gzip data");
	assert_string_equal(da_compression(d), "gzip");
	assert_int_equal(da_feed(d, NULL, 0, 1), DA_EIO);
	da_close(d);
	free(text);
}

/* Lines that need cleaning (CRLF, colour escapes, -jdump=H) pushed in
 * pieces: the records of the same dump read from memory. */
static void test_noisy_lines_pushed_as_read(void **state)
{
	(void)state;
	const char *files[] = { "samples/ansi.dump", "samples/html.dump" };
	for (size_t f = 0; f < 2; f++) {
		size_t len;
		char *text = slurp(files[f], &len);
		/* CRLF line ends as well */
		char *crlf = malloc(2 * len);
		assert_non_null(crlf);
		size_t n = 0;
		for (size_t i = 0; i < len; i++) {
			if (text[i] == '\n')
				crlf[n++] = '\r';
			crlf[n++] = text[i];
		}
		struct rec want, got;
		memset(&want, 0, sizeof(want));
		struct da_options o = options(&want, FLAGS);
		da_dump *d = da_open_memory(crlf, n, &o, NULL);
		rec_printf(&want, "result %d\n", da_read(d));
		rec_end(&want, d);
		da_close(d);
		assert_int_equal(want.traces, f ? 10 : 11);   /* stop lines */
		for (uint64_t seed = 0; seed <= 3; seed++) {
			pushed(crlf, n, seed, 0, FLAGS, &got);
			same_records(files[f], &want, &got);
			free(got.buf);
		}
		free(want.buf);
		free(crlf);
		free(text);
	}
}

/* How many times w is in s. */
static unsigned count_of(const char *s, const char *w)
{
	unsigned n = 0;
	for (const char *q = s; (q = strstr(q, w)) != NULL; q += strlen(w))
		n++;
	return n;
}

/* Lines of megabytes (none a dump writes: a binary, or garbage in a
 * pipe) pushed in pieces, plain and gzip'd: the records of the same bytes
 * read from memory, whatever the input does with such lines. */
static void test_very_long_lines_pushed_as_read(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp("samples/flush.dump", &len);
	size_t big = 3u << 20, n = 0;
	char *bytes = malloc(2 * len + 2 * big + 2);
	assert_non_null(bytes);
	memcpy(bytes, text, len);
	n = len;
	memset(bytes + n, 'x', big - 1);    /* a whole line of 3 MiB */
	n += big - 1;
	bytes[n++] = '\n';
	memcpy(bytes + n, text, len);
	n += len;
	memset(bytes + n, 'y', big);        /* and one the dump ends in */
	n += big;
	size_t gz_len;
	unsigned char *gz = gzip_bytes(bytes, n, &gz_len);
	struct rec want, got;
	memset(&want, 0, sizeof(want));
	struct da_options o = options(&want, FLAGS);
	da_dump *d = da_open_memory(bytes, n, &o, NULL);
	rec_printf(&want, "result %d\n", da_read(d));
	rec_end(&want, d);
	da_close(d);
	assert_int_equal(want.gens, 7);     /* flush.dump twice: its 3 flushes twice */
	/* both lines are past the cap (INPUT_LINE_MAX): skipped and said, at
	 * their numbers, read or pushed alike */
	char said[128];
	unsigned lines = 0;
	for (const char *q = text; q < text + len; q++)
		lines += *q == '\n';
	snprintf(said, sizeof(said), "diag 0 line=%u", lines + 1);
	assert_non_null(strstr(want.buf, said));
	snprintf(said, sizeof(said), "diag 0 line=%u", 2 * lines + 2);
	assert_non_null(strstr(want.buf, said));
	assert_int_equal(count_of(want.buf, "line longer than 1048576 bytes: skipped"), 2);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		pushed(bytes, n, seed, 0, FLAGS, &got);
		same_records("long lines", &want, &got);
		free(got.buf);
	}
	pushed(bytes, n, 1, 1, FLAGS, &got);
	same_records("long lines whole", &want, &got);
	free(got.buf);
	for (uint64_t seed = 2; seed <= 3; seed++) {
		pushed((const char *)gz, gz_len, seed, 0, FLAGS, &got);
		same_but_compressed("long lines gzip", &want, &got, gz_len, "gzip");
		free(got.buf);
	}
	free(want.buf);
	free(gz);
	free(bytes);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_sample_pushed_whole_and_in_pieces_gives_the_same_records),
		cmocka_unit_test(test_gzip_and_zstd_pushed_in_pieces),
		cmocka_unit_test(test_feed_from_a_callback_after_the_last_or_elsewhere_is_einval),
		cmocka_unit_test(test_errors_end_the_push_and_stay),
		cmocka_unit_test(test_noisy_lines_pushed_as_read),
		cmocka_unit_test(test_very_long_lines_pushed_as_read),
	};
	return cmocka_run_group_tests_name("push", tests, NULL, NULL);
}
