/*
 * Which plugin files gpulab will dlopen.  dlopen runs a library's
 * constructors at once, even for `gpulab list`, so a plugin is code run
 * with the user's rights: only a file that no one but root and the user
 * could have written is opened at all (the spirit of sudo's and ld.so's
 * checks).  That is: an absolute path; every directory met on the way to
 * it, through any symbolic link, owned by root or the effective user and
 * writable by no one else, except that a root-owned sticky directory such
 * as /tmp may be world-writable; each symbolic link owned by root or the
 * effective user; and the file itself a regular file, likewise owned and
 * not writable by group or others.  The file is opened O_NONBLOCK and
 * fstat'ed, so a FIFO is refused, not waited on.  An INI file and a
 * conf.d folder name those plugins, so they are held to the same owner
 * and mode (trust_config).
 */
#ifndef GPULAB_TRUST_H
#define GPULAB_TRUST_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Is name, a `file =` value, a bare file name, to be looked up in the
 * plugin directories alone: not empty, not ".", no '/', no ".."? */
int trust_bare_name(const char *name);

/* May path be dlopen'ed?  0, or -1 with one line in err naming the file
 * and the reason. */
int trust_plugin(const char *path, char *err, size_t errlen);

/* May an INI file or a conf.d folder, whose fstat is st, be read?  It
 * names the plugins gpulab loads and the values it runs with, so, as a
 * plugin file, it must be owned by root or the effective user and
 * writable by no one else.  0, or -1 with one line in err naming it. */
int trust_config(const char *path, const struct stat *st, char *err, size_t errlen);

/* "a directory", "a FIFO", ... for a file that is not a regular one. */
const char *trust_kind(mode_t mode);

#endif
