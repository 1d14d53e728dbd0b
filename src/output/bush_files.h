/* bush_files.h — a generation's bush pictures written to their files, for
 * the bush-png and bush-svg views. */
#ifndef DUMPANALYZE_BUSH_FILES_H
#define DUMPANALYZE_BUSH_FILES_H

#include "model/model.h"
#include "output/picture.h"

struct outdir;
struct workers;

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

/* A generation's pictures go to a worker process only when they have at
 * least this many pixels (about 0.3 s of drawing); fewer are drawn here. */
#define BUSH_WORKER_MIN_PIXELS 32e6

/* "bush-ROOT.EXT", or "bush-ROOT.K.EXT" for the K-th bush (K >= 2) of the
 * generation whose root has that number: the stem of every bush's files
 * (gen-N-STEM), pictures and text alike. */
void bush_file_name(char *buf, size_t n, const struct da_bush *b, const char *ext);

/* Draw the generation's chosen bushes into out's gen-N-bush-ROOT[.K].png
 * or .svg, exits annotated from g->exits: in a worker of w when jobs > 1
 * and they are many (the files appear when the worker is done; wait with
 * workers_wait_all), else here.
 * Bushes of enough traces left out for their size are added to
 * *left_out. */
int bush_draw_generation(struct outdir *out, unsigned jobs, struct workers *w,
                         const struct da_gen *g, enum picture_format fmt, struct bush_choice choice,
                         unsigned long *left_out);

#endif
