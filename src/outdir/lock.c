/* lock.c — the output directory's lock; see lock.h.
 *
 * Why a kernel lock rather than a file made with O_EXCL: a run killed
 * with SIGKILL (or a machine that lost power) leaves the file, and then
 * only a guess (is that PID still alive, on this host, the same process?)
 * could tell a stale lock from a live one; a kernel lock has no stale
 * state.  On NFS the lock is the server's (NLM or NFSv4 byte-range locks),
 * which a crashed client's lease gives back; a file system without locks
 * (-ENOLCK) gets a warning and the run goes on unlocked.
 *
 * The file is removed at the end, so OUT keeps no trace of the lock.  A
 * run that waited on a file removed meanwhile holds a lock on nothing:
 * after locking, the name must still lead to the file locked, else it
 * tries again. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "outdir/lock.h"
#include "output/message.h"

/* The PID the file names, or 0. */
static long holder_pid(const struct fs *fs, int dir)
{
	char *text = NULL;
	long pid = 0;
	if (fs_read_all(fs, dir, LOCK_NAME, 4096, &text) > 0 && strncmp(text, "pid ", 4) == 0)
		pid = strtol(text + 4, NULL, 10);
	free(text);
	return pid > 0 ? pid : 0;
}

/* "PID 123 on host, since 2024-05-01 10:00:00 UTC", from the file's text
 * (written by the holder just after it locked: it may be empty yet). */
static void describe_holder(const struct fs *fs, int dir, char *buf, size_t len)
{
	char *text = NULL;
	long pid = 0;
	char host[256] = "", since[64] = "";
	if (fs_read_all(fs, dir, LOCK_NAME, 4096, &text) > 0) {
		char *save = NULL;
		for (char *line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "pid ", 4) == 0)
				pid = strtol(line + 4, NULL, 10);
			else if (strncmp(line, "host ", 5) == 0)
				snprintf(host, sizeof(host), "%.200s", line + 5);
			else if (strncmp(line, "started ", 8) == 0)
				snprintf(since, sizeof(since), "%.40s", line + 8);
		}
	}
	free(text);
	if (pid <= 0) {
		snprintf(buf, len, "another run of dumpanalyze");
		return;
	}
	snprintf(buf, len, "another run of dumpanalyze (PID %ld%s%s%s%s)", pid,
	         *host ? " on " : "", host, *since ? ", since " : "", since);
}

/* The holder's text: PID, host and start time, for others' messages. */
static void write_holder(const struct fs *fs, int fd)
{
	char host[256] = "?", since[64] = "?", text[512];
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(since, sizeof(since), "%Y-%m-%d %H:%M:%S UTC", &tm);
	int n = snprintf(text, sizeof(text), "pid %ld\nhost %s\nstarted %s\n", (long)getpid(),
	                 host, since);
	/* Only informative: a failure to write it changes nothing. */
	if (FS_CALL(fs, truncate, fd, 0) == 0)
		fs_write_all(fs, fd, text, (size_t)n);
}

/* The lock file is written (truncated, then the holder's text), so the
 * name must be a file of this directory alone (1: none, it was removed
 * since it was opened; -1 after a message): a hard link planted there
 * would have a run overwrite its other name's file, wherever it is.  A
 * regular file with one name, or a clear refusal; nothing is written
 * through it.  Its owner is not asked: writing a file of one name in OUT
 * harms nothing outside it, and on NFS with root squashed a file root
 * just made belongs to nobody. */
static int not_ours(const struct fs *fs, int fd, const char *out)
{
	struct fs_stat st;
	int r = FS_CALL(fs, stat, fd, "", &st);
	if (r == 0 && st.type == FS_FILE && st.nlink == 0)
		return 1;       /* its holder removed it just now: open it again */
	const char *why = r < 0 ? strerror(-r)
	                  : st.type != FS_FILE ? "it is not a regular file"
	                  : st.nlink != 1 ? "it has other names (a hard link)"
	                  : NULL;
	if (!why)
		return 0;
	msg_error("%s: refusing the lock file %s (%s): nothing written; remove it if no run "
	          "is using %s", out, LOCK_NAME, why, out);
	return -1;
}

int outlock_take(struct outlock *l, const struct fs *fs, int dir, const char *out, int wait,
                 int quiet)
{
	l->fs = fs;
	l->dir = dir;
	l->fd = -1;
	l->found = 0;
	l->found_pid = 0;
	int said = 0;
	for (;;) {
		/* Whether the file is there before this run makes it: once
		 * locked, such a file (the same one) is a killed run's. */
		struct fs_stat before;
		int existed = FS_CALL(fs, stat, dir, LOCK_NAME, &before) == 0;
		int fd = FS_CALL(fs, open, dir, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW, 0666);
		if (fd < 0) {
			msg_error("%s: cannot lock it: %s: %s", out, LOCK_NAME, strerror(-fd));
			return fd;
		}
		int o = not_ours(fs, fd, out);
		if (o != 0) {
			FS_CALL(fs, close, fd);
			if (o > 0)
				continue;
			return -EPERM;
		}
		int r = FS_CALL(fs, lock, fd, 0);
		if (r == -EAGAIN && wait) {
			if (!said && !quiet) {
				char who[512];
				describe_holder(fs, dir, who, sizeof(who));
				msg_error("%s is in use by %s; waiting", out, who);
			}
			said = 1;
			r = FS_CALL(fs, lock, fd, 1);
		}
		if (r == -ENOLCK) {
			msg_error("warning: %s: the file system has no locks (%s): runs into it at "
			          "the same time would mix", out, strerror(ENOLCK));
			/* nobody can hold a lock there: the file is only ours */
			FS_CALL(fs, unlink, dir, LOCK_NAME);
			FS_CALL(fs, close, fd);
			return 1;
		}
		if (r < 0) {
			if (r == -EAGAIN) {
				char who[512];
				describe_holder(fs, dir, who, sizeof(who));
				msg_error("%s is in use by %s; --wait waits for it", out, who);
			} else if (r != -EINTR) {
				msg_error("%s: cannot lock it: %s", out, strerror(-r));
			}
			FS_CALL(fs, close, fd);
			return r;
		}
		/* Locked: the name must still be this file (its holder removes
		 * it when done, and another may have made a new one since). */
		struct fs_stat held, named;
		if (FS_CALL(fs, stat, fd, "", &held) == 0 &&
		    FS_CALL(fs, stat, dir, LOCK_NAME, &named) == 0 &&
		    held.dev == named.dev && held.ino == named.ino) {
			l->fd = fd;
			if (existed && before.dev == held.dev && before.ino == held.ino) {
				l->found = 1;
				l->found_pid = holder_pid(fs, dir);
			}
			write_holder(fs, fd);
			return 0;
		}
		FS_CALL(fs, close, fd);
	}
}

void outlock_release(struct outlock *l)
{
	if (l->fd < 0)
		return;
	FS_CALL(l->fs, unlink, l->dir, LOCK_NAME);
	FS_CALL(l->fs, close, l->fd);
	l->fd = -1;
}
