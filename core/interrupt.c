#include "interrupt.h"

#include "exitcode.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Atomics, not volatile: the handler may run on any thread of the
 * process (see interrupt_temporary), and lock-free atomics are safe in a
 * handler. */
static atomic_int caught;

/* The temporary a second signal removes.  Its name is written only while
 * `doomed` is 0, so a handler that starts meanwhile reads none; one that
 * started before reads the same bytes, a run's record having one name. */
static char doomed_path[4200];
static atomic_int doomed;

/* When the first was caught (CLOCK_MONOTONIC, ns); 0 while its handler
 * has not yet said. */
static atomic_llong first_ns;

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t); /* async-signal-safe */
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The same signal again within INTERRUPT_SAME_NS of the first is the same
 * one sent twice (timeout(1) sends it to the process and to its group;
 * the copies may be handled at once, on two threads): counted once.  A
 * first handler that has not yet stamped its time is at this very moment:
 * the same one too. */
static int echo_of_first(int sig, long long now)
{
	long long t = atomic_load(&first_ns);
	return atomic_load(&caught) == sig && (t == 0 || now - t < INTERRUPT_SAME_NS);
}

static void on_signal(int sig)
{
	int none = 0, e = errno;
	long long now = now_ns();
	if (atomic_compare_exchange_strong(&caught, &none, sig)) {
		atomic_store(&first_ns, now);
		errno = e;
		return;
	}
	if (echo_of_first(sig, now)) {
		errno = e;
		return;
	}
	if (atomic_load(&doomed))
		unlink(doomed_path); /* async-signal-safe, as _exit is */
	_exit(EXIT_AT_ONCE);         /* the second: at once, with a code of its own, so that a
				      * script tells it from a stop that wrote the closing line */
}

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

void interrupt_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaddset(&sa.sa_mask, signals[i]); /* one handler at a time on a thread */
	atomic_store(&caught, 0);
	atomic_store(&first_ns, 0);
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
	return atomic_load(&caught);
}

const char *interrupt_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

void interrupt_temporary(const char *path)
{
	atomic_store(&doomed, 0);
	if (!path || strlen(path) >= sizeof doomed_path)
		return;
	memcpy(doomed_path, path, strlen(path) + 1);
	atomic_store(&doomed, 1);
}

static void mask(int how)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
		sigaddset(&set, signals[i]);
	pthread_sigmask(how, &set, NULL);
}

void interrupt_hold(void)
{
	mask(SIG_BLOCK);
}

void interrupt_let_go(void)
{
	mask(SIG_UNBLOCK);
}
