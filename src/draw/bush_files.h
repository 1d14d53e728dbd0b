/* bush_files.h — a generation's bush pictures written to their files, for
 * the bush-png and bush-svg views. */
#ifndef DUMPANALYZE_BUSH_FILES_H
#define DUMPANALYZE_BUSH_FILES_H

#include "model/model.h"
#include "draw/bush_blocks.h"
#include "draw/picture.h"

struct outdir;
struct bush_queue;

/* Which bushes get a picture: those of at least min_traces traces (1:
 * every bush) whose picture at full scale fits max_side pixels either way
 * (0: any size, scaled down to the canvas when larger). */
struct bush_choice {
	uint32_t min_traces;
	double max_side;
};

/* The default run's pictures: bushes with side traces, readable at full
 * scale on one screen (larger ones would be scaled below legibility; the
 * report draws them zoomable, and bush-png named draws them all). */
#define BUSH_DEFAULT_MAX_SIDE 1024.0

/* "bush-ROOT.EXT", or "bush-ROOT.K.EXT" for the K-th bush (K >= 2) of the
 * generation whose root has that number: the stem of every bush's files
 * (gen-N-STEM), pictures and text alike. */
void bush_file_name(char *buf, size_t n, const struct da_bush *b, const char *ext);

/* Draw the generation's chosen bushes into out's gen-N-bush-ROOT[.K].png
 * or .svg, exits annotated from g->exits: through the queue q to its
 * workers when jobs > 1 (the files appear when they are done:
 * bush_queue_finish), else here.  Bushes of enough traces left out for
 * their size are added to *left_out. */
int bush_draw_generation(struct outdir *out, unsigned jobs, struct bush_queue *q,
                         const struct da_gen *g, enum picture_format fmt, struct bush_choice choice,
                         unsigned long *left_out);
#endif
