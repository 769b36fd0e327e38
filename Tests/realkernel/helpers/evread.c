/*
 * evread: find the input device the daemon creates (by name, "tiltscroll"
 * unless --name says otherwise) and report what it is and what it sends.
 *
 *   evread wait   [--name N] [--timeout S]   print its node once it exists
 *   evread gone   [--name N] [--timeout S]   return once no such device exists
 *   evread caps   [--name N] [--timeout S] [--horizontal]
 *         check it is a wheel and nothing else: EV_REL with exactly REL_WHEEL
 *         and REL_WHEEL_HI_RES (plus the horizontal pair with --horizontal),
 *         no other event types, bus BUS_VIRTUAL
 *   evread frames [--name N] [--timeout S] [--duration S] [--follow]
 *         print one line per frame until SIGTERM/SIGINT, --duration, or the
 *         device going away (with --follow, wait for it to come back):
 *           ready T NODE                  the device is open; frames from here on
 *           frame T HIRES WHEEL HHIRES HWHEEL
 *           gone T
 *         then "summary frames=N hires=.. wheel=.. hhires=.. hwheel=..
 *         first=T last=T dropped=N other=N" (other: events that are not
 *         wheel motion or SYN, which a scroll device must never send).
 *
 * T is CLOCK_MONOTONIC in seconds, taken from the kernel's event timestamps
 * (EVIOCSCLOCKID), so scenarios can compare it with marks from monotime.
 * It reads the kernel interface directly, not through libevdev, so it does not
 * share a bug with the daemon's writer. Exit status: 0 done, 1 failure or
 * timeout, 2 usage.
 */
#include "common.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#define BITS_PER_LONG (8 * sizeof(long))
#define NLONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static bool test_bit(const unsigned long *bits, unsigned bit)
{
	return (bits[bit / BITS_PER_LONG] >> (bit % BITS_PER_LONG)) & 1;
}

struct options {
	const char *name;
	double timeout;
	double duration;
	bool follow;
	bool horizontal;
};

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/*
 * Open the first /dev/input/event* whose name is `name`; -1 if none.
 * The node path is copied into `node`.
 */
static int open_by_name(const char *name, char *node, size_t node_size)
{
	DIR *dir = opendir("/dev/input");
	if (!dir)
		return -1;
	int found = -1;
	struct dirent *entry;
	while (found < 0 && (entry = readdir(dir)) != NULL) {
		if (strncmp(entry->d_name, "event", 5) != 0)
			continue;
		char path[300];
		snprintf(path, sizeof path, "/dev/input/%s", entry->d_name);
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue; /* vanished between readdir and open, or not ours */
		char dev_name[256] = "";
		if (ioctl(fd, EVIOCGNAME(sizeof dev_name - 1), dev_name) >= 0 &&
		    strcmp(dev_name, name) == 0) {
			found = fd;
			snprintf(node, node_size, "%s", path);
		} else {
			close(fd);
		}
	}
	closedir(dir);
	return found;
}

/* Sleep 10 ms with SIGTERM/SIGINT deliverable even while they are blocked. */
static void pause_briefly(void)
{
	sigset_t unblocked;
	sigemptyset(&unblocked);
	struct timespec ts = {.tv_sec = 0, .tv_nsec = 10000000};
	ppoll(NULL, 0, &ts, &unblocked);
}

/* Poll for the device every 10 ms until it exists or `timeout` passes (<0: forever). */
static int wait_for_device(const struct options *opt, double timeout, char *node, size_t size)
{
	double deadline = monotonic_seconds() + timeout;
	for (;;) {
		int fd = open_by_name(opt->name, node, size);
		if (fd >= 0)
			return fd;
		if (stop_requested || (timeout >= 0 && monotonic_seconds() > deadline))
			return -1;
		pause_briefly();
	}
}

static int cmd_wait(const struct options *opt)
{
	char node[300];
	int fd = wait_for_device(opt, opt->timeout, node, sizeof node);
	if (fd < 0) {
		fprintf(stderr, "evread: no input device named '%s' within %.1f s\n", opt->name, opt->timeout);
		return 1;
	}
	printf("%s\n", node);
	close(fd);
	return 0;
}

