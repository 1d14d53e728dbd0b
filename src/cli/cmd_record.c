/* cmd_record.c — `dumpanalyze record`: chosen by its word, before main's
 * options are read, since it has options of its own (record.c reads
 * them and does the work). */
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/record.h"

int record_start(struct cmdline *cl)
{
	struct record_cmd_opts o = { cl->argc - 1, cl->argv + 1, cl->run.fs };
	return cmd_record(&o);
}

int cmd_record(const struct record_cmd_opts *o)
{
	return record_main(o->argc, o->argv, o->fs);
}
