/* text.c — the dump's own text of each trace and aborted attempt, for the
 * report's trace panels: gathered per generation into chunks of about
 * HTML_CHUNK_RAW bytes, each gzip-compressed, base64-encoded and written
 * as gen-N-text-K.js (one call, DA_CHUNK(N, K, "..."), so a page loads it
 * with a <script> from file:// and decompresses it with
 * DecompressionStream).  The run keeps text in dump order until the
 * chunks written reach HTML_TEXT_FULL, then without the machine code
 * until HTML_TEXT_BUDGET; what comes after is not kept, and the page
 * names its lines in the dump instead. */
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include "views/html/html.h"
#include "outdir/outdir.h"
#include "util/alloc.h"

/* Fast and still about 6:1 on trace text (bench/RESULTS.md). */
#define TEXT_LEVEL 4

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t base64(char *out, const unsigned char *in, size_t n)
{
	size_t o = 0, i = 0;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = b64[(v >> 6) & 63];
		out[o++] = b64[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
		out[o++] = b64[v >> 18];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	return o;
}

static int flush_chunk(struct html_text *h, struct view_ctx *c)
{
	if (!h->len)
		return 0;
	if (!h->compressor && !(h->compressor = libdeflate_alloc_compressor(TEXT_LEVEL)))
		out_of_memory();        /* its only failure */
	size_t bound = libdeflate_gzip_compress_bound(h->compressor, h->len);
	unsigned char *z = xrealloc(NULL, bound);
	size_t zn = libdeflate_gzip_compress(h->compressor, h->raw, h->len, z, bound);
	char *text = xrealloc(NULL, (zn + 2) / 3 * 4 + 64);
	int n = snprintf(text, 64, "DA_CHUNK(%u,%d,\"", h->gen, h->chunk);
	size_t tn = (size_t)n + base64(text + n, z, zn);
	memcpy(text + tn, "\");\n", 4);
	tn += 4;
	free(z);
	char name[64];
	snprintf(name, sizeof(name), "text-%d.js", h->chunk);
	struct da_gen g = { .number = h->gen };
	struct outfile *f = view_create_file(c, &g, name);
	int r = f ? outfile_write(f, text, tn) : -1;
	free(text);
	if (f)
		r |= outfile_commit(f);
	h->written += tn;
	h->chunk++;
	h->len = 0;
	return r ? -1 : 0;
}

int html_text_add(struct html_text *h, struct view_ctx *c, uint32_t gen,
                  const struct da_trace_text *tx, struct html_text_ref *ref)
{
	memset(ref, 0, sizeof(*ref));
	ref->chunk = -1;
	if (h->gen != gen) {
		h->gen = gen;
		h->chunk = 0;
		h->len = 0;
	}
	size_t total = 0;
	for (int s = 0; tx && s < DA_SEC_COUNT; s++)
		total += tx->len[s];
	if (!tx || !total)
		return 0;
	if (h->written >= HTML_TEXT_BUDGET || total > UINT32_MAX / 2) {
		h->dropped++;
		return 0;
	}
	int no_mcode = h->written >= HTML_TEXT_FULL && tx->len[DA_SEC_MCODE];
	if (no_mcode) {
		total -= tx->len[DA_SEC_MCODE];
		ref->no_mcode = 1;
	}
	if (h->len && h->len + total > HTML_CHUNK_RAW && flush_chunk(h, c) < 0)
		return -1;
	ALLOC_GROW(h->raw, h->len + total, h->cap);
	ref->chunk = h->chunk;
	ref->off = (uint32_t)h->len;
	for (int s = 0; s < DA_SEC_COUNT; s++) {
		if (s == DA_SEC_MCODE && no_mcode)
			continue;
		memcpy(h->raw + h->len, tx->buf + tx->off[s], tx->len[s]);
		h->len += tx->len[s];
		ref->len[s] = (uint32_t)tx->len[s];
	}
	h->kept++;
	return 0;
}

int html_text_gen_end(struct html_text *h, struct view_ctx *c, uint32_t gen)
{
	if (h->gen != gen)
		return 0;
	if (flush_chunk(h, c) < 0)
		return -1;
	int n = h->chunk;
	h->chunk = 0;
	h->gen = 0;
	return n;
}

void html_text_free(struct html_text *h)
{
	free(h->raw);
	if (h->compressor)
		libdeflate_free_compressor(h->compressor);
	memset(h, 0, sizeof(*h));
}
