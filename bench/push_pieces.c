/* push_pieces.c DUMP BYTES — the dump read into memory, then pushed to
 * da_feed in pieces of BYTES (0: read with da_open_memory instead), for
 * bench/push.sh; prints the traces and lines it read. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include "dumpanalyze.h"

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	FILE *fp = fopen(argv[1], "rb");
	if (!fp || fseek(fp, 0, SEEK_END) != 0)
		return 1;
	long len = ftell(fp);
	char *buf = malloc((size_t)len);
	rewind(fp);
	if (!buf || fread(buf, 1, (size_t)len, fp) != (size_t)len)
		return 1;
	fclose(fp);
	size_t piece = (size_t)atol(argv[2]);
	struct da_options o = DA_OPTIONS(.flags = DA_CALLBACK_ONLY);
	da_dump *d = piece ? da_open_push(&o, NULL) : da_open_memory(buf, (size_t)len, &o, NULL);
	int r = 0;
	if (!piece)
		r = da_read(d);
	for (size_t at = 0; piece && r == 0 && at < (size_t)len; at += piece)
		r = da_feed(d, buf + at, (size_t)len - at < piece ? (size_t)len - at : piece, 0);
	if (piece && r == 0)
		r = da_feed(d, NULL, 0, 1);
	printf("%d %llu traces %llu lines\n", r, (unsigned long long)da_totals(d)->traces,
	       (unsigned long long)da_lines_read(d));
	da_close(d);
	free(buf);
	return r != 0;
}
