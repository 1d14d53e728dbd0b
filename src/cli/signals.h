/* signals.h — SIGINT, SIGTERM, SIGHUP and SIGPIPE end a run cleanly: the
 * handler only notes the signal and interrupts the dump being read; the
 * run then discards what it staged, says so in one line and dies of the
 * same signal, so the caller sees the conventional status. */
#ifndef DUMPANALYZE_SIGNALS_H
#define DUMPANALYZE_SIGNALS_H

#include "dumpanalyze.h"

/* Catch the four signals (once, at start). */
void signals_catch(void);
/* The dump the handler interrupts (NULL: none); set while reading. */
void signals_watch(da_dump *d);
/* The signal caught so far, or 0. */
int signals_caught(void);
/* "SIGINT", ... for a message. */
const char *signals_name(int sig);
/* What signals_die does first (NULL: nothing): record puts the previous
 * run set back when the analysis is interrupted. */
void signals_before_death(void (*fn)(void));
/* After the clean-up: the default action of the caught signal. */
void signals_die(int sig);
/* Around a commit: the signals wait (pending) until signals_release, so
 * that the commit is done whole and the signal honoured right after. */
void signals_hold(void);
void signals_release(void);
/* In a forked child: the default actions, so that it dies at once. */
void signals_default(void);

#endif
