/* jv.c — parse -jv log lines; see jv.h. */
#include <string.h>
#include "parse/jv.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int ends_with(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n >= k && memcmp(p + n - k, w, k) == 0;
}

static size_t digits(const char *p, size_t n, uint32_t *v)
{
	size_t i = 0;
	*v = 0;
	while (i < n && i < 9 && is_digit(p[i]))
		*v = *v * 10 + (uint32_t)(p[i++] - '0');
	return i;
}

/* "(P/E) " or "(P/stitch) " at the start of s. */
static size_t origin(const char *s, size_t n, struct jv_event *e)
{
	e->parent = 0;
	e->parent_exit = PARENT_EXIT_NONE;
	if (n < 5 || s[0] != '(')
		return 0;
	uint32_t p, x;
	size_t i = 1, d = digits(s + i, n - i, &p);
	if (!d || i + d >= n || s[i + d] != '/')
		return 0;
	i += d + 1;
	if (n - i >= 8 && memcmp(s + i, "stitch) ", 8) == 0) {
		e->parent = p;
		e->parent_exit = PARENT_EXIT_STITCH;
		return i + 8;
	}
	d = digits(s + i, n - i, &x);
	if (!d || i + d + 1 >= n || s[i + d] != ')' || s[i + d + 1] != ' ')
		return 0;
	e->parent = p;
	e->parent_exit = (int32_t)x;
	return i + d + 2;
}

static const char *const end_words[] = {
	" loop", " return", " tail-recursion", " up-recursion", " down-recursion",
};
static const enum da_link end_kinds[] = {
	DA_LINK_LOOP, DA_LINK_RETURN, DA_LINK_TAIL_RECURSION, DA_LINK_UP_RECURSION, DA_LINK_DOWN_RECURSION,
};

int jv_parse(const char *p, size_t n, struct jv_event *e)
{
	memset(e, 0, sizeof(*e));
	if (n < 9 || memcmp(p, "[TRACE ", 7) != 0 || p[n - 1] != ']')
		return -1;
	const char *s = p + 7;
	size_t m = n - 8;                   /* without "[TRACE " and "]" */
	if (m == 5 && memcmp(s, "flush", 5) == 0) {
		e->kind = JV_FLUSH;
		return 0;
	}
	int abort = m > 4 && memcmp(s, "--- ", 4) == 0;
	size_t i = 0;
	if (abort) {
		i = 4;
	} else {
		while (i < m && s[i] == ' ')
			i++;
		size_t d = digits(s + i, m - i, &e->id);
		if (!d || i + d >= m || s[i + d] != ' ') {
			if (i == 0 && m > 0) {
				e->kind = JV_OTHER;     /* "[TRACE start]" and the like */
				return 0;
			}
			return -1;
		}
		i += d + 1;
		if (e->id > TRACE_NUMBER_MAX)
			return -1;
	}
	i += origin(s + i, m - i, e);
	const char *rest = s + i;
	size_t rn = m - i;
	if (rn == 0)
		return -1;

	if (abort) {
		/* LOC -- REASON[ at LOC2]; the separator after the location. */
		const char *sep = NULL;
		for (size_t k = 0; k + 4 <= rn; k++)
			if (memcmp(rest + k, " -- ", 4) == 0) {
				sep = rest + k;
				if (k > 0 && is_digit(rest[k - 1]))
					break;
			}
		if (!sep)
			return -1;
		e->kind = JV_ABORT;
		e->loc = rest;
		e->loc_len = (size_t)(sep - rest);
		e->reason = sep + 4;
		e->reason_len = rn - e->loc_len - 4;
		e->abort_loc = e->loc;
		e->abort_loc_len = e->loc_len;
		for (size_t k = e->reason_len; k-- > 4;)
			if (memcmp(e->reason + k - 4, " at ", 4) == 0) {
				e->abort_loc = e->reason + k;
				e->abort_loc_len = e->reason_len - k;
				e->reason_len = k - 4;
				break;
			}
		return 0;
	}

	e->kind = JV_STOP;
	e->link_kind = DA_LINK_OTHER;
	if (ends_with(rest, rn, " -- fallback to interpreter")) {
		e->loc_len = rn - 27;
		e->link = "interpreter";
		e->link_len = strlen(e->link);
		e->link_kind = DA_LINK_INTERPRETER;
	} else {
		/* LOC -> N[ TYPE] */
		for (size_t k = rn; k-- > 3;)
			if (memcmp(rest + k - 3, " ->", 3) == 0 && k + 1 < rn && rest[k] == ' ' &&
			    is_digit(rest[k + 1])) {
				e->loc_len = k - 3;
				e->link = rest + k + 1;
				e->link_len = rn - k - 1;
				size_t d = digits(e->link, e->link_len, &e->link_target);
				e->link_kind = d == e->link_len ? DA_LINK_ROOT : DA_LINK_OTHER;
				if (d < e->link_len && e->link[d] == ' ') {
					const char *w = e->link + d + 1;
					size_t wn = e->link_len - d - 1;
					for (int q = 0; q < DA_LINK_OTHER; q++)
						if (strlen(link_kind_word((enum da_link)q)) == wn &&
						    memcmp(w, link_kind_word((enum da_link)q), wn) == 0)
							e->link_kind = (enum da_link)q;
				}
				break;
			}
		if (!e->link) {
			for (size_t q = 0; q < sizeof(end_words) / sizeof(end_words[0]); q++)
				if (ends_with(rest, rn, end_words[q])) {
					e->loc_len = rn - strlen(end_words[q]);
					e->link = end_words[q] + 1;
					e->link_kind = end_kinds[q];
				}
		}
		if (!e->link) {
			/* "LOC stitch FUNCTION": the stitched-to function is not a
			 * link; a dump would say "stop -> stitch". */
			for (size_t k = rn; k-- > 7;)
				if (memcmp(rest + k - 7, " stitch", 7) == 0 && (k == rn || rest[k] == ' ')) {
					e->loc_len = k - 7;
					e->link = "stitch";
					e->link_kind = DA_LINK_STITCH;
					break;
				}
		}
		if (!e->link)
			return -1;
		if (!e->link_len)
			e->link_len = strlen(e->link);
	}
	e->loc = rest;
	return e->loc_len ? 0 : -1;
}
