#include "config/opterr.h"

#include "config/options.h"

#include <stdio.h>
#include <string.h>

#define OPTERR_HELP "; `gpulab --%s` lists them"

/* --help's name, from the table options.c made of its rows (each long
 * option's val is its id + 256): options.c calls this file, so this one
 * reads the table it is handed rather than call options_long back. */
static const char *opterr_help(const struct option *lo)
{
	for (; lo->name; lo++)
		if (lo->val == OPT_HELP + 256)
			return lo->name;
	return "";
}

/* How many long options the name's first len bytes abbreviate, the first
 * in *first; an exact name is one match however many it abbreviates. */
static int opterr_matches(const struct option *lo, const char *name, size_t len, const struct option **first)
{
	int n = 0;
	*first = NULL;
	for (; len && lo->name; lo++) {
		if (strncmp(lo->name, name, len))
			continue;
		if (strlen(lo->name) == len) {
			*first = lo;
			return 1;
		}
		if (n++ == 0)
			*first = lo;
	}
	return n;
}

/* "--cold, --config" for the abbreviation `name` */
static void opterr_candidates(const struct option *lo, const char *name, size_t len, char *buf, size_t buflen)
{
	size_t used = 0;
	buf[0] = 0;
	for (; lo->name && used < buflen; lo++)
		if (!strncmp(lo->name, name, len))
			used += snprintf(buf + used, buflen - used, "%s--%s", used ? ", " : "", lo->name);
}

static void opterr_long(const struct option *lo, int c, const char *arg, char *err, size_t errlen)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *o;
	char list[512];
	int n = opterr_matches(lo, name, len, &o);
	if (n > 1) {
		opterr_candidates(lo, name, len, list, sizeof list);
		snprintf(err, errlen, "option --%.*s is ambiguous: %s" OPTERR_HELP, (int)len, name, list, opterr_help(lo));
	} else if (n == 1 && c == ':') {
		snprintf(err, errlen, "option --%s needs a value" OPTERR_HELP, o->name, opterr_help(lo));
	} else if (n == 1) {
		snprintf(err, errlen, "option --%s takes no value" OPTERR_HELP, o->name, opterr_help(lo));
	} else {
		snprintf(err, errlen, "option --%.*s is unknown" OPTERR_HELP, (int)len, name, opterr_help(lo));
	}
}

void opterr_message(const struct option *longopts, int c, int opt, const char *arg,
		    char *err, size_t errlen)
{
	/* glibc: a long option's error sets optopt to 0 (unknown, ambiguous)
	 * or to its val, and consumes the argument, so arg is the option;
	 * a short one's sets optopt to the character.  Our long-only vals
	 * are above 255; --size and -n share 'n', and only a missing value
	 * (':') can be either, told apart by arg. */
	int is_long = c == ':' ? arg && !strncmp(arg, "--", 2) : opt == 0 || opt > 255;
	if (is_long && arg && !strncmp(arg, "--", 2))
		opterr_long(longopts, c, arg, err, errlen);
	else if (opt > 0 && opt < 256)
		snprintf(err, errlen, "option -%c %s" OPTERR_HELP, opt, c == ':' ? "needs a value" : "is unknown",
			 opterr_help(longopts));
	else
		snprintf(err, errlen, "option %s is unknown" OPTERR_HELP, arg ? arg : "", opterr_help(longopts));
}
