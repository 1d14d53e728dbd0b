/* cmdline.h — main's options as getopt_long gives them, before a command
 * is chosen: a run's settings, and the options that choose the other
 * commands and that only they read.  Each command's start (commands.h)
 * checks what it was given and fills its own options from it. */
#ifndef DUMPANALYZE_CMDLINE_H
#define DUMPANALYZE_CMDLINE_H

#include "cli/cli.h"

struct cmdline {
	struct run run;             /* a run's settings; the other commands
	                               read the ones they share (--quiet,
	                               --baseline, --source-root ...) */
	const char *compare;        /* --compare OLD: chooses compare */
	const char *fail_on;        /* --fail-on RULES */
	int json;                   /* --json */
	int allow_empty;            /* --allow-empty */
	const char *explain;        /* --explain QUERY: chooses explain */
	const char *recover;        /* --recover DIR: chooses recover */
	int argc;                   /* the whole command line, for a command */
	char **argv;                /* with options of its own (record) */
	char **operands;            /* what follows the options (getopt
	                               moved them to the end) */
	int noperands;
};

/* cmdline.c: argv's options into cl, and the operands after them: 0, or
 * the exit code to leave with; *done after --help or --version, which
 * have said all. */
int cmdline_parse(struct cmdline *cl, int argc, char **argv, int *done);
/* The arrays the options made. */
void cmdline_free(struct cmdline *cl);

#endif
