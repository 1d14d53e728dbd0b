/* compare_impl.h — what --compare knows of one side (one dump's output
 * directory), shared by compare_read.c (reading it), compare_align.c
 * (matching its sites and bushes to the other side's), compare_views.c
 * (the report's parts) and compare.c (the two directories, the --fail-on
 * rules). */
#ifndef DUMPANALYZE_COMPARE_IMPL_H
#define DUMPANALYZE_COMPARE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "compare/csvin.h"
#include "compare/runfile.h"
#include "luajit/explain.h"
#include "outdir/manifest.h"
#include "util/diag.h"

/* Something with a place in a source file: an abort site (group: its
 * normalised reason), a bush (group: the kind of its root) or a finding
 * (group: its identity up to the text of its lines). */
struct placed {
	char *file;
	long line;                  /* 0: none */
	char *group;
	char *text;                 /* what says "the same code" across runs:
	                               a site's FINGERPRINT, a finding's
	                               identity; NULL when the run had no
	                               source text for it */
	uint64_t count;             /* aborts; a bush's traces */
	size_t index;               /* a finding's, in its side's list */
};

struct placed_list {
	struct placed *v;
	size_t n, cap;
};

/* A row of abort-reasons.csv or abort-sites.csv before the reasons are
 * put in one form (which depends on both sides, see side_finish). */
struct raw_reason {
	char *file;                 /* NULL in abort-reasons.csv */
	long line;
	char *reason, *normal, *fp;         /* normal, fp: NULL when absent or empty */
	uint64_t count;
};

struct raw_list {
	struct raw_reason *v;
	size_t n, cap;
};

struct prof_line {
	char *loc;                  /* FILE:LINE */
	char *file;
	long line;
	char *fp;                   /* its FINGERPRINT, or NULL */
	double samples;
};

/* A row of findings.csv. */
struct cfinding {
	char *identity, *id, *kind, *severity, *reason, *file;
	char *others;               /* OTHER_REASONS: "N REASON; N REASON" */
	long line, end_line;        /* 0: none */
	int level;                  /* enum explain_severity (-1: not a severity word) */
	int aborts;                 /* a kind made of aborted attempts: an
	                               abort site of the new-sites rule */
	uint64_t attempts;
	double samples;             /* interpreted samples charged, -1: none */
	const char *accepted;       /* the baseline's reason, or NULL */
	char *rule, *advice;        /* RULE, ADVICE ("" when absent) */
	uint64_t reason_attempts;   /* REASON_ATTEMPTS */
	int fresh;                  /* NEW's, matched by none of OLD's */
	char *path;                 /* PATH: the file its run read, from that
	                               run's directory ("": none); NULL when
	                               findings.csv has no such column */
};

struct cfinding_list {
	struct cfinding *v;
	size_t n, cap;
};

/* What the views of one side say, summed over its generations (their
 * numbers are not stable across runs, so none is compared by number). */
struct side {
	struct runfile_dir d;
	const char *dir, *label;    /* dir: d's path for messages; label: "OLD" or "NEW" */
	struct manifest m;
	unsigned gens;
	int has_traces, has_reasons, has_sites, has_bushes, has_profile, has_findings;
	int reasons_normal, sites_normal, sites_fp;   /* columns every file has */
	unsigned reason_files, site_files;
	/* the COUNT columns' sums over the side, kept below 2^63 as read, so
	 * that no sum of some of them can wrap */
	uint64_t reason_total, site_total;
	uint64_t traces, aborts;
	struct raw_list raw_reasons, raw_sites;
	struct named_list reasons;  /* after side_finish */
	struct placed_list sites;   /* after side_finish, sorted */
	struct placed_list bushes;  /* sorted */
	double prof_samples, prof_interpreted;
	int prof_no_states;         /* INTERPRETED empty: a profile without VM states */
	double prof_state[5];       /* INTERPRETED, COMPILED, C, GC, JIT summed */
	struct prof_line *prof;  /* by samples, descending */
	size_t nprof, prof_cap;
	struct cfinding_list findings;  /* in rank order */
	int findings_costed;        /* SAMPLES filled (a run with --profile) */
	double charged;             /* their SAMPLES summed */
	/* sysprof's time (the sysprof view): bushes by root kind and start,
	 * count = their samples; samples by -jp state */
	int has_time, time_fp;      /* time_fp: profile-bushes.csv has FINGERPRINT */
	struct placed_list time_bushes;     /* sorted; text: the start's FINGERPRINT */
	uint64_t time_samples, time_state[5];
	uint64_t time_bush_total;   /* the bushes' samples, kept below 2^63 */
};

