/* many.c — several dumps at once (one per worker process is common):
 * each into OUT/<basename>/ in a process of its own, then one merged
 * summary. */
#define _GNU_SOURCE         /* memfd_create */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/merge.h"
#include "cli/runset.h"
#include "output/message.h"
#include "outdir/manifest.h"
#include "outdir/outdir.h"
#include "outdir/rundir.h"
#include "cli/signals.h"
#include <signal.h>
#include "util/alloc.h"
#include "util/forkguard.h"

static void free_names(char **dirs, char **shown, char **names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(dirs[i]);
		free(shown[i]);
		free(names[i]);
	}
	free(dirs);
	free(shown);
	free(names);
}

/* The names OUT itself holds in a run of several dumps (the merged
 * summary, the manifest) and what a name of the tool's own looks like
 * (hidden: the lock, the commit record, staging directories, temporary
 * files): no dump's directory may take them. */
static int reserved(const char *name)
{
	return name[0] == '.' || strcmp(name, "summary.txt") == 0 ||
	       strcmp(name, MANIFEST_NAME) == 0;
}

static int taken(const char *name, const char *const *names, size_t n)
{
	if (reserved(name))
		return 1;
	for (size_t j = 0; j < n; j++)
		if (strcmp(names[j], name) == 0)
			return 1;
	return 0;
}

/* The directory of a dump under OUT: its base name (one that starts with
 * '.' behind a '_', an empty one "dump"), else, when that is reserved or
 * an earlier dump's, the first of BASE.2, BASE.3, ... that is neither;
 * so every dump has a directory of its own, the same for the same
 * command line. */
static char *dump_dir_name(const char *path, const char *const *names, size_t n)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t len = strlen(b) + 32;
	char *base = xrealloc(NULL, len), *name = xrealloc(NULL, len);
	snprintf(base, len, "%s%s", b[0] == '.' ? "_" : "", b[0] ? b : "dump");
	snprintf(name, len, "%s", base);
	for (unsigned k = 2; taken(name, names, n); k++)
		snprintf(name, len, "%s.%u", base, k);
	free(base);
	return name;
}

/* A worker's standard error goes to a file in memory, copied to ours
 * whole when it and every dump before it are done: the workers' lines
 * never cut into each other (an unbuffered stderr writes a line in
 * pieces), and they come in the order of the dumps, the same on every
 * run.  Without memfd_create, the worker writes to ours directly. */
static int worker_err_open(void)
{
	return memfd_create("dumpanalyze-worker-stderr", MFD_CLOEXEC);
}

