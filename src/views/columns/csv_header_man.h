/* csv_header_man.h — the next columns table (a *_columns.def) as the man
 * page writes its header line: one string literal, "\%A,\:B,\:C", where
 * troff may break the line after a comma and never hyphenates.  Include
 * it as csv_header.h. */
#undef CSVFIRST
#undef CSVCOL
#undef CSVREAD
#define CSVFIRST(kind, name, type, need) "\\%" #name
#define CSVCOL(kind, name, type, need) ",\\:" #name
#define CSVREAD(kind, name, type, need)
