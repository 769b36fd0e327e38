/*
 * iio-record: record an IIO accelerometer's raw readings as a tiltscroll
 * trace, the input of the demo and of the physics golden tests.
 *
 *   iio-record --device NAME --describe TEXT --output FILE
 *              [--rate HZ] [--duration SECONDS]
 *
 * Samples in_accel_{x,y,z}_raw at HZ (default 50) on a CLOCK_MONOTONIC grid
 * until --duration passes or SIGTERM/SIGINT arrives, then writes FILE:
 *
 *   # tiltscroll trace 1
 *   # device: TEXT
 *   # scale: SX SY SZ          as the driver reports them (per-axis or shared)
 *   # offset: OX OY OZ         0 where the driver has none
 *   # mount-matrix: ...        the driver's, as sysfs prints it, else identity
 *   SECONDS X Y Z              one line per sample, time from the first one
 *
 * The time is taken just before reading the sample, so when reads are slower
 * than the grid (a HID sensor hub answers each read with a round trip to the
 * firmware) the timestamps say so instead of pretending. The device's
 * settings are not touched: this records what the driver gives.
 */
#include "common.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* The contents of a small sysfs file without the newline; false if absent. */
static bool read_attr(const char *dir, const char *name, char *out, size_t size)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, out, size - 1);
	close(fd);
	if (n < 0)
		return false;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return true;
}

/* /sys/bus/iio/devices/iio:deviceN whose name is `name`. */
static bool find_device(const char *name, char *dir, size_t size)
{
	const char *base = "/sys/bus/iio/devices";
	DIR *d = opendir(base);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "iio:device", 10) != 0)
			continue;
		char candidate[300], dev_name[128];
		snprintf(candidate, sizeof candidate, "%s/%s", base, e->d_name);
		if (read_attr(candidate, "name", dev_name, sizeof dev_name) && strcmp(dev_name, name) == 0) {
			snprintf(dir, size, "%s", candidate);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Per-axis attribute, else the shared one, else the bare one, else `fallback`. */
static void axis_attr(const char *dir, char axis, const char *kind, const char *fallback, char *out, size_t size)
{
	char name[64];
	snprintf(name, sizeof name, "in_accel_%c_%s", axis, kind);
	if (read_attr(dir, name, out, size))
		return;
	snprintf(name, sizeof name, "in_accel_%s", kind);
	if (read_attr(dir, name, out, size))
		return;
	if (read_attr(dir, kind, out, size))
		return;
	snprintf(out, size, "%s", fallback);
}

static long read_raw(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		die_errno("reading a raw value");
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static void add_ns(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

int main(int argc, char **argv)
{
	helper_name = "iio-record";
	const char *device = NULL, *describe = NULL, *output = NULL;
	double rate = 50, duration = 0;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--device") == 0)
			device = argv[i + 1];
		else if (strcmp(argv[i], "--describe") == 0)
			describe = argv[i + 1];
		else if (strcmp(argv[i], "--output") == 0)
			output = argv[i + 1];
		else if (strcmp(argv[i], "--rate") == 0)
			rate = parse_double(argv[i + 1], "--rate");
		else if (strcmp(argv[i], "--duration") == 0)
			duration = parse_double(argv[i + 1], "--duration");
		else
			die("unknown option %s", argv[i]);
	}
	if (!device || !describe || !output || rate <= 0 || argc % 2 == 0)
		die("usage: iio-record --device NAME --describe TEXT --output FILE [--rate HZ] [--duration S]");

	char dir[300];
	if (!find_device(device, dir, sizeof dir))
		die("no IIO device named %s", device);

	char scale[3][32], offset[3][32], matrix[128];
	for (int a = 0; a < 3; a++) {
		axis_attr(dir, (char)('x' + a), "scale", "1", scale[a], sizeof scale[a]);
		axis_attr(dir, (char)('x' + a), "offset", "0", offset[a], sizeof offset[a]);
	}
	if (!read_attr(dir, "in_accel_mount_matrix", matrix, sizeof matrix) &&
	    !read_attr(dir, "mount_matrix", matrix, sizeof matrix) &&
	    !read_attr(dir, "in_mount_matrix", matrix, sizeof matrix))
		snprintf(matrix, sizeof matrix, "1, 0, 0; 0, 1, 0; 0, 0, 1");

	int fds[3];
	for (int a = 0; a < 3; a++) {
		char path[400];
		snprintf(path, sizeof path, "%s/in_accel_%c_raw", dir, 'x' + a);
		fds[a] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[a] < 0)
			die_errno("opening %s", path);
	}

	FILE *out = fopen(output, "w");
	if (!out)
		die_errno("creating %s", output);
	fprintf(out, "# tiltscroll trace 1\n# device: %s\n", describe);
	fprintf(out, "# scale: %s %s %s\n", scale[0], scale[1], scale[2]);
	fprintf(out, "# offset: %s %s %s\n", offset[0], offset[1], offset[2]);
	fprintf(out, "# mount-matrix: %s\n", matrix);

	struct sigaction sa = {.sa_handler = on_stop_signal};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	long period_ns = (long)(1e9 / rate);
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	double start = -1, late = 0;
	long samples = 0;
	while (!stop_requested) {
		double t = monotonic_seconds();
		if (start < 0)
			start = t;
		if (duration > 0 && t - start >= duration)
			break;
		long x = read_raw(fds[0]), y = read_raw(fds[1]), z = read_raw(fds[2]);
		fprintf(out, "%.3f %ld %ld %ld\n", t - start, x, y, z);
		samples++;
		/* Next grid point; if reading took longer, skip ahead instead of bursting. */
		add_ns(&next, period_ns);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		while (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec)) {
			add_ns(&next, period_ns);
			late++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	if (fclose(out) != 0)
		die_errno("writing %s", output);
	fprintf(stderr, "iio-record: %ld samples from %s in %.1f s, %.0f grid points missed\n", samples, dir,
		monotonic_seconds() - start, late);
	return 0;
}
