/* fuzz_dump.c — libFuzzer target: arbitrary bytes through input decoding
 * (compression, ANSI, HTML), the parser (dump and -jv) and the model, and
 * the same lines through the -jp profile reader.  Any crash, leak or
 * sanitizer report is a bug. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/diag.h"
#include "input/input.h"
#include "model/model.h"
#include "parse/parser.h"
#include "profile/profile.h"
#include "views/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("dump", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	lseek(fd, 0, SEEK_SET);

	struct diag diag;
	diag_init(&diag, "fuzz");
	struct view_set views = { NULL, 0, 0 };
	struct model m;
	model_init(&m, &diag, &views);
	struct parser *p = parser_new(&diag, size % 2, model_event, &m);
	struct input in;
	input_from_fd(&in, fd);
	/* The lines in batches as main reads them, of a size the input picks. */
	struct line l[INPUT_BATCH];
	int r, max = 1 + (int)(size % INPUT_BATCH);
	struct profile prof;
	profile_init(&prof, "fuzz");
	int prof_ok = 1;
	const char *why;
	while ((r = input_next_lines(&in, l, max)) > 0) {
		for (int k = 0; k < r && prof_ok; k++)
			if (profile_line(&prof, l[k].p, l[k].len, &why) < 0)
				prof_ok = 0;
		if (parser_lines(p, l, (size_t)r) < 0)
			break;
	}
	if (prof_ok && profile_end(&prof, &why) == 0 && prof.kind != PROFILE_EMPTY && !prof.nlines)
		__builtin_trap();      /* a readable profile has lines */
	profile_free(&prof);
	if (r == 0 && parser_end(p, in.lineno) >= 0)
		model_finish(&m, in.lineno);
	const struct da_line_counts *c = parser_counts(p);
	if (r == 0 && c->total != c->header + c->content + c->exit_regs + c->foreign + c->blank)
		__builtin_trap();      /* every line must be accounted for */
	input_close(&in);
	close(fd);
	parser_free(p);
	model_free(&m);
	return 0;
}
