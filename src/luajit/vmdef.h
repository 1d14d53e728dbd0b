/* vmdef.h — a LuaJIT build's own bytecode numbering, read from the text of
 * its jit/vmdef.lua (--luajit-vmdef): the bcnames string, six characters
 * per opcode in number order.  The file is parsed as text, never run. */
#ifndef DUMPANALYZE_VMDEF_H
#define DUMPANALYZE_VMDEF_H

#include <stddef.h>

#define VMDEF_BC_MAX 256

struct vmdef {
	char bc[VMDEF_BC_MAX][7];   /* names, blanks trimmed */
	unsigned nbc;
};

/* Read path into v.  Returns 0, -1 when it cannot be read (errno kept),
 * -2 when it holds no bcnames string of six-character names. */
int vmdef_read(const char *path, struct vmdef *v);
/* The same from text in memory. */
int vmdef_parse(const char *text, size_t len, struct vmdef *v);
/* The name of the opcode whose decimal number is num[0..len), or NULL. */
const char *vmdef_bcname(const struct vmdef *v, const char *num, size_t len);

#endif
