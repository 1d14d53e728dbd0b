/* options.c — the option and exit code tables, and what is made of them
 * for the terminal: getopt's options, --help, --views list (the man
 * page's and README's generated parts: options_docs.c). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "luajit/recipe.h"
#include "output/message.h"
#include "views/view.h"

/* Each option's man paragraph is troff, written as the page shows it. */
const struct option_doc cli_options[] = {
	{ { "dump", required_argument, NULL, 'd' }, "FILE",
	  "the dump to read; '-' or no --dump reads standard input; several: in parallel",
	  "The dump to read.\n"
	  ".B \\-\n"
	  "means standard input; without\n"
	  ".BR \\-\\-dump ,\n"
	  "standard input is read when it is not a terminal.\n"
	  "Several\n"
	  ".B \\-\\-dump\n"
	  "options analyse several dumps in parallel (see\n"
	  ".BR \"SEVERAL DUMPS\" ).\n" },
	{ { "out-dir", required_argument, NULL, 'o' }, "DIR",
	  "where the files go (default FILE-parsed; dumpanalyze-out for stdin or several dumps)",
	  "Where the files go; created (with its parents) when missing.\n"
	  "The default is\n"
	  ".IB FILE \\-parsed\n"
	  "next to the dump, or\n"
	  ".B dumpanalyze\\-out\n"
	  "in the current directory for standard input.\n"
	  "Only the files named below are written; nothing else in the directory is\n"
	  "touched, and the directory holds the whole previous run or the whole\n"
	  "new one whatever happens (see\n"
	  ".B \"OUTPUT DIRECTORY\"\n"
	  "and\n"
	  ".BR COMMIT ).\n" },
	{ { "wait", no_argument, NULL, OPT_WAIT }, NULL,
	  "if another run is writing into the same --out-dir, wait for it (default: exit 2)",
	  "When another run of\n"
	  ".B dumpanalyze\n"
	  "is writing into the same output directory, wait until it is done (saying\n"
	  "so once on standard error) instead of exiting at once with status 2 and\n"
	  "its PID.\n"
	  "See\n"
	  ".BR \"OUTPUT DIRECTORY\" .\n" },
	{ { "recover", required_argument, NULL, OPT_RECOVER }, "DIR",
	  "finish (or undo) the commit of a run into DIR that was killed, then exit",
	  "Finish the commit of a run into\n"
	  ".I DIR\n"
	  "that was killed or lost its power while it moved its files into place\n"
	  "(or undo it, when it cannot be finished), remove what killed runs left\n"
	  "there, say what was done, and exit; nothing else is read or written.\n"
	  "Every run does this first anyway; this is for a directory that is\n"
	  "read before it is written again.\n"
	  "Exit status 2 when the commit can be neither finished nor undone (a\n"
	  "full disk: run it again once there is room).\n"
	  "With\n"
	  ".B \\-\\-wait\n"
	  "it waits for a run still going.\n"
	  "See\n"
	  ".BR \"OUTPUT DIRECTORY\" .\n" },
	{ { "profile", required_argument, NULL, 'p' }, "FILE",
	  "a -jp profile of the workload, or a sysprof one of the dump's process: what costs time",
	  "A profile of the same workload written by LuaJIT's profiler\n"
	  ".RB ( \"luajit \\" RECIPE_JP ",FILE\" ),\n"
	  "plain or compressed, joined with the dump on source lines (see\n"
	  ".BR PROFILES );\n"
	  "or a profile of the dump's own process written by the platform\n"
	  "profiler of Tarantool's LuaJIT\n"
	  ".RB ( misc.sysprof ),\n"
	  "joined with the dump's traces (see\n"
	  ".BR \"TIME PER TRACE\" ).\n"
	  "The file's bytes say which.\n"
	  "With several dumps, one\n"
	  ".B \\-\\-profile\n"
	  "per\n"
	  ".BR \\-\\-dump ,\n"
	  "in the same order; one dump may have two, a\n"
	  ".B \\-jp\n"
	  "and a sysprof profile of comparable runs, and each answer names the one\n"
	  "it comes from.\n"
	  "Without\n"
	  ".BR \\-\\-views ,\n"
	  "it adds the views\n"
	  ".B profile\n"
	  "(a\n"
	  ".B \\-jp\n"
	  "profile),\n"
	  ".B sysprof\n"
	  "(a sysprof one) and, for a profile with stacks,\n"
	  ".BR flamegraph .\n" },
	{ { "repeats", no_argument, NULL, OPT_REPEATS }, NULL,
	  "the --dump and --profile files are repeats of one workload: analyse them as a run set",
	  "The\n"
	  ".B \\-\\-dump\n"
	  "files are N runs of one workload, and the\n"
	  ".B \\-\\-profile\n"
	  "files (none to M) M separate profile runs of it, not one per worker:\n"
	  "each dump is analysed into\n"
	  ".IB OUT /run\\- K\n"
	  "and the findings over all of them go to the top of\n"
	  ".I OUT\n"
	  "(see\n"
	  ".BR \"RUN SETS\" ).\n" },
	{ { "run-set", required_argument, NULL, OPT_RUN_SET }, "DIR",
	  "analyse the run set recorded in DIR/runs (dump-K and prof-K, K = 1..N; .gz/.xz/.zst too)",
	  "The run set recorded in\n"
	  ".IR DIR :\n"
	  "its dumps\n"
	  ".IB DIR /runs/dump\\- K\n"
	  "and profiles\n"
	  ".IB DIR /runs/prof\\- K\n"
	  ".RI ( K\n"
	  "from 1 without a gap; plain or ending in\n"
	  ".BR .gz ,\n"
	  ".B .xz\n"
	  "or\n"
	  ".BR .zst ),\n"
	  "as with\n"
	  ".BR \\-\\-repeats .\n"
	  "The default\n"
	  ".B \\-\\-out\\-dir\n"
	  "is\n"
	  ".I DIR\n"
	  "itself.\n" },
	{ { "views", required_argument, NULL, 'V' }, "LIST",
	  "comma-separated views, 'default' (the default set) or 'all'; 'list' lists them",
	  "The views to render, comma-separated; a unique prefix of a name is\n"
	  "enough.\n"
	  "Without this option the default views are rendered: those below that do\n"
	  "not say \"Not part of the default views\" (a profile brings\n"
	  ".BR profile ,\n"
	  ".B sysprof\n"
	  "and\n"
	  ".BR flamegraph ).\n"
	  "In the list,\n"
	  ".B default\n"
	  "stands for that set, so\n"
	  ".B default,html\n"
	  "is the default views and the report, and\n"
	  ".B all\n"
	  "for every view the run can render (the profile's views only with\n"
	  ".BR \\-\\-profile ).\n"
	  "A view named in the list, or brought by\n"
	  ".BR all ,\n"
	  "is rendered in full:\n"
	  ".B bush\\-png\n"
	  "draws every bush when named, and only the bushes with side traces as\n"
	  "one of the default set.\n"
	  ".B \\-\\-views list\n"
	  "prints the views with their files and exits.\n" },
	{ { "source-root", required_argument, NULL, OPT_SOURCE_ROOT }, "DIR",
	  "where the source view finds the Lua files the dump names (repeatable)",
	  "A directory where the\n"
	  ".B source\n"
	  "view looks for the Lua files the dump names, in the order given: the\n"
	  "name as written relative to\n"
	  ".IR DIR ,\n"
	  "then by its base name anywhere below it (dumps often name a file by its\n"
	  "base name; at most 200000 files, 12 directories deep, are looked at per\n"
	  "root).\n"
	  "Of several files with that base name, the one whose path ends in the\n"
	  "most of the name's components is read\n"
	  ".RB ( lua/app.lua\n"
	  "takes\n"
	  ".B src/lua/app.lua\n"
	  "over\n"
	  ".BR test/app.lua );\n"
	  "when several end in equally many, none is: the run warns once per name,\n"
	  "naming them, and the findings there are placed on no file, their\n"
	  "identities built without the line's text, rather than on a guess.\n"
	  "The search stops at that\n"
	  ".IR DIR :\n"
	  "give the directory that holds the file as an earlier\n"
	  ".BR \\-\\-source\\-root .\n"
	  "Without it, a name is read only as a relative path under the current\n"
	  "directory.\n"
	  "A dump is untrusted: a name with a\n"
	  ".B ..\n"
	  "component, or a path that leads (also through a symbolic link) outside\n"
	  "the current directory and every\n"
	  ".IR DIR ,\n"
	  "is never opened, only regular files are read, and their text is\nescaped, never run.\n"
	  "Below the current directory and each\n.IR DIR ,\nno path through a hidden component (a file or directory whose name starts with\n.BR . ,\nsuch as\n.BR .git/config ,\n.B .env\nor\n"
	  ".BR .ssh/id_rsa ,\nor a link to one) is ever read: a warning per name says so.\nA hidden directory given itself as a\n.I DIR\nis read below.\n" },
	{ { "jobs", required_argument, NULL, 'j' }, "N",
	  "draw pictures in N worker processes (default: the cores)",
	  "Draw the bush pictures in\n"
	  ".I N\n"
	  "worker processes, while the dump is read on: every picture, of\n"
	  "whatever generation, goes to one queue, and the next free worker draws\n"
	  "it (default: the number of cores; 1 draws them in line).\n"
	  "The files are the same byte for byte whatever\n"
	  ".IR N .\n"
	  "Besides, the dump is read and decompressed on a thread of its own, ahead\n"
	  "of the parser, and the files are written on another, behind it.\n" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL,
	  "no summary and no progress line",
	  "No summary at the end, and no progress line.\n" },
	{ { "format", required_argument, NULL, OPT_FORMAT }, "FORMAT",
	  "what a run prints on standard output: summary (the default) or gcc (a line per finding)",
	  "What a run prints on standard output:\n"
	  ".B summary\n"
	  "(the default:\n"
	  ".BR summary.txt ,\n"
	  "unless\n"
	  ".BR \\-\\-quiet )\n"
	  "or\n"
	  ".B gcc\n"
	  "(instead of the summary, even with\n"
	  ".BR \\-\\-quiet :\n"
	  "one compiler-style line per finding, the lines of\n"
	  ".BR problems.txt ,\n"
	  "for an editor that runs\n"
	  ".B dumpanalyze \\-q \\-\\-format=gcc\n"
	  "as its compiler; see\n"
	  ".BR \"FINDINGS ON THE CODE\" ).\n"
	  "One dump at a time.\n" },
	{ { "annotate", required_argument, NULL, OPT_ANNOTATE }, "CI",
	  "also print the findings as CI annotations: github (GitHub Actions)",
	  "Also print the findings on standard output as annotations for a CI\n"
	  "system, after the summary (or alone with\n"
	  ".BR \\-\\-quiet ).\n"
	  ".I CI\n"
	  "is\n"
	  ".BR github :\n"
	  "GitHub Actions' workflow commands\n"
	  ".RB ( ::warning\n"
	  ".IR file=\\&... ,\n"
	  ".IR line=\\&... ,\n"
	  ".IR endLine=\\&... ,\n"
	  ".IR title=\\&... :: MESSAGE ),\n"
	  "which put each finding on the pull request's lines.\n"
	  "On a run, one per finding; with\n"
	  ".BR \\-\\-compare ,\n"
	  "one per new finding of NEW, and an\n"
	  ".B ::error\n"
	  "for each that crosses a\n"
	  ".B \\-\\-fail\\-on\n"
	  "rule.\n"
	  "See\n"
	  ".BR \"FINDINGS ON THE CODE\" .\n"
	  "One dump at a time.\n" },
	{ { "verbose", no_argument, NULL, 'v' }, NULL,
	  "print the first foreign lines with their line numbers",
	  "Also print the first foreign lines (see\n"
	  ".BR INPUT )\n"
	  "with their line numbers.\n" },
	{ { "strict", no_argument, NULL, OPT_STRICT }, NULL,
	  "the first warning about the input, or an input with no JIT event, is fatal (exit 3)",
	  "The first warning about the input is fatal: exit status 3, and the files\n"
	  "of the generation in progress are not written.\n"
	  "An input with no JIT event (empty, or program output only) is rejected\n"
	  "too, and the output directory is left as it was.\n" },
	{ { "compare", required_argument, NULL, OPT_COMPARE }, "OLD NEW",
	  "compare two output directories of dumpanalyze instead of reading a dump",
	  "Compare two output directories written by\n"
	  ".B dumpanalyze\n"
	  "instead of reading a dump, and print what changed over the whole run:\n"
	  "traces compiled, aborts, abort reasons, abort sites (followed when lines\n"
	  "are inserted or removed above them), bushes (by their root's start\n"
	  "location and kind) and profiles.\n"
	  "Each directory needs its\n"
	  ".BR manifest.json ;\n"
	  "a view rendered on one side only is said \"not compared\", never read as\n"
	  "zero.\n"
	  "See\n"
	  ".BR COMPARE .\n" },
	{ { "fail-on", required_argument, NULL, OPT_FAIL_ON }, "RULES",
	  "with --compare: exit 1 when a rule is crossed (new-sites, new-reasons, cost+P, ...)",
	  "With\n"
	  ".BR \\-\\-compare :\n"
	  "exit with status 1 when a rule is crossed, for a CI job that gates a\n"
	  "change on \"no new JIT problem\".\n"
	  "Rules, comma-separated (their arithmetic in\n"
	  ".BR COMPARE ):\n"
	  ".B recommended\n"
	  "(README's rule set; of run sets, see\n"
	  ".BR \"RUN SETS\" ),\n"
	  ".B new\\-sites\n"
	  "(a new abort site, a loop, function or exit whose attempts abort, of\n"
	  "severity costly or worth a look;\n"
	  ".B new\\-sites:all\n"
	  "counts the usually harmless ones too;\n"
	  ".BI >= N\n"
	  "after either fails from N of them),\n"
	  ".B new\\-reasons\n"
	  "(a new abort reason, likewise),\n"
	  ".BI aborts+ N\n"
	  "and\n"
	  ".BI aborts+ N %\n"
	  "(aborts grew by more than\n"
	  ".I N\n"
	  "or\n"
	  ".I N\n"
	  "percent),\n"
	  ".BI traces\\- N %\n"
	  "(compiled traces dropped by more than\n"
	  ".I N\n"
	  "percent),\n"
	  ".BI interpreted+ P\n"
	  "(the interpreted share of the profile grew by more than\n"
	  ".I P\n"
	  "points),\n"
	  ".BI cost+ P\n"
	  "(the share charged to findings grew by more than\n"
	  ".I P\n"
	  "points).\n"
	  "Each crossed rule is printed as a\n"
	  ".B FAIL:\n"
	  "line.\n"
	  "A rule that cannot be evaluated (its view missing on a side, an\n"
	  "incomplete run, a dump on one side only) exits with status 2.\n" },
	{ { "json", no_argument, NULL, OPT_JSON }, NULL,
	  "with --compare: the result as one JSON object on standard output",
	  "With\n"
	  ".BR \\-\\-compare :\n"
	  "print the result as one JSON object instead of the text, for a CI\n"
	  "dashboard (see\n"
	  ".BR COMPARE ).\n" },
	{ { "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY }, NULL,
	  "with --compare: compare a side whose run saw no JIT event",
	  "With\n"
	  ".BR \\-\\-compare :\n"
	  "compare a side whose run saw no JIT event (its manifest's\n"
	  ".B jit_events\n"
	  "is false: no trace, abort or\n"
	  ".B \\-jv\n"
	  "line in its input), which is otherwise refused with exit status 2:\n"
	  "such a run did not run (a program that failed to start, a dump that\n"
	  "went elsewhere), and every count of it is zero.\n" },
	{ { "baseline", required_argument, NULL, OPT_BASELINE }, "FILE",
	  "findings accepted on purpose: marked baselined, left out of every --fail-on rule",
	  "Findings accepted on purpose, as\n"
	  ".B \\-\\-write\\-baseline\n"
	  "writes them (see\n"
	  ".BR BASELINE ).\n"
	  "On a run, each finding whose identity the file lists is marked\n"
	  "baselined (findings.csv's BASELINED and ACCEPTED, and\n"
	  ".BR findings.jsonl ),\n"
	  "left out of\n"
	  ".IR \"fix these first\" ,\n"
	  "and each entry that matches no finding is said on standard error as\n"
	  "stale, with its line.\n"
	  "With\n"
	  ".BR \\-\\-compare ,\n"
	  "the findings it lists are left out of every\n"
	  ".B \\-\\-fail\\-on\n"
	  "rule on both sides and listed as baselined; the entries no finding of\n"
	  "NEW matches are listed as stale.\n"
	  "A file that is not a baseline (another format or version, a line that\n"
	  "is none of the format's, a control byte, more than 64 MiB, not a\n"
	  "regular file) is an error naming the file and the line: exit status 2.\n" },
	{ { "write-baseline", required_argument, NULL, OPT_WRITE_BASELINE }, "FILE",
	  "write the run's findings (or NEW's, with --compare) as a baseline to FILE",
	  "Write the findings of the run (with\n"
	  ".BR \\-\\-compare ,\n"
	  "those of NEW) to\n"
	  ".I FILE\n"
	  "as a baseline (see\n"
	  ".BR BASELINE ),\n"
	  "whole or not at all.\n"
	  "Each entry's\n"
	  ".B accepted:\n"
	  "line is left for a person to fill in, but an entry\n"
	  ".I FILE\n"
	  "already has keeps its line; a\n"
	  ".I FILE\n"
	  "that is not a baseline is not written over.\n"
	  "One dump at a time.\n" },
	{ { "explain", required_argument, NULL, OPT_EXPLAIN }, "REASON",
	  "what an abort reason or rule means and what to try, then exit",
	  "Print what an abort reason means and what to try, and exit, like\n"
	  ".BR \"rustc \\-\\-explain\" .\n"
	  ".I REASON\n"
	  "is a message as any LuaJIT writes it\n"
	  ".RB ( \"\\(aqNYI: bytecode 51\\(aq\" ,\n"
	  ".BR \"\\(aqfailed to allocate mcode memory\\(aq\" ),\n"
	  "LuaJIT's name for the error\n"
	  ".RB ( NYIBC )\n"
	  "or a bytecode's\n"
	  ".RB ( FNEW ),\n"
	  "or a rule's id or name (DA203, closure\\-in\\-loop; list prints them all); case and blanks do not matter.\n"
	  "The entry gives the error's name, the builds that write it, its message,\n"
	  "what it means and what to try, and the findings' rule for it (its id,\n"
	  "name, severity and why; a bytecode's own rule once the bytecode is\n"
	  "known); for a bytecode, its name, its numbers in\n"
	  "LuaJIT 2.0 and 2.1 and what it is (both readings for a number that the\n"
	  "two numberings read differently, unless\n"
	  ".B \\-\\-luajit\\-vmdef\n"
	  "says).\n"
	  "An unknown reason exits with status 1 after up to five closest entries.\n" },
	{ { "luajit-vmdef", required_argument, NULL, OPT_VMDEF }, "FILE",
	  "a build's jit/vmdef.lua: its bytecode numbers name \"NYI: bytecode N\" exactly",
	  "A LuaJIT build's\n"
	  ".B jit/vmdef.lua\n"
	  "(next to its\n"
	  ".BR jit/dump.lua ):\n"
	  "its\n"
	  ".B bcnames\n"
	  "string numbers the bytecodes of\n"
	  ".B \"NYI: bytecode\"\n"
	  ".I N\n"
	  "aborts exactly, for a build whose numbering the dump does not show (see\n"
	  ".BR \"WHY DID IT ABORT?\" ).\n"
	  "The file is read as text, never run.\n"
	  "Also with\n"
	  ".BR \\-\\-explain .\n" },
	{ { "help", optional_argument, NULL, 'h' }, NULL, "this help",
	  "Print the options and exit.\n" },
	{ { "version", no_argument, NULL, OPT_VERSION }, NULL, "the version",
	  "Print the version and exit.\n" },
};
const size_t cli_noptions = sizeof(cli_options) / sizeof(cli_options[0]);

/* The exit codes, as --help and EXIT STATUS say them: troff with inline
 * font changes only, so that --help can print them plain. */
const struct cli_exit_code cli_exit_codes[] = {
	{ EXIT_OK, "Success (warnings allowed)." },
	{ EXIT_USAGE, "Usage error: unknown option or view, missing argument, no dump; with "
	  "\\fB\\-\\-compare\\fR, also a \\fB\\-\\-fail\\-on\\fR rule crossed." },
	{ EXIT_IO, "Input or output error: a dump or profile that cannot be read, "
	  "corrupt compressed data, a sysprof profile malformed or cut short (the byte is "
	  "named), a failed write, or no memory to be had (the message then says \"out of "
	  "memory\"); the output directory in use by another run "
	  "(without \\fB\\-\\-wait\\fR), a lock file there that is not a regular file "
	  "of one name, a dump or profile the run would write over, one "
	  "pipe given twice as \\fB\\-\\-dump\\fR; with \\fB\\-\\-recover\\fR, a commit that "
	  "can be neither finished nor undone; with \\fB\\-\\-compare\\fR, a directory that "
	  "is not dumpanalyze output or holds a file that is not what its run wrote, a side whose "
	  "run saw no JIT event, or a \\fB\\-\\-fail\\-on\\fR rule that cannot be evaluated; with "
	  "\\fBrecord\\fR, a run of the workload that failed." },
	{ EXIT_REJECTED, "Input rejected under \\fB\\-\\-strict\\fR (also an input with no JIT "
	  "event), or a \\fB\\-\\-profile\\fR "
	  "file that is not a profile dumpanalyze reads (a sysprof or symbol table format "
	  "version it does not know, a memprof profile)." },
};
const size_t cli_nexit_codes = sizeof(cli_exit_codes) / sizeof(cli_exit_codes[0]);

int cli_short_options(char *buf, size_t len)
{
	/* ':' first, so that a missing argument is told apart from an
	 * unknown option.  An optional argument (--help=man) is the long
	 * form's only: -h stays a letter that takes nothing, as in -hv. */
	size_t k = 0;
	if (len < 2)
		return -1;
	buf[k++] = ':';
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option *o = &cli_options[i].opt;
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

/* Troff as text: font changes dropped, \- as -. */
static void put_plain(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'f' && s[2]) {
			s += 2;
		} else if (s[0] == '\\' && s[1] == '-') {
			fputc('-', fp);
			s++;
		} else {
			fputc(*s, fp);
		}
	}
}

