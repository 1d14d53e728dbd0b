/* fuzz_combined_gen.h — what fuzz_combined makes of one input: the dump
 * it carries, and, generated to match the places that dump names (its
 * chunk names and lines, its trace numbers), a -jp profile (lines, or
 * folded stacks), a Tarantool sysprof stream and the Lua files, so that
 * samples and stacks land in the dump's own chunks, names with '/'
 * included.  The input:
 *
 *   byte 0     what to run: bits 0-1 the profiles (0 -jp lines, 1 -jp=G
 *              folded stacks, 2 sysprof, 3 -jp=G and sysprof), bits 2-4
 *              the group of views beside the ones always run (see
 *              fuzz_combined.c), bits 5-7 the library's ways of reading
 *              (4 notes, 5 pushed through da_feed, 6 records only during
 *              their callback, 7 --strict; else plain)
 *   bytes 1-8  the recipe: byte 1 the -jp form (bits 0-1: lvr, lr, lv,
 *              vlr; bit 2 VM states in stacks, bit 3 a root frame "@0x1"),
 *              byte 2 how many stacks or sysprof samples, byte 3 the
 *              pictures (when its low 4 bits are all set), and all eight
 *              the seed of the choices below
 *   the rest   the dump
 *
 * Everything is a function of the input's bytes: a crasher replays. */
#ifndef DUMPANALYZE_FUZZ_COMBINED_GEN_H
#define DUMPANALYZE_FUZZ_COMBINED_GEN_H

#include <stddef.h>
#include <stdint.h>

#define GEN_HEAD 9                  /* byte 0 and the recipe */
#define GEN_PLACES 24               /* chunk:line places kept of a dump */
#define GEN_NAMES 12                /* chunk names kept */
#define GEN_TRACES 12               /* trace starts kept */

struct gen_name {
	const char *p;              /* into the dump's bytes */
	size_t n;
	int32_t first, last;        /* its lowest and highest line named */
};

struct gen_place {
	unsigned name;              /* index into names */
	int32_t line;
};

struct gen_trace {
	uint32_t no;
	unsigned name;
	int32_t line;
};

/* A growing byte buffer (kept between inputs: no allocation per input
 * once it is large enough). */
struct gen_buf {
	uint8_t *p;
	size_t n, cap;
};

struct gen {
	uint8_t what;               /* byte 0 */
	uint8_t recipe[8];
	const uint8_t *dump;
	size_t dump_len;
	struct gen_name names[GEN_NAMES];
	struct gen_place places[GEN_PLACES];
	struct gen_trace traces[GEN_TRACES];
	size_t nnames, nplaces, ntraces;
	uint64_t rng;
	struct gen_buf jp, sysprof, text;
};

/* Split the input and find the dump's places (no allocation). */
void gen_read(struct gen *g, const uint8_t *data, size_t size);
/* The -jp profile into g->jp: lines (stacks 0) or folded stacks. */
void gen_jp(struct gen *g, int stacks);
/* The sysprof stream into g->sysprof. */
void gen_sysprof(struct gen *g);
/* Whether name i may be written below a scratch directory: a relative
 * path of at most four plain components (no "..", ".", empty or hidden
 * one). */
int gen_name_writable(const struct gen *g, size_t i);
/* The text of a Lua file for name i into g->text (its lines up to past
 * the last one the dump names, at most 600 lines; 0, or -1 when the
 * dump names a line beyond). */
int gen_source(struct gen *g, size_t i);
void gen_free(struct gen *g);

#endif
