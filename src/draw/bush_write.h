/* bush_write.h — one built bush picture drawn into its file, by the run
 * or by a picture worker. */
#ifndef DUMPANALYZE_BUSH_WRITE_H
#define DUMPANALYZE_BUSH_WRITE_H

#include "draw/bush_blocks.h"
#include "draw/picture.h"

struct outdir;

/* Picture p into out's file name.  0, or -1 (said on stderr). */
int bush_file_write(struct outdir *out, const struct bush_picture *p, enum picture_format fmt,
                    const char *name);

#endif
