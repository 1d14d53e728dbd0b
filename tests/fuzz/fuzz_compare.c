/* fuzz_compare.c — libFuzzer target: arbitrary bytes as one side of
 * `--compare` (compare_dirs: manifest_in.c, csvin.c, runfile.c and
 * compare_read.c read it, compare_align.c and compare_views.c report).
 * The input is an output directory packed as `head` prints several files:
 *
 *   ==> manifest.json <==
 *   ...its bytes...
 *   ==> gen-1-traces.csv <==
 *   ...
 *
 * (a section starts at a line that is exactly "==> NAME <==", NAME 1-64
 * of [A-Za-z0-9._-] not starting with '.'; its bytes run to the next
 * such line; bytes before the first are dropped).  It is unpacked into a directory of its own
 * on tmpfs (the readers open files by name, with fstat and O_NONBLOCK:
 * they are the thing under test) and compared with a real run's output
 * (`seeds.sh --compare-old`, compiled in): as NEW, or as OLD when the
 * input's length has bit 1 set; with --json when bit 0 is set, whose
 * report, when there is one, must be one JSON object.  Seeds: real runs' directories
 * packed (seeds.sh); dictionary: compare.dict. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "compare/compare.h"
#include "fuzz_run.h"
#include "fuzz_compare_old.h"       /* generated: compare_old[], its length */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char base[64], old_dir[96], new_dir[96];

/* Whether name may be a file of the packed directory. */
static int good_name(const char *s, size_t n)
{
	if (n == 0 || n > 64 || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return 0;
	return 1;
}

static void put_file(const char *dir, const char *name, size_t n, const uint8_t *p, size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)n, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	FUZZ_CHECK(fd >= 0);
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		FUZZ_CHECK(w > 0);
		p += w;
		len -= (size_t)w;
	}
	FUZZ_CHECK(close(fd) == 0);
}

/* A section starts at a line "==> NAME <==" (any other line is a
 * section's bytes, up to the next such line: the newline before it is
 * theirs).  tests/cli/formats.sh unpacks with csplit by the same rule. */
static int header_at(const uint8_t *p, size_t left, const char **name, size_t *n, size_t *len)
{
	const uint8_t *nl = memchr(p, '\n', left);
	if (!nl)
		return 0;
	size_t l = (size_t)(nl - p);
	if (l < 9 || memcmp(p, "==> ", 4) != 0 || memcmp(nl - 4, " <==", 4) != 0 ||
	    !good_name((const char *)p + 4, l - 8))
		return 0;
	*name = (const char *)p + 4;
	*n = l - 8;
	*len = l + 1;
	return 1;
}

static void unpack(const char *dir, const uint8_t *p, size_t size)
{
	size_t i = 0;
	const char *name = NULL;
	size_t n = 0, start = 0;
	while (i <= size) {
		const char *nm;
		size_t nn, hl;
		int at_line = i == 0 || p[i - 1] == '\n';
		if (i == size || (at_line && header_at(p + i, size - i, &nm, &nn, &hl))) {
			if (name)
				put_file(dir, name, n, p + start, i - start);
			if (i == size)
				break;
			name = nm;
			n = nn;
			i += hl;
			start = i;
			continue;
		}
		const uint8_t *nl = memchr(p + i, '\n', size - i);
		i = nl ? (size_t)(nl - p) + 1 : size;
	}
}

static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	FUZZ_CHECK(d);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		FUZZ_CHECK(unlinkat(dirfd(d), e->d_name, 0) == 0);
	}
	closedir(d);
}

static void remove_dirs(void)
{
	empty_dir(old_dir);
	empty_dir(new_dir);
	rmdir(old_dir);
	rmdir(new_dir);
	rmdir(base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(base, sizeof(base), "%s/fuzz_compare.XXXXXX", tmp);
	FUZZ_CHECK(mkdtemp(base));
	snprintf(old_dir, sizeof(old_dir), "%s/old", base);
	snprintf(new_dir, sizeof(new_dir), "%s/new", base);
	FUZZ_CHECK(mkdir(old_dir, 0755) == 0 && mkdir(new_dir, 0755) == 0);
	atexit(remove_dirs);
	unpack(old_dir, compare_old, sizeof(compare_old));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	empty_dir(new_dir);
	unpack(new_dir, data, size);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	FUZZ_CHECK(out);
	struct compare_opts o = {
		.fail_on = "aborts+10%,aborts+5,traces-10%,new-reasons,new-sites",
		.json = size & 1,
		.allow_empty = 0,
	};
	int r = size & 2 ? compare_dirs(new_dir, old_dir, &o, out)
	                 : compare_dirs(old_dir, new_dir, &o, out);
	FUZZ_CHECK(fclose(out) == 0);
	/* 0 or 1: a report (the rules parse, so never -1); 2: a side that
	 * does not read (nothing), or a rule it cannot evaluate (a report) */
	FUZZ_CHECK(r == 0 || r == 1 || r == 2);
	FUZZ_CHECK(r == 2 || len > 0);
	if (o.json && len > 0) {
		json_error_t err;
		json_t *j = json_loadb(text, len, 0, &err);
		FUZZ_CHECK(j && json_is_object(j));
		json_decref(j);
	}
	free(text);
	return 0;
}
