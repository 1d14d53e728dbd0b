/* open.c — opening a dump: the caller's options and sink checked against
 * this library's (by the size they begin with, dumpanalyze.h), copied,
 * and a handle wired input -> parser -> model. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/api.h"
#include "parse/parser.h"
#include "util/alloc.h"

/* The sizes of ABI 2.0's structs (0.4.0): every caller's is at least
 * these, whatever later fields this library has. */
#define OPTIONS_MIN (offsetof(struct da_options, vmdef_path) + sizeof(const char *))
#define SINK_MIN (offsetof(struct da_sink, gen_end) + sizeof(void *))
/* Larger is no struct of ours but garbage in its size field. */
#define STRUCT_MAX 4096

#define FLAGS_KNOWN (DA_KEEP_TEXT | DA_STRICT | DA_ANSWERS | DA_NO_THREAD | DA_NOTES | \
                     DA_FINDINGS | DA_CALLBACK_ONLY)

enum source { FROM_PATH, FROM_FD, FROM_MEMORY, FROM_PUSH };

/* What opening needs, for oom_call. */
struct opening {
	da_dump *d;
	enum source from;
	const char *path;
	int fd;
	const void *buf;
	size_t len;
	struct da_options opts;     /* the caller's, checked, at our size */
	struct da_sink sink;
	const char *name;
	int err;                    /* -errno when the path cannot be opened */
	int bad_vmdef;              /* options.vmdef_path unreadable or not one */
};

/* Why an open fails with DA_EINVAL, to the caller's diag when it has one
 * (its pointer is in every struct da_options of ABI 2, at the same
 * place).  Returns DA_EINVAL. */
static int invalid(const struct da_options *o, const char *name, const char *fmt, ...)
	DA_PRINTF(3, 4);
static int invalid(const struct da_options *o, const char *name, const char *fmt, ...)
{
	if (o && o->diag) {
		char msg[256];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		o->diag(o->diag_data, DA_ERROR, name, 0, msg);
	}
	return DA_EINVAL;
}

/* The caller's struct of `size` bytes at src into ours of `ours` bytes:
 * fields it lacks zero, fields it has and we do not know must be zero.
 * 0, or a message in why. */
static int take(void *dst, size_t ours, size_t min, const void *src, size_t size,
                const char *what, const char *how, char *why, size_t nwhy)
{
	if (size < min || size > STRUCT_MAX) {
		snprintf(why, nwhy, "struct %s: size %zu is not one any dumpanalyze.h gives "
		         "(%zu here): make it with %s", what, size, ours, how);
		return -1;
	}
	memset(dst, 0, ours);
	memcpy(dst, src, size < ours ? size : ours);
	for (size_t i = ours; i < size; i++)
		if (((const unsigned char *)src)[i]) {
			snprintf(why, nwhy, "struct %s: a newer dumpanalyze.h (size %zu) sets fields "
			         "this library (%s, size %zu) does not know", what, size,
			         DA_VERSION_STRING, ours);
			return -1;
		}
	return 0;
}

/* The caller's options (NULL: none) and sink, checked into op. */
static int check_options(struct opening *op, const struct da_options *opts)
{
	char why[256];
	if (!opts) {
		op->opts.size = sizeof(op->opts);
		return 0;
	}
	if (take(&op->opts, sizeof(op->opts), OPTIONS_MIN, opts, opts->size, "da_options",
	         "DA_OPTIONS()", why, sizeof(why)) < 0) {
		/* Its diag only when the rest looks made by a compiler: a
		 * struct without DA_OPTIONS (size 0), or a newer one; never
		 * from a struct nobody initialised. */
		int trust = opts->size == 0 || (opts->size >= OPTIONS_MIN && opts->size <= STRUCT_MAX);
		return invalid(trust ? opts : NULL, op->name, "%s", why);
	}
	if (op->opts.flags & ~(unsigned)FLAGS_KNOWN)
		return invalid(opts, op->name, "options.flags: 0x%x are no flags of this library (%s)",
		               op->opts.flags & ~(unsigned)FLAGS_KNOWN, DA_VERSION_STRING);
	if (op->opts.sink && take(&op->sink, sizeof(op->sink), SINK_MIN, op->opts.sink,
	                          op->opts.sink->size, "da_sink", "DA_SINK()", why, sizeof(why)) < 0)
		return invalid(opts, op->name, "%s", why);
	return 0;
}