static int cmd_gone(const struct options *opt)
{
	double deadline = monotonic_seconds() + opt->timeout;
	char node[300];
	for (;;) {
		int fd = open_by_name(opt->name, node, sizeof node);
		if (fd < 0)
			return 0;
		close(fd);
		if (monotonic_seconds() > deadline) {
			fprintf(stderr, "evread: input device '%s' (%s) still exists after %.1f s\n",
				opt->name, node, opt->timeout);
			return 1;
		}
		pause_briefly();
	}
}

static const char *rel_name(unsigned code)
{
	switch (code) {
	case REL_X: return "X";
	case REL_Y: return "Y";
	case REL_HWHEEL: return "HWHEEL";
	case REL_WHEEL: return "WHEEL";
	case REL_WHEEL_HI_RES: return "WHEEL_HI_RES";
	case REL_HWHEEL_HI_RES: return "HWHEEL_HI_RES";
	default: return "other";
	}
}

static int cmd_caps(const struct options *opt)
{
	char node[300];
	int fd = wait_for_device(opt, opt->timeout, node, sizeof node);
	if (fd < 0) {
		fprintf(stderr, "evread: no input device named '%s' within %.1f s\n", opt->name, opt->timeout);
		return 1;
	}
	unsigned long types[NLONGS(EV_CNT)] = {0}, rels[NLONGS(REL_CNT)] = {0};
	struct input_id id;
	if (ioctl(fd, EVIOCGBIT(0, sizeof types), types) < 0 ||
	    ioctl(fd, EVIOCGBIT(EV_REL, sizeof rels), rels) < 0 || ioctl(fd, EVIOCGID, &id) < 0)
		die_errno("querying %s", node);

	int problems = 0;
	printf("caps node=%s name=%s bus=0x%02x types=", node, opt->name, id.bustype);
	const char *sep = "";
	for (unsigned t = 0; t < EV_CNT; t++)
		if (t != EV_SYN && test_bit(types, t))
			printf("%s0x%02x", sep, t), sep = ",";
	printf(" rel=");
	sep = "";
	for (unsigned c = 0; c < REL_CNT; c++)
		if (test_bit(rels, c))
			printf("%s%s", sep, rel_name(c)), sep = ",";
	printf("\n");

	for (unsigned t = 0; t < EV_CNT; t++) {
		if (t == EV_SYN || t == EV_REL)
			continue;
		if (test_bit(types, t)) {
			printf("caps problem: event type 0x%02x declared; a scroll device needs only EV_REL\n", t);
			problems++;
		}
	}
	if (!test_bit(types, EV_REL)) {
		printf("caps problem: EV_REL not declared\n");
		problems++;
	}
	for (unsigned c = 0; c < REL_CNT; c++) {
		bool wanted = c == REL_WHEEL || c == REL_WHEEL_HI_RES ||
			      (opt->horizontal && (c == REL_HWHEEL || c == REL_HWHEEL_HI_RES));
		if (wanted != test_bit(rels, c)) {
			printf("caps problem: REL_%s (0x%02x) %s\n", rel_name(c), c,
			       wanted ? "missing" : "declared but not wanted");
			problems++;
		}
	}
	if (id.bustype != BUS_VIRTUAL) {
		printf("caps problem: bus 0x%02x, want BUS_VIRTUAL (0x%02x)\n", id.bustype, BUS_VIRTUAL);
		problems++;
	}
	close(fd);
	return problems ? 1 : 0;
}

/* Running totals for the summary. */
struct totals {
	long frames, hires, wheel, hhires, hwheel, dropped, other;
	double first, last;
};

static double event_time(const struct input_event *ev)
{
	return (double)ev->input_event_sec + (double)ev->input_event_usec / 1e6;
}

/*
 * Read frames from an open device until it goes away (returns 1), a stop is
 * requested or the deadline passes (returns 0).
 */
