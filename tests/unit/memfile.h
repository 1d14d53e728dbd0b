/* memfile.h — a picture written into memory (open_memstream) and read
 * back with cairo's PNG reader, for the unit tests of the picture
 * writers.  Include after <cmocka.h> and <cairo.h>. */
#ifndef DUMPANALYZE_TEST_MEMFILE_H
#define DUMPANALYZE_TEST_MEMFILE_H

#include <stdint.h>
#include <string.h>

struct memfile { char *buf; size_t len; };

static uint32_t be32(const void *p)
{
	const unsigned char *u = p;
	return (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3];
}

struct memfile_reader { const struct memfile *m; size_t at; };

static cairo_status_t memfile_read(void *closure, unsigned char *data, unsigned int len)
{
	struct memfile_reader *r = closure;
	if (r->m->len - r->at < len)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, r->m->buf + r->at, len);
	r->at += len;
	return CAIRO_STATUS_SUCCESS;
}

/* The PNG in m, decoded; asserts that it decoded. */
static cairo_surface_t *decode_png(const struct memfile *m)
{
	struct memfile_reader r = { m, 0 };
	cairo_surface_t *sf = cairo_image_surface_create_from_png_stream(memfile_read, &r);
	assert_int_equal(cairo_surface_status(sf), CAIRO_STATUS_SUCCESS);
	return sf;
}

#endif
