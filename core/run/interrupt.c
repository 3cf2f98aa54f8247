#include "run/interrupt.h"

#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	if (!caught) {
		caught = sig;
		return;
	}
	_exit(128 + sig); /* the second: at once (no record is being written: see interrupt_hold) */
}

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

void interrupt_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaddset(&sa.sa_mask, signals[i]); /* one handler at a time */
	caught = 0;
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaction(signals[i], &sa, NULL);
}

void interrupt_release(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaction(signals[i], &sa, NULL);
}

int interrupt_pending(void)
{
	return caught;
}

const char *interrupt_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

static void mask(int how)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaddset(&set, signals[i]);
	sigprocmask(how, &set, NULL);
}

void interrupt_hold(void)
{
	mask(SIG_BLOCK);
}

void interrupt_let_go(void)
{
	mask(SIG_UNBLOCK);
}
