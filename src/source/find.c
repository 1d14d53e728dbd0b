/* find.c — find and read the Lua files a dump names; see find.h.  Every
 * candidate is resolved with realpath() and opened only when the result
 * lies inside the current directory or a --source-root (a symbolic link
 * cannot lead out), and only as a regular file of at most 16 MiB.  By
 * base name, the candidate whose path ends in most of the name's
 * components; a tie reads none (CHUNK_AMBIGUOUS), told once per name.
 * No path below a directory is read through a hidden component (.git,
 * .ssh, .env: CHUNK_HIDDEN, told once per name); the walk skips them. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "source/find.h"
#include "util/alloc.h"

#define MAX_SOURCE_BYTES (16u << 20)
#define WALK_DEPTH 12               /* directories below a root */
#define WALK_FILES 200000           /* files indexed per root */

const char *const chunk_kind_names[CHUNK_KINDS] = {
	"file", "not found", "string chunk", "builtin", "refused", "ambiguous", "hidden",
};

static char *xstrndup(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void source_finder_empty(struct source_finder *f)
{
	memset(f, 0, sizeof(*f));
}

void source_finder_add(struct source_finder *f, const char *dir, int by_name)
{
	ALLOC_GROW(f->roots, f->nroots + 1, f->cap);
	struct source_root *r = &f->roots[f->nroots++];
	memset(r, 0, sizeof(*r));
	r->given = xstrndup(dir, strlen(dir));
	r->real = realpath(dir, NULL);
	r->by_name = by_name;
	/* the current directory, as written: its files go by their own names */
	r->bare = !by_name && strcmp(dir, ".") == 0;
}

void source_finder_init(struct source_finder *f, const char *const *roots, size_t n)
{
	source_finder_empty(f);
	source_finder_add(f, ".", 0);
	for (size_t i = 0; i < n; i++)
		source_finder_add(f, roots[i], 1);
}

void source_finder_free(struct source_finder *f)
{
	for (size_t i = 0; i < f->nroots; i++) {
		struct source_root *r = &f->roots[i];
		for (size_t k = 0; k < r->n; k++) {
			free(r->names[k]);
			free(r->paths[k]);
		}
		free(r->names);
		free(r->paths);
		free(r->same);
		free(r->real);
		free(r->given);
	}
	free(f->roots);
	if (f->told.slots)
		intern_free(&f->told);
	if (f->told_hidden.slots)
		intern_free(&f->told_hidden);
	memset(f, 0, sizeof(*f));
}

static int starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	return n >= k && memcmp(s, p, k) == 0;
}

enum chunk_kind chunk_classify(const char *name, size_t n, int has_line)
{
	if (n == 0 || name[0] == '"' || starts(name, n, "[string") || memchr(name, '\n', n) ||
	    memchr(name, '\0', n))
		return CHUNK_STRING;
	if (!has_line || starts(name, n, "builtin:"))
		return CHUNK_BUILTIN;
	return CHUNK_FILE;
}

/* A relative path with no ".." component and no empty name. */
static int tame_relative(const char *s, size_t n)
{
	if (n == 0 || s[0] == '/')
		return 0;
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && s[e] != '/')
			e++;
		if (e - i == 2 && s[i] == '.' && s[i + 1] == '.')
			return 0;
		i = e + 1;
	}
	return 1;
}

/* Whether s[0..n), a '/'-separated path, has a hidden component: one
 * whose name starts with '.' (.git, .ssh, .env), "." itself aside. */
static int hidden_component(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && s[e] != '/')
			e++;
		if (e > i && s[i] == '.' && e - i != 1)
			return 1;
		i = e + 1;
	}
	return 0;
}

/* realpath of path, when it lies strictly inside the directory base and
 * reaches it through no hidden component below base (*hidden set when
 * that alone refused it: a link to .git is refused as .git is). */
static char *inside(const char *base, const char *path, int *hidden)
{
	if (!base)
		return NULL;
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;
	size_t b = strlen(base);
	int ok = strncmp(real, base, b) == 0 && (real[b] == '/' || (b == 1 && base[0] == '/'))
	         && real[b + (b > 1)] != '\0';
	if (ok && hidden_component(real + b, strlen(real + b))) {
		*hidden = 1;
		ok = 0;
	}
	if (!ok) {
		free(real);
		return NULL;
	}
	return real;
}

