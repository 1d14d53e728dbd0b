/* rundir_leftovers.c — what killed runs leave in an output directory:
 * the record of a commit, acted on (forward, or back when forward cannot
 * be done), and staging directories, removed. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "outdir/commit.h"
#include "outdir/rundir_impl.h"
#include "output/message.h"
#include "util/alloc.h"

#define STAGE_DEPTH 3           /* STAGE/.old/D/NAME */

char *rundir_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xrealloc(NULL, n);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Remove the record, then the staging directory: without its record it
 * is only what a killed run left. */
static int remove_stage(const struct fs *fs, int out, int stage, const char *stage_name,
                        struct commit *c)
{
	int r = FS_CALL(fs, unlink, stage, JOURNAL_NAME);
	if (r < 0 && r != -ENOENT) {
		snprintf(c->what, sizeof(c->what), "removing %s/%s", stage_name, JOURNAL_NAME);
		return r;
	}
	/* The commit is whole either way: what is left is only a killed
	 * run's leftover, which the next run removes. */
	r = fs_remove_tree(fs, out, stage_name, STAGE_DEPTH);
	if (r < 0 && r != -ENOENT)
		msg_error("warning: cannot remove %s: %s; the next run does", stage_name, strerror(-r));
	return 0;
}

enum applied rundir_apply(const struct fs *fs, int out, const char *out_path, int stage,
                          const char *stage_name, const struct journal *j, const char *who)
{
	struct commit c = { fs, out, stage, j, NULL, "" };
	int done = commit_done(&c);
	int r = done < 0 ? done : 0;
	if (r < 0)
		snprintf(c.what, sizeof(c.what), "checking %s", MANIFEST_NAME);
	else if (!done && !commit_staged_ok(&c)) {
		r = -EBADMSG;
		snprintf(c.what, sizeof(c.what), "checking the staged %s", MANIFEST_NAME);
	}
	if (r == 0)
		r = commit_forward(&c);
	if (r == 0) {
		r = commit_settle(&c);
		if (r == 0)
			r = remove_stage(fs, out, stage, stage_name, &c);
		if (r == 0) {
			if (who)
				msg_error("%s: finished the commit of %s", out_path, who);
			commit_free(&c);
			return APPLIED_FORWARD;
		}
		if (who)
			msg_error("%s: finished the commit of %s, but %s: %s; `dumpanalyze --recover %s` "
			          "tries again", out_path, who, c.what, strerror(-r), out_path);
		else
			msg_error("%s: the run is in place, but %s: %s; `dumpanalyze --recover %s` "
			          "finishes it", out_path, c.what, strerror(-r), out_path);
		commit_free(&c);
		return APPLIED_UNSETTLED;
	}
	/* Forward cannot be done: back, unless the commit point was passed. */
	char first[600];
	snprintf(first, sizeof(first), "%s: %s", c.what, strerror(-r));
	const char *verb = who ? "finish the commit of" : "commit", *whom = who ? who : "the run";
	if (done != 0) {
		msg_error("%s: cannot %s %s: %s; `dumpanalyze --recover %s` tries again", out_path, verb,
		          whom, first, out_path);
		commit_free(&c);
		return APPLIED_FAILED;
	}
	int back = commit_back(&c);
	if (back == 0)
		back = remove_stage(fs, out, stage, stage_name, &c);
	if (back == 0) {
		if (who)
			msg_error("%s: undid the commit of %s (%s); it holds the run before", out_path, who,
			          first);
		else
			msg_error("%s: cannot commit the run: %s; it holds the previous run", out_path, first);
		commit_free(&c);
		return APPLIED_BACK;
	}
	msg_error("%s: cannot %s %s: %s, nor undo it: %s: %s; `dumpanalyze --recover %s` tries again",
	          out_path, verb, whom, first, c.what, strerror(-back), out_path);
	commit_free(&c);
	return APPLIED_FAILED;
}

/* The PID in NAME after the staging prefix (".dumpanalyze-run.123"), or
 * 0.  Only staging directories are ours to remove: this version writes
 * every file inside one, and a loose ".NAME.tmp123" in OUT (0.3.0 wrote
 * its temporaries there) cannot be told from a user's hidden file, so it
 * is left alone. */
static long stage_pid(const char *name)
{
	size_t pre = strlen(RUNDIR_STAGE_PREFIX);
	if (strncmp(name, RUNDIR_STAGE_PREFIX, pre) != 0 || !name[pre])
		return 0;
	char *end;
	long pid = strtol(name + pre, &end, 10);
	return *end == '\0' && pid > 0 ? pid : 0;
}

/* A process that no longer runs (on this machine). */
static int dead(long pid)
{
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* A staging directory: its record acted on, or it removed when its run
 * is gone.  0, or -1 after a message. */
static int leftover_stage(const struct fs *fs, int dir, const char *out, const char *name,
                          long pid, int locked, struct rundir_cleanup *c)
{
	int gone = pid == (long)getpid() || dead(pid);
	int stage = FS_CALL(fs, open, dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	if (stage < 0)
		return 0;
	struct journal j;
	int r = journal_read(fs, stage, &j);
	int ret = 0;
	if (r == 0 && (locked || gone)) {
		char who[64];
		snprintf(who, sizeof(who), "a run that was interrupted (PID %ld)", j.pid);
		c->commits++;
		ret = rundir_apply(fs, dir, out, stage, name, &j, who) == APPLIED_FAILED ? -1 : 0;
	} else if ((r == 1 || r == -EBADMSG) && gone) {
		/* No record, or one cut short while being written: OUT was not
		 * touched yet. */
		FS_CALL(fs, close, stage);
		stage = -1;
		int e = fs_remove_tree(fs, dir, name, STAGE_DEPTH);
		if (e < 0 && e != -ENOENT) {
			msg_error("warning: %s: cannot remove %s, left by a killed run (PID %ld): %s", out,
			          name, pid, strerror(-e));
		} else {
			c->stages++;
			if (c->report)
				msg_error("%s: removed %s, the staging directory of a run killed before "
				          "its commit (PID %ld): what the directory held is untouched",
				          out, name, pid);
		}
	} else if (!gone && c->report) {
		c->kept++;
		msg_error("%s: left %s: its run (PID %ld) is still going", out, name, pid);
	}
	if (r == 0)
		journal_free(&j);
	if (stage >= 0)
		FS_CALL(fs, close, stage);
	return ret;
}

int rundir_clean_leftovers(const struct fs *fs, int dir, const char *out, int locked,
                           struct rundir_cleanup *c)
{
	char **names;
	size_t n;
	if (FS_CALL(fs, list, dir, ".", &names, &n) < 0)
		return 0;
	int ret = 0;
	for (size_t i = 0; i < n && ret == 0; i++) {
		long pid = stage_pid(names[i]);
		if (!pid)
			continue;
		struct fs_stat st;
		if (FS_CALL(fs, stat, dir, names[i], &st) == 0 && st.type == FS_DIR)
			ret = leftover_stage(fs, dir, out, names[i], pid, locked, c);
	}
	fs_list_free(names, n);
	return ret;
}
