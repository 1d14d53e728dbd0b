/* cli.h — what the files of the command line share: the run's settings,
 * the exit codes, the option table. */
#ifndef DUMPANALYZE_CLI_H
#define DUMPANALYZE_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

struct fs;
struct rundir_input;
struct rundir_result;

enum exit_code { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_IO = 2, EXIT_REJECTED = 3 };
#define MAX_JOBS 64

/* What a run of dumps needs: run's options (commands.h), which compare,
 * recover and record read too where they share them.  What only the
 * other commands take is in struct cmdline (cmdline.h). */
struct run {
	const char **dumps;
	size_t ndumps;
	const char **profiles;      /* none, or one per dump */
	size_t nprofiles;
	const char **source_roots;  /* --source-root, in order */
	size_t nsource_roots;
	const char *out_dir, *views;
	const char *vmdef;          /* --luajit-vmdef */
	const char *baseline;       /* --baseline FILE */
	const char *write_baseline; /* --write-baseline FILE */
	int quiet, verbose, strict;
	int wait;                   /* --wait: for another run into OUT */
	int format_gcc;             /* --format=gcc: a line per finding on stdout */
	int annotate_github;        /* --annotate github */
	unsigned jobs;
	int quiet_stdout;           /* a worker of several dumps: no summary */
	int repeats;                /* --repeats: the dumps are one workload's runs */
	const char *run_set;        /* --run-set DIR */
	const struct fs *fs;        /* the output's file system operations */
};

/* options.c: the getopt table (what each option is: docs/options/NAME.md). */
enum { OPT_STRICT = 256, OPT_VERSION, OPT_COMPARE, OPT_FAIL_ON, OPT_JSON,
       OPT_EXPLAIN, OPT_VMDEF, OPT_SOURCE_ROOT, OPT_ALLOW_EMPTY, OPT_WAIT, OPT_RECOVER,
       OPT_BASELINE, OPT_WRITE_BASELINE, OPT_FORMAT, OPT_ANNOTATE,
       OPT_REPEATS, OPT_RUN_SET };
extern const struct option cli_options[];
extern const size_t cli_noptions;
/* getopt's short options, made from the table: 0, or -1 when len (at
 * least 2 * cli_noptions + 2 is enough) is too small. */
int cli_short_options(char *buf, size_t len);
/* --help: the usage, options and exit codes as the pages of docs/ say. */
void cli_usage(FILE *fp);
/* --views list: the views with their pages' summaries. */
void cli_list_views(void);

/* run.c: one dump (and its profiles: none, one, or a -jp and a sysprof
 * one) into one directory; the exit code.  nested_as not NULL: out_dir is
 * a dump's directory inside the staging directory of several dumps' run
 * (many.c), which commits it to nested_as, the name messages give it. */
int run_one(const struct run *run, const char *dump, const char *const *profiles,
            size_t nprofiles, const char *out_dir, const char *nested_as);
/* The files among dumps and profiles (n of each, profiles may be NULL)
 * that a run must never write over, into in (2n entries at most): how
 * many. */
size_t run_inputs(const char *const *dumps, const char *const *profiles, size_t n,
                  struct rundir_input *in);
/* The one line for views the previous run in OUT rendered and this one
 * did not (their files are gone). */
void run_say_dropped(const struct run *run, const char *out, const struct rundir_result *res);
/* Copy DIR/NAME to stdout, if the run wrote it. */
void print_file(const char *dir, const char *name);

/* findings_out.c: what --format=gcc and --annotate print of a run's
 * findings on standard output (the lines of problems.txt; GitHub's
 * workflow commands): 0, or -1 after a message. */
struct da_dump;
int run_print_findings(const struct run *run, const struct da_dump *d);

/* rules.c: --explain of a rule's id or name ("DA203", "closure-in-loop")
 * or "list" (the table of every rule, which make docs also turns into
 * the man page's) to fp: 0, or -1 when none is called so. */
int explain_rule_command(const char *query, FILE *fp);
/* cmd_explain.c: read a --luajit-vmdef file (a run checks it too): 0,
 * or negative after a message. */
struct vmdef;
int cli_read_vmdef(const char *path, struct vmdef *v);

/* many.c: several dumps, each in a worker process; the worst exit code. */
int run_many(struct run *run);

#endif
