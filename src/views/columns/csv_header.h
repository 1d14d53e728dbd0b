/* csv_header.h — the next columns table (a *_columns.def) as its CSV
 * header line: one string literal, "ID,PARENT,...".  Include this right
 * before the .def, inside the expression that uses the literal; it may be
 * included again for the next one. */
#undef CSVFIRST
#undef CSVCOL
#undef CSVREAD
#define CSVFIRST(kind, name, type, need) #name
#define CSVCOL(kind, name, type, need) "," #name
#define CSVREAD(kind, name, type, need)