/* Read the side in path (parent NULL), or in the subdirectory path of
 * parent (a dump of several), its manifest first; all of it checked
 * (compare_read.c).  0, 1 when the directory has no manifest, -1 after a
 * message. */
int side_read(struct side *s, const struct runfile_dir *parent, const char *path,
              const char *label);
/* Put reasons and sites in the form both sides can give: NORMAL_REASON
 * when both files have it, else the reason normalised here; sites keyed
 * by their FINGERPRINT too when both have the column. */
void side_finish(struct side *s, int reasons_normal, int sites_normal, int sites_fp);
void side_free(struct side *s);

/* Sort by file, line, group, count. */
void placed_sort(struct placed_list *l);
/* Add an item at "file:line" (0 when the text after the last ':' is not
 * a line number, as in "=[C]"). */
void add_placed(struct placed_list *l, const char *loc, const char *group, uint64_t count);
void placed_free(struct placed_list *l);
/* compare_time.c: the sysprof view's files of a side that has them
 * (after side_read), through csvin like every other file: 0, or -1
 * after a message. */
int side_read_time(struct side *s);
/* How an item was matched. */
enum { MATCH_NONE, MATCH_TEXT, MATCH_ORDER };
/* Match a's items to b's (both sorted): to[i] is the index in b of a's
 * item i, or -1, and how[i] (how may be NULL) MATCH_*.  Only items of
 * the same file and group match: first those of the same text, then,
 * among the others, by order (compare_align.c) those of which one has
 * no text. */
void placed_align(const struct placed_list *a, const struct placed_list *b, long *to, char *how);

/* ---- the report (compare_views.c) ---- */

/* The text goes to out, unless --json: then only the JSON object does. */
struct where_map;
struct rep {
	FILE *out;                  /* NULL with --json */
	json_t *fail;               /* the rules crossed, as said */
	int tripped, cannot;        /* a rule crossed; a rule not evaluable */
	char **scratch;             /* cmp_text's, freed by the next cmp_say */
	size_t nscratch, scratch_cap;
	FILE *ann;                  /* --annotate github's lines, or NULL */
	struct where_map *where;    /* where the annotated files are */
};

/* Text to out (nothing with --json).  Every name read from a run's files
 * goes through cmp_text: the report is printed to terminals and CI logs. */
void cmp_say(struct rep *r, const char *fmt, ...) DA_PRINTF(2, 3);
/* s (its first n bytes) escaped for the text (termtext.h), valid until
 * the next cmp_say. */
const char *cmp_text(struct rep *r, const char *s);
const char *cmp_textn(struct rep *r, const char *s, size_t n);
/* Free what cmp_text made since the last cmp_say. */
void cmp_done(struct rep *r);
/* A JSON string, or null. */
json_t *cmp_str(const char *s);
json_t *cmp_old_new(uint64_t a, uint64_t b);
/* "  WHAT   A -> B  (+D, +P%)" */
void cmp_delta_line(struct rep *r, const char *what, uint64_t a, uint64_t b);
/* What is new on NEW for a rule: by default it counts those of severity
 * costly or worth a look that no baseline accepts; the usually harmless
 * are listed apart (":all" counts them), the baselined never count.
 * names: the counted ones and the harmless ones, for a FAIL line. */
struct fresh {
	size_t counted, harmless, baselined;
	char *names, *harmless_names;
	size_t names_len, harmless_len;
};
/* Add a name to the counted (harmless 0) or the harmless ones. */
void fresh_add(struct fresh *f, int harmless, const char *name);
void fresh_free(struct fresh *f);

/* Each part adds its key(s) to the dump's object d. */

/* ---- the reasons' and the sites' diff (compare_counts.c), rendered by
 * reasons_render and sites_render (compare_views.c) ---- */

