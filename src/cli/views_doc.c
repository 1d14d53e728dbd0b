/* views_doc.c — the views as the command line lists them: --views list,
 * and README's view table (--help=readme, spliced by make docs). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "output/message.h"
#include "views/view.h"

void cli_list_views(void)
{
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		printf("%-18s %-26s %s%s\n", v->name, v->files, v->summary,
		       v->is_default ? "" : " (not default)");
	}
	/* after a blank line: the words a list may hold besides names */
	printf("\n%-18s %s\n", VIEWS_DEFAULT,
	       "in a list: the views above not marked (not default), and with --profile its views");
	printf("%-18s %s\n", VIEWS_ALL,
	       "in a list: every view above (profile and flamegraph only with --profile)");
}

/* README's table: a row per view, its files each in backquotes. */
int cli_readme_views(FILE *fp)
{
	fputs("<!-- BEGIN GENERATED views: made from src/views/*.c by make docs -->\n"
	      "| view | files | what is in it |\n|---|---|---|\n", fp);
	for (size_t i = 0; view_table[i]; i++) {
		const struct view *v = view_table[i];
		if (!v->readme) {
			msg_error("view %s has no README text", v->name);
			return -1;
		}
		fprintf(fp, "| `%s` | ", v->name);
		for (const char *f = v->files; *f;) {
			size_t n = strcspn(f, " ");
			fprintf(fp, "%s`%.*s`", f == v->files ? "" : ", ", (int)n, f);
			f += n + strspn(f + n, " ");
		}
		fprintf(fp, " | %s%s |\n", v->readme, v->is_default ? "" : " (not default)");
	}
	/* A blank line ends the table: GFM would take the marker as a row. */
	fputs("\n<!-- END GENERATED views -->\n", fp);
	return 0;
}
