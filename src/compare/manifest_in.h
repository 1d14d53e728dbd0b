/* manifest_in.h — a run's manifest.json as --compare reads it: a run's
 * own directory reads its previous manifest forgivingly (it must clean up
 * whatever it finds), a comparison strictly, for a manifest is what it
 * trusts to tell which views exist and which files hold them. */
#ifndef DUMPANALYZE_MANIFEST_IN_H
#define DUMPANALYZE_MANIFEST_IN_H

#include "compare/runfile.h"
#include "outdir/manifest.h"

/* Read d's manifest.json into m, every field checked (type, range, file
 * names that are entries of d).  0, 1 when there is none, -1 after a
 * message naming the file and the field. */
int manifest_in_read(const struct runfile_dir *d, struct manifest *m);

#endif
