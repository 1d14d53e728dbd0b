/* capture.h — stderr captured around a call, for unit tests that pin
 * down warnings as part of the behaviour.  Include after <cmocka.h>. */
#ifndef DUMPANALYZE_TEST_CAPTURE_H
#define DUMPANALYZE_TEST_CAPTURE_H

#include <stdio.h>
#include <unistd.h>
#include "dumpanalyze.h"


/* A diag function printing as the tool does: "FILE:LINE: warning: MSG". */
static inline void diag_print(void *data, enum da_severity sev, const char *file, uint64_t line,
                       const char *msg)
{
	(void)data;
	fprintf(stderr, "%s:%llu: %s%s\n", file, (unsigned long long)line,
	        sev == DA_ERROR ? "error: " : sev == DA_WARNING ? "warning: " : "", msg);
}

static struct {
	int active, saved;
	FILE *tmp;
	char text[4096];
} cap;

static void capture_begin(void)
{
	fflush(stderr);
	cap.tmp = tmpfile();
	assert_non_null(cap.tmp);
	cap.saved = dup(2);
	assert_true(cap.saved >= 0);
	assert_true(dup2(fileno(cap.tmp), 2) >= 0);
	cap.active = 1;
	cap.text[0] = '\0';
}

/* Restore stderr; what was written is in cap.text. */
static void capture_end(void)
{
	if (!cap.active)
		return;
	fflush(stderr);
	dup2(cap.saved, 2);
	close(cap.saved);
	cap.active = 0;
	rewind(cap.tmp);
	size_t n = fread(cap.text, 1, sizeof(cap.text) - 1, cap.tmp);
	cap.text[n] = '\0';
	fclose(cap.tmp);
}

/* After a failed assertion inside a capture: restore stderr and show
 * what was captured. */
static int restore_stderr(void **s)
{
	(void)s;
	if (cap.active) {
		capture_end();
		fputs(cap.text, stderr);
	}
	return 0;
}

#endif