static void open_parts(void *arg)
{
	struct opening *op = arg;
	da_dump *d = op->d;
	const struct da_options *opts = &op->opts;
	size_t n = strlen(op->name) + 1;
	d->name = xrealloc(NULL, n);
	memcpy(d->name, op->name, n);
	if (op->from == FROM_PATH) {
		op->err = input_open(&d->in, op->path);
		if (op->err < 0)
			return;
	} else if (op->from == FROM_FD) {
		input_from_fd(&d->in, op->fd);
	} else if (op->from == FROM_MEMORY) {
		/* no bytes may come as NULL; the reader takes NULL for "no memory" */
		input_from_memory(&d->in, op->buf ? op->buf : "", op->len);
	} else {
		input_from_push(&d->in);
		d->push = 1;
	}
	d->opened = 1;
	if (opts->flags & DA_NO_THREAD)
		input_without_thread(&d->in);
	diag_init(&d->diag, d->name);
	d->diag.strict = (opts->flags & DA_STRICT) != 0;
	d->diag.verbose = (opts->flags & DA_NOTES) != 0;
	d->diag.fn = opts->diag;
	d->diag.fn_data = opts->diag_data;
	d->flags = opts->flags;
	if (opts->sink) {
		d->sink_copy = op->sink;
		d->sink = &d->sink_copy;
	}
	d->sink_data = opts->sink_data;
	api_source_finder_init(d);
	if (opts->flags & DA_FINDINGS) {
		d->findings = xrealloc(NULL, sizeof(*d->findings));
		findings_init(d->findings);
	}
	if (opts->flags & (DA_ANSWERS | DA_FINDINGS)) {
		d->answers = xrealloc(NULL, sizeof(*d->answers));
		memset(d->answers, 0, sizeof(*d->answers));
		model_init(&d->model, &d->diag, &api_tee, d);
	} else {
		model_init(&d->model, &d->diag, d->sink, d->sink_data);
	}
	d->model.callback_only = (opts->flags & DA_CALLBACK_ONLY) != 0;
	if (opts->vmdef_path) {
		d->vmdef = xrealloc(NULL, sizeof(*d->vmdef));
		if (vmdef_read(opts->vmdef_path, d->vmdef) < 0) {
			op->bad_vmdef = 1;
			return;
		}
		d->model.vmdef = d->vmdef;
	}
	d->parser = parser_new(&d->diag, (opts->flags & DA_KEEP_TEXT) != 0, model_event, &d->model);
	d->state = API_READING;
}

static da_dump *open_dump(struct opening *op, const struct da_options *opts, int *err)
{
	int dummy;
	if (!err)
		err = &dummy;
	/* The name diagnostics use, also for a failed open. */
	op->name = opts && opts->size >= OPTIONS_MIN && opts->name ? opts->name
	           : op->from == FROM_PATH ? (!op->path ? "<null>" : strcmp(op->path, "-") == 0
	                                     ? "<stdin>" : op->path)
	           : op->from == FROM_FD ? "<fd>" : op->from == FROM_MEMORY ? "<memory>" : "<push>";
	if ((*err = check_options(op, opts)) < 0)
		return NULL;
	if (op->from == FROM_PATH && !op->path) {
		*err = invalid(opts, op->name, "da_open_path: no path");
		return NULL;
	}
	if (op->from == FROM_MEMORY && !op->buf && op->len) {
		*err = invalid(opts, op->name, "da_open_memory: no buffer for %zu bytes", op->len);
		return NULL;
	}
	if (op->from == FROM_FD && op->fd < 0) {
		*err = invalid(opts, op->name, "da_open_fd: descriptor %d", op->fd);
		return NULL;
	}
	op->d = calloc(1, sizeof(*op->d));
	if (!op->d) {
		*err = DA_ENOMEM;
		return NULL;
	}
	*err = oom_call(open_parts, op) < 0 ? DA_ENOMEM : op->err < 0 ? DA_EOPEN : DA_OK;
	if (*err == DA_OK && op->bad_vmdef)
		*err = invalid(opts, op->name, "%s: no LuaJIT jit/vmdef.lua (unreadable, or no bcnames)",
		               op->opts.vmdef_path);
	if (*err == DA_OK)
		return op->d;
	da_close(op->d);
	if (op->err < 0)
		errno = -op->err;
	return NULL;
}

da_dump *da_open_path(const char *path, const struct da_options *opts, int *err)
{
	struct opening op = { .from = FROM_PATH, .path = path, .fd = -1 };
	return open_dump(&op, opts, err);
}

da_dump *da_open_fd(int fd, const struct da_options *opts, int *err)
{
	struct opening op = { .from = FROM_FD, .fd = fd };
	return open_dump(&op, opts, err);
}

da_dump *da_open_memory(const void *buf, size_t len, const struct da_options *opts, int *err)
{
	struct opening op = { .from = FROM_MEMORY, .fd = -1, .buf = buf, .len = len };
	return open_dump(&op, opts, err);
}

da_dump *da_open_push(const struct da_options *opts, int *err)
{
	struct opening op = { .from = FROM_PUSH, .fd = -1 };
	return open_dump(&op, opts, err);
}
