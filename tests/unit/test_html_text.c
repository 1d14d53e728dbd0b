/* test_html_text.c — the report's trace text (src/views/html/text.c):
 * chunks written as the data says, and the run's budget: whole text until
 * the chunks reach HTML_TEXT_FULL, then without machine code until
 * HTML_TEXT_BUDGET, then none.  Text here is pseudo-random bytes, which
 * gzip cannot shrink, so the budget is reached after a few MB. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "views/html/html.h"
#include "outdir/outdir.h"

static char dir[64];

static int setup(void **s)
{
	(void)s;
	strcpy(dir, "/tmp/da-html-text-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
	(void)s;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A trace's text: 4 KB of bytecode and IR, 8 KB of machine code. */
#define SEC 4096
static void fill(char *buf, uint32_t *state)
{
	for (size_t i = 0; i < 4 * SEC; i++) {
		*state = *state * 1103515245u + 12345u;
		buf[i] = (char)('!' + (*state >> 16) % 90);
	}
}

static void test_budget_tiers(void **s)
{
	(void)s;
	struct outdir *d = outdir_open(dir);
	assert_non_null(d);
	outdir_without_thread(d);
	struct view_ctx c = { .out = d };
	struct html_text h = { 0 };
	char *buf = malloc(4 * SEC);
	uint32_t state = 1;
	struct da_trace_text tx = { .buf = buf,
	                            .off = { 0, SEC, 2 * SEC, 2 * SEC },
	                            .len = { SEC, SEC, 0, 2 * SEC } };
	uint32_t gen = 1;
	size_t whole = 0, no_mcode = 0, none = 0, in_order = 1;
	int phase = 0, chunks = 0;
	for (size_t i = 0; i < 4000; i++) {
		if (i % 500 == 499) {   /* a generation ends */
			int n = html_text_gen_end(&h, &c, gen);
			assert_true(n >= 0);
			chunks += n;
			assert_int_equal(outdir_publish(d), 0);
			gen++;
		}
		fill(buf, &state);
		struct html_text_ref ref;
		assert_int_equal(html_text_add(&h, &c, gen, &tx, &ref), 0);
		int now = ref.chunk < 0 ? 2 : ref.no_mcode ? 1 : 0;
		in_order &= now >= phase;   /* never back to more text */
		phase = now;
		if (now == 0) {
			whole++;
			assert_int_equal(ref.len[DA_SEC_MCODE], 2 * SEC);
		} else if (now == 1) {
			no_mcode++;
			assert_int_equal(ref.len[DA_SEC_MCODE], 0);
			assert_int_equal(ref.len[DA_SEC_BYTECODE] + ref.len[DA_SEC_IR], 2 * SEC);
		} else {
			none++;
		}
	}
	chunks += html_text_gen_end(&h, &c, gen);
	assert_int_equal(outdir_publish(d), 0);
	assert_int_equal(outdir_sync(d), 0);
	assert_true(in_order);
	/* random text: base64 makes 4 bytes of 3, gzip nothing; so about
	 * 12 MB * 3/4 / 16 KB traces whole, then twice as many per MB */
	/* 90 symbols at random: gzip keeps about log2(90)/8 = 0.81 of them
	 * and base64 makes 4 bytes of 3, so a chunk is 1.0 to 1.2 bytes per
	 * byte of text: 12 MB holds 640 to 768 traces of 16 KB whole, and the
	 * next 12 MB twice as many of 8 KB without machine code */
	assert_true(whole > 640 && whole < 768);
	assert_true(no_mcode > 1280 && no_mcode < 1536);
	assert_true(none > 0);
	assert_int_equal(h.dropped, none);
	assert_int_equal(h.kept, whole + no_mcode);
	/* the chunks stop within one chunk past the budget */
	assert_true(h.written >= HTML_TEXT_BUDGET);
	assert_true(h.written < HTML_TEXT_BUDGET + HTML_CHUNK_RAW * 2);
	assert_true(chunks > 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/gen-1-text-0.js", dir);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char head[32] = { 0 };
	assert_non_null(fgets(head, sizeof(head), fp));
	assert_memory_equal(head, "DA_CHUNK(1,0,\"H4sI", 17);     /* gzip's magic, base64 */
	fclose(fp);
	html_text_free(&h);
	free(buf);
	outdir_close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_budget_tiers, setup, teardown),
	};
	return cmocka_run_group_tests_name("html_text", tests, NULL, NULL);
}
