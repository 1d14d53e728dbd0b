/* decode.c — streaming decompression; see decode.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>
#include "input/decode.h"
#include "util/arena.h"

#define RAW_BLOCK (256u * 1024)

struct decoder {
	enum compression kind;
	decode_source source;       /* where compressed bytes come from */
	void *source_ctx;
	unsigned char *raw;         /* compressed bytes not consumed yet */
	size_t raw_pos, raw_len;
	int raw_eof;
	int in_stream;              /* inside a member/stream/frame */
	int truncated;
	uint64_t bytes_in;
	const char *error;
	int nomem;                  /* the error is want of memory */
	z_stream z;
	lzma_stream x;
	ZSTD_DStream *zs;
};

enum compression decode_detect(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return COMP_GZIP;
	if (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return COMP_XZ;
	if (n >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return COMP_ZSTD;
	return COMP_NONE;
}

const char *decode_name(enum compression c)
{
	static const char *const names[] = { "plain", "gzip", "xz", "zstd" };
	return names[c];
}

struct decoder *decode_new(enum compression c, decode_source source, void *ctx,
                           const unsigned char *head, size_t nhead)
{
	struct decoder *d = xrealloc(NULL, sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->kind = c;
	d->source = source;
	d->source_ctx = ctx;
	d->raw = xrealloc(NULL, RAW_BLOCK > nhead ? RAW_BLOCK : nhead);
	memcpy(d->raw, head, nhead);
	d->raw_len = nhead;
	d->bytes_in = nhead;
	return d;
}

/* The decompressor could not get memory: that is the error to say. */
static long no_memory(struct decoder *d)
{
	d->error = "out of memory";
	d->nomem = 1;
	return -ENOMEM;
}

/* Refill the compressed buffer; 0 ok, 1 no bytes yet, -1 read error. */
static int refill(struct decoder *d)
{
	if (d->raw_pos < d->raw_len || d->raw_eof)
		return 0;
	long r = d->source(d->source_ctx, d->raw, RAW_BLOCK);
	if (r == -EAGAIN)
		return 1;
	if (r < 0) {
		d->error = strerror((int)-r);
		return -1;
	}
	d->raw_pos = 0;
	d->raw_len = (size_t)r;
	d->raw_eof = r == 0;
	d->bytes_in += (uint64_t)r;
	return 0;
}

/* 0, or what decode_read returns for the error. */
static long start_stream(struct decoder *d)
{
	int zr;
	lzma_ret xr;
	switch (d->kind) {
	case COMP_GZIP:
		if ((zr = inflateInit2(&d->z, 15 + 16)) != Z_OK) {
			if (zr == Z_MEM_ERROR)
				return no_memory(d);
			d->error = "cannot start the gzip decoder";
			return -1;
		}
		break;
	case COMP_XZ:
		if ((xr = lzma_stream_decoder(&d->x, UINT64_MAX, LZMA_CONCATENATED)) != LZMA_OK) {
			if (xr == LZMA_MEM_ERROR)
				return no_memory(d);
			d->error = "cannot start the xz decoder";
			return -1;
		}
		break;
	case COMP_ZSTD:
		if (!d->zs && !(d->zs = ZSTD_createDStream()))
			return no_memory(d);    /* its only failure */
		ZSTD_initDStream(d->zs);
		break;
	default:
		break;
	}
	d->in_stream = 1;
	return 0;
}

static void end_stream(struct decoder *d)
{
	if (d->kind == COMP_GZIP)
		inflateEnd(&d->z);
	else if (d->kind == COMP_XZ)
		lzma_end(&d->x);
	d->in_stream = 0;
}

long decode_read(struct decoder *d, unsigned char *out, size_t n)
{
	if (d->error)
		return d->nomem ? -ENOMEM : -1;
	size_t produced = 0;
	while (produced == 0) {
		int rf = refill(d);
		if (rf)
			return rf < 0 ? -1 : DECODE_AGAIN;
		size_t avail = d->raw_len - d->raw_pos;
		if (avail == 0 && d->raw_eof) {
			if (d->in_stream && d->kind == COMP_XZ) {
				/* LZMA_CONCATENATED wants LZMA_FINISH to say "done". */
				d->x.next_in = NULL;
				d->x.avail_in = 0;
				d->x.next_out = out;
				d->x.avail_out = n;
				lzma_ret r = lzma_code(&d->x, LZMA_FINISH);
				produced = n - d->x.avail_out;
				if (r == LZMA_STREAM_END) {
					end_stream(d);
				} else if (r == LZMA_MEM_ERROR || r == LZMA_MEMLIMIT_ERROR) {
					return no_memory(d);
				} else if (r != LZMA_OK || produced == 0) {
					d->truncated = r == LZMA_BUF_ERROR || r == LZMA_OK;
					if (!d->truncated) {
						d->error = "corrupt xz data";
						return -1;
					}
					end_stream(d);
				}
				if (produced)
					break;
				return 0;
			}
			if (d->in_stream)
				d->truncated = 1;
			return 0;
		}
		long e;
		if (!d->in_stream && (e = start_stream(d)) < 0)
			return e;
		const unsigned char *in = d->raw + d->raw_pos;
		size_t used = 0;
		switch (d->kind) {
		case COMP_GZIP: {
			d->z.next_in = (unsigned char *)in;
			d->z.avail_in = (uInt)avail;
			d->z.next_out = out;
			d->z.avail_out = (uInt)n;
			int r = inflate(&d->z, Z_NO_FLUSH);
			used = avail - d->z.avail_in;
			produced = n - d->z.avail_out;
			if (r == Z_STREAM_END)
				end_stream(d);      /* another member may follow */
			else if (r == Z_MEM_ERROR)
				return no_memory(d);
			else if (r != Z_OK && r != Z_BUF_ERROR) {
				d->error = "corrupt gzip data";
				return produced ? (long)produced : -1;     /* the error next */
			}
			break;
		}
		case COMP_XZ: {
			d->x.next_in = in;
			d->x.avail_in = avail;
			d->x.next_out = out;
			d->x.avail_out = n;
			lzma_ret r = lzma_code(&d->x, LZMA_RUN);
			used = avail - d->x.avail_in;
			produced = n - d->x.avail_out;
			if (r == LZMA_STREAM_END)
				end_stream(d);
			else if (r == LZMA_MEM_ERROR || r == LZMA_MEMLIMIT_ERROR)
				return no_memory(d);
			else if (r != LZMA_OK && r != LZMA_BUF_ERROR) {
				d->error = "corrupt xz data";
				return produced ? (long)produced : -1;     /* the error next */
			}
			break;
		}
		case COMP_ZSTD: {
			ZSTD_inBuffer ib = { in, avail, 0 };
			ZSTD_outBuffer ob = { out, n, 0 };
			size_t r = ZSTD_decompressStream(d->zs, &ob, &ib);
			if (ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
				return no_memory(d);
			if (ZSTD_isError(r)) {
				d->error = "corrupt zstd data";
				return ob.pos ? (long)ob.pos : -1;       /* the error next */
			}
			used = ib.pos;
			produced = ob.pos;
			if (r == 0)
				d->in_stream = 0;   /* frame done; another may follow */
			break;
		}
		default:
			d->error = "not a compressed stream";
			return -1;
		}
		d->raw_pos += used;
		/* Garbage after a complete gzip member is not another member. */
		if (!d->in_stream && d->kind == COMP_GZIP && d->raw_pos < d->raw_len &&
		    d->raw[d->raw_pos] != 0x1f) {
			d->error = "trailing garbage after gzip data";
			return produced ? (long)produced : -1;
		}
		if (used == 0 && produced == 0 && d->raw_pos == d->raw_len && d->raw_eof) {
			if (d->in_stream)
				d->truncated = 1;
			return 0;
		}
	}
	return (long)produced;
}

const char *decode_error(const struct decoder *d) { return d->error ? d->error : "read error"; }
int decode_truncated(const struct decoder *d) { return d->truncated; }
uint64_t decode_bytes_in(const struct decoder *d) { return d->bytes_in; }
enum compression decode_kind(const struct decoder *d) { return d->kind; }

void decode_free(struct decoder *d)
{
	if (!d)
		return;
	if (d->in_stream)
		end_stream(d);
	if (d->zs)
		ZSTD_freeDStream(d->zs);
	free(d->raw);
	free(d);
}
