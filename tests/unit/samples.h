/* samples.h — the sample dumps for the API's unit tests: a file's bytes,
 * gzip'd bytes, and the path of every dump in samples/ (plain and .xz).  Run from the
 * top of the tree.  Include after <cmocka.h>. */
#ifndef DUMPANALYZE_TEST_SAMPLES_H
#define DUMPANALYZE_TEST_SAMPLES_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The file's bytes, malloc'd, with a NUL after them. */
static inline char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	long n = ftell(fp);
	assert_true(n > 0);
	assert_int_equal(fseek(fp, 0, SEEK_SET), 0);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* bytes as one gzip member, malloc'd (the test links zlib). */
static inline unsigned char *gzip_bytes(const char *bytes, size_t len, size_t *out)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&z, (uLong)len);
	unsigned char *gz = malloc(cap);
	assert_non_null(gz);
	z.next_in = (unsigned char *)(uintptr_t)bytes;
	z.avail_in = (uInt)len;
	z.next_out = gz;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out = cap - z.avail_out;
	deflateEnd(&z);
	return gz;
}

/* "samples/NAME" for every NAME.dump and NAME.dump.xz there, malloc'd
 * (free each and the array). */
static inline char **sample_paths(size_t *n)
{
	DIR *dir = opendir("samples");
	assert_non_null(dir);
	char **v = NULL;
	*n = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		size_t k = strlen(e->d_name);
		if (!(k > 5 && strcmp(e->d_name + k - 5, ".dump") == 0) &&
		    !(k > 8 && strcmp(e->d_name + k - 8, ".dump.xz") == 0))
			continue;
		v = realloc(v, (*n + 1) * sizeof(*v));
		assert_non_null(v);
		v[*n] = malloc(k + sizeof("samples/"));
		assert_non_null(v[*n]);
		snprintf(v[*n], k + sizeof("samples/"), "samples/%s", e->d_name);
		(*n)++;
	}
	closedir(dir);
	return v;
}

#endif
