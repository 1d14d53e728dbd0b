/* many.c — several dumps at once (one per worker process is common):
 * each into OUT/<basename>/ in a process of its own, then one merged
 * summary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/merge.h"
#include "cli/runset.h"
#include "output/message.h"
#include "output/manifest.h"
#include "output/outdir.h"
#include "output/rundir.h"
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
	for (size_t i = 0; i < n; i++) {
		const char *b = strrchr(run->dumps[i], '/');
		b = b ? b + 1 : run->dumps[i];
		char runk[32];
		if (run->repeats) {
			/* a run set's runs: run-1 ... run-N, whatever the files' names */
			snprintf(runk, sizeof(runk), "run-%zu", i + 1);
			b = runk;
		}
		/* The same base name twice: dump.txt, dump.txt.2, ... */
		unsigned k = 1;
		for (size_t j = 0; j < i; j++)
			if (strncmp(names[j], b, strlen(b)) == 0 &&
			    (names[j][strlen(b)] == '\0' || names[j][strlen(b)] == '.'))
				k++;
		size_t len = strlen(b) + 16;
		names[i] = xrealloc(NULL, len);
		if (k > 1)
			snprintf(names[i], len, "%s.%u", b, k);
		else
			snprintf(names[i], len, "%s", b);
		/* into the staging directory: the commit moves them all at once */
		len = strlen(rd.stage) + strlen(names[i]) + 2;
		dirs[i] = xrealloc(NULL, len);
		snprintf(dirs[i], len, "%s/%s", rd.stage, names[i]);
		len = strlen(top) + strlen(names[i]) + 2;
		shown[i] = xrealloc(NULL, len);
		snprintf(shown[i], len, "%s/%s", top, names[i]);
		status[i] = EXIT_IO;
		pids[i] = -1;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = cores > 0 ? (size_t)cores : 1, running = 0, next = 0;
	fflush(NULL);
	while (next < n || running > 0) {
		if (next < n && running < jobs) {
			pid_t parent = getpid();
			pid_t pid = fork_guarded();
			if (pid == 0) {
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
				free(run->dumps);
				free(run->profiles);
				free(run->source_roots);
				_exit(r);
			}
			if (pid < 0) {
				msg_error("cannot start a worker: %s", strerror(errno));
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
			if (pids[i] == pid)
				status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : EXIT_IO;
	}
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
	if (sig)
		signals_die(sig);
	return rc;
}
