/* bush_files.h — a generation's bush pictures written to their files, for
 * the bush-png and bush-svg views. */
#ifndef DUMPANALYZE_BUSH_FILES_H
#define DUMPANALYZE_BUSH_FILES_H

#include "model/model.h"
#include "output/picture.h"

struct view_ctx;
struct workers;
/* Draw the bushes of the generation that have at least min_traces traces
 * (1: every bush) into gen-N-bush-ROOT[.K].png/.svg, exits annotated from
 * g->exits: in a worker when c->jobs > 1 (the files appear when the worker
 * is done; wait with workers_wait_all), else here. */
int bush_draw_generation(struct view_ctx *c, struct workers *w, const struct da_gen *g,
                         enum picture_format fmt, uint32_t min_traces);

#endif
