/* message.h — the tool's one-line messages on stderr. */
#ifndef DUMPANALYZE_MESSAGE_H
#define DUMPANALYZE_MESSAGE_H

#include "util/diag.h"

/* "dumpanalyze: ..." on stderr, as one line even from the writing thread. */
void msg_error(const char *fmt, ...) DA_PRINTF(1, 2);

#endif
