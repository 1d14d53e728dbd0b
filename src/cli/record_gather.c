/* record_gather.c — what one run of record left: the files its LuaJIT
 * processes wrote (STEM.PID, one per process that read LUA_INIT), counted,
 * and the one that wrote something compressed with zstd into the run
 * set. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "cli/record.h"

#define ZSTD_LEVEL 3            /* dumps shrink about 10x at level 3, fast */

static int fail(char *err, size_t len, const char *what, const char *path, const char *why)
{
	snprintf(err, len, "%s %s: %s", what, path, why);
	return -1;
}

int record_compress(const char *path, const char *dest, char *err, size_t len)
{
	FILE *in = fopen(path, "rb");
	if (!in)
		return fail(err, len, "cannot read", path, strerror(errno));
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", dest, (long)getpid());
	FILE *out = fopen(tmp, "wb");
	if (!out) {
		fclose(in);
		return fail(err, len, "cannot write", tmp, strerror(errno));
	}
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t inlen = ZSTD_CStreamInSize(), outlen = ZSTD_CStreamOutSize();
	char *ibuf = malloc(inlen), *obuf = malloc(outlen);
	int ret = cc && ibuf && obuf ? 0 : fail(err, len, "cannot compress", path, "out of memory");
	if (ret == 0)
		ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, ZSTD_LEVEL);
	for (int last = 0; ret == 0 && !last;) {
		size_t n = fread(ibuf, 1, inlen, in);
		if (ferror(in)) {
			ret = fail(err, len, "cannot read", path, strerror(errno));
			break;
		}
		last = n < inlen;
		ZSTD_inBuffer ib = { ibuf, n, 0 };
		int finished;
		do {
			ZSTD_outBuffer ob = { obuf, outlen, 0 };
			size_t left = ZSTD_compressStream2(cc, &ob, &ib, last ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(left)) {
				ret = fail(err, len, "cannot compress", path, ZSTD_getErrorName(left));
				break;
			}
			if (fwrite(obuf, 1, ob.pos, out) != ob.pos) {
				ret = fail(err, len, "cannot write", tmp, strerror(errno));
				break;
			}
			finished = last ? left == 0 : ib.pos == ib.size;
		} while (!finished);
	}
	ZSTD_freeCCtx(cc);
	free(ibuf);
	free(obuf);
	fclose(in);
	if (fflush(out) != 0 || fsync(fileno(out)) != 0)
		ret = ret < 0 ? ret : fail(err, len, "cannot write", tmp, strerror(errno));
	if (fclose(out) != 0 && ret == 0)
		ret = fail(err, len, "cannot write", tmp, strerror(errno));
	if (ret == 0 && rename(tmp, dest) != 0)
		ret = fail(err, len, "cannot rename to", dest, strerror(errno));
	if (ret < 0)
		unlink(tmp);
	return ret;
}

/* NAME is STEM.PID: the PID, else -1. */
static long pid_of(const char *name, const char *stem)
{
	size_t n = strlen(stem);
	if (strncmp(name, stem, n) != 0 || name[n] != '.' || !name[n + 1])
		return -1;
	char *end;
	long pid = strtol(name + n + 1, &end, 10);
	return *end || pid < 0 ? -1 : pid;
}

int record_gather(const char *dir, const char *stem, const char *dest,
                  struct record_gathered *g, char *err, size_t len)
{
	memset(g, 0, sizeof(*g));
	DIR *d = opendir(dir);
	if (!d)
		return fail(err, len, "cannot read", dir, strerror(errno));
	char chosen[4096] = "";
	struct dirent *e;
	while ((e = readdir(d))) {
		long pid = pid_of(e->d_name, stem);
		if (pid < 0)
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		g->files++;
		if (st.st_size == 0)
			continue;
		/* a flat-out tie on size keeps the first, but more than one is refused anyway */
		g->nonempty++;
		g->pid = pid;
		g->bytes = (uint64_t)st.st_size;
		snprintf(chosen, sizeof(chosen), "%s", path);
	}
	closedir(d);
	if (g->nonempty != 1)
		return 0;
	return record_compress(chosen, dest, err, len);
}
