/* Helpers the test programs share: temporary files and running gpulab. */
#ifndef GPULAB_TESTUTIL_H
#define GPULAB_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>

/* A fresh temporary directory, removed with what it holds when the
 * process that asked for it exits.  The caller may free the string. */
char *temp_dir(void);

/* Write `text` to dir/name; returns the path (static storage rotates). */
const char *write_file(const char *dir, const char *name, const char *text);

struct cmd_result {
	int status;       /* exit code, or 128 + signal */
	double seconds;   /* how long it ran */
	char out[65536];  /* stdout */
	char err[8192];   /* stderr */
};

/* Run argv[0] with argv, env entries "K=V" added (NULL-terminated),
 * capturing output. */
void run_cmd(struct cmd_result *o, char *const argv[], char *const env[]);

/* Run program with the arguments first, ... (NULL-terminated, at most 30)
 * and env as run_cmd takes them. */
void run_cmd_va(struct cmd_result *o, const char *program, char *const env[], const char *first, va_list ap);

/* argv[0] with argv started in the background, env entries added, its
 * stdout and stderr into the files out and err, ended by SIGALRM after
 * 60 s; its pid. */
int spawn_cmd(char *const argv[], char *const env[], const char *out, const char *err);

/* Wait for a spawned command: its exit code, or 128 + signal. */
int wait_cmd(int pid);

/* The text of a file (at most len - 1 bytes; "" where it cannot be read). */
char *read_text(const char *path, char *buf, size_t len);

/* How many files in dir end in ".tmp": what a write that failed must
 * not leave behind. */
int count_temporaries(const char *dir);

/* From now on, run_cmd's commands get SIGALRM after `seconds` (0: never),
 * so one that hangs ends with status 128 + SIGALRM. */
void run_cmd_alarm(unsigned seconds);

/* How many lines `s` has. */
int count_lines(const char *s);
/* How often `what` occurs in s. */
int occurrences(const char *s, const char *what);

/* Is s one complete JSON value?  A strict validator (RFC 8259). */
int json_valid(const char *s);

/* Run a suite's tests; the exit status for the test driver. */
struct Suite;
int run_suite(struct Suite *s, int verbose);

/* Is every CSV record's field count the same as the header's? */
int csv_valid(const char *s, int *fields);

#endif
