/* progress.c — the progress line on a terminal; see progress.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* The terminal's width, asked each time: the user may resize it. */
static size_t columns(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
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
	char line[256];
	progress_format(line, sizeof(line), da_bytes_read(d), pg->total, t - pg->start,
	                da_totals(d)->traces + da_current(d)->traces, da_generations(d) + 1);
	/* One column short of the width: a full line would wrap, and every
	 * update would scroll. */
	size_t width = columns(), n = strlen(line);
	if (n >= width)
		n = width > 1 ? width - 1 : 0;
	fprintf(stderr, "\r%.*s\033[K", (int)n, line);
	fflush(stderr);
}

void progress_format(char *buf, size_t size, uint64_t bytes, uint64_t total, double secs,
                     uint64_t traces, uint32_t gen)
{
	double mb = (double)bytes / 1e6, rate = secs > 0 ? mb / secs : 0.0;
	if (total && bytes <= total) {
		double left = rate > 0 ? ((double)(total - bytes) / 1e6) / rate : 0.0;
		snprintf(buf, size, "%.0f%% of %.0f MB, %.0f MB/s, %.0f s left, "
		             "%" PRIu64 " traces, generation %" PRIu32,
		             100.0 * (double)bytes / (double)total, (double)total / 1e6, rate,
		             left + 0.5, traces, gen);
	} else {
		snprintf(buf, size, "%.0f MB, %.0f MB/s, %" PRIu64 " traces, generation %" PRIu32,
		             mb, rate, traces, gen);
	}
}

void progress_end(struct progress *pg)
{
	if (pg->on && pg->last > pg->start)
		fputs("\r\033[K", stderr);     /* clear the line */
}
