/* fs_mem.c — the file system operations of fs.h in memory (see fs_mem.h):
 * a tree of nodes, handles as small ints, POSIX's answers for what the
 * output directory asks (rename replaces atomically, an unlinked file
 * lives on while open, a non-empty directory is not removed). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "outdir/fs_mem.h"
#include "util/alloc.h"

struct node {
	char *name;
	int is_dir;
	struct node *parent;        /* NULL: the root, or not in the tree */
	struct node *child, *next;  /* a directory's entries */
	char *data;                 /* a file's bytes */
	size_t len, cap;
	uint64_t ino;
	unsigned open;              /* handles on it */
	int lock;                   /* the handle holding its lock, or -1 */
};

struct handle {
	struct node *n;             /* NULL: a free slot */
	int flags;
	size_t pos;
};

struct mem {
	struct fs fs;               /* what callers hold; fs.data is this */
	struct node root;
	struct handle *h;
	size_t nh, cap;
	uint64_t next_ino;
	uint64_t limit, written;    /* bytes writes may write in all, and did */
};

/* Handles start above the standard streams' numbers, as descriptors do,
 * and never meet FS_CWD (negative). */
#define FIRST_HANDLE 3

static struct mem *mem_of(const struct fs *fs)
{
	return fs->data;
}

static char *dup_n(const char *s, size_t n)
{
	char *p = xrealloc(NULL, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void node_free(struct node *n)
{
	while (n->child) {
		struct node *c = n->child;
		n->child = c->next;
		c->parent = NULL;
		if (!c->open)
			node_free(c);
	}
	free(n->name);
	free(n->data);
	free(n);
}

/* Into a directory's list of entries. */
static void put_in(struct node *dir, struct node *n)
{
	n->parent = dir;
	n->next = dir->child;
	dir->child = n;
}

static struct node *node_new(struct mem *m, struct node *dir, const char *name, int is_dir)
{
	struct node *n = xrealloc(NULL, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->name = dup_n(name, strlen(name));
	n->is_dir = is_dir;
	n->ino = ++m->next_ino;
	n->lock = -1;
	put_in(dir, n);
	return n;
}

/* Out of its directory's list of entries. */
static void take_out(struct node *n)
{
	struct node **p = &n->parent->child;
	while (*p != n)
		p = &(*p)->next;
	*p = n->next;
	n->parent = NULL;
	n->next = NULL;
}

/* Out of its directory; freed now unless a handle still has it. */
static void node_detach(struct node *n)
{
	take_out(n);
	if (!n->open)
		node_free(n);
}

static struct node *lookup(const struct node *dir, const char *name, size_t n)
{
	for (struct node *c = dir->child; c; c = c->next)
		if (strlen(c->name) == n && memcmp(c->name, name, n) == 0)
			return c;
	return NULL;
}

static struct handle *handle_of(struct mem *m, int fd)
{
	size_t i = (size_t)fd - FIRST_HANDLE;
	if (fd < FIRST_HANDLE || i >= m->nh || !m->h[i].n)
		return NULL;
	return &m->h[i];
}

/* Where PATH from the directory handle dir leads: its directory *parent,
 * its last name (copied into last, at most NAME_MAX bytes) and the node
 * there (NULL when there is none).  "" is the handle's node itself. */
static int resolve(struct mem *m, int dir, const char *path, struct node **parent,
                   char *last, struct node **node)
{
	struct node *d;
	if (*path == '/' || dir == FS_CWD) {
		d = &m->root;
	} else {
		struct handle *h = handle_of(m, dir);
		if (!h)
			return -EBADF;
		d = h->n;
	}
	if (!*path) {
		*parent = d->parent;
		strcpy(last, "");
		*node = d;
		return 0;
	}
	if (!d->is_dir)
		return -ENOTDIR;
	const char *s = path;
	for (;;) {
		while (*s == '/')
			s++;
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		const char *rest = e;
		while (rest && *rest == '/')
			rest++;
		if (n > 255)
			return -ENAMETOOLONG;
		int is_last = !rest || !*rest;
		struct node *next = n == 0 || (n == 1 && *s == '.') ? d
		                  : n == 2 && s[0] == '.' && s[1] == '.' ? (d->parent ? d->parent : d)
		                  : lookup(d, s, n);
		if (is_last) {
			if (n == 0 || next == d || (next && next == d->parent))
				return -EINVAL;     /* ".", "..": nothing the directory uses */
			*parent = d;
			memcpy(last, s, n);
			last[n] = '\0';
			*node = next;
			return 0;
		}
		if (!next)
			return -ENOENT;
		if (!next->is_dir)
			return -ENOTDIR;
		d = next;
		s = rest;
	}
}

/* The node PATH names, which must be there: 0, or a negative errno. */
static int existing(const struct fs *fs, int dir, const char *path, struct node **n)
{
	struct node *parent;
	char last[256];
	int r = resolve(mem_of(fs), dir, path, &parent, last, n);
	return r < 0 ? r : *n ? 0 : -ENOENT;
}

static int m_open(const struct fs *fs, int dir, const char *path, int flags, unsigned mode)
{
	(void)mode;
	struct mem *m = mem_of(fs);
	struct node *parent, *n;
	char last[256];
	int r = resolve(m, dir, path, &parent, last, &n);
	if (r < 0)
		return r;
	int acc = flags & O_ACCMODE;
	if (!n) {
		if (!(flags & O_CREAT))
			return -ENOENT;
		if (flags & O_DIRECTORY)
			return -EINVAL;
		n = node_new(m, parent, last, 0);
	} else if ((flags & O_CREAT) && (flags & O_EXCL)) {
		return -EEXIST;
	}
	if ((flags & O_DIRECTORY) && !n->is_dir)
		return -ENOTDIR;
	if (n->is_dir && acc != O_RDONLY)
		return -EISDIR;
	if ((flags & O_TRUNC) && acc != O_RDONLY)
		n->len = 0;
	size_t i = 0;
	while (i < m->nh && m->h[i].n)
		i++;
	if (i == m->nh) {
		ALLOC_GROW(m->h, m->nh + 1, m->cap);
		m->nh++;
	}
	m->h[i] = (struct handle){ .n = n, .flags = flags, .pos = 0 };
	n->open++;
	return (int)i + FIRST_HANDLE;
}

static int m_close(const struct fs *fs, int fd)
{
	struct mem *m = mem_of(fs);
	struct handle *h = handle_of(m, fd);
	if (!h)
		return -EBADF;
	struct node *n = h->n;
	h->n = NULL;
	if (n->lock == fd)
		n->lock = -1;
	if (--n->open == 0 && !n->parent && n != &m->root)
		node_free(n);
	return 0;
}

static ssize_t m_read(const struct fs *fs, int fd, void *buf, size_t len)
{
	struct handle *h = handle_of(mem_of(fs), fd);
	if (!h)
		return -EBADF;
	if (h->n->is_dir)
		return -EISDIR;
	if ((h->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	size_t k = h->pos < h->n->len ? h->n->len - h->pos : 0;
	if (k > len)
		k = len;
	memcpy(buf, h->n->data + h->pos, k);
	h->pos += k;
	return (ssize_t)k;
}

/* A file's bytes made len long, the new ones zero. */
static void resize(struct node *n, size_t len)
{
	if (len > n->len) {
		ALLOC_GROW(n->data, len, n->cap);
		memset(n->data + n->len, 0, len - n->len);
	}
	n->len = len;
}

static ssize_t m_write(const struct fs *fs, int fd, const void *buf, size_t len)
{
	struct mem *m = mem_of(fs);
	struct handle *h = handle_of(m, fd);
	if (!h || (h->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (m->written >= m->limit && len)
		return -ENOSPC;
	if (len > m->limit - m->written)
		len = (size_t)(m->limit - m->written);     /* a short write, then ENOSPC */
	struct node *n = h->n;
	if (h->flags & O_APPEND)
		h->pos = n->len;
	if (h->pos + len > n->len)
		resize(n, h->pos + len);
	memcpy(n->data + h->pos, buf, len);
	h->pos += len;
	m->written += len;
	return (ssize_t)len;
}

static int m_truncate(const struct fs *fs, int fd, uint64_t size)
{
	struct handle *h = handle_of(mem_of(fs), fd);
	if (!h || (h->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (size > SIZE_MAX / 2)
		return -EFBIG;
	resize(h->n, (size_t)size);
	return 0;
}

static int m_sync(const struct fs *fs, int fd)
{
	return handle_of(mem_of(fs), fd) ? 0 : -EBADF;
}

static int is_within(const struct node *n, const struct node *dir)
{
	for (; n; n = n->parent)
		if (n == dir)
			return 1;
	return 0;
}

static int m_rename(const struct fs *fs, int from_dir, const char *from, int to_dir,
                    const char *to)
{
	struct mem *m = mem_of(fs);
	struct node *fp, *fn, *tp, *tn;
	char fl[256], tl[256];
	int r = resolve(m, from_dir, from, &fp, fl, &fn);
	if (r == 0)
		r = resolve(m, to_dir, to, &tp, tl, &tn);
	if (r < 0)
		return r;
	if (!fn)
		return -ENOENT;
	if (fn == tn)
		return 0;
	if (fn->is_dir && is_within(tp, fn))
		return -EINVAL;
	if (tn) {
		if (fn->is_dir && !tn->is_dir)
			return -ENOTDIR;
		if (!fn->is_dir && tn->is_dir)
			return -EISDIR;
		if (tn->is_dir && tn->child)
			return -ENOTEMPTY;
		node_detach(tn);
	}
	/* out of the one directory, into the other under its new name */
	take_out(fn);
	free(fn->name);
	fn->name = dup_n(tl, strlen(tl));
	put_in(tp, fn);
	return 0;
}

static int m_unlink(const struct fs *fs, int dir, const char *path)
{
	struct node *n;
	int r = existing(fs, dir, path, &n);
	if (r < 0)
		return r;
	if (n->is_dir)
		return -EISDIR;
	node_detach(n);
	return 0;
}

static int m_mkdir(const struct fs *fs, int dir, const char *path)
{
	struct mem *m = mem_of(fs);
	struct node *parent, *n;
	char last[256];
	int r = resolve(m, dir, path, &parent, last, &n);
	if (r < 0)
		return r;
	if (n)
		return -EEXIST;
	node_new(m, parent, last, 1);
	return 0;
}

static int m_rmdir(const struct fs *fs, int dir, const char *path)
{
	struct node *n;
	int r = existing(fs, dir, path, &n);
	if (r < 0)
		return r;
	if (!n->is_dir)
		return -ENOTDIR;
	if (!n->parent)
		return -EBUSY;          /* the root */
	if (n->child)
		return -ENOTEMPTY;
	node_detach(n);
	return 0;
}

static int m_stat(const struct fs *fs, int dir, const char *path, struct fs_stat *st)
{
	struct node *n;
	memset(st, 0, sizeof(*st));
	int r = existing(fs, dir, path, &n);
	if (r < 0)
		return r;
	st->type = n->is_dir ? FS_DIR : FS_FILE;
	st->dev = 1;
	st->ino = n->ino;
	st->size = n->is_dir ? 0 : n->len;
	st->nlink = 1;              /* no hard links here */
	return 0;
}

static int m_list(const struct fs *fs, int dir, const char *path, char ***names, size_t *count)
{
	struct node *n;
	*names = NULL;
	*count = 0;
	int r = existing(fs, dir, path, &n);
	if (r < 0)
		return r;
	if (!n->is_dir)
		return -ENOTDIR;
	size_t cap = 0;
	for (struct node *c = n->child; c; c = c->next) {
		ALLOC_GROW(*names, *count + 1, cap);
		(*names)[(*count)++] = dup_n(c->name, strlen(c->name));
	}
	return 0;
}

static int m_writable(const struct fs *fs, int dir, const char *path)
{
	struct node *n;
	return existing(fs, dir, path, &n);
}

/* One process: a lock is held by a handle, and another handle of the same
 * file finds it taken (as with open file description locks).  Nothing can
 * free it while we wait, so waiting is an error. */
static int m_lock(const struct fs *fs, int fd, int wait)
{
	struct handle *h = handle_of(mem_of(fs), fd);
	if (!h)
		return -EBADF;
	if (h->n->lock >= 0 && h->n->lock != fd)
		return wait ? -EDEADLK : -EAGAIN;
	h->n->lock = fd;
	return 0;
}

static const struct fs_ops mem_ops = {
	.open = m_open, .close = m_close, .read = m_read, .write = m_write,
	.truncate = m_truncate, .fsync = m_sync, .syncfs = m_sync, .rename = m_rename,
	.unlink = m_unlink,
	.mkdir = m_mkdir, .rmdir = m_rmdir, .stat = m_stat, .list = m_list,
	.writable = m_writable, .lock = m_lock,
};

struct fs *fs_mem_new(void)
{
	struct mem *m = xrealloc(NULL, sizeof(*m));
	memset(m, 0, sizeof(*m));
	m->fs = (struct fs){ &mem_ops, FS_NO_THREAD, "memory", m };
	m->root.is_dir = 1;
	m->root.name = dup_n("", 0);
	m->root.ino = ++m->next_ino;
	m->root.lock = -1;
	m->limit = UINT64_MAX;
	return &m->fs;
}

void fs_mem_free(struct fs *fs)
{
	if (!fs)
		return;
	struct mem *m = mem_of(fs);
	/* files removed while open, then the tree */
	for (size_t i = 0; i < m->nh; i++) {
		struct node *n = m->h[i].n;
		if (n && --n->open == 0 && !n->parent && n != &m->root)
			node_free(n);
	}
	free(m->h);
	while (m->root.child) {
		struct node *c = m->root.child;
		m->root.child = c->next;
		c->parent = NULL;
		if (!c->open)
			node_free(c);
	}
	free(m->root.name);
	free(m);
}

const char *fs_mem_data(const struct fs *fs, const char *path, size_t *len)
{
	struct node *n;
	if (existing(fs, FS_CWD, path, &n) < 0 || n->is_dir)
		return NULL;
	*len = n->len;
	return n->data ? n->data : "";
}

void fs_mem_limit(struct fs *fs, uint64_t n)
{
	struct mem *m = mem_of(fs);
	m->limit = n == UINT64_MAX ? UINT64_MAX : m->written + n;
}

static size_t count_under(const struct node *d)
{
	size_t k = 0;
	for (const struct node *c = d->child; c; c = c->next)
		k += 1 + (c->is_dir ? count_under(c) : 0);
	return k;
}

size_t fs_mem_count(const struct fs *fs)
{
	return count_under(&mem_of(fs)->root);
}
