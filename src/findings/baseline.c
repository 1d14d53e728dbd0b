/* baseline.c — a baseline file read, matched and written; see baseline.h.
 * The file comes from a repository or an artifact, so nothing in it is
 * trusted: only a regular file of at most BASELINE_MAX_BYTES is read,
 * every line must be one of the format's, and each problem is one
 * message with the line it is on (no text of the file is echoed: the
 * caller prints it to terminals and CI logs). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "findings/baseline.h"
#include "util/alloc.h"
#include "util/diag.h"

static const char *const keys[] = { "kind", "severity", "reason", "place", "accepted" };
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static int bad(struct baseline_error *e, uint64_t line, const char *fmt, ...) DA_PRINTF(3, 4);
static int bad(struct baseline_error *e, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->line = line;
	return -1;
}

/* The whole file, NUL-terminated; NULL with *r -2 (errno) or -1. */
static char *slurp(const char *path, size_t *len, struct baseline_error *e, int *r)
{
	*r = -2;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int err = errno;
		bad(e, 0, "%s", strerror(err));
		if (fd >= 0)
			close(fd);
		errno = err;
		return NULL;
	}
	char *buf = NULL;
	if (!S_ISREG(st.st_mode)) {
		*r = bad(e, 0, "not a regular file: a baseline is a text file");
	} else if ((uint64_t)st.st_size > BASELINE_MAX_BYTES) {
		*r = bad(e, 0, "%" PRIu64 " bytes, more than a baseline's %" PRIu64 " MiB",
		         (uint64_t)st.st_size, BASELINE_MAX_BYTES >> 20);
	} else {
		size_t cap = (size_t)st.st_size + 1, n = 0;
		buf = xrealloc(NULL, cap);
		for (;;) {
			ssize_t k = read(fd, buf + n, cap - n);
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				int err = errno;
				bad(e, 0, "%s", strerror(err));
				free(buf);
				close(fd);
				errno = err;
				return NULL;
			}
			if (k == 0)
				break;
			n += (size_t)k;
			if (n == cap) {     /* it grew while read */
				if ((uint64_t)cap > BASELINE_MAX_BYTES) {
					*r = bad(e, 0, "more than a baseline's %" PRIu64 " MiB",
					         BASELINE_MAX_BYTES >> 20);
					free(buf);
					close(fd);
					return NULL;
				}
				cap *= 2;
				buf = xrealloc(buf, cap);
			}
		}
		buf[n] = '\0';
		*len = n;
		*r = 0;
	}
	close(fd);
	return *r == 0 ? buf : NULL;
}

/* A line without its "\n" (and "\r\n"): text only, tabs allowed. */
static int check_bytes(const char *s, size_t n, uint64_t line, struct baseline_error *e)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return bad(e, line, "a control byte (0x%02x): a baseline is text", c);
	}
	return 0;
}

struct reading {
	struct baseline *b;
	struct baseline_error *e;
	uint64_t line;
	int header;                 /* the version line was read */
	struct baseline_entry *cur; /* the entry being read, or NULL */
	int seen[NKEYS];
};

static const char *copy(struct baseline *b, const char *s, size_t n)
{
	return intern_get(&b->text, s, n);
}

static int new_entry(struct reading *rd, const char *id, size_t n)
{
	struct baseline *b = rd->b;
	if (n < 3 || memcmp(id, "v1|", 3) != 0)
		return bad(rd->e, rd->line, "an identity starts with v1| (as --write-baseline "
		           "writes it, or findings.csv's IDENTITY)");
	ALLOC_GROW(b->v, b->n + 1, b->cap);
	struct baseline_entry *x = &b->v[b->n++];
	memset(x, 0, sizeof(*x));
	x->pub.identity = copy(b, id, n);
	x->pub.accepted = copy(b, "", 0);
	x->pub.line = rd->line;
	rd->cur = x;
	memset(rd->seen, 0, sizeof(rd->seen));
	return 0;
}

