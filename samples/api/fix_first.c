/* fix_first.c — the library's findings: what to fix first in a dump,
 * with what it costs when a profile of the same workload is given, one
 * line each, "RANK ID KIND FILE:LINE-END_LINE SAMPLES SHARE%", then the
 * advice indented.
 *   cc -o fix_first fix_first.c $(pkg-config --cflags --libs dumpanalyze)
 *   ./fix_first app.dump [app.prof [SOURCE_DIR]] */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <dumpanalyze.h>

static void on_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                    const char *msg)
{
	(void)data;
	if (sev != DA_NOTE)
		fprintf(stderr, "%s:%llu: %s\n", file, (unsigned long long)line, msg);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: %s DUMP [PROFILE [SOURCE_DIR]]\n", argv[0]);
		return 2;
	}
	struct da_options o = DA_OPTIONS(.flags = DA_FINDINGS, .diag = on_diag);
	int err;
	da_dump *d = da_open_path(argv[1], &o, &err);
	if (!d) {
		fprintf(stderr, "%s: %s\n", argv[1], err == DA_EOPEN ? strerror(errno) : da_strerror(err));
		return 1;
	}
	/* Before the first da_step: the library reads no other file. */
	if (argc > 2 && (err = da_use_profile(d, argv[2])) != 0) {
		if (err == DA_EOPEN)
			fprintf(stderr, "%s: %s\n", argv[2], strerror(errno));
		da_close(d);
		return 1;
	}
	if (argc > 3)
		da_use_source_root(d, argv[3], DA_SOURCE_BY_NAME);
	if ((err = da_read(d)) != DA_OK) {
		fprintf(stderr, "%s: %s\n", argv[1], da_dump_error(d));
		da_close(d);
		return 1;
	}
	for (size_t i = 0; i < da_findings(d); i++) {
		const struct da_finding *f = da_finding(d, i);
		printf("%u %s %s %s:%d-%d", f->rank, f->id, f->kind_word, f->file ? f->file : "-",
		       f->line, f->end_line);
		if (f->costed)
			printf(" %llu %.2f%%", (unsigned long long)f->samples, f->share);
		printf("\n    %s\n", f->advice ? f->advice : "");
	}
	da_close(d);
	return 0;
}
