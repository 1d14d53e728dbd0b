/* push_exits.c — a dump read as it arrives, in pieces, from a pipe (or a
 * socket, or any descriptor: the loop is the same), the way a log shipper
 * or a server module gets it: da_open_push and da_feed.  It prints each
 * generation's counts as it ends, then the ten most taken exits with
 * where their trace starts and where they resume, in the form of
 * dumpanalyze's summary.txt.
 *   cc -o push_exits push_exits.c $(pkg-config --cflags --libs dumpanalyze)
 *   luajit -jdump=+x,/dev/stdout app.lua | ./push_exits
 *   ./push_exits -b 1 < app.dump.gz          (one byte per read) */
#define _POSIX_C_SOURCE 200809L     /* read, getopt */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dumpanalyze.h>

/* A place as summary.txt writes it: FILE:LINE, line ends as spaces. */
static void put_place(const char *file, int32_t line)
{
	for (const char *p = file; *p; p++)
		putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
	if (line != DA_NO_LINE)
		printf(":%d", (int)line);
}

/* A generation's counts, printed when it ends (its records live until
 * gen_end returns; the counts are copied by printing them). */
static int on_gen_end(void *data, const struct da_gen *g)
{
	(void)data;
	const struct da_counts *n = &g->n;
	printf("  gen %-4u traces %6" PRIu64 " (root %" PRIu64 ", side %" PRIu64
	       ", stitched %" PRIu64 ", orphan %" PRIu64 ")  aborts %6" PRIu64 "  exits %7" PRIu64
	       "  bushes %5" PRIu64 "  incomplete %" PRIu64 "\n",
	       (unsigned)g->number, n->traces, n->root, n->side, n->stitched, n->orphans,
	       n->aborts, n->exits, n->bushes, n->incomplete);
	return 0;
}

int main(int argc, char **argv)
{
	size_t piece = 65536;
	int c;
	while ((c = getopt(argc, argv, "b:")) != -1) {
		if (c != 'b' || atol(optarg) <= 0) {
			fprintf(stderr, "usage: %s [-b BYTES_PER_READ] < DUMP\n", argv[0]);
			return 2;
		}
		piece = (size_t)atol(optarg);
	}
	char *buf = malloc(piece);
	if (!buf)
		return 1;
	/* DA_CALLBACK_ONLY: a stream may run for days, and nothing here keeps
	 * a record past its callback; DA_ANSWERS: the hottest exits at the end. */
	struct da_sink sink = DA_SINK(.gen_end = on_gen_end);
	struct da_options o = DA_OPTIONS(.flags = DA_ANSWERS | DA_CALLBACK_ONLY, .name = "<stdin>",
	                                 .sink = &sink);
	int err;
	da_dump *d = da_open_push(&o, &err);
	if (!d) {
		fprintf(stderr, "%s\n", da_strerror(err));
		return 1;
	}
	puts("per generation");
	/* Whatever each read returns goes in as it is; the end of the input
	 * is the last (empty) piece. */
	err = 0;
	while (err == 0) {
		ssize_t n = read(0, buf, piece);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("read");
			break;
		}
		err = da_feed(d, buf, (size_t)n, n == 0);
		if (n == 0)
			break;
	}
	if (err != 0) {
		fprintf(stderr, "<stdin>: %s\n", da_dump_error(d));
		da_close(d);
		free(buf);
		return 1;
	}
	puts("\nhottest exits");
	size_t n = da_hot_exits(d);
	for (size_t i = 0; i < n && i < 10; i++) {
		const struct da_exit_count *x = da_hot_exit(d, i);
		printf("  gen %-4u exit %6u/%-4u taken %9" PRIu64, (unsigned)x->gen, (unsigned)x->trace,
		       (unsigned)x->exit, x->count);
		if (x->side)
			printf("  side trace %u", (unsigned)x->side);
		if (x->trace_file) {
			fputs("  \u2192 ", stdout);
			put_place(x->trace_file, x->trace_line);
		}
		putchar('\n');
	}
	puts("\nwhere they resume");
	for (size_t i = 0; i < n && i < 10; i++) {
		const struct da_exit_count *x = da_hot_exit(d, i);
		if (!x->resume_file)
			continue;
		printf("  gen %u exit %u/%u resumes at ", (unsigned)x->gen, (unsigned)x->trace,
		       (unsigned)x->exit);
		put_place(x->resume_file, x->resume_line);
		putchar('\n');
	}
	da_close(d);                /* the answers and their strings die here */
	free(buf);
	return 0;
}
