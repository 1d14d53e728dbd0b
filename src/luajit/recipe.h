/* recipe.h — the one recipe: the -jdump flags and the -jp mode the
 * analysis needs, which record switches on and every message, --help, the
 * man page and README name (tests/cli/record.sh checks they agree).
 *
 * -jdump=+x: the default sections and the exits taken (the exits view,
 * hot exits).  -jp=Gvli1: folded stacks (G: every sample, no 3% cut; the
 * callers' time and the flame graph), split by VM state (v: the
 * interpreted share), by source line (l: joined with the dump's lines),
 * one sample per millisecond (i1: ten times the default, so a run of a
 * few seconds gives thousands of samples). */
#ifndef DUMPANALYZE_RECIPE_H
#define DUMPANALYZE_RECIPE_H

#define RECIPE_DUMP_FLAGS "+x"
#define RECIPE_PROF_MODE "Gvli1"
#define RECIPE_JDUMP "-jdump=" RECIPE_DUMP_FLAGS
#define RECIPE_JP "-jp=" RECIPE_PROF_MODE

#endif
