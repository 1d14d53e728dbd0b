/* cmd_recover.c — --recover DIR: an output directory that an interrupted
 * run left half changed put back in order (output/rundir.c), alone on
 * its command line but for --wait and --quiet. */
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/signals.h"
#include "output/message.h"
#include "outdir/rundir.h"

int recover_start(struct cmdline *cl)
{
	const struct run *run = &cl->run;
	if (run->ndumps || run->out_dir || run->views || run->nprofiles || cl->compare ||
	    cl->explain || cl->noperands > 0) {
		msg_error("--recover DIR goes alone (with --wait or --quiet)");
		return EXIT_USAGE;
	}
	struct recover_opts o = { cl->recover, run->fs, run->wait, run->quiet };
	return cmd_recover(&o);
}

int cmd_recover(const struct recover_opts *o)
{
	struct rundir_options ro = { o->fs, o->wait, o->quiet, NULL, 0 };
	int r = rundir_recover(&ro, o->dir);
	if (r == RUNDIR_INTERRUPTED) {
		int sig = signals_caught();
		msg_error("%s: interrupted (%s) while waiting for it", o->dir, signals_name(sig));
		signals_die(sig);
	}
	return r < 0 ? EXIT_IO : EXIT_OK;
}
