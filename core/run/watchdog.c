#include "run/watchdog.h"

#include "exitcode.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* Written before the timer is armed; the handler only reads it. */
static char line[1200];
static size_t line_len;

/* Only async-signal-safe calls: write() and _exit(). */
static void expire(int sig)
{
	(void)sig;
	ssize_t w = write(STDERR_FILENO, line, line_len);
	(void)w;
	_exit(EXIT_WATCHDOG);
}

static void set_timer(double seconds)
{
	struct itimerval t = { 0 };
	t.it_value.tv_sec = (time_t)seconds;
	t.it_value.tv_usec = (suseconds_t)((seconds - (double)t.it_value.tv_sec) * 1e6);
	if (seconds > 0 && t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
		t.it_value.tv_usec = 1; /* a zero value would disarm it */
	setitimer(ITIMER_REAL, &t, NULL);
}

void watchdog_arm(double seconds, const char *text)
{
	static int installed;
	if (seconds <= 0)
		return;
	set_timer(0);
	snprintf(line, sizeof line, "%s", text);
	line_len = strlen(line);
	if (!installed) {
		struct sigaction sa = { .sa_handler = expire };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		installed = 1;
	}
	set_timer(seconds);
}

void watchdog_disarm(void)
{
	set_timer(0);
}