static void worker_err_show(int *fd)
{
	if (*fd < 0)
		return;
	char buf[65536];
	ssize_t r;
	if (lseek(*fd, 0, SEEK_SET) == 0)
		while ((r = read(*fd, buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR))
			if (r > 0 && fwrite(buf, 1, (size_t)r, stderr) != (size_t)r)
				break;
	close(*fd);
	*fd = -1;
}

/* Several dumps (one per worker process is common): each into
 * OUT/<basename>/, as many at once as there are cores, then one merged
 * OUT/summary.txt.  A dump that fails does not stop the others; the exit
 * code is the worst of theirs. */
int run_many(struct run *run)
{
	const char *top = run->out_dir ? run->out_dir : "dumpanalyze-out";
	size_t n = run->ndumps;
	struct rundir rd;
	/* a run set may have more or fewer profiles than dumps */
	size_t nin = run->repeats ? n + run->nprofiles : 2 * n;
	struct rundir_input *inputs = xrealloc(NULL, (nin + 1) * sizeof(*inputs));
	size_t ninputs = run->repeats
		? run_inputs(run->dumps, NULL, n, inputs)
		: run_inputs(run->dumps, run->nprofiles ? run->profiles : NULL, n, inputs);
	if (run->repeats) {
		size_t k = run_inputs((const char *const *)run->profiles, NULL, run->nprofiles,
		                      inputs + ninputs);
		for (size_t i = ninputs; i < ninputs + k; i++)
			inputs[i].what = "profile";
		ninputs += k;
	}
	struct rundir_options ro = { run->fs, run->wait, run->quiet, inputs, ninputs };
	int o = rundir_open(&rd, &ro, top);
	struct outdir *out = o == 0 && !signals_caught() ? outdir_open_fs(run->fs, rd.stage, top) : NULL;
	if (!out) {
		int sig = signals_caught();
		rundir_discard(&rd);
		rundir_close(&rd);
		free(inputs);
		if (sig) {
			msg_error("interrupted (%s); %s is left as it was", signals_name(sig), top);
			signals_die(sig);
		}
		return EXIT_IO;
	}
	char **dirs = xrealloc(NULL, n * sizeof(*dirs));
	char **shown = xrealloc(NULL, n * sizeof(*shown));     /* OUT/NAME */
	char **names = xrealloc(NULL, n * sizeof(*names));
	int *status = xrealloc(NULL, n * sizeof(*status));
	pid_t *pids = xrealloc(NULL, n * sizeof(*pids));
	int *errfd = xrealloc(NULL, n * sizeof(*errfd));
	char *done = xrealloc(NULL, n);
	size_t errs_shown = 0;      /* workers whose stderr has been copied */
	for (size_t i = 0; i < n; i++) {
		if (run->repeats) {
			/* a run set's runs: run-1 ... run-N, whatever the files' names */
			size_t len = 32;
			names[i] = xrealloc(NULL, len);
			snprintf(names[i], len, "run-%zu", i + 1);
		} else {
			names[i] = dump_dir_name(run->dumps[i], (const char *const *)names, i);
		}
		/* into the staging directory: the commit moves them all at once */
		size_t len = strlen(rd.stage) + strlen(names[i]) + 2;
		dirs[i] = xrealloc(NULL, len);
		snprintf(dirs[i], len, "%s/%s", rd.stage, names[i]);
		len = strlen(top) + strlen(names[i]) + 2;
		shown[i] = xrealloc(NULL, len);
		snprintf(shown[i], len, "%s/%s", top, names[i]);
		status[i] = EXIT_IO;
		pids[i] = -1;
		errfd[i] = -1;
		done[i] = 0;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = cores > 0 ? (size_t)cores : 1, running = 0, next = 0;
	fflush(NULL);
	while (next < n || running > 0) {
		if (next < n && running < jobs) {
			pid_t parent = getpid();
			errfd[next] = worker_err_open();
			fflush(stderr);
			pid_t pid = fork_guarded();
			if (pid == 0) {
				if (errfd[next] >= 0)
					dup2(errfd[next], 2);
				/* Dies with the parent: a run killed outright leaves no
				 * worker writing on. */
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != parent)
					_exit(EXIT_IO);
				run->quiet_stdout = 1;
				run->jobs = 1;      /* the dumps already share the cores */
				/* a run set's profile K goes with run K, when there is one */
				int r = run_one(run, run->dumps[next], run->profiles + next,
				                next < run->nprofiles ? 1 : 0, dirs[next], shown[next]);
				/* The parent's copies, freed so that leak checkers
				 * following the worker see a clean exit. */
				outdir_close(out);
				rd.lock.fd = -1;    /* the parent's: not to be removed here */
				rundir_close(&rd);
				free(inputs);
				free_names(dirs, shown, names, n);
				free(status);
				free(pids);
				free(errfd);
				free(done);
				free(run->dumps);
				free(run->profiles);
				free(run->source_roots);
				_exit(r);
			}
			if (pid < 0) {
				msg_error("cannot start a worker: %s", strerror(errno));
				done[next] = 1;
				status[next++] = EXIT_IO;
				continue;
			}
			pids[next++] = pid;
			running++;
			continue;
		}
		int st;
		pid_t pid = wait(&st);
		if (pid < 0 && errno == EINTR) {
			/* Caught here: the workers clean up after themselves. */
			int sig = signals_caught();
			for (size_t i = 0; sig && i < n; i++)
				if (pids[i] > 0)
					kill(pids[i], sig);
			next = n;
			continue;
		}
		if (pid < 0)
			break;
		running--;
		for (size_t i = 0; i < n; i++)
			if (pids[i] == pid) {
				status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_IO;
				done[i] = 1;
			}
		while (errs_shown < next && done[errs_shown])
			worker_err_show(&errfd[errs_shown++]);
	}
	/* what is left (a wait that failed, a signal): all of it, in order */
	for (size_t i = errs_shown; i < n; i++)
		worker_err_show(&errfd[i]);
	int rc = EXIT_OK;
	for (size_t i = 0; i < n; i++)
		if (status[i] > rc)
			rc = status[i];
	int sig = signals_caught();
	int ok = !sig && (run->repeats
	                  ? runset_aggregate(run, out, rd.stage, top, (const char *const *)names,
	                                     status, &rc)
	                  : merge_summaries(out, rd.stage, top, (const char *const *)run->dumps,
	                                    (const char *const *)names, status, n)) == 0 &&
	         outdir_publish(out) == 0 && outdir_sync(out) == 0;
	outdir_close(out);
	int committed = 0;
	if (ok) {
		/* The top directory's manifest lists the summary and the
		 * directories of the dumps that wrote theirs. */
		struct manifest m;
		memset(&m, 0, sizeof(m));
		m.version = strdup(DA_VERSION_STRING);
		for (size_t i = 0; i < n; i++) {
			m.dumps = xrealloc(m.dumps, (m.ndumps + 1) * sizeof(*m.dumps));
			m.dumps[m.ndumps++] = (struct manifest_dump){ strdup(run->dumps[i]), 0,
				i < run->nprofiles ? strdup(run->profiles[i]) : NULL, NULL };
			if (status[i] == EXIT_OK || status[i] == EXIT_REJECTED)
				manifest_add(&m.dirs, &m.ndirs, names[i]);
		}
		m.views_option = run->views ? strdup(run->views) : NULL;
		m.strict = run->strict;
		m.complete = rc == EXIT_OK;
		m.exit_status = rc;
		struct rundir_result res;
		signals_hold();
		ok = rundir_commit(&rd, &m, &res, &committed) == 0;
		signals_release();
		if (committed)
			run_say_dropped(run, top, &res);
		rundir_result_free(&res);
		manifest_free(&m);
		sig = signals_caught();
	} else {
		rundir_discard(&rd);
	}
	if (!ok && rc == EXIT_OK)
		rc = EXIT_IO;
	if (sig)
		msg_error("interrupted (%s); %s %s", signals_name(sig), top,
		          committed ? "holds this run" : "is left as it was");
	else if (ok && !run->quiet)
		print_file(top, "summary.txt");
	rundir_close(&rd);
	free(inputs);
	free_names(dirs, shown, names, n);
	free(status);
	free(pids);
	free(errfd);
	free(done);
	if (sig)
		signals_die(sig);
	return rc;
}
