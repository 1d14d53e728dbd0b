/* main.c — the tool's commands as a table, as git.c's: the process set
 * up (signals, out of memory, the output's file system), then the first
 * command the command line chooses is started (commands.h). */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/signals.h"
#include "outdir/fs.h"
#include "output/message.h"
#ifdef DA_TEST_FAULTS
#include "faults/fs_fault.h"
#endif
#include "util/alloc.h"

/* How a command line chooses a command. */
enum chosen_by {
	BY_WORD,                    /* argv[1] is its name */
	BY_OPTION,                  /* main's options gave the field at option */
	BY_DEFAULT,                 /* none before it was chosen */
};

/* What a command needs main to do before its start. */
enum {
	NEEDS_MAIN_OPTIONS = 1,     /* main's options read into the cmdline
	                               (record reads its own instead) */
};

struct command {
	const char *name;
	enum chosen_by chosen;
	size_t option;              /* BY_OPTION: the offset in struct cmdline
	                               of the option's value (a string) */
	int (*start)(struct cmdline *cl);   /* its usage, then cmd_NAME */
	unsigned needs;
};

/* The order is the precedence: `record` by its word; then of the modes
 * main's options choose, --recover DIR (which goes alone), --explain,
 * --compare; the run when none is given. */
static const struct command commands[] = {
	/* name     chosen by   the option's field                  start          needs */
	{ "record",  BY_WORD,    0,                                  record_start,  0 },
	{ "recover", BY_OPTION,  offsetof(struct cmdline, recover), recover_start, NEEDS_MAIN_OPTIONS },
	{ "explain", BY_OPTION,  offsetof(struct cmdline, explain), explain_start, NEEDS_MAIN_OPTIONS },
	{ "compare", BY_OPTION,  offsetof(struct cmdline, compare), compare_start, NEEDS_MAIN_OPTIONS },
	{ "run",     BY_DEFAULT, 0,                                  run_start,     NEEDS_MAIN_OPTIONS },
};

static int chooses(const struct command *c, const struct cmdline *cl)
{
	switch (c->chosen) {
	case BY_WORD: return cl->argc > 1 && strcmp(cl->argv[1], c->name) == 0;
	case BY_OPTION: return *(const char *const *)((const char *)cl + c->option) != NULL;
	case BY_DEFAULT: return 1;
	}
	return 0;
}

/* The command the command line chooses, started: its exit code.  Main's
 * options are read once, when the first command that needs them is
 * reached (so a word chooses its command before they are). */
static int start_command(struct cmdline *cl, int argc, char **argv)
{
	int parsed = 0;
	cl->argc = argc;
	cl->argv = argv;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *c = &commands[i];
		if ((c->needs & NEEDS_MAIN_OPTIONS) && !parsed) {
			int done = 0;
			int rc = cmdline_parse(cl, argc, argv, &done);
			if (rc != EXIT_OK || done)
				return rc;
			parsed = 1;
		}
		if (chooses(c, cl))
			return c->start(cl);
	}
	return EXIT_USAGE;          /* not reached: the run is chosen last */
}

int main(int argc, char **argv)
{
	struct cmdline cl = { 0 };
#ifdef DA_TEST_FAULTS
	/* Only in the tests' build/dumpanalyze-faults: the output's file
	 * system operations fail or kill as DA_FAULT says (tests/faults/). */
	cl.run.fs = fs_fault_from_env();
#else
	cl.run.fs = &fs_posix;
#endif
	/* Past a file size limit, let write() fail with EFBIG and report it,
	 * instead of dying with half-written files. */
	signal(SIGXFSZ, SIG_IGN);
	signals_catch();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	cl.run.jobs = cores > 1 ? (unsigned)(cores < MAX_JOBS ? cores : MAX_JOBS) : 1;
	/* Out of memory outside the library's own catches. */
	struct oom_catch oc;
	oom_push(&oc);
	if (setjmp(oc.env)) {
		msg_error("out of memory");
		return EXIT_IO;
	}
	int rc = start_command(&cl, argc, argv);
	oom_pop(&oc);
	cmdline_free(&cl);
	return rc;
}
