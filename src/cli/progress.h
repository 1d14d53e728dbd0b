/* progress.h — the progress line on a terminal while a dump is read. */
#ifndef DUMPANALYZE_PROGRESS_H
#define DUMPANALYZE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include "dumpanalyze.h"

struct progress {
	int on;
	uint64_t total;             /* file size, 0 when unknown (a pipe) */
	uint64_t shown;             /* lines when last looked at */
	double start, last;
};

/* On only when stderr is a terminal and the user did not ask for quiet;
 * path "-" is standard input. */
void progress_start(struct progress *pg, const char *path, int quiet);
/* Redrawn at most four times a second. */
void progress_show(struct progress *pg, const da_dump *d);
/* The line's text: percent, size, rate and time left when the size is
 * known (total > 0), else MB read and rate; then traces and generation. */
void progress_format(char *buf, size_t size, uint64_t bytes, uint64_t total, double secs,
                     uint64_t traces, uint32_t gen);
/* Clears the line. */
void progress_end(struct progress *pg);

#endif
