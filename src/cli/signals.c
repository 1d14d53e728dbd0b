/* signals.c — a run ends cleanly on SIGINT, SIGTERM, SIGHUP and SIGPIPE;
 * see signals.h.  Signals are process-wide, so their state is too. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>
#include "cli/signals.h"

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NCAUGHT (sizeof(caught_signals) / sizeof(caught_signals[0]))

static volatile sig_atomic_t caught;
static _Atomic(da_dump *) watched;

static void on_signal(int sig)
{
	if (!caught)
		caught = sig;
	da_dump *d = atomic_load(&watched);
	if (d)
		da_interrupt(d);
}

void signals_catch(void)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCAUGHT; i++) {
		/* One ignored when we started stays ignored (nohup, a shell's
		 * background job). */
		struct sigaction old;
		if (sigaction(caught_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught_signals[i], &sa, NULL);
	}
}

void signals_watch(da_dump *d)
{
	atomic_store(&watched, d);
	if (d && caught)
		da_interrupt(d);
}

const char *signals_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGPIPE: return "SIGPIPE";
	}
	return "a signal";
}

int signals_caught(void)
{
	return caught;
}

static void (*before_death)(void);

void signals_before_death(void (*fn)(void))
{
	before_death = fn;
}

void signals_die(int sig)
{
	if (before_death)
		before_death();
	signal(sig, SIG_DFL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void mask(int how)
{
	sigset_t s;
	sigemptyset(&s);
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaddset(&s, caught_signals[i]);
	pthread_sigmask(how, &s, NULL);
}

void signals_hold(void)
{
	mask(SIG_BLOCK);
}

void signals_release(void)
{
	mask(SIG_UNBLOCK);
}

void signals_default(void)
{
	for (size_t i = 0; i < NCAUGHT; i++)
		signal(caught_signals[i], SIG_DFL);
}
