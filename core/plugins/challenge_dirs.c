/* Where the challenges are (plugins/challenge_dirs.h). */
#include "plugins/challenge_dirs.h"

#include "config/settings.h"
#include "exitcode.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPULAB_CHALLENGES
#define GPULAB_CHALLENGES "/usr/share/gpulab/challenges"
#endif

const char *challenges_installed_dir(void)
{
	const char *d = getenv("GPULAB_CHALLENGES");
	return d && *d ? d : GPULAB_CHALLENGES;
}

int challenge_arg_is_dir(const char *arg)
{
	return strchr(arg, '/') != NULL;
}

static int names_a_challenge(const char *dir, const char *name)
{
	char path[4200];
	struct stat st;
	size_t n = strlen(name);
	if (!n || n >= CHALLENGE_MAX_NAME || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
		return 0;
	snprintf(path, sizeof path, "%s/%s/challenge.ini", dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folders in dir, each added unless a name already found has it. */
static int add_dir(struct challenge_set *s, const char *dir, int user)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t k = 0;
		while (k < s->n && strcmp(s->v[k].name, name))
			k++;
		if (!rc && names_a_challenge(dir, name) && k < s->n && !s->v[k].hidden[0])
			snprintf(s->v[k].hidden, sizeof s->v[k].hidden, "%s/%s", dir, name);
		else if (!rc && names_a_challenge(dir, name) && k == s->n) {
			struct challenge_found *v = realloc(s->v, (s->n + 1) * sizeof *v);
			if (!v)
				rc = EXIT_NOMEM;
			else {
				s->v = v;
				v[s->n] = (struct challenge_found){ .user = user };
				snprintf(v[s->n].name, sizeof v[s->n].name, "%s", name);
				snprintf(v[s->n].dir, sizeof v[s->n].dir, "%s/%s", dir, name);
				s->n++;
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return rc;
}

int challenges_find(struct challenge_set *s, char *err, size_t errlen)
{
	char user[PATH_MAX];
	int rc;
	*s = (struct challenge_set){ 0 };
	if ((rc = config_user_data_dir(user, sizeof user, "/gpulab/challenges", err, errlen)))
		return rc;
	if ((user[0] && (rc = add_dir(s, user, 1))) || (rc = add_dir(s, challenges_installed_dir(), 0)))
		snprintf(err, errlen, "out of memory");
	return rc;
}

void challenges_free(struct challenge_set *s)
{
	free(s->v);
	*s = (struct challenge_set){ 0 };
}

int challenge_resolve(const char *arg, struct challenge *c, char *err, size_t errlen)
{
	struct challenge_set s;
	char dir[4096] = "";
	int rc;
	if (challenge_arg_is_dir(arg)) {
		char ini[4200];
		struct stat st;
		snprintf(dir, sizeof dir, "%s", arg);
		snprintf(ini, sizeof ini, "%s/challenge.ini", arg);
		if (stat(ini, &st) != 0) {
			snprintf(err, errlen, "no challenge in %.300s: it holds no challenge.ini", arg);
			return EXIT_NOMATCH;
		}
	} else {
		if ((rc = challenges_find(&s, err, errlen)))
			return rc;
		for (size_t i = 0; i < s.n; i++)
			if (!strcmp(s.v[i].name, arg))
				snprintf(dir, sizeof dir, "%s", s.v[i].dir);
		challenges_free(&s);
		if (!dir[0]) {
			snprintf(err, errlen, "no challenge '%.64s' in %s or the user's challenges (a folder of your own is "
					      "named by its path: ./%.64s)", arg, challenges_installed_dir(), arg);
			return EXIT_NOMATCH;
		}
	}
	return challenge_load(c, dir, err, errlen) ? EXIT_CHALLENGE : 0;
}

int challenges_export(const char *first, char *err, size_t errlen)
{
	struct challenge_set s;
	size_t len = first ? strlen(first) + 1 : 1, at = 0;
	int rc = challenges_find(&s, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < s.n; i++)
		len += strlen(s.v[i].dir) + 1;
	char *v = malloc(len);
	if (!v) {
		challenges_free(&s);
		snprintf(err, errlen, "out of memory");
		return EXIT_NOMEM;
	}
	v[0] = 0;
	if (first && !strchr(first, ':'))
		at += (size_t)sprintf(v + at, "%s", first);
	for (size_t i = 0; i < s.n; i++)
		if (!strchr(s.v[i].dir, ':')) /* the list's separator: such a folder is named on the command line */
			at += (size_t)sprintf(v + at, "%s%s", at ? ":" : "", s.v[i].dir);
	rc = setenv(CHALLENGE_FOLDERS_ENV, v, 1) ? EXIT_NOMEM : 0;
	if (rc)
		snprintf(err, errlen, "out of memory");
	free(v);
	challenges_free(&s);
	return rc;
}

int challenges_export_unset(char *err, size_t errlen)
{
	return getenv(CHALLENGE_FOLDERS_ENV) ? 0 : challenges_export(NULL, err, errlen);
}
