/* findings_api.c — the findings of the public API: what they may read
 * (da_use_profile, da_use_source_root, before reading begins), the list
 * made once at the end of a complete read, and its records by index. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "findings/fnextent.h"
#include "findings/lines.h"
#include "lib/api.h"
#include "util/alloc.h"
#include "util/strbuf.h"

/* Before the first da_step or da_feed of a handle still reading. */
static int may_add(const da_dump *d)
{
	return d && d->state == API_READING && !d->stepped && !d->busy;
}

int api_may_add(const da_dump *d)
{
	return may_add(d);
}

int api_read_done(const da_dump *d)
{
	return d && d->state == 0;
}

struct findings *api_findings(const da_dump *d)
{
	return d ? d->findings : NULL;
}

void api_error(const da_dump *d, const char *file, uint64_t line, const char *msg)
{
	if (d->diag.fn)
		d->diag.fn(d->diag.fn_data, DA_ERROR, file, line, msg);
}

int api_out_of_memory(da_dump *d)
{
	d->state = DA_ENOMEM;
	return DA_ENOMEM;
}

/* The Lua files, read where da_use_source_root said, once each. */
static struct text_files *texts_of(da_dump *d)
{
	if (!d->texts) {
		d->texts = xrealloc(NULL, sizeof(*d->texts));
		text_files_init(d->texts, d->finder.nroots ? &d->finder : NULL, &d->diag);
	}
	return d->texts;
}

int api_line_fingerprint(const da_dump *d, const char *file, size_t n, int32_t line, char out[13])
{
	/* the files read are a cache: asking does not change the handle */
	return text_files_fingerprint(texts_of((da_dump *)d), file, n, line, out);
}

struct profiling {
	da_dump *d;
	const char *path;
	int r;
};

static void load_profile(void *arg)
{
	struct profiling *pr = arg;
	pr->r = api_profiles_load(&pr->d->profiles, pr->path, &pr->d->diag);
}

/* A -jp and a sysprof profile at most, each by its bytes (lib/profiles.c). */
int da_use_profile(da_dump *d, const char *path)
{
	if (!may_add(d) || !path)
		return DA_EINVAL;
	struct profiling pr = { d, path, 0 };
	if (oom_call(load_profile, &pr) < 0 || pr.r == DA_ENOMEM) {
		d->state = DA_ENOMEM;
		return DA_ENOMEM;
	}
	return pr.r;
}

/* A name the finder found ambiguous: said once per run, as a warning
 * about the source, not the dump (line 0; not counted, never fatal: the
 * dump is fine, only where its findings go is unknown). */
static void tell_ambiguous(void *data, const char *name, size_t n, const char *root,
                           const char *const *cands, size_t ncands)
{
	da_dump *d = data;
	strbuf_add(&d->ambiguous, name, n);
	strbuf_add(&d->ambiguous, "", 1);
	if (!d->diag.fn)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, name, n);
	strbuf_addf(&sb, ": %zu files of that name under the source root %s match it equally (",
	            ncands, root);
	size_t shown = ncands < 8 ? ncands : 8;
	for (size_t i = 0; i < shown; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", cands[i]);
	if (ncands > shown)
		strbuf_addf(&sb, ", and %zu more", ncands - shown);
	strbuf_addstr(&sb, "): none is read, nothing is placed on it; give the directory that "
	              "holds it as an earlier source root");
	d->diag.fn(d->diag.fn_data, DA_WARNING, d->diag.file, 0, sb.buf);
	strbuf_release(&sb);
}

/* A name found only through a hidden component (.git/config, .env):
 * not read, said once per run like an ambiguous one, so that nobody
 * wonders why its findings are placed on no file. */
static void tell_hidden(void *data, const char *name, size_t n)
{
	da_dump *d = data;
	strbuf_add(&d->ambiguous, name, n);     /* said: not "not found" too */
	strbuf_add(&d->ambiguous, "", 1);
	if (!d->diag.fn)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_add(&sb, name, n);
	strbuf_addstr(&sb, ": not read: the path goes through a hidden file or directory (a name "
	              "starting with '.', such as .git, .ssh or .env), which a dump's names never "
	              "open; give that directory itself as a source root to read it");
	d->diag.fn(d->diag.fn_data, DA_WARNING, d->diag.file, 0, sb.buf);
	strbuf_release(&sb);
}

void api_source_finder_init(da_dump *d)
{
	source_finder_empty(&d->finder);
	d->finder.on_ambiguous = tell_ambiguous;
	d->finder.on_hidden = tell_hidden;
	d->finder.ambiguous_data = d;
}