/* Read a regular file named by a resolved path: 0, or -1. */
static int slurp(const char *real, char **text, size_t *len)
{
	int fd = open(real, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_SOURCE_BYTES) {
		close(fd);
		return -1;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = xrealloc(NULL, cap);
	for (;;) {
		if (n == cap - 1) {
			if (cap > MAX_SOURCE_BYTES)
				break;
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

static char *join(const char *a, const char *b, size_t bn)
{
	size_t an = strlen(a);
	char *p = xrealloc(NULL, an + bn + 2);
	memcpy(p, a, an);
	p[an] = '/';
	memcpy(p + an + 1, b, bn);
	p[an + 1 + bn] = '\0';
	return p;
}

static int by_bytes(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every regular file below dir (rel: its path from the root), sorted by
 * name at each level, so that equal base names come in the same order
 * on every machine. */
static void walk(struct source_root *r, const char *dir, const char *rel, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **ents = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		ALLOC_GROW(ents, n + 1, cap);
		/* the entry's type (what lstat would say: a link is a link)
		 * in the byte before its name, DT_UNKNOWN when the file
		 * system does not tell: then lstat is asked */
		size_t len = strlen(e->d_name);
		char *ent = xrealloc(NULL, len + 2);
		ent[0] = (char)e->d_type;
		memcpy(ent + 1, e->d_name, len + 1);
		ents[n++] = ent + 1;
	}
	closedir(d);
	if (n)
		qsort(ents, n, sizeof(*ents), by_bytes);
	for (size_t i = 0; i < n; i++) {
		unsigned char type = (unsigned char)ents[i][-1];
		char *full = join(dir, ents[i], strlen(ents[i]));
		char *sub = rel[0] ? join(rel, ents[i], strlen(ents[i])) : xstrndup(ents[i], strlen(ents[i]));
		struct stat st;
		if (type == DT_DIR || type == DT_REG)
			st.st_mode = type == DT_DIR ? S_IFDIR : S_IFREG;
		if (type == DT_DIR || type == DT_REG || lstat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < WALK_DEPTH) {
				walk(r, full, sub, depth + 1);
			} else if (S_ISREG(st.st_mode) && r->n < WALK_FILES) {
				if (r->n == r->cap) {
					r->cap = r->cap ? 2 * r->cap : 64;
					r->names = xrealloc(r->names, r->cap * sizeof(*r->names));
					r->paths = xrealloc(r->paths, r->cap * sizeof(*r->paths));
				}
				r->names[r->n] = xstrndup(ents[i], strlen(ents[i]));
				r->paths[r->n++] = sub;
				sub = NULL;
			}
		}
		free(full);
		free(sub);
		free(ents[i] - 1);
	}
	free(ents);
}

/* The walk's files sorted by base name, ties in walk order (which is
 * sorted by name at every level): the same order on every machine. */
struct named { char *name, *path; size_t order; };

static int by_name_then_order(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int k = strcmp(a->name, b->name);
	return k ? k : (a->order > b->order) - (a->order < b->order);
}

static void index_root(struct source_root *r)
{
	walk(r, r->real, "", 0);
	r->indexed = 1;
	if (!r->n)
		return;
	struct named *v = xrealloc(NULL, r->n * sizeof(*v));
	for (size_t i = 0; i < r->n; i++)
		v[i] = (struct named){ r->names[i], r->paths[i], i };
	qsort(v, r->n, sizeof(*v), by_name_then_order);
	r->same = xrealloc(NULL, r->n * sizeof(*r->same));
	for (size_t i = 0; i < r->n; i++) {
		r->names[i] = v[i].name;
		r->paths[i] = v[i].path;
	}
	/* same[i]: how many files share names[i], on the first of them */
	for (size_t i = 0, k; i < r->n; i = k) {
		for (k = i + 1; k < r->n && strcmp(r->names[k], r->names[i]) == 0; k++)
			r->same[k] = 0;
		r->same[i] = k - i;
	}
	free(v);
}

/* Try base/rel: the file's text and its shown name on success. */
static int try_at(const char *base_real, const char *base_shown, const char *rel, size_t rn,
                  char **text, size_t *len, char **shown, int *hidden)
{
	if (hidden_component(rel, rn)) {
		*hidden = 1;
		return -1;
	}
	char *path = base_real ? join(base_real, rel, rn) : xstrndup(rel, rn);
	char *real = inside(base_real, path, hidden);
	free(path);
	if (!real)
		return -1;
	int r = slurp(real, text, len);
	free(real);
	if (r == 0)
		*shown = base_shown ? join(base_shown, rel, rn) : xstrndup(rel, rn);
	return r;
}

/* How many of name's trailing '/'-separated components path ends in. */
static size_t tail_match(const char *name, size_t n, const char *path)
{
	size_t i = n, j = strlen(path), k = 0;
	while (i > 0 && j > 0) {
		size_t ie = i, je = j;
		while (i > 0 && name[i - 1] != '/')
			i--;
		while (j > 0 && path[j - 1] != '/')
			j--;
		if (ie - i != je - j || memcmp(name + i, path + j, ie - i) != 0)
			break;
		k++;
		if (i == 0 || j == 0)
			break;
		i--;                    /* past the '/' */
		j--;
	}
	return k;
}

#define TOLD_MAX 8                  /* candidates named to on_ambiguous */

/* Tell on_ambiguous, once per name, of the tied candidates. */
static void tell(struct source_finder *f, const struct source_root *r, const char *name,
                 size_t n, const size_t *tied, size_t ntied)
{
	if (!f->on_ambiguous)
		return;
	if (!f->told.slots)
		intern_init(&f->told);
	size_t before = f->told.count;
	intern_get(&f->told, name, n);
	if (f->told.count == before)
		return;
	size_t k = ntied < TOLD_MAX ? ntied : TOLD_MAX;
	char *cands[TOLD_MAX];
	for (size_t i = 0; i < k; i++) {
		const char *p = r->paths[tied[i]];
		cands[i] = r->bare ? xstrndup(p, strlen(p)) : join(r->given, p, strlen(p));
	}
	f->on_ambiguous(f->ambiguous_data, name, n, r->given, (const char *const *)cands, ntied);
	for (size_t i = 0; i < k; i++)
		free(cands[i]);
}

/* Tell on_hidden, once per name, that it was not read for a hidden
 * component. */
static void tell_hidden(struct source_finder *f, const char *name, size_t n)
{
	if (!f->on_hidden)
		return;
	if (!f->told_hidden.slots)
		intern_init(&f->told_hidden);
	size_t before = f->told_hidden.count;
	intern_get(&f->told_hidden, name, n);
	if (f->told_hidden.count != before)
		f->on_hidden(f->ambiguous_data, name, n);
}

enum chunk_kind source_find(struct source_finder *f, const char *name, size_t n,
                            char **text, size_t *len, char **shown, size_t *ambiguous)
{
	*ambiguous = 0;
	int tame = tame_relative(name, n), hidden = 0;
	char *abs = n && name[0] == '/' ? xstrndup(name, n) : NULL;
	const char *slash = memrchr(name, '/', n);
	const char *base = slash ? slash + 1 : name;
	size_t bn = n - (size_t)(base - name);
	for (size_t i = 0; i < f->nroots; i++) {
		struct source_root *r = &f->roots[i];
		if (!r->real)
			continue;
		/* As written, relative to it. */
		if (tame && try_at(r->real, r->bare ? NULL : r->given, name, n, text, len, shown,
		                   &hidden) == 0)
			goto found;
		/* An absolute name inside it. */
		if (abs) {
			char *real = inside(r->real, abs, &hidden);
			int ok = real && slurp(real, text, len) == 0;
			free(real);
			if (ok) {
				*shown = abs;
				return CHUNK_FILE;
			}
		}
		if (!r->by_name)
			continue;
		/* By base name anywhere below it. */
		if (!r->indexed)
			index_root(r);
		if (bn == 0 || memchr(base, '\0', bn))
			continue;
		char *key = xstrndup(base, bn);
		size_t lo = 0, hi = r->n;
		while (lo < hi) {       /* the first entry >= key */
			size_t mid = (lo + hi) / 2;
			if (strcmp(r->names[mid], key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		int hit = lo < r->n && strcmp(r->names[lo], key) == 0;
		free(key);
		if (!hit)
			continue;
		/* the candidates whose paths end in most of the name */
		size_t same = r->same[lo], best = 0, *tied = xrealloc(NULL, same * sizeof(*tied));
		size_t ntied = 0;
		for (size_t k = lo; k < lo + same; k++) {
			size_t m = tail_match(name, n, r->paths[k]);
			if (m > best)
				ntied = 0;
			if (m >= best) {
				best = m;
				tied[ntied++] = k;
			}
		}
		if (ntied > 1) {
			tell(f, r, name, n, tied, ntied);
			*ambiguous = ntied;
			free(tied);
			free(abs);
			return CHUNK_AMBIGUOUS;
		}
		size_t k = tied[0];
		free(tied);
		if (try_at(r->real, r->bare ? NULL : r->given, r->paths[k], strlen(r->paths[k]), text,
		           len, shown, &hidden) == 0) {
			*ambiguous = same - 1;
			goto found;
		}
	}
	free(abs);
	if (hidden) {
		tell_hidden(f, name, n);
		return CHUNK_HIDDEN;
	}
	return tame ? CHUNK_MISSING : CHUNK_REFUSED;
found:
	free(abs);
	return CHUNK_FILE;
}
