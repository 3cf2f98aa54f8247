/*
 * Where the challenges are (docs/challenge.md): a folder each, NAME/ with
 * challenge.ini and template.cu, in the user's
 * ${XDG_DATA_HOME:-~/.local/share}/gpulab/challenges, then in the
 * installed $(pkgdatadir)/challenges ($GPULAB_CHALLENGES for the build
 * tree).  A user's folder wins over an installed one of its name, as a
 * user's plugin does.  `gpulab try NAME-or-DIR` takes a name from these,
 * or any folder by its path (one with a '/': ./mine).
 *
 * The try plugin is handed the winning folders in the environment, as
 * GPULAB_CHALLENGE_FOLDERS (':'-separated; a folder named on the command
 * line first), and makes an exercise of each (plugins/try/challenges.h).
 */
#ifndef GPULAB_PLUGINS_CHALLENGE_DIRS_H
#define GPULAB_PLUGINS_CHALLENGE_DIRS_H

#include "command_names.h"
#include "plugins/challenge.h"

#include <stddef.h>
#include <string.h>

#define CHALLENGE_FOLDERS_ENV "GPULAB_CHALLENGE_FOLDERS"

/* The plugin whose exercises are the challenges: named as the command
 * that runs one, so its name is the command's (command_names.h). */
#define TRY_PLUGIN CMD_TRY

/* Is `exercise` the try plugin's exercise of `challenge` (try.NAME): a
 * record's row of a learner's kernel on it? */
static inline int try_exercise_is(const char *exercise, const char *challenge)
{
	const size_t at = sizeof TRY_PLUGIN; /* the name and its '.' */
	return exercise && challenge && !strncmp(exercise, TRY_PLUGIN ".", at) && !strcmp(exercise + at, challenge);
}

/* One challenge found: its name (its folder's), the folder that won, and
 * the one it hides, if any ("" for none). */
struct challenge_found {
	char name[CHALLENGE_MAX_NAME];
	char dir[4096];
	char hidden[4096];
	int user;                    /* the user's, not installed */
};

struct challenge_set {
	struct challenge_found *v;
	size_t n;
};

/* The installed challenges' directory: $GPULAB_CHALLENGES, else the
 * configured $(pkgdatadir)/challenges. */
const char *challenges_installed_dir(void);

/* Every challenge folder (one holding challenge.ini) in the user's
 * directory and the installed one, by name in order, a user's winning.
 * 0, or EXIT_NOMEM / EXIT_CONFIG with one line in err. */
int challenges_find(struct challenge_set *s, char *err, size_t errlen);
void challenges_free(struct challenge_set *s);

/* Is `arg` a folder's path rather than a challenge's name? */
int challenge_arg_is_dir(const char *arg);

/* NAME-or-DIR read into c: a path as given, a name from the folders
 * found.  0; EXIT_NOMATCH where no challenge has the name; EXIT_CHALLENGE
 * where its challenge.ini is wrong; one line in err either way. */
int challenge_resolve(const char *arg, struct challenge *c, char *err, size_t errlen);

/* GPULAB_CHALLENGE_FOLDERS set for the try plugin: `first` (a folder
 * named on the command line, or NULL), then every folder found.  0, or
 * the exit code with one line in err. */
int challenges_export(const char *first, char *err, size_t errlen);

/* The same with no folder first, unless GPULAB_CHALLENGE_FOLDERS is set
 * already (by try or grade, a parent gpulab, or the user): what every
 * command that loads plugins does first. */
int challenges_export_unset(char *err, size_t errlen);

#endif
