/* decode.h — compressed dumps, recognised by their magic bytes (never by
 * the file name) and inflated as a stream: gzip (zlib), xz (liblzma),
 * zstd (libzstd).  Concatenated members/streams/frames follow each other,
 * as `cat a.gz b.gz` users expect. */
#ifndef DUMPANALYZE_DECODE_H
#define DUMPANALYZE_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum compression { COMP_NONE, COMP_GZIP, COMP_XZ, COMP_ZSTD };

struct decoder;

/* What the first bytes of a stream say it is. */
enum compression decode_detect(const unsigned char *p, size_t n);
const char *decode_name(enum compression c);

/* Where a decoder gets compressed bytes: up to n into buf; how many, 0 at
 * the end, -EAGAIN when none are there yet (bytes pushed by the caller:
 * decode_read then returns DECODE_AGAIN), or -errno. */
typedef long (*decode_source)(void *ctx, unsigned char *buf, size_t n);
/* A decoder reading compressed bytes from source, of which `head`
 * (already read to detect the format) comes first. */
struct decoder *decode_new(enum compression c, decode_source source, void *ctx,
                           const unsigned char *head, size_t nhead);
/* Up to n decompressed bytes into out: > 0 bytes, 0 at the end,
 * DECODE_AGAIN when the source has no bytes yet, -ENOMEM when the
 * decompressor ran out of memory, -1 on another error (a message from
 * decode_error for these two).  A stream cut short ends with 0 and
 * decode_truncated() true. */
#define DECODE_AGAIN (-2)
long decode_read(struct decoder *d, unsigned char *out, size_t n);
const char *decode_error(const struct decoder *d);
int decode_truncated(const struct decoder *d);
uint64_t decode_bytes_in(const struct decoder *d);
enum compression decode_kind(const struct decoder *d);
void decode_free(struct decoder *d);

#endif
