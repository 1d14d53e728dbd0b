/* compiler.h — hints to the compiler, empty where it does not know them. */
#ifndef DUMPANALYZE_COMPILER_H
#define DUMPANALYZE_COMPILER_H

#if defined(__GNUC__)
/* A rare path kept out of a hot loop, which it would slow once inlined. */
#define DA_NOINLINE __attribute__((noinline))
/* printf-style arguments, checked. */
#define DA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DA_NOINLINE
#define DA_PRINTF(a, b)
#endif

#endif