struct source_finder *api_source_finder(const da_dump *d)
{
	return d && d->finder.nroots ? &((da_dump *)d)->finder : NULL;
}

struct rooting {
	da_dump *d;
	const char *dir;
	unsigned how;
};

static void add_root(void *arg)
{
	struct rooting *r = arg;
	source_finder_add(&r->d->finder, r->dir, (r->how & DA_SOURCE_BY_NAME) != 0);
}

int da_use_source_root(da_dump *d, const char *dir, unsigned how)
{
	if (!may_add(d) || !dir || (how & ~DA_SOURCE_BY_NAME))
		return DA_EINVAL;
	struct rooting r = { d, dir, how };
	if (oom_call(add_root, &r) < 0) {
		d->state = DA_ENOMEM;
		return DA_ENOMEM;
	}
	return 0;
}

static int lua_file_name(const char *s)
{
	size_t n = strlen(s);
	return n > 4 && strcmp(s + n - 4, ".lua") == 0 && s[0] != '=';
}

/* Said already: several files match it equally (tell_ambiguous), or it
 * lies behind a hidden component (tell_hidden). */
static int was_said(const da_dump *d, const char *name)
{
	for (size_t at = 0; at < d->ambiguous.len; at += strlen(d->ambiguous.buf + at) + 1)
		if (strcmp(d->ambiguous.buf + at, name) == 0)
			return 1;
	return 0;
}

/* The sentence of api_sources_missing, made once the findings read. */
static void sources_missing(void *arg)
{
	da_dump *d = arg;
	struct text_files *fs = d->texts;
	size_t k = 0;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; fs && i < fs->n; i++) {
		if (fs->v[i].read || !lua_file_name(fs->v[i].name) || was_said(d, fs->v[i].name))
			continue;
		if (k < 8)
			strbuf_addf(&sb, "%s%s", k ? ", " : "", fs->v[i].name);
		k++;
	}
	if (!k) {
		strbuf_release(&sb);
		return;
	}
	if (k > 8)
		strbuf_addf(&sb, ", and %zu more", k - 8);
	struct strbuf out = STRBUF_INIT;
	strbuf_addf(&out, "sources not found: %s (%zu Lua file%s the findings name, in no source "
	            "directory): their extents come from the dump only (the lines its attempts "
	            "recorded, else the start's line), their identities have no source text, and "
	            "nothing is placed on them (SARIF, --format=gcc); --source-root DIR finds them",
	            sb.buf, k, k == 1 ? "" : "s");
	strbuf_release(&sb);
	d->sources_missing = out.buf;      /* ours now */
	/* like an ambiguous name: about the directories, not the dump */
	if (d->diag.fn)
		d->diag.fn(d->diag.fn_data, DA_WARNING, d->diag.file, 0, d->sources_missing);
}

const char *api_sources_missing(const da_dump *d)
{
	return d ? d->sources_missing : NULL;
}

void api_findings_make(da_dump *d)
{
	/* a sysprof profile's functions get their extents from the source,
	 * for the findings' cost and the tool's callees (basis "function") */
	if (d->profiles.sp)
		fn_extents_sysprof(d->profiles.sp, texts_of(d));
	if (!d->findings)
		return;
	struct findings_input fin = {
		d->answers, d->profiles.jp, d->profiles.sp, texts_of(d),
		explain_flavour_guess(&d->model.evidence, NULL),
	};
	findings_build(d->findings, &fin);
	sources_missing(d);
}

void api_findings_free(da_dump *d)
{
	if (d->findings) {
		findings_free(d->findings);
		free(d->findings);
		d->findings = NULL;
	}
	api_profiles_free(&d->profiles);
	free(d->sources_missing);
	d->sources_missing = NULL;
	strbuf_release(&d->ambiguous);
	if (d->texts) {
		text_files_free(d->texts);
		free(d->texts);
		d->texts = NULL;
	}
	source_finder_free(&d->finder);
}

size_t da_findings(const da_dump *d)
{
	return d && d->findings && d->state == 0 ? d->findings->n : 0;
}

const struct da_finding *da_finding(const da_dump *d, size_t i)
{
	return i < da_findings(d) ? &d->findings->list[i] : NULL;
}

const struct da_profile_totals *da_profile_totals(const da_dump *d)
{
	return d && d->findings && d->state == 0 && d->findings->has_totals ? &d->findings->totals : NULL;
}
