/* header.c — parse "---- TRACE ..." lines, in the syntax of LuaJIT's
 * jit/dump.lua (2.0 and 2.1); see header.h. */
#include <string.h>
#include "parse/header.h"

#define PREFIX "---- TRACE "
#define PREFIX_LEN (sizeof(PREFIX) - 1)

static const char *const kind_words[] = {
#define HEADER(e, w) w,
#include "parse/header_kinds.def"
#undef HEADER
};

static const char *const link_words[] = {
#define LINK(e, w) w,
#include "parse/link_types.def"
#undef LINK
	"other",
};

const char *header_kind_word(enum header_kind k)
{
	return k < HEADER_KIND_COUNT ? kind_words[k] : "?";
}

const char *link_kind_word(enum da_link k)
{
	return k < DA_LINK_COUNT ? link_words[k] : "?";
}

int header_is(const char *p, size_t n)
{
	return n >= PREFIX_LEN && memcmp(p, PREFIX, PREFIX_LEN) == 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse a decimal number of at most 9 digits at p[*i]. */
static int number(const char *p, size_t n, size_t *i, uint32_t *out)
{
	size_t start = *i;
	uint32_t v = 0;
	while (*i < n && is_digit(p[*i]) && *i - start < 9)
		v = v * 10 + (uint32_t)(p[(*i)++] - '0');
	if (*i == start || (*i < n && is_digit(p[*i])))
		return 0;
	*out = v;
	return 1;
}

static int word_is(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n == k && memcmp(p, w, k) == 0;
}

/* A quoted chunk name ("...") is complete once `":DIGITS` ends it. */
static int quoted_loc_done(const char *p, size_t n)
{
	size_t i = n;
	while (i > 0 && is_digit(p[i - 1]))
		i--;
	return i < n && i >= 3 && p[i - 1] == ':' && p[i - 2] == '"';
}

static enum header_result parse_start(const char *p, size_t n,
                                      struct header *h, const char **why)
{
	size_t i = 0;
	h->parent = 0;
	h->parent_exit = PARENT_EXIT_NONE;
	/* Optional "P/E " or "P/stitch " before the location. */
	size_t j = 0;
	uint32_t parent;
	if (number(p, n, &j, &parent) && j < n && p[j] == '/' &&
	    parent <= TRACE_NUMBER_MAX) {
		size_t k = j + 1;
		uint32_t ex;
		if (n - k >= 7 && memcmp(p + k, "stitch ", 7) == 0) {
			h->parent = parent;
			h->parent_exit = PARENT_EXIT_STITCH;
			i = k + 7;
		} else if (number(p, n, &k, &ex) && k < n && p[k] == ' ') {
			h->parent = parent;
			h->parent_exit = (int32_t)ex;
			i = k + 1;
		}
	}
	if (i >= n) {
		*why = "start without a location";
		return HEADER_BAD;
	}
	h->loc_text = p + i;
	h->loc_len = n - i;
	if (p[i] == '"' && !quoted_loc_done(p + i, n - i))
		return HEADER_INCOMPLETE;
	loc_split(h->loc_text, h->loc_len, &h->loc);
	return HEADER_OK;
}

static enum header_result parse_abort(const char *p, size_t n,
                                      struct header *h, const char **why)
{
	int quoted = n > 0 && p[0] == '"';
	size_t first = n, best = n;
	for (size_t i = 0; i + 4 <= n; i++) {
		if (memcmp(p + i, " -- ", 4) != 0)
			continue;
		if (first == n)
			first = i;
		/* Prefer a separator right after ":LINE" (after `":LINE` for
		 * a quoted chunk name): chunk names may contain " -- ". */
		size_t k = i;
		while (k > 0 && is_digit(p[k - 1]))
			k--;
		if (k < i && k > 0 && p[k - 1] == ':' &&
		    (!quoted || (k >= 2 && p[k - 2] == '"'))) {
			best = i;
			break;
		}
	}
	if (best == n) {
		if (quoted)
			return HEADER_INCOMPLETE;
		best = first;
	}
	if (best == n) {
		*why = "abort without \" -- reason\"";
		return HEADER_BAD;
	}
	if (best == 0) {
		*why = "abort without a location";
		return HEADER_BAD;
	}
	h->loc_text = p;
	h->loc_len = best;
	loc_split(p, best, &h->loc);
	h->reason = p + best + 4;
	h->reason_len = n - best - 4;
	return HEADER_OK;
}

static enum header_result parse_stop(const char *p, size_t n,
                                     struct header *h, const char **why)
{
	if (n < 4 || memcmp(p, "-> ", 3) != 0) {
		*why = "stop without \"-> LINK\"";
		return HEADER_BAD;
	}
	p += 3;
	n -= 3;
	h->link = p;
	h->link_len = n;
	h->link_target = 0;
	size_t i = 0;
	const char *w = p;
	size_t wn = n;
	if (number(p, n, &i, &h->link_target)) {
		if (i == n) {
			h->link_kind = DA_LINK_ROOT;
			return HEADER_OK;
		}
		if (p[i] != ' ') {
			h->link_kind = DA_LINK_OTHER;
			return HEADER_OK;
		}
		w = p + i + 1;
		wn = n - i - 1;
	}
	h->link_kind = DA_LINK_OTHER;
	for (int k = 0; k < DA_LINK_OTHER; k++)
		if (word_is(w, wn, link_words[k]))
			h->link_kind = (enum da_link)k;
	return HEADER_OK;
}

enum header_result header_parse(const char *p, size_t n, struct header *h,
                                const char **why)
{
	memset(h, 0, sizeof(*h));
	*why = NULL;
	if (!header_is(p, n))
		return HEADER_NOT;
	p += PREFIX_LEN;
	n -= PREFIX_LEN;
	if (word_is(p, n, "flush")) {
		h->kind = HEADER_FLUSH;
		return HEADER_OK;
	}
	size_t i = 0;
	if (!number(p, n, &i, &h->id) || i >= n || p[i] != ' ') {
		*why = "trace number missing or malformed";
		return HEADER_BAD;
	}
	if (h->id > TRACE_NUMBER_MAX) {
		*why = "trace number above 65535";
		return HEADER_BAD;
	}
	i++;
	size_t w = i;
	while (i < n && p[i] != ' ')
		i++;
	const char *word = p + w;
	size_t wn = i - w;
	const char *rest = i < n ? p + i + 1 : p + n;
	size_t rn = i < n ? n - i - 1 : 0;
	int kind = -1;
	for (int k = 0; k < HEADER_KIND_COUNT; k++)
		if (k != HEADER_FLUSH && word_is(word, wn, kind_words[k]))
			kind = k;
	if (kind < 0) {
		*why = "unknown header kind";
		return HEADER_BAD;
	}
	h->kind = (enum header_kind)kind;
	switch (h->kind) {
	case HEADER_START:
		return parse_start(rest, rn, h, why);
	case HEADER_ABORT:
		return parse_abort(rest, rn, h, why);
	case HEADER_STOP:
		return parse_stop(rest, rn, h, why);
	case HEADER_MCODE:
	case HEADER_EXIT: {
		size_t k = 0;
		if (i >= n || !number(rest, rn, &k, &h->number) || k != rn) {
			*why = h->kind == HEADER_MCODE ? "mcode without a size"
			                               : "exit without an exit number";
			return HEADER_BAD;
		}
		return HEADER_OK;
	}
	case HEADER_IR:
	case HEADER_SNAPSHOTS:
		if (i < n) {
			*why = "unexpected text after the header";
			return HEADER_BAD;
		}
		return HEADER_OK;
	default:
		return HEADER_OK;
	}
}
