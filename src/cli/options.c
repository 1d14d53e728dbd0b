/* options.c — the getopt table and what the pages of docs/ make of it at
 * build time (build/gen/cli_help.h, scripts/docgen.sh): getopt's short
 * options, --help, --views list.  The man page's OPTIONS, VIEWS and EXIT
 * STATUS sections come from the same pages (make docs). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "views/view.h"
#include "cli_help.h"

/* The getopt table: what exists, in --help order.  What is said about
 * each option is its page, docs/options/NAME.md (tests/cli/docs.sh checks
 * that every entry has one and every page an entry). */
const struct option cli_options[] = {
	{ "dump", required_argument, NULL, 'd' },
	{ "out-dir", required_argument, NULL, 'o' },
	{ "wait", no_argument, NULL, OPT_WAIT },
	{ "recover", required_argument, NULL, OPT_RECOVER },
	{ "profile", required_argument, NULL, 'p' },
	{ "repeats", no_argument, NULL, OPT_REPEATS },
	{ "run-set", required_argument, NULL, OPT_RUN_SET },
	{ "views", required_argument, NULL, 'V' },
	{ "source-root", required_argument, NULL, OPT_SOURCE_ROOT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "annotate", required_argument, NULL, OPT_ANNOTATE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "write-baseline", required_argument, NULL, OPT_WRITE_BASELINE },
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "luajit-vmdef", required_argument, NULL, OPT_VMDEF },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
};
const size_t cli_noptions = sizeof(cli_options) / sizeof(cli_options[0]);

int cli_short_options(char *buf, size_t len)
{
	/* ':' first, so that a missing argument is told apart from an
	 * unknown option. */
	size_t k = 0;
	if (len < 2)
		return -1;
	buf[k++] = ':';
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option *o = &cli_options[i];
		if (o->val >= 256)
			continue;
		int arg = o->has_arg == required_argument;
		if (k + 2 + (size_t)arg > len)
			return -1;
		buf[k++] = (char)o->val;
		if (arg)
			buf[k++] = ':';
	}
	buf[k] = '\0';
	return 0;
}

void cli_usage(FILE *fp)
{
	fputs(cli_help_usage, fp);
	fputs(cli_help_options, fp);
	fputc('\n', fp);
	fputs(cli_help_exits, fp);
	fputs("See dumpanalyze(1).\n", fp);
}

/* A view's line of --views list: its page's summary. */
static const char *view_summary(const char *name)
{
	for (size_t i = 0; i < sizeof(cli_view_summaries) / sizeof(cli_view_summaries[0]); i++)
		if (strcmp(cli_view_summaries[i].name, name) == 0)
			return cli_view_summaries[i].summary;
	return "";     /* no page: docgen.sh fails the build first */
}

void cli_list_views(void)
{
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		printf("%-18s %-26s %s%s\n", v->name, v->files, view_summary(v->name),
		       v->is_default ? "" : " (not default)");
	}
	/* after a blank line: the words a list may hold besides names */
	printf("\n%-18s %s\n", VIEWS_DEFAULT,
	       "in a list: the views above not marked (not default), and with --profile its views");
	printf("%-18s %s\n", VIEWS_ALL,
	       "in a list: every view above (profile and flamegraph only with --profile)");
}
