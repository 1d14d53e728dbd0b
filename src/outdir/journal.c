/* journal.c — a commit's intent record, written and read back; see
 * journal.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "outdir/journal.h"
#include "util/alloc.h"
#include "util/strbuf.h"

#define MAGIC "dumpanalyze-commit 1\n"
#define JOURNAL_MAX (64u << 20)

static int plain(unsigned char c)
{
	return c > ' ' && c != '%' && c != 0x7f;
}

static void put_name(struct strbuf *b, const char *word, const char *name)
{
	strbuf_addstr(b, word);
	strbuf_add(b, " ", 1);
	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		char esc[4];
		if (plain(*s)) {
			strbuf_add(b, (const char *)s, 1);
		} else {
			snprintf(esc, sizeof(esc), "%%%02X", *s);
			strbuf_add(b, esc, 3);
		}
	}
	strbuf_add(b, "\n", 1);
}

void journal_add(char ***list, size_t *n, const char *name)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	size_t len = strlen(name) + 1;
	(*list)[(*n)++] = memcpy(xrealloc(NULL, len), name, len);
}

static int component_ok(const char *s, size_t n)
{
	return n > 0 && !(n == 1 && s[0] == '.') && !(n == 2 && s[0] == '.' && s[1] == '.');
}

int journal_path_ok(const char *p)
{
	const char *slash = strchr(p, '/');
	if (!slash)
		return component_ok(p, strlen(p));
	return component_ok(p, (size_t)(slash - p)) && !strchr(slash + 1, '/') &&
	       component_ok(slash + 1, strlen(slash + 1));
}

int journal_write(const struct fs *fs, int stage, const struct journal *j)
{
	struct strbuf b = STRBUF_INIT;
	char line[128];
	strbuf_addstr(&b, MAGIC);
	snprintf(line, sizeof(line), "pid %ld\nmanifest %llu %08lx\n", j->pid,
	         (unsigned long long)j->manifest_bytes, (unsigned long)j->manifest_crc);
	strbuf_addstr(&b, line);
	for (size_t i = 0; i < j->nbackups; i++)
		put_name(&b, "backup", j->backups[i]);
	for (size_t i = 0; i < j->nmkdirs; i++)
		put_name(&b, "mkdir", j->mkdirs[i]);
	for (size_t i = 0; i < j->nmoves; i++)
		put_name(&b, "move", j->moves[i]);
	for (size_t i = 0; i < j->nrmdirs; i++)
		put_name(&b, "rmdir", j->rmdirs[i]);
	uLong crc = crc32(0L, (const Bytef *)b.buf, (uInt)b.len);
	snprintf(line, sizeof(line), "end %08lx\n", (unsigned long)crc);
	strbuf_addstr(&b, line);
	int r = fs_write_file(fs, stage, JOURNAL_NAME, b.buf, b.len, 1);
	if (r == 0)
		r = FS_CALL(fs, fsync, stage);
	strbuf_release(&b);
	return r;
}

static int hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
	     : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* An escaped name back into bytes, in place: 0, or -1 if it is bad. */
static int unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (*s != '%') {
			*o++ = *s;
			continue;
		}
		int h = hex((unsigned char)s[1]), l = h < 0 ? -1 : hex((unsigned char)s[2]);
		if (l < 0 || (h == 0 && l == 0))
			return -1;
		*o++ = (char)(h * 16 + l);
		s += 2;
	}
	*o = '\0';
	return 0;
}

static int parse(char *text, size_t len, struct journal *j)
{
	if (len < sizeof(MAGIC) - 1 || memcmp(text, MAGIC, sizeof(MAGIC) - 1) != 0)
		return -EBADMSG;
	/* The last line is "end CRC", over everything before it. */
	if (text[len - 1] != '\n')
		return -EBADMSG;
	text[len - 1] = '\0';
	char *last = strrchr(text, '\n');
	if (!last || strncmp(last + 1, "end ", 4) != 0)
		return -EBADMSG;
	/* exactly as written: eight lowercase hex digits */
	const char *digits = last + 5;
	if (strlen(digits) != 8 || strspn(digits, "0123456789abcdef") != 8)
		return -EBADMSG;
	unsigned long want = strtoul(digits, NULL, 16);
	if (crc32(0L, (const Bytef *)text, (uInt)(last + 1 - text)) != want)
		return -EBADMSG;
	*last = '\0';
	int seen_manifest = 0;
	char *save = NULL;
	for (char *line = strtok_r(text + sizeof(MAGIC) - 1, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *arg = strchr(line, ' ');
		if (!arg)
			return -EBADMSG;
		*arg++ = '\0';
		if (strcmp(line, "pid") == 0) {
			j->pid = strtol(arg, NULL, 10);
			continue;
		}
		if (strcmp(line, "manifest") == 0) {
			unsigned long long bytes;
			unsigned long crc;
			if (sscanf(arg, "%llu %lx", &bytes, &crc) != 2)
				return -EBADMSG;
			j->manifest_bytes = bytes;
			j->manifest_crc = (uint32_t)crc;
			seen_manifest = 1;
			continue;
		}
		if (unescape(arg) < 0 || !journal_path_ok(arg))
			return -EBADMSG;
		if (strcmp(line, "backup") == 0)
			journal_add(&j->backups, &j->nbackups, arg);
		else if (strcmp(line, "mkdir") == 0)
			journal_add(&j->mkdirs, &j->nmkdirs, arg);
		else if (strcmp(line, "move") == 0)
			journal_add(&j->moves, &j->nmoves, arg);
		else if (strcmp(line, "rmdir") == 0)
			journal_add(&j->rmdirs, &j->nrmdirs, arg);
		else
			return -EBADMSG;
	}
	return seen_manifest ? 0 : -EBADMSG;
}

int journal_read(const struct fs *fs, int stage, struct journal *j)
{
	memset(j, 0, sizeof(*j));
	char *text;
	ssize_t len = fs_read_all(fs, stage, JOURNAL_NAME, JOURNAL_MAX, &text);
	if (len == -ENOENT)
		return 1;
	if (len == -EFBIG || len == -EINVAL)
		return -EBADMSG;
	if (len < 0)
		return (int)len;
	int r = parse(text, (size_t)len, j);
	free(text);
	if (r < 0)
		journal_free(j);
	return r;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void journal_free(struct journal *j)
{
	free_list(j->backups, j->nbackups);
	free_list(j->mkdirs, j->nmkdirs);
	free_list(j->moves, j->nmoves);
	free_list(j->rmdirs, j->nrmdirs);
	memset(j, 0, sizeof(*j));
}
