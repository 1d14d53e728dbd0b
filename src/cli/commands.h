/* commands.h — the tool's commands, as git's builtin/: each an entry
 * point cmd_NAME taking its own options, and a start NAME_start that
 * checks what main's command line gave it (the usage errors, in their
 * order) and fills those options.  main.c's table says which command a
 * command line chooses. */
#ifndef DUMPANALYZE_COMMANDS_H
#define DUMPANALYZE_COMMANDS_H

#include <stdio.h>
#include "compare/compare.h"

struct cmdline;
struct fs;
struct run;

/* cmd_run.c: the analysis of one dump, several, or a run set (--repeats,
 * --run-set DIR); its options are struct run (cli.h), the dumps all in
 * run->dumps.  The exit code. */
int run_start(struct cmdline *cl);
int cmd_run(struct run *run);

/* cmd_compare.c: --compare OLD NEW. */
struct compare_cmd_opts {
	const char *old_dir, *new_dir;
	struct compare_opts compare;    /* --fail-on, --json, --baseline ... */
};
int compare_start(struct cmdline *cl);
int cmd_compare(const struct compare_cmd_opts *o);

/* cmd_recover.c: --recover DIR, an interrupted run's output directory
 * put back in order. */
struct recover_opts {
	const char *dir;
	const struct fs *fs;        /* the output's file system operations */
	int wait;                   /* --wait: for the run that holds DIR */
	int quiet;
};
int recover_start(struct cmdline *cl);
int cmd_recover(const struct recover_opts *o);

/* cmd_explain.c: --explain QUERY (with --luajit-vmdef FILE) to out; the
 * closest entries for an unknown one. */
struct explain_opts {
	const char *query;
	const char *vmdef;          /* --luajit-vmdef FILE, or NULL */
	FILE *out;
};
int explain_start(struct cmdline *cl);
int cmd_explain(const struct explain_opts *o);

/* cmd_record.c: `record [options] -- COMMAND`, which reads its own
 * options (record.c). */
struct record_cmd_opts {
	int argc;
	char **argv;                /* argv[0] is "record" */
	const struct fs *fs;
};
int record_start(struct cmdline *cl);
int cmd_record(const struct record_cmd_opts *o);

#endif