static int read_frames(int fd, double deadline, struct totals *t)
{
	int clock = CLOCK_MONOTONIC;
	if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0)
		die_errno("EVIOCSCLOCKID");
	long frame[4] = {0}; /* hires, wheel, hhires, hwheel of the frame being read */
	sigset_t unblocked;
	sigemptyset(&unblocked);
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	for (;;) {
		if (stop_requested)
			return 0;
		double left = deadline - monotonic_seconds();
		if (deadline >= 0 && left <= 0)
			return 0;
		struct timespec ts = {.tv_sec = 0, .tv_nsec = 100000000};
		if (deadline >= 0 && left < 0.1)
			ts.tv_nsec = (long)(left * 1e9);
		/* Signals are blocked except inside ppoll: no lost SIGTERM. */
		int n = ppoll(&pfd, 1, &ts, &unblocked);
		if (n < 0 && errno != EINTR)
			die_errno("poll");
		if (n <= 0)
			continue;
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
			return 1;
		struct input_event evs[64];
		ssize_t got = read(fd, evs, sizeof evs);
		if (got < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			if (errno == ENODEV)
				return 1;
			die_errno("read");
		}
		for (size_t i = 0; i < (size_t)got / sizeof evs[0]; i++) {
			const struct input_event *ev = &evs[i];
			if (ev->type == EV_REL) {
				switch (ev->code) {
				case REL_WHEEL_HI_RES: frame[0] += ev->value; break;
				case REL_WHEEL: frame[1] += ev->value; break;
				case REL_HWHEEL_HI_RES: frame[2] += ev->value; break;
				case REL_HWHEEL: frame[3] += ev->value; break;
				default: t->other++; break;
				}
			} else if (ev->type == EV_SYN && ev->code == SYN_DROPPED) {
				t->dropped++;
				printf("dropped %.6f\n", event_time(ev));
			} else if (ev->type == EV_SYN && ev->code == SYN_REPORT) {
				double when = event_time(ev);
				printf("frame %.6f %ld %ld %ld %ld\n", when, frame[0], frame[1], frame[2], frame[3]);
				if (t->frames == 0)
					t->first = when;
				t->last = when;
				t->frames++;
				t->hires += frame[0];
				t->wheel += frame[1];
				t->hhires += frame[2];
				t->hwheel += frame[3];
				memset(frame, 0, sizeof frame);
			} else if (ev->type != EV_SYN) {
				t->other++;
			}
		}
	}
}

static int cmd_frames(const struct options *opt)
{
	struct totals t = {0};
	double deadline = opt->duration > 0 ? monotonic_seconds() + opt->duration : -1;
	double wait = opt->timeout;
	int status = 0;
	char node[300];

	for (;;) {
		int fd = wait_for_device(opt, wait, node, sizeof node);
		if (fd < 0) {
			if (!stop_requested && t.frames == 0 && wait >= 0) {
				fprintf(stderr, "evread: no input device named '%s' within %.1f s\n", opt->name,
					opt->timeout);
				status = 1;
			}
			break;
		}
		printf("ready %.6f %s\n", monotonic_seconds(), node);
		int gone = read_frames(fd, deadline, &t);
		close(fd);
		if (!gone)
			break;
		printf("gone %.6f\n", monotonic_seconds());
		if (!opt->follow)
			break;
		/* Wait for the device to come back until stopped or the duration ends. */
		wait = deadline >= 0 ? deadline - monotonic_seconds() : -1;
		if (deadline >= 0 && wait <= 0)
			break;
	}
	printf("summary frames=%ld hires=%ld wheel=%ld hhires=%ld hwheel=%ld first=%.6f last=%.6f dropped=%ld other=%ld\n",
	       t.frames, t.hires, t.wheel, t.hhires, t.hwheel, t.first, t.last, t.dropped, t.other);
	return status;
}

static void usage(void)
{
	fprintf(stderr, "usage: evread wait|gone|caps|frames [--name NAME] [--timeout S] "
			"[--duration S] [--follow] [--horizontal]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	helper_name = "evread";
	if (argc < 2)
		usage();
	const char *cmd = argv[1];
	struct options opt = {.name = "tiltscroll", .timeout = 10, .duration = 0};
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(arg, "--follow") == 0) {
			opt.follow = true;
		} else if (strcmp(arg, "--horizontal") == 0) {
			opt.horizontal = true;
		} else if (value && strcmp(arg, "--name") == 0) {
			opt.name = value, i++;
		} else if (value && strcmp(arg, "--timeout") == 0) {
			opt.timeout = parse_double(value, arg), i++;
		} else if (value && strcmp(arg, "--duration") == 0) {
			opt.duration = parse_double(value, arg), i++;
		} else {
			usage();
		}
	}

	/* Output goes to files that scenarios read while this runs. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction sa = {.sa_handler = on_stop_signal};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, NULL);

	if (strcmp(cmd, "wait") == 0)
		return cmd_wait(&opt);
	if (strcmp(cmd, "gone") == 0)
		return cmd_gone(&opt);
	if (strcmp(cmd, "caps") == 0)
		return cmd_caps(&opt);
	if (strcmp(cmd, "frames") == 0)
		return cmd_frames(&opt);
	usage();
}
