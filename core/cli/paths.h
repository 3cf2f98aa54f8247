/* Where gpulab looks: the configuration directory and the plugin
 * directories, as configured at build time and as the environment
 * changes them.  `gpulab config` prints them; loading uses them. */
#ifndef GPULAB_PATHS_H
#define GPULAB_PATHS_H

#include <stddef.h>

/* $GPULAB_SYSCONFDIR, else the configured sysconfdir's gpulab/. */
const char *paths_sysconfdir(void);

/* The directories searched for a bare `file = NAME.so`, ':'-separated:
 * $GPULAB_PLUGIN_PATH (else the configured plugin directory), then the
 * user's $XDG_DATA_HOME/gpulab/plugins (else ~/.local/share/...), which
 * `make install` of a `gpulab new` skeleton fills without root.  0, or
 * EXIT_CONFIG with one line in err. */
int paths_plugin_path(char *buf, size_t len, char *err, size_t errlen);

/* The directory of this gpulab's gpulab.pc: $GPULAB_PKGCONFIGDIR (the
 * build tree's script names the build's), else the configured one. */
const char *paths_pkgconfigdir(void);

#endif
