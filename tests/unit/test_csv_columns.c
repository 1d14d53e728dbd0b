/* test_csv_columns.c — each CSV's columns are one table: the header line
 * a view writes (made from its *_columns.def by csv_header.h) is read back
 * by the comparison's reader (compare/csvin.c, by the same tables through
 * csvin_files.def) with every column known and every needed one there;
 * a column only read (CSVREAD) is not written; each view's page names
 * the header its table writes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "compare/csvin.h"
#include "views/view.h"

/* Every table as its header line, by the reader's kind. */
static const struct { enum csvin_kind kind; const char *header; } tables[] = {
	{ CSVIN_TRACES,
#include "views/columns/csv_header.h"
#include "views/columns/traces_columns.def"
	},
	{ CSVIN_REASONS,
#include "views/columns/csv_header.h"
#include "views/columns/abort_reasons_columns.def"
	},
	{ CSVIN_SITES,
#include "views/columns/csv_header.h"
#include "views/columns/abort_sites_columns.def"
	},
	{ CSVIN_EXITS,
#include "views/columns/csv_header.h"
#include "views/columns/exits_columns.def"
	},
	{ CSVIN_PROFILE,
#include "views/columns/csv_header.h"
#include "views/columns/profile_lines_columns.def"
	},
	{ CSVIN_FINDINGS,
#include "views/columns/csv_header.h"
#include "views/columns/findings_columns.def"
	},
	{ CSVIN_SPSTATES,
#include "views/columns/csv_header.h"
#include "views/columns/profile_states_columns.def"
	},
	{ CSVIN_SPBUSHES,
#include "views/columns/csv_header.h"
#include "views/columns/profile_bushes_columns.def"
	},
	{ CSVIN_FILES,
#include "views/columns/csv_header.h"
#include "views/columns/files_columns.def"
	},
	{ CSVIN_RSRUNS,
#include "views/columns/csv_header.h"
#include "compare/runs_columns.def"
	},
	{ CSVIN_RSFIND,
#include "views/columns/csv_header.h"
#include "compare/runset_findings_columns.def"
	},
	{ CSVIN_RSPER,
#include "views/columns/csv_header.h"
#include "compare/findings_runs_columns.def"
	},
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* Each column the reader knows, by kind, and whether it is needed or
 * only read (never written). */
static const struct { enum csvin_kind kind; enum csvin_col col; const char *name; int need, read_only; }
columns[] = {
#undef CSVFIRST
#undef CSVCOL
#undef CSVREAD
#define CSVFILE(kind, name)
#define CSVCOL(kind, name, type, need) { CSVIN_##kind, CSVIN_##kind##_##name, #name, need, 0 },
#define CSVREAD(kind, name, type, need) { CSVIN_##kind, CSVIN_##kind##_##name, #name, need, 1 },
#include "compare/csvin_files.def"
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static char dir[] = "/tmp/test_csv_columns.XXXXXX";
static struct runfile_dir d;

static int setup(void **st)
{
	(void)st;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(runfile_dir_open(&d, NULL, dir), 0);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	runfile_dir_free(&d);
	return 0;
}

struct seen {
	enum csvin_kind kind;
	int headers;
	size_t has, lacks;          /* the kind's columns the file has, lacks */
};

static int on_header(void *ctx, const struct csvin *c)
{
	struct seen *s = ctx;
	s->headers++;
	for (size_t i = 0; i < NCOLUMNS; i++) {
		if (columns[i].kind != s->kind)
			continue;
		int has = csvin_has(c, columns[i].col);
		/* written: every column but those only read */
		assert_int_equal(has, !columns[i].read_only);
		if (has)
			s->has++;
		else
			s->lacks++;
	}
	return 0;
}

static void test_tables_read_back(void **st)
{
	(void)st;
	assert_int_equal(NTABLES, CSVIN_NKINDS);
	assert_int_equal(NCOLUMNS, CSVIN_NCOLS);
	unsigned kinds = 0;
	size_t has = 0, lacks = 0;
	for (size_t i = 0; i < NTABLES; i++) {
		assert_int_equal(tables[i].kind, i);    /* in the reader's order */
		kinds |= 1u << tables[i].kind;
		char name[64], path[512];
		snprintf(name, sizeof(name), "t%zu.csv", i);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		FILE *fp = fopen(path, "w");
		assert_non_null(fp);
		fprintf(fp, "%s\r\n", tables[i].header);
		assert_int_equal(fclose(fp), 0);
		struct seen s = { tables[i].kind, 0, 0, 0 };
		struct csvin_reader rd = { on_header, NULL, &s };
		assert_int_equal(csvin_read(&d, name, tables[i].kind, 0, &rd), 1);
		assert_int_equal(s.headers, 1);
		/* as many columns as the header line has commas and one */
		size_t commas = 0;
		for (const char *p = tables[i].header; *p; p++)
			commas += *p == ',';
		assert_int_equal(s.has, commas + 1);
		has += s.has;
		lacks += s.lacks;
	}
	assert_int_equal(kinds, (1u << CSVIN_NKINDS) - 1);
	/* every column but abort-reasons.csv's NORMAL_REASON is written */
	assert_int_equal(has, CSVIN_NCOLS - 1);
	assert_int_equal(lacks, 1);
}

/* Written headers as the views wrote them before the tables (0.4.0's
 * files, which --compare reads): the tables keep them. */
static void test_known_headers(void **st)
{
	(void)st;
	assert_string_equal(tables[CSVIN_REASONS].header, "REASON,COUNT");
	assert_string_equal(tables[CSVIN_TRACES].header, "ID,PARENT,LINK_TYPE,NUM_BC,NUM_IR,NUM_SN,SIZE_MC");
	assert_string_equal(tables[CSVIN_SITES].header,
	                    "FILE,LINE,REASON,START_FILE,START_LINE,PARENT,EXIT,COUNT,"
	                    "NORMAL_REASON,ERROR,FIRST_LINE,LAST_LINE,FINGERPRINT");
	assert_string_equal(tables[CSVIN_RSPER].header, "IDENTITY,KIND,RUN,SAMPLES");
}

/* Each view's page (docs/views/NAME.md, which --help, the man page and
 * the docs tables are made from) names the header its table writes. */
static void test_pages_name_the_headers(void **st)
{
	(void)st;
	static const struct { enum csvin_kind kind; const char *page; } pages[] = {
		{ CSVIN_TRACES, "traces" }, { CSVIN_REASONS, "abort-reasons" },
		{ CSVIN_SITES, "abort-sites" }, { CSVIN_EXITS, "exits" },
		{ CSVIN_PROFILE, "profile" }, { CSVIN_FINDINGS, "findings" },
		{ CSVIN_SPSTATES, "sysprof" }, { CSVIN_SPBUSHES, "sysprof" },
		{ CSVIN_FILES, "files" },
	};
	size_t checked = 0;
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		char path[128];
		snprintf(path, sizeof(path), "docs/views/%s.md", pages[i].page);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		static char text[1 << 16];
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		const char *header = NULL;
		for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
			if (tables[t].kind == pages[i].kind)
				header = tables[t].header;
		assert_non_null(header);
		if (strstr(text, header) == NULL)
			fail_msg("%s does not name %s", path, header);
		checked++;
	}
	assert_int_equal(checked, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_read_back),
		cmocka_unit_test(test_known_headers),
		cmocka_unit_test(test_pages_name_the_headers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
