/* options_docs.c — the man page's OPTIONS, VIEWS, EXIT STATUS and RECORD
 * options, made from the tables (--help=man; README's view table,
 * --help=readme, is views_doc.c's; scripts/gen-docs.sh puts them in
 * place, make docs). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/record.h"
#include "output/message.h"
#include "views/view.h"

/* A name in troff: its hyphens are minus signs, as options are set. */
static void put_troff_name(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputc('\\', fp);
		fputc(*s, fp);
	}
}

/* A paragraph of troff, ended by a newline whether or not it has one. */
static void put_lines(FILE *fp, const char *text)
{
	size_t n = strlen(text);
	fputs(text, fp);
	if (n == 0 || text[n - 1] != '\n')
		fputc('\n', fp);
}

/* The marker lines gen-docs.sh replaces the text between; the name says
 * which block, the rest where it comes from. */
#define MAN_BEGIN(name, from) ".\\\" BEGIN GENERATED " name ": made from " from " by make docs\n"
#define MAN_END(name) ".\\\" END GENERATED " name "\n"

static int man_options(FILE *fp)
{
	fputs(MAN_BEGIN("options", "src/cli/options.c"), fp);
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option_doc *o = &cli_options[i];
		if (!o->man) {
			msg_error("option --%s has no man page text", o->opt.name);
			return -1;
		}
		/* -d, --dump FILE: the forms the page used when written by hand. */
		if (o->opt.val < 256) {
			fprintf(fp, ".TP\n.BR \\-%c \", \" \\-\\-", o->opt.val);
			put_troff_name(fp, o->opt.name);
			if (o->arg)
				fprintf(fp, " \" \\fI%s\\fR\"", o->arg);
		} else {
			fputs(o->arg ? ".TP\n.BI \\-\\-" : ".TP\n.B \\-\\-", fp);
			put_troff_name(fp, o->opt.name);
			if (o->arg)
				fprintf(fp, " \" %s\"", o->arg);
		}
		fputc('\n', fp);
		put_lines(fp, o->man);
	}
	fputs(MAN_END("options"), fp);
	return 0;
}

static int man_views(FILE *fp)
{
	fputs(MAN_BEGIN("views", "src/views/*.c"), fp);
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		if (!v->man) {
			msg_error("view %s has no man page text", v->name);
			return -1;
		}
		fputs(".TP\n.B ", fp);
		put_troff_name(fp, v->name);
		fputc('\n', fp);
		put_lines(fp, v->man);
		if (!v->is_default)
			fputs("Not part of the default views.\n", fp);
	}
	fputs(MAN_END("views"), fp);
	return 0;
}

static void man_exit_codes(FILE *fp)
{
	fputs(MAN_BEGIN("exit-status", "src/cli/options.c"), fp);
	for (size_t i = 0; i < cli_nexit_codes; i++)
		fprintf(fp, ".TP\n.B %d\n%s\n", cli_exit_codes[i].code, cli_exit_codes[i].text);
	fputs(MAN_END("exit-status"), fp);
}

int cli_help_doc(FILE *fp, const char *format)
{
	if (strcmp(format, "man") == 0) {
		if (man_options(fp) < 0 || man_views(fp) < 0)
			return -1;
		man_exit_codes(fp);
		record_man_options(fp);
		man_rules(fp);
		return 0;
	}
	if (strcmp(format, "readme") == 0)
		return cli_readme_views(fp);
	msg_error("unknown --help format '%s' (man or readme)", format);
	return -1;
}
