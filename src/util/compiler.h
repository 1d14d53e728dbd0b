/* compiler.h — hints to the compiler, empty where it does not know them. */
#ifndef DUMPANALYZE_COMPILER_H
#define DUMPANALYZE_COMPILER_H

/* A rare path kept out of a hot loop, which it would slow once inlined. */
#if defined(__GNUC__)
#define DA_NOINLINE __attribute__((noinline))
#else
#define DA_NOINLINE
/* printf-style arguments, checked. */
#if defined(__GNUC__)
#define DA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DA_PRINTF(a, b)
#endif

#endif

/* printf-style arguments, checked. */
#if defined(__GNUC__)
#define DA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DA_PRINTF(a, b)
#endif

#endif
