#include "emit/outfile.h"

#include "exitcode.h"
#include "run/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int outfile_open(struct outfile *o, const char *path, char *err, size_t len)
{
	int fd;
	o->path = path;
	o->f = NULL;
	if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.%ld.tmp", path, (long)getpid()) >= sizeof o->tmp) {
		snprintf(err, len, "the name is too long");
		return EXIT_USAGE;
	}
	interrupt_temporary(o->tmp); /* a second signal removes it, on any thread */
	/* O_EXCL and O_NOFOLLOW: never through a link someone left there */
	if ((fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0
	    || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0)
			close(fd), unlink(o->tmp);
		interrupt_temporary(NULL);
		snprintf(err, len, "cannot write beside it: %s", strerror(e));
		return EXIT_USAGE;
	}
	return 0;
}

int outfile_commit(struct outfile *o, char *err, size_t len)
{
	int ok = !ferror(o->f) & (fclose(o->f) == 0);
	o->f = NULL;
	if (ok && rename(o->tmp, o->path) == 0) {
		interrupt_temporary(NULL);
		return 0;
	}
	snprintf(err, len, "cannot write: %s", strerror(errno));
	unlink(o->tmp);
	interrupt_temporary(NULL);
	return EXIT_USAGE;
}

void outfile_abandon(struct outfile *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
	interrupt_temporary(NULL);
}
