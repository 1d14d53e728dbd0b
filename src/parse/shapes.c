/* shapes.c — the line shapes of shapes.h as functions, for the tests. */
#include "parse/shapes.h"

int shape_bytecode(const char *p, size_t n) { return shape_bytecode_at(p, n); }
int shape_ir(const char *p, size_t n) { return shape_ir_at(p, n); }
int shape_snapshot(const char *p, size_t n) { return shape_snapshot_at(p, n); }
int shape_mcode(const char *p, size_t n) { return shape_mcode_at(p, n); }
int shape_exit_regs(const char *p, size_t n) { return shape_exit_regs_at(p, n); }