/* One reason or site: its counts on both sides and what changed. */
struct count_change {
	const char *name;           /* the reason (a site's: its group) */
	const struct placed *old, *new;     /* a site's items, either NULL */
	int in_old, in_new;
	uint64_t was, is;
	const char *change;         /* "new", "gone", "up", "down", "same"; a
	                               site of the same count on another line
	                               "moved" */
	int how;                    /* a site's MATCH_* */
	int level;                  /* a reason's enum explain_severity */
	int baselined;              /* a new reason every finding of which a
	                               baseline accepts */
};
struct counts_diff {
	struct count_change *v;     /* reasons: NEW's by name, then those
	                               gone; sites: NEW's in order, then those
	                               gone */
	size_t n, cap;
	size_t moved;               /* sites matched on another line */
};
/* "new", "gone", "up", "down" or "same". */
const char *cmp_change(int in_a, int in_b, uint64_t a, uint64_t b);
/* The reasons of both sides (sorted by name here); the new ones into
 * *fresh (severity from the catalogue, baselined when every finding of NEW
 * that has the reason is baselined). */
void reasons_diff(struct counts_diff *d, struct side *a, struct side *b, struct fresh *fresh);
/* The sites matched across the runs: by the text of their line where both
 * runs read it, else by file, reason and order. */
void sites_diff(struct counts_diff *d, const struct side *a, const struct side *b);
void counts_diff_free(struct counts_diff *d);
/* The reasons' and the sites' part of the report, from their diff. */
void reasons_render(struct rep *r, json_t *d, const struct counts_diff *rd);
void sites_render(struct rep *r, json_t *d, const struct counts_diff *sd);

/* ---- the findings' diff (compare_findings.c) and its rendering
 * (compare_findings_render.c): one result, then text and JSON from it ---- */

enum finding_change { FC_SAME, FC_MOVED, FC_NEW, FC_GONE };
/* What the text adds after a changed finding. */
enum finding_note {
	FN_NONE,
	FN_BASELINED,               /* moved, a baseline accepts it */
	FN_NOT_SITE,                /* new, not an abort site: no rule counts it */
	FN_NOT_COUNTED,             /* new, baselined: not counted */
	FN_HARMLESS                 /* new, usually harmless: not counted */
};
struct finding_diff {
	enum finding_change change;
	const struct cfinding *f;   /* NEW's; OLD's when gone */
	const struct cfinding *old; /* its match on OLD, or NULL */
	int how;                    /* MATCH_* */
	enum finding_note note;
};
struct findings_diff {
	struct finding_diff *v;     /* NEW's findings in rank order, then
	                               OLD's gone ones in theirs */
	size_t n;
	size_t moved;               /* matched on another line */
	size_t accepted;            /* NEW's a baseline accepts */
};
/* Match b's findings to a's (setting each of b's fresh), count the new
 * abort sites into *fresh: 0 (the result in *d, findings_diff_free). */
void findings_diff(struct findings_diff *d, struct side *a, struct side *b, struct fresh *fresh);
void findings_diff_free(struct findings_diff *d);
/* "json.lua:19-29", "json.lua:19", "(the run)". */
void finding_place(char *buf, size_t n, const char *file, long line, long end);
/* The result as text (the changed ones) and as the dump's JSON keys
 * findings, findings_moved, findings_baselined. */
void findings_render(struct rep *r, json_t *d, const struct findings_diff *fd);
/* The severity of a reason (normal form): enum explain_severity. */
int cmp_reason_level(const char *reason);

/* ---- the parts beside the aborts and findings (compare_parts.c) ---- */

/* Two items matched, BASE's and NEW's (either NULL), how (MATCH_*: time's
 * bushes; the bushes' own pairs leave it MATCH_NONE), and their shares of
 * their sides' samples (time's bushes). */
struct placed_pair {
	const struct placed *a, *b;
	int how;
	double share_a, share_b;
};
/* Bushes matched by the kind and start location of their root: BASE's in
 * order, then NEW's unmatched. */
struct bushes_diff {
	struct placed_pair *v;
	size_t n, na, nb, grew, shrank, fresh, gone;
};
void bushes_diff(struct bushes_diff *d, const struct side *a, const struct side *b);
void bushes_diff_free(struct bushes_diff *d);
/* compare_views.c: the bushes that grew and the counts, and JSON
 * "bushes". */
