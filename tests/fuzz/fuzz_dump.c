/* fuzz_dump.c — libFuzzer target: arbitrary bytes along the tool's own
 * path (da_open_memory, da_step: decoding, parser, model) into every text
 * view, the JSON lines and the HTML report, written to a scratch output
 * directory; and the same bytes through the -jp profile reader, whose
 * profile, when readable, the summary and the report then join.  Any
 * crash, leak, sanitizer report or trap below is a bug. */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dumpanalyze.h"
#include "input/input.h"
#include "output/outdir.h"
#include "profile/profile.h"
#include "views/view.h"

/* Every text view and the report (html draws its bushes in the browser,
 * so no cairo here). */
#define VIEWS "summary,findings,traces,abort-reasons,abort-reasons-txt,abort-sites,exits," \
              "blacklist,bush-txt,jsonl,html,source,files"

/* The scratch output directory, made once per process (libFuzzer gives
 * the target no context to keep it in) and emptied after every input. */
static char scratch[64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *at)
{
	(void)st;
	(void)flag;
	if (at->level > 0 && remove(path) < 0)
		__builtin_trap();   /* a file left would be in the next input's listing */
	return 0;
}

static void empty_scratch(void)
{
	nftw(scratch, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void remove_scratch(void)
{
	empty_scratch();
	rmdir(scratch);
}

/* In TMPDIR, else in /dev/shm: creating and removing a dozen files per
 * input on a disk's file system took two thirds of the time. */
static int make_scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp || strlen(tmp) > sizeof(scratch) - 20)
		tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(scratch, sizeof(scratch), "%s/fuzz_dump.XXXXXX", tmp);
	if (!mkdtemp(scratch))
		return -1;
	atexit(remove_scratch);
	return 0;
}

/* Remove the view of that name from the set, as if never chosen. */
/* The bytes as a -jp profile, read like profile_load reads a file: 1 when
 * it is readable and has something in it, else 0 (p still to be freed). */
static int read_profile(struct profile *p, const uint8_t *data, size_t size)
{
	struct input in;
	input_from_memory(&in, data, size);
	input_without_thread(&in);
	const struct line *l;
	const char *why;
	int r, ok = 1;
	while (ok && (r = input_next_chunk(&in, &l)) > 0)
		for (int k = 0; k < r && ok; k++)
			ok = profile_line(p, l[k].p, l[k].len, &why) == 0;
	input_close(&in);
	if (!ok || r < 0 || profile_end(p, &why) < 0 || p->kind == PROFILE_EMPTY)
		return 0;
	if (!p->nlines)
		__builtin_trap();      /* a readable profile has lines */
	return 1;
}

/* Warnings passed on, every byte of every message read. */
struct seen {
	uint64_t warnings;
	size_t bytes;
};

static void on_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                    const char *msg)
{
	struct seen *s = data;
	(void)line;
	if (sev != DA_NOTE)
		s->warnings++;
	s->bytes += strlen(file) + strlen(msg);
}

/* Whether the scratch directory holds that file. */
static int written(const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", scratch, name);
	return access(path, F_OK) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!scratch[0] && make_scratch() < 0)
		__builtin_trap();
	struct profile prof;
	profile_init(&prof, "fuzz.prof");
	int have_prof = read_profile(&prof, data, size);

	struct view_set views;
	char err[256];
	if (view_set_init(&views, VIEWS, 0, err, sizeof(err)) < 0)
		__builtin_trap();
	/* The options the CLI can give, chosen by the input's length: strict,
	 * notes (--verbose), reading with or without the thread, */
	struct seen seen = { 0, 0 };
	/* and records kept until gen_end, or only during their callback */
	struct da_options o = DA_OPTIONS(
		.flags = ((views.needs & NEEDS_TEXT) ? DA_KEEP_TEXT : 0) |
		         ((views.needs & NEEDS_FINDINGS) ? DA_FINDINGS : 0) |
		         (size & 1 ? DA_STRICT : 0) | (size & 2 ? DA_NOTES : 0) |
		         (size & 4 ? DA_NO_THREAD : 0) | (size & 8 ? DA_CALLBACK_ONLY : 0),
		.name = "fuzz.dump",
		.sink = &view_set_sink,
		.sink_data = &views,
		.diag = on_diag,
		.diag_data = &seen,
	);
	/* and read from memory, or pushed in pieces of 1 to 64 bytes (the
	 * sizes from the input's own bytes) */
	int e, push = (size & 16) != 0;
	da_dump *d = push ? da_open_push(&o, &e) : da_open_memory(data, size, &o, &e);
	struct outdir *out = d ? outdir_open(scratch) : NULL;
	if (!out)
		__builtin_trap();
	/* The findings read the same bytes as a profile from a file, and the
	 * scratch directory's Lua files (none) as sources. */
	if (have_prof) {
		char path[128];
		snprintf(path, sizeof(path), "%s/fuzz.prof", scratch);
		FILE *fp = fopen(path, "wb");
		if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
			__builtin_trap();
		if (da_use_profile(d, path) != 0)
			__builtin_trap();      /* what profile_line read, the file reads */
		unlink(path);
	}
	if (da_use_source_root(d, scratch, DA_SOURCE_BY_NAME) != 0)
		__builtin_trap();
	view_set_attach(&views, out, d, "fuzz.dump", 1, have_prof ? &prof : NULL);
	for (size_t i = 0; i < views.n; i++)
		views.ctx[i].lines = da_line_counts(d);

	int r = 0;
	if (push) {
		size_t at = 0;
		while (r == 0 && at < size) {
			size_t n = 1 + data[at] % 64;
			n = n < size - at ? n : size - at;
			r = da_feed(d, data + at, n, at + n == size);
			at += n;
		}
		if (r == 0 && size == 0)
			r = da_feed(d, NULL, 0, 1);
	} else {
		while ((r = da_step(d)) > 0)
			;
	}
	/* Corrupt compressed data and --strict may end a run early; nothing
	 * else may (a view failing in a scratch directory is a bug). */
	if (r < 0 && r != DA_EIO && !(r == DA_ESTRICT && (o.flags & DA_STRICT)))
		__builtin_trap();
	int fin = view_set_finish(&views);
	if (r == 0 && (fin < 0 || outdir_publish(out) < 0 || outdir_sync(out) < 0))
		__builtin_trap();
	const struct da_line_counts *c = da_line_counts(d);
	if (r == 0 && c->total != c->header + c->content + c->exit_regs + c->foreign + c->blank)
		__builtin_trap();      /* every line must be accounted for */
	if (seen.warnings != da_warnings(d))
		__builtin_trap();      /* every warning counted is passed on */
	/* A finished run wrote every view's files, even for no traces. */
	if (r == 0 && !(written("summary.txt") && written("findings.csv") && written("gen-1-traces.csv") &&
	                written("gen-1-bushes.html") && written("gen-1.jsonl") && written("index.html")))
		__builtin_trap();
	da_close(d);
	outdir_close(out);
	profile_free(&prof);
	empty_scratch();
	return 0;
}