/* "  KEY: VALUE" of the current entry. */
static int entry_key(struct reading *rd, const char *s, size_t n)
{
	if (!rd->cur)
		return bad(rd->e, rd->line, "an indented line before the first 'finding' line");
	size_t kl = 0;
	while (kl < n && s[kl] != ':')
		kl++;
	size_t k = 0;
	while (k < NKEYS && !(strlen(keys[k]) == kl && memcmp(s, keys[k], kl) == 0))
		k++;
	if (kl == n || k == NKEYS)
		return bad(rd->e, rd->line, "not a KEY: VALUE line of a known key (kind, severity, "
		           "reason, place, accepted)");
	if (rd->seen[k]++)
		return bad(rd->e, rd->line, "a second %s: line for this finding", keys[k]);
	const char *v = s + kl + 1;
	size_t vn = n - kl - 1;
	while (vn && (*v == ' ' || *v == '\t'))
		v++, vn--;
	while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
		vn--;
	const char *val = copy(rd->b, v, vn);
	struct da_baseline_entry *p = &rd->cur->pub;
	const char **slot[NKEYS] = { &p->kind, &p->severity, &p->reason, &p->place, &p->accepted };
	*slot[k] = val;
	return 0;
}

static int one_line(struct reading *rd, const char *s, size_t n)
{
	if (check_bytes(s, n, rd->line, rd->e) < 0)
		return -1;
	size_t blank = strspn(s, " \t");
	if (blank >= n || s[0] == '#')
		return 0;               /* a blank line, a comment */
	if (!rd->header) {
		size_t hl = strlen(BASELINE_HEADER);
		if (n <= hl + 1 || memcmp(s, BASELINE_HEADER " ", hl + 1) != 0)
			return bad(rd->e, rd->line, "not a dumpanalyze baseline: its first line that is "
			           "not a comment must be '" BASELINE_HEADER " %d'", BASELINE_VERSION);
		const char *v = s + hl + 1;
		size_t vn = n - hl - 1;
		if (vn != 1 || *v != '0' + BASELINE_VERSION)
			return bad(rd->e, rd->line, "a baseline of another version: this dumpanalyze "
			           "reads version %d", BASELINE_VERSION);
		rd->header = 1;
		return 0;
	}
	if (blank > 0)
		return entry_key(rd, s + blank, n - blank);
	if (n > 8 && memcmp(s, "finding ", 8) == 0)
		return new_entry(rd, s + 8, n - 8);
	return bad(rd->e, rd->line, "not a line of a baseline ('finding IDENTITY', an indented "
	           "'KEY: VALUE', a '#' comment or a blank line)");
}

static int by_identity(const void *x, const void *y)
{
	const struct baseline_entry *a = x, *b = y;
	int k = strcmp(a->pub.identity, b->pub.identity);
	return k ? k : (a->pub.line > b->pub.line) - (a->pub.line < b->pub.line);
}

int baseline_read(struct baseline *b, const char *path, struct baseline_error *e)
{
	memset(b, 0, sizeof(*b));
	memset(e, 0, sizeof(*e));
	intern_init(&b->text);
	size_t n = strlen(path) + 1;
	b->path = memcpy(xrealloc(NULL, n), path, n);
	size_t len = 0;
	int r;
	char *buf = slurp(path, &len, e, &r);
	if (!buf)
		return r;
	struct reading rd = { b, e, 0, 0, NULL, { 0 } };
	for (size_t i = 0; i < len && r == 0;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len, ln = end - i;
		rd.line++;
		if (ln && buf[i + ln - 1] == '\r')
			ln--;
		r = one_line(&rd, buf + i, ln);
		i = end + 1;
	}
	free(buf);
	if (r == 0 && !rd.header)
		r = bad(e, rd.line, "not a dumpanalyze baseline: no '" BASELINE_HEADER " %d' line",
		        BASELINE_VERSION);
	if (r == 0 && b->n > 1) {
		qsort(b->v, b->n, sizeof(*b->v), by_identity);
		for (size_t i = 1; i < b->n && r == 0; i++)
			if (strcmp(b->v[i - 1].pub.identity, b->v[i].pub.identity) == 0)
				r = bad(e, b->v[i].pub.line, "the finding of line %" PRIu64 " again",
				        b->v[i - 1].pub.line);
	}
	return r;
}