void bushes_render(struct rep *r, json_t *d, const struct bushes_diff *bd);

#define CMP_VM_STATES 5         /* profile.h's enum vm_state: VM_STATES */
#define PROFILE_TOP_LINES 5
/* A -jp profile on both sides: shares by VM state, charged to the
 * findings (when both have them), and the top lines of either side,
 * matched by their text, else by place. */
struct line_pair {
	const struct prof_line *a, *b, *shown;
	int by_text;
	double share_a, share_b;
};
struct profile_diff {
	int no_states[2], findings;
	double interpreted[2], state[2][CMP_VM_STATES], charged[2];
	struct line_pair *lines;
	size_t nlines;
};
void profile_diff(struct profile_diff *d, const struct side *a, const struct side *b,
                  int findings);
void profile_diff_free(struct profile_diff *d);
/* compare_views.c: the shares at the top of the report, the top lines
 * later, into the same JSON object "profile". */
void profile_states_render(struct rep *r, json_t *d, const struct profile_diff *pd);
void profile_lines_render(struct rep *r, json_t *d, const struct profile_diff *pd);

/* sysprof on both sides: shares by VM state, and time per bush matched
 * by the text of its start (when both runs wrote it), else by kind, file
 * and order; the largest share either side first. */
struct time_diff {
	uint64_t samples[2];
	double state[2][CMP_VM_STATES];
	struct placed_pair *bushes;
	size_t nbushes, na, nb, matched;
};
void time_diff(struct time_diff *d, struct side *a, struct side *b);
void time_diff_free(struct time_diff *d);
/* compare_time.c: the shares at the top of the report, time per bush
 * later, into the same JSON object "time". */
void time_states_render(struct rep *r, json_t *d, const struct time_diff *td);
void time_bushes_render(struct rep *r, json_t *d, const struct time_diff *td);

/* ---- the --fail-on rules (compare_rules.c) ---- */

struct rules {
	int aborts_pct, aborts_abs, traces_pct;     /* -1: not set */
	/* new-reasons[>=N], new-sites[>=N], and their :all forms: 0 not
	 * set, else N */
	unsigned new_reasons, new_sites, new_reasons_all, new_sites_all;
	double interpreted, cost;                   /* points; < 0: not set */
};

/* Parse RULES (NULL: none): 0, or -1 after a message. */
int rules_parse(const char *s, struct rules *r);
int rules_any(const struct rules *r);
/* What the parts found new on a dump's NEW side. */
struct found {
	struct fresh reasons, sites;
	/* the rules that failed on them (rules_apply) */
	int crossed_reasons, crossed_reasons_all, crossed_sites, crossed_sites_all;
};
/* One dump's comparison diffed before a word of it is said
 * (compare_diff.c): the parts both sides have, each one result, and what
 * they found new for the rules; the report, the JSON object, the rules
 * and the annotations are renderings of it. */
struct dump_diff {
	/* the parts both sides have */
	int reasons, sites, findings, bushes, profiles, times;
	struct counts_diff reason_list, site_list;
	struct findings_diff finding_list;
	struct bushes_diff bush_list;
	struct profile_diff profile;
	struct time_diff time;
	struct found fd;            /* new reasons; new abort sites (findings) */
};
/* After side_finish and the baseline put on both sides' findings. */
void dump_diff(struct dump_diff *dd, struct side *a, struct side *b);
void dump_diff_free(struct dump_diff *dd);

/* Evaluate the rules on one dump's sides (the baseline already put on
 * their findings): FAIL lines, r->tripped, the crossed_* of fd, or
 * r->cannot after a message. */
void rules_apply(struct rep *r, const struct rules *ru, const struct side *a, const struct side *b,
                 struct found *fd, int baseline);
/* compare_annotate.c: --annotate github on a comparison, into r->ann:
 * each of NEW's findings that is new (a warning, a notice when usually
 * harmless) or that crosses a rule of fd (an error: a new abort site of
 * new-sites, a finding whose main reason is new for new-reasons); none
 * a baseline accepts. */
void cmp_annotate(struct rep *r, const struct side *b, const struct found *fd);

#endif
