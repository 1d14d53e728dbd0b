/* json.h — text for jansson: any bytes as a valid JSON string. */
#ifndef DUMPANALYZE_JSON_H
#define DUMPANALYZE_JSON_H

#include <stddef.h>
#include <jansson.h>

/* A JSON string of the bytes, sequences that are not UTF-8 as U+FFFD
 * (chunk names and paths may hold any byte; JSON strings cannot). */
json_t *json_text(const char *s, size_t n);
/* The length of the valid UTF-8 sequence that starts s (n > 0 bytes
 * there), or 0 when none does. */
size_t json_utf8_len(const char *s, size_t n);

#endif
