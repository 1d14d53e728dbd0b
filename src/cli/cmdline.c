/* cmdline.c — main's options into a struct cmdline, by the getopt table
 * of options.c: each option's value checked as it comes (--jobs,
 * --format, --annotate, --source-root); which command they add up to is
 * main.c's table's to say. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "cli/cmdline.h"
#include "dumpanalyze.h"
#include "output/message.h"
#include "util/alloc.h"

int cmdline_parse(struct cmdline *cl, int argc, char **argv, int *done)
{
	struct run *run = &cl->run;
	struct option longopts[cli_noptions + 1];
	for (size_t i = 0; i < cli_noptions; i++)
		longopts[i] = cli_options[i];
	memset(&longopts[cli_noptions], 0, sizeof(longopts[0]));
	char shorts[2 * cli_noptions + 2];     /* enough for any table */
	cli_short_options(shorts, sizeof(shorts));
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			run->dumps = xrealloc(run->dumps, (run->ndumps + 1) * sizeof(*run->dumps));
			run->dumps[run->ndumps++] = optarg;
			break;
		case 'o': run->out_dir = optarg; break;
		case 'p':
			run->profiles = xrealloc(run->profiles,
			                         (run->nprofiles + 1) * sizeof(*run->profiles));
			run->profiles[run->nprofiles++] = optarg;
			break;
		case 'V': run->views = optarg; break;
		case 'j': {
			char *end;
			long j = strtol(optarg, &end, 10);
			if (*end || j < 1 || j > MAX_JOBS) {
				msg_error("--jobs wants a number from 1 to %d, not '%s'", MAX_JOBS, optarg);
				return EXIT_USAGE;
			}
			run->jobs = (unsigned)j;
			break;
		}
		case 'q': run->quiet = 1; break;
		case 'v': run->verbose = 1; break;
		case OPT_STRICT: run->strict = 1; break;
		case OPT_COMPARE: cl->compare = optarg; break;
		case OPT_FAIL_ON: cl->fail_on = optarg; break;
		case OPT_JSON: cl->json = 1; break;
		case OPT_ALLOW_EMPTY: cl->allow_empty = 1; break;
		case OPT_EXPLAIN: cl->explain = optarg; break;
		case OPT_BASELINE: run->baseline = optarg; break;
		case OPT_WRITE_BASELINE: run->write_baseline = optarg; break;
		case OPT_VMDEF: run->vmdef = optarg; break;
		case OPT_WAIT: run->wait = 1; break;
		case OPT_RECOVER: cl->recover = optarg; break;
		case OPT_REPEATS: run->repeats = 1; break;
		case OPT_RUN_SET: run->run_set = optarg; break;
		case OPT_FORMAT:
			if (strcmp(optarg, "gcc") == 0) {
				run->format_gcc = 1;
			} else if (strcmp(optarg, "summary") == 0) {
				run->format_gcc = 0;
			} else {
				msg_error("--format wants summary or gcc, not '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_ANNOTATE:
			if (strcmp(optarg, "github") != 0) {
				msg_error("--annotate wants github, not '%s'", optarg);
				return EXIT_USAGE;
			}
			run->annotate_github = 1;
			break;
		case OPT_SOURCE_ROOT: {
			struct stat st;
			if (stat(optarg, &st) < 0 || !S_ISDIR(st.st_mode)) {
				msg_error("--source-root wants a directory, not '%s'", optarg);
				return EXIT_USAGE;
			}
			run->source_roots = xrealloc(run->source_roots,
			                             (run->nsource_roots + 1) * sizeof(*run->source_roots));
			run->source_roots[run->nsource_roots++] = optarg;
			break;
		}
		case 'h':
			*done = 1;
			cli_usage(stdout);
			return EXIT_OK;
		case OPT_VERSION: puts("dumpanalyze " DA_VERSION_STRING); *done = 1; return EXIT_OK;
		case ':':
			msg_error("option '%s' needs an argument (try --help)", argv[optind - 1]);
			return EXIT_USAGE;
		default: {
			/* A known long option given an argument it does not take
			 * (--help=man) is not an unknown one. */
			const char *arg = argv[optind - 1];
			const char *eq = strchr(arg, '=');
			if (optopt && eq && strncmp(arg, "--", 2) == 0)
				msg_error("option '%.*s' takes no argument (try --help)", (int)(eq - arg), arg);
			else if (optopt)
				msg_error("unknown option '-%c' (try --help)", optopt);
			else
				msg_error("unknown option '%s' (try --help)", arg);
			return EXIT_USAGE;
		}
		}
	}
	cl->operands = argv + optind;
	cl->noperands = argc - optind;
	return EXIT_OK;
}

void cmdline_free(struct cmdline *cl)
{
	free(cl->run.dumps);
	free(cl->run.profiles);
	free(cl->run.source_roots);
}
