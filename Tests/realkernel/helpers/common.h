/*
 * Small shared pieces of the real-kernel test helpers: error exits, the
 * monotonic clock as seconds, number parsing that rejects junk. Header-only
 * so each helper stays a single file to build.
 */
#ifndef TILTSCROLL_HELPERS_COMMON_H
#define TILTSCROLL_HELPERS_COMMON_H

/* ppoll, O_CLOEXEC and friends; must come before any system header. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Set by each helper's main to prefix its messages. */
static const char *helper_name = "helper";

/* Print "NAME: message" on stderr and exit 1 (the scenario's failure). */
__attribute__((format(printf, 1, 2), noreturn, unused)) static void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", helper_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Like die, with strerror(errno) appended. */
#define die_errno(fmt, ...) die(fmt ": %s", ##__VA_ARGS__, strerror(errno))

/* CLOCK_MONOTONIC in seconds: the clock evdev timestamps and scenarios share. */
__attribute__((unused)) static double monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A whole string as a double, or die naming the option it was given for. */
__attribute__((unused)) static double parse_double(const char *text, const char *what)
{
	char *end;
	errno = 0;
	double value = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0')
		die("%s: not a number: '%s'", what, text);
	return value;
}

/* A whole string as a long (decimal, 0x hex), or die. */
__attribute__((unused)) static long parse_long(const char *text, const char *what)
{
	char *end;
	errno = 0;
	long value = strtol(text, &end, 0);
	if (errno != 0 || end == text || *end != '\0')
		die("%s: not an integer: '%s'", what, text);
	return value;
}

/* Sleep for a number of seconds, resuming after signals. */
__attribute__((unused)) static void sleep_seconds(double seconds)
{
	struct timespec ts;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * Handle the signals of SIGNALS (COUNT of them) with HANDLER, and block them
 * except inside ppoll(): pass *unblocked as its mask, and a signal arrives
 * only while the loop waits there (no SA_RESTART: it interrupts the wait and
 * the loop sees the flag), never unseen just before it.
 */
__attribute__((unused)) static void handle_signals_in_ppoll(const int *signals, int count, void (*handler)(int),
							   sigset_t *unblocked)
{
	struct sigaction sa = {.sa_handler = handler};
	sigset_t handled;
	sigemptyset(&handled);
	for (int i = 0; i < count; i++) {
		sigaction(signals[i], &sa, NULL);
		sigaddset(&handled, signals[i]);
	}
	sigprocmask(SIG_BLOCK, &handled, unblocked);
	for (int i = 0; i < count; i++)
		sigdelset(unblocked, signals[i]);
}

#endif
