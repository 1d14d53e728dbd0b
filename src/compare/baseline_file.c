/* baseline_file.c — the tool's side of a baseline (the format is the
 * library's, findings/baseline.c): --write-baseline FILE written whole or
 * not at all (a temporary file beside it, renamed), keeping the reasons
 * FILE already gives; the stale entries said on standard error. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compare/baseline_file.h"
#include "output/message.h"
#include "output/termtext.h"
#include "util/alloc.h"

int baseline_load(struct baseline *b, const char *path)
{
	struct baseline_error e;
	if (baseline_read(b, path, &e) == 0)
		return 0;
	char *shown = term_text(path);
	if (e.line)
		msg_error("%s:%" PRIu64 ": %s", shown, e.line, e.msg);
	else
		msg_error("%s: %s", shown, e.msg);
	free(shown);
	baseline_free(b);
	return -1;
}

int baseline_write_file(const char *path, struct baseline_item *items, size_t n, FILE *fp_say,
                        const char *whose)
{
	size_t entries = 0, kept = 0;
	/* the reasons a reviewer wrote stay: those of the entries FILE has */
	struct baseline prev;
	int have_prev = 0;
	if (access(path, F_OK) == 0) {
		if (baseline_load(&prev, path) < 0) {
			char *shown = term_text(path);
			msg_error("%s is not a baseline: not written over", shown);
			free(shown);
			return -1;
		}
		have_prev = 1;
	}
	/* A temporary name that is made here (O_EXCL): a file already there
	 * with that name is someone else's, never written or removed. */
	size_t len = strlen(path) + 48;
	char *tmp = xrealloc(NULL, len);
	FILE *fp = NULL;
	errno = 0;
	for (unsigned k = 0; !fp && k < 100; k++) {
		if (k)
			snprintf(tmp, len, "%s.tmp%ld.%u", path, (long)getpid(), k);
		else
			snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
		fp = fopen(tmp, "wx");
		if (!fp && errno != EEXIST)
			break;
	}
	int rc = -1, err = fp ? 0 : errno;
	if (fp) {
		entries = baseline_put(fp, items, n, have_prev ? &prev : NULL, &kept);
		int bad = ferror(fp);
		if (fclose(fp) == 0 && !bad && rename(tmp, path) == 0)
			rc = 0;
		else
			err = errno;
	}
	if (rc < 0) {
		char *shown = term_text(path);
		msg_error("cannot write the baseline %s: %s", shown, strerror(err ? err : EIO));
		free(shown);
		if (fp)
			unlink(tmp);
	}
	free(tmp);
	if (have_prev)
		baseline_free(&prev);
	if (rc == 0 && fp_say) {
		char *shown = term_text(path);
		fprintf(fp_say, "wrote the baseline %s: %zu finding%s of %s, %zu with the reason it "
		        "gave before, %zu with an empty accepted: line to fill in\n", shown, entries,
		        entries == 1 ? "" : "s", whose, kept, entries - kept);
		free(shown);
	}
	return rc;
}

void baseline_say_stale(const char *path, const struct da_baseline_entry *e)
{
	char *p = term_text(path), *id = term_text(e->identity);
	char *what = term_text(e->place ? e->place : "?");
	char *why = term_text(e->reason ? e->reason : "?");
	fprintf(stderr, "%s:%" PRIu64 ": stale baseline entry: no finding has its identity "
	        "(%s: %s) %s\n", p, e->line, what, why, id);
	free(p);
	free(id);
	free(what);
	free(why);
}

int baseline_after_run(const char *baseline, const char *write_to, const da_dump *d, int quiet)
{
	for (size_t i = 0; baseline && i < da_baseline_stale(d); i++)
		baseline_say_stale(baseline, da_baseline_stale_entry(d, i));
	if (!write_to)
		return 0;
	size_t n = da_findings(d);
	struct baseline_item *items = xrealloc(NULL, (n ? n : 1) * sizeof(*items));
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(d, i);
		items[i] = (struct baseline_item){ f->identity, f->kind_word, f->level_word, f->reason,
		                                   f->file, f->line, f->end_line };
	}
	int r = baseline_write_file(write_to, items, n, quiet ? NULL : stderr, "the run");
	free(items);
	return r;
}