static int cmp_key(const void *k, const void *x)
{
	return strcmp(k, ((const struct baseline_entry *)x)->pub.identity);
}

struct baseline_entry *baseline_lookup(const struct baseline *b, const char *identity)
{
	return b->n ? bsearch(identity, b->v, b->n, sizeof(*b->v), cmp_key) : NULL;
}

struct baseline_entry *baseline_match(struct baseline *b, const char *identity)
{
	struct baseline_entry *x = baseline_lookup(b, identity);
	if (x)
		x->matched = 1;
	return x;
}

void baseline_free(struct baseline *b)
{
	free(b->path);
	free(b->v);
	intern_free(&b->text);
	memset(b, 0, sizeof(*b));
}

/* ---- writing ------------------------------------------------------------ */

static int by_item(const void *x, const void *y)
{
	return strcmp(((const struct baseline_item *)x)->identity,
	              ((const struct baseline_item *)y)->identity);
}

/* A value on one line: what the reader strips (blanks at the ends) and
 * refuses (control bytes) cannot come from a finding's fields, which are
 * single lines, but a chunk name may hold anything: as '?'. */
static void put_value(FILE *fp, const char *key, const char *v)
{
	fprintf(fp, "  %s:", key);
	if (v && *v) {
		fputc(' ', fp);
		for (; *v; v++)
			fputc((unsigned char)*v < 0x20 || *v == 0x7f ? '?' : *v, fp);
	}
	fputc('\n', fp);
}

size_t baseline_put(FILE *fp, struct baseline_item *items, size_t n, const struct baseline *prev,
                    size_t *kept)
{
	size_t entries = 0, reasons = 0;
	if (n > 1)
		qsort(items, n, sizeof(*items), by_item);
	fputs("# dumpanalyze baseline: findings accepted on purpose.  With --baseline FILE\n"
	      "# they are left out of every --fail-on rule (dumpanalyze(1), BASELINE).\n"
	      "# An entry matches a finding by the identity on its 'finding' line alone;\n"
	      "# the lines below it are for the reader.  Say on 'accepted:' why it is.\n",
	      fp);
	fprintf(fp, BASELINE_HEADER " %d\n", BASELINE_VERSION);
	for (size_t i = 0; i < n; i++) {
		const struct baseline_item *it = &items[i];
		if (i && strcmp(items[i - 1].identity, it->identity) == 0)
			continue;
		fprintf(fp, "\nfinding %s\n", it->identity);
		entries++;
		put_value(fp, "kind", it->kind);
		put_value(fp, "severity", it->severity);
		put_value(fp, "reason", it->reason);
		char place[64];
		const char *file = it->file ? it->file : "(the whole run)";
		if (it->file && it->line != DA_NO_LINE && it->end_line > it->line)
			snprintf(place, sizeof(place), ":%" PRId32 "-%" PRId32, it->line, it->end_line);
		else if (it->file && it->line != DA_NO_LINE)
			snprintf(place, sizeof(place), ":%" PRId32, it->line);
		else
			place[0] = '\0';
		size_t pl = strlen(file) + strlen(place) + 1;
		char *p = xrealloc(NULL, pl);
		snprintf(p, pl, "%s%s", file, place);
		put_value(fp, "place", p);
		free(p);
		const struct baseline_entry *was = prev ? baseline_lookup(prev, it->identity) : NULL;
		put_value(fp, "accepted", was ? was->pub.accepted : "");
		if (was && was->pub.accepted && *was->pub.accepted)
			reasons++;
	}
	if (kept)
		*kept = reasons;
	return entries;
}
