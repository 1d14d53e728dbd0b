/* bush_write.c — one bush picture into its file; see bush_write.h. */
#include <stdio.h>
#include "draw/bush_write.h"
#include "draw/bush_draw.h"
#include "output/message.h"
#include "outdir/outdir.h"

/* bush_picture_draw with the picture's argument type, for picture_write. */
static void draw_bush(cairo_t *cr, const void *p)
{
	bush_picture_draw(p, cr);
}

int bush_file_write(struct outdir *out, const struct bush_picture *p, enum picture_format fmt,
                    const char *name)
{
	struct outfile *f = outfile_create(out, name);
	FILE *fp = f ? outfile_fp(f) : NULL;
	if (!fp)
		return -1;
	int w = picture_write(fp, fmt, p->width, p->height, draw_bush, p);
	if (w < 0) {
		msg_error("%s/%s: cannot draw the picture%s", outdir_shown(out), name,
		          w == PICTURE_ENOMEM ? ": out of memory" : "");
		outfile_discard(f);
		return -1;
	}
	return outfile_commit(f);
}
