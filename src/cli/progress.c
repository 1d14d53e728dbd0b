/* progress.c — the progress line on a terminal; see progress.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/progress.h"

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void progress_start(struct progress *pg, const char *path, int quiet)
{
	memset(pg, 0, sizeof(*pg));
	pg->on = !quiet && isatty(STDERR_FILENO);
	struct stat st;
	int ok = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
	if (pg->on && ok == 0 && S_ISREG(st.st_mode))
		pg->total = (uint64_t)st.st_size;
	pg->start = pg->last = now_seconds();
}

void progress_show(struct progress *pg, const da_dump *d)
{
	if (!pg->on || da_lines_read(d) - pg->shown < 0x10000)
		return;
	pg->shown = da_lines_read(d);
	double t = now_seconds();
	if (t - pg->last < 0.25)
		return;
	pg->last = t;
	uint64_t bytes = da_bytes_read(d);
	double mb = (double)bytes / 1e6;
	fprintf(stderr, "\r%.0f MB", mb);
	if (pg->total)
		fprintf(stderr, " of %.0f MB (%.0f%%)", (double)pg->total / 1e6,
		        100.0 * (double)bytes / (double)pg->total);
	fprintf(stderr, ", %.0f MB/s, %" PRIu64 " traces, generation %u   ",
	        t > pg->start ? mb / (t - pg->start) : 0.0,
	        da_totals(d)->traces + da_current(d)->traces, da_generations(d) + 1);
	fflush(stderr);
}

void progress_end(struct progress *pg)
{
	if (pg->on && pg->last > pg->start)
		fputs("\r\033[K", stderr);     /* clear the line */
}
