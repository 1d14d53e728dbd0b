/* picture.h — writing a cairo drawing as a PNG or SVG file, and text that
 * cairo can show, for every picture the views draw (bushes, flame
 * graphs).  Same drawing, same bytes: PNG rows compressed by zlib with
 * fixed settings, SVG with cairo's process-wide surface ids renumbered. */
#ifndef DUMPANALYZE_PICTURE_H
#define DUMPANALYZE_PICTURE_H

#include <stddef.h>
#include <stdio.h>
#include <cairo.h>

enum picture_format { PICTURE_PNG, PICTURE_SVG };

#define PICTURE_FONT "DejaVu Sans Mono"
#define PICTURE_CHAR_W 0.602    /* its advance per pixel of font size */

#define PICTURE_ENOMEM (-2)

/* Draw with draw(cr, arg) on a width x height surface and write it to fp
 * in the format.  0, PICTURE_ENOMEM when memory ran out (cairo's, the
 * pixels', the compressor's), or -1 when cairo or the writing failed.  A PNG's
 * surface holds the pixels of the picture before it, so draw paints every
 * pixel (a background first).  Pictures are drawn by one thread per
 * process. */
int picture_write(FILE *fp, enum picture_format fmt, double width, double height,
                  void (*draw)(cairo_t *cr, const void *arg), const void *arg);
/* Give back the pixels kept for the next picture, and cairo's and
 * fontconfig's caches, so that leak checkers see only our own memory:
 * at the end of the views that draw, and of a worker. */
void picture_release(void);
/* Show n bytes at (x, y) in the current font at size, cut with an
 * ellipsis to what fits in width; invalid UTF-8 shows as '?', control
 * bytes as spaces. */
void picture_text(cairo_t *cr, double x, double y, double size, double width,
                  const char *s, size_t n);
/* The same for printf-style text. */
void picture_textf(cairo_t *cr, double x, double y, double size, double width,
                   const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

#endif