void cli_usage(FILE *fp)
{
	fputs("usage: dumpanalyze [--dump FILE] [--out-dir DIR] [--views LIST] [options]\n"
	      "       luajit -jdump=+x app.lua | dumpanalyze --out-dir DIR\n"
	      "       dumpanalyze --compare OLD_OUT NEW_OUT [--fail-on RULES] [--baseline FILE] [--json | --annotate github]\n"
	      "       dumpanalyze -q --format=gcc [--annotate github] --dump FILE\n"
	      "       luajit " RECIPE_JP ",prof.txt app.lua; dumpanalyze --dump dump.txt --profile prof.txt\n"
	      "       dumpanalyze record [--runs N] [--out-dir DIR] -- COMMAND [ARGS...]\n\n"
	      "Turns a LuaJIT -jdump dump into CSV, text and picture views.\n\n", fp);
	for (size_t i = 0; i < cli_noptions; i++) {
		const struct option_doc *o = &cli_options[i];
		char left[40];
		if (o->opt.val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->opt.val, o->opt.name,
			         o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->opt.name,
			         o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(fp, "  %-24s %s\n", left, o->help);
	}
	fputs("\nExit status:\n", fp);
	for (size_t i = 0; i < cli_nexit_codes; i++) {
		fprintf(fp, "  %d  ", cli_exit_codes[i].code);
		put_plain(fp, cli_exit_codes[i].text);
		fputc('\n', fp);
	}
	fputs("See dumpanalyze(1).\n", fp);
}
