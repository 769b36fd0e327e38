/*
 * hand: present poses to an accelerometer on i2c-stub, the way a hand (or a
 * table) presents them; the model and the control commands are hand.h's.
 *
 *   hand stream --control DIR (--i2c BUS ADDR REG ENDIAN SHIFT BITS READS |
 *               --sysfs DIR) --scale SX SY SZ [--offset OX OY OZ]
 *               [--noise-mg MG] [--rate HZ] [--seed N]
 *               [--motion-seed N --epoch SECONDS]
 *   hand play (--i2c BUS ADDR REG ENDIAN SHIFT BITS READS | --sysfs DIR)
 *   hand timeline --scale SX SY SZ [--offset OX OY OZ] --matrix M00 .. M22
 *               --keys "T:PITCH ..." --step SECONDS
 *
 * stream: the chip's registers get a sample RATE times a second (50, the
 * daemon's default SampleRate) while the hold moves (table, hand), and one
 * at once for each command, before it is answered: when the answer comes,
 * the registers hold the new pose. A fixed hold stores its sample once and
 * then leaves the registers alone (so "play" can take over). With
 * --motion-seed and --epoch the hand's motion is the one every helper given
 * the same two shows, in step (hand_seed_motion: the halves of one device);
 * the noise stays the hand's own (--seed). Prints "ready"
 * once DIR/cmd and DIR/ack exist, and on SIGTERM a summary on stderr.
 *
 * play: stdin holds "MICROSECONDS X Y Z" lines, each sample stored when its
 * time (from the start) comes, so a scripted sweep runs at the sensor's pace
 * instead of the shell's; late samples are skipped.
 *
 * timeline: prints the "MICROSECONDS X Y Z" lines of a sweep, every STEP
 * seconds, the pitch interpolated linearly between the keyframes (times
 * ascending) plus the sweep's own slight tremor (0.2 deg at 7.7 Hz and
 * 0.1 deg at 2.9 Hz; the recorded traces were made with it).
 *
 * Registers: X, Y, Z are raw readings (what in_accel_*_raw shows), each
 * clamped to BITS signed bits, shifted left by SHIFT into a 16-bit register
 * pair and split into bytes in ENDIAN order (le or be) at REG, REG+2, REG+4.
 * i2c-stub keeps one 16-bit word per register: byte and I2C block reads see
 * its low byte, SMBus word reads the whole word. So a sample is stored both
 * ways: one I2C block write of the six bytes and a word write per axis.
 * Neither covers both styles at once, so a reader of the other style can
 * catch a register pair half old, half new between the two; READS (word or
 * block, how the driver reads its samples) goes first, and that style
 * always sees whole samples.
 *
 * --sysfs DIR: instead of a chip's registers, the in_accel_{x,y,z}_raw files
 * of a fake sysfs device (umockdev's testbed, Tests/umockdev/daemon-tests),
 * each rewritten in place, fixed-width, as the driver's attribute would read.
 */
#include "hand.h"

#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>

struct layout {
	int fd;
	int sysfs[3]; /* in_accel_{x,y,z}_raw, or -1: i2c registers */
	unsigned reg;
	bool big_endian, words_first;
	int shift, bits;
};

static void smbus_write(int fd, int size, unsigned reg, union i2c_smbus_data *data)
{
	struct i2c_smbus_ioctl_data args = {
		.read_write = I2C_SMBUS_WRITE, .command = (unsigned char)reg, .size = size, .data = data};
	if (ioctl(fd, I2C_SMBUS, &args) < 0)
		die_errno("%s write at 0x%02x", size == I2C_SMBUS_WORD_DATA ? "word" : "block", reg);
}

static void store_words(const struct layout *l, const unsigned char bytes[6])
{
	for (unsigned axis = 0; axis < 3; axis++) {
		union i2c_smbus_data data = {.word = (unsigned short)(bytes[2 * axis] | bytes[2 * axis + 1] << 8)};
		smbus_write(l->fd, I2C_SMBUS_WORD_DATA, l->reg + 2 * axis, &data);
	}
}

static void store_block(const struct layout *l, const unsigned char bytes[6])
{
	union i2c_smbus_data data;
	data.block[0] = 6;
	memcpy(data.block + 1, bytes, 6);
	smbus_write(l->fd, I2C_SMBUS_I2C_BLOCK_DATA, l->reg, &data);
}

/* Fixed-width and without truncation, so a read racing the write never
 * sees an empty file (real sysfs never shows one either). */
static void store_sysfs(const struct layout *l, const long raw[3])
{
	for (int axis = 0; axis < 3; axis++) {
		char text[17];
		snprintf(text, sizeof text, "%-15ld\n", raw[axis]);
		if (pwrite(l->sysfs[axis], text, 16, 0) != 16)
			die_errno("writing in_accel_%c_raw", 'x' + axis);
	}
}

static void store(const struct layout *l, const long raw[3])
{
	if (l->sysfs[0] >= 0) {
		store_sysfs(l, raw);
		return;
	}
	long limit = 1L << (l->bits - 1);
	unsigned char bytes[6];
	for (int axis = 0; axis < 3; axis++) {
		long r = raw[axis];
		if (r > limit - 1)
			r = limit - 1;
		if (r < -limit)
			r = -limit;
		unsigned u = (unsigned)(r * (1L << l->shift)) & 0xffff;
		unsigned hi = u >> 8, lo = u & 0xff;
		bytes[2 * axis] = (unsigned char)(l->big_endian ? hi : lo);
		bytes[2 * axis + 1] = (unsigned char)(l->big_endian ? lo : hi);
	}
	if (l->words_first) {
		store_words(l, bytes);
		store_block(l, bytes);
	} else {
		store_block(l, bytes);
		store_words(l, bytes);
	}
}

/* --sysfs DIR: the device directory holding in_accel_*_raw. */
static void open_sysfs(struct layout *l, const char *dir)
{
	for (int axis = 0; axis < 3; axis++) {
		char path[512];
		snprintf(path, sizeof path, "%s/in_accel_%c_raw", dir, 'x' + axis);
		l->sysfs[axis] = open(path, O_WRONLY | O_CLOEXEC);
		if (l->sysfs[axis] < 0)
			die_errno("opening %s", path);
	}
}

/* --i2c BUS ADDR REG ENDIAN SHIFT BITS READS at argv[0..6]. */
static void open_layout(struct layout *l, char **a)
{
	l->sysfs[0] = l->sysfs[1] = l->sysfs[2] = -1;
	long bus = parse_long(a[0], "BUS");
	long addr = parse_long(a[1], "ADDR");
	l->reg = (unsigned)parse_long(a[2], "REG");
	if (strcmp(a[3], "le") != 0 && strcmp(a[3], "be") != 0)
		die("ENDIAN must be le or be, not %s", a[3]);
	l->big_endian = strcmp(a[3], "be") == 0;
	l->shift = (int)parse_long(a[4], "SHIFT");
	l->bits = (int)parse_long(a[5], "BITS");
	if (strcmp(a[6], "word") != 0 && strcmp(a[6], "block") != 0)
		die("READS must be word or block, not %s", a[6]);
	l->words_first = strcmp(a[6], "word") == 0;
	if (l->bits < 2 || l->bits + l->shift > 16 || l->reg > 250)
		die("a %d-bit sample shifted by %d at 0x%02x does not fit the registers", l->bits, l->shift, l->reg);
	char path[64];
	snprintf(path, sizeof path, "/dev/i2c-%ld", bus);
	l->fd = open(path, O_RDWR | O_CLOEXEC);
	if (l->fd < 0)
		die_errno("opening %s", path);
	/* FORCE: the accelerometer driver owns this address. */
	if (ioctl(l->fd, I2C_SLAVE_FORCE, addr) < 0)
		die_errno("selecting address 0x%02lx", addr);
}

/* Exactly one of --i2c and --sysfs was given. */
static void open_target(struct layout *l, char **i2c, const char *sysfs)
{
	if (i2c) {
		open_layout(l, i2c);
	} else {
		memset(l, 0, sizeof *l);
		open_sysfs(l, sysfs);
	}
}

static struct timespec timespec_of(double seconds)
{
	struct timespec ts = {(time_t)seconds, 0};
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec < 0)
		ts.tv_nsec = 0;
	if (ts.tv_nsec > 999999999)
		ts.tv_nsec = 999999999;
	return ts;
}

static void play(const struct layout *l)
{
	double start = monotonic_seconds();
	char line[128];
	long us, raw[3], stored = 0, skipped = 0;
	while (fgets(line, sizeof line, stdin)) {
		if (sscanf(line, "%ld %ld %ld %ld", &us, &raw[0], &raw[1], &raw[2]) != 4)
			die("bad timeline line: %s", line);
		double due = start + (double)us / 1e6;
		if (monotonic_seconds() - due > 0.05) {
			skipped++;
			continue;
		}
		struct timespec ts = timespec_of(due);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		store(l, raw);
		stored++;
	}
	fprintf(stderr, "hand play: %ld samples stored, %ld skipped as late\n", stored, skipped);
}

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

static void stream(const struct layout *l, struct hand *h, const char *dir, double rate)
{
	struct hand_control c;
	hand_control_open(&c, dir);
	sigset_t unblocked;
	handle_signals_in_ppoll((const int[]){SIGTERM, SIGINT}, 2, on_stop, &unblocked);
	printf("ready\n");
	fflush(stdout);

	double period = 1 / rate, next = 0;
	long samples = 0, commands = 0, late = 0;
	char seq[64];
	while (!stop_requested) {
		double now = monotonic_seconds();
		if (hand_moves(h) && now >= next) {
			long raw[3];
			hand_sample(h, now, raw);
			store(l, raw);
			samples++;
			/* Keep the grid; after a stall, restart it instead of bursting. */
			next += period;
			if (next <= now) {
				late++;
				next = now + period;
			}
		}
		struct timespec ts = timespec_of(next - now > 0 ? next - now : 0);
		struct pollfd pfd = {.fd = c.cmd, .events = POLLIN};
		int n = ppoll(&pfd, 1, hand_moves(h) ? &ts : NULL, &unblocked);
		if (n < 0 && errno != EINTR)
			die_errno("poll");
		if (n <= 0)
			continue;
		while (hand_control_next(&c, h, seq, sizeof seq)) {
			if (h->has_target) {
				long raw[3];
				now = monotonic_seconds();
				hand_sample(h, now, raw);
				store(l, raw);
				samples++;
				next = now + period;
			}
			hand_control_ack(&c, h, seq);
			commands++;
		}
	}
	fprintf(stderr, "hand: %ld samples, %ld commands, %ld late, in %.1f s; %.2f s of CPU\n", samples, commands,
		late, monotonic_seconds() - h->start, cpu_seconds());
}

/* The sweep's own timeline (see the top of this file). */
static void timeline(const struct hand_sensor *s, const double m[9], const char *keys, double step)
{
	double times[64], pitches[64];
	int n = 0;
	char *copy = strdup(keys);
	for (char *k = strtok(copy, " "); k; k = strtok(NULL, " ")) {
		if (n == 64 || sscanf(k, "%lf:%lf", &times[n], &pitches[n]) != 2)
			die("bad keyframe '%s' (T:PITCH, at most 64)", k);
		if (n > 0 && times[n] <= times[n - 1])
			die("keyframe times must ascend: %s", keys);
		n++;
	}
	free(copy);
	if (n == 0 || step <= 0)
		die("timeline needs keyframes and a positive step");
	double none[3] = {0, 0, 0};
	for (double t = 0; t <= times[n - 1] + 1e-9; t += step) {
		int i = 0;
		while (i < n - 1 && times[i + 1] < t)
			i++;
		double p = i < n - 1 ? pitches[i] + (pitches[i + 1] - pitches[i]) * (t - times[i]) /
							(times[i + 1] - times[i])
				     : pitches[n - 1];
		if (t < times[0])
			p = pitches[0];
		p += 0.2 * sin(2 * HAND_PI * 7.7 * t) + 0.1 * sin(2 * HAND_PI * 2.9 * t + 1);
		long raw[3];
		hand_pose_raw(s, m, p, 0, 1, none, raw);
		printf("%ld %ld %ld %ld\n", (long)(t * 1000000 + 0.5), raw[0], raw[1], raw[2]);
	}
}

static const char usage[] =
	"usage: hand stream --control DIR (--i2c BUS ADDR REG le|be SHIFT BITS word|block | --sysfs DIR)\n"
	"                   --scale SX SY SZ [--offset OX OY OZ] [--noise-mg MG] [--rate HZ] [--seed N]\n"
	"                   [--motion-seed N --epoch SECONDS]\n"
	"       hand play (--i2c BUS ADDR REG le|be SHIFT BITS word|block | --sysfs DIR)\n"
	"       hand timeline --scale SX SY SZ [--offset OX OY OZ] --matrix M00 .. M22 --keys KEYS --step S";

int main(int argc, char **argv)
{
	helper_name = "hand";
	close_inherited_descriptors();
	if (argc < 2)
		die("%s", usage);
	const char *mode = argv[1], *dir = NULL, *keys = NULL, *sysfs = NULL;
	char **i2c = NULL;
	struct hand_sensor sensor = {.scale = {0, 0, 0}, .min = -32768, .max = 32767};
	double m[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, noise_mg = 0, rate = 50, step = 0;
	uint64_t seed = 1, motion_seed = 0;
	double epoch = -1;
	bool in_step = false;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		int left = argc - i - 1;
		if (strcmp(o, "--control") == 0 && left >= 1) {
			dir = argv[++i];
		} else if (strcmp(o, "--i2c") == 0 && left >= 7) {
			i2c = argv + i + 1;
			i += 7;
		} else if (strcmp(o, "--sysfs") == 0 && left >= 1) {
			sysfs = argv[++i];
		} else if (strcmp(o, "--scale") == 0 && left >= 3) {
			for (int a = 0; a < 3; a++)
				sensor.scale[a] = parse_double(argv[++i], "--scale");
		} else if (strcmp(o, "--offset") == 0 && left >= 3) {
			for (int a = 0; a < 3; a++)
				sensor.offset[a] = parse_double(argv[++i], "--offset");
		} else if (strcmp(o, "--matrix") == 0 && left >= 9) {
			for (int a = 0; a < 9; a++)
				m[a] = parse_double(argv[++i], "--matrix");
		} else if (strcmp(o, "--noise-mg") == 0 && left >= 1) {
			noise_mg = parse_double(argv[++i], "--noise-mg");
		} else if (strcmp(o, "--rate") == 0 && left >= 1) {
			rate = parse_double(argv[++i], "--rate");
		} else if (strcmp(o, "--seed") == 0 && left >= 1) {
			seed = (uint64_t)parse_long(argv[++i], "--seed");
		} else if (strcmp(o, "--motion-seed") == 0 && left >= 1) {
			motion_seed = (uint64_t)parse_long(argv[++i], "--motion-seed");
			in_step = true;
		} else if (strcmp(o, "--epoch") == 0 && left >= 1) {
			epoch = parse_double(argv[++i], "--epoch");
		} else if (strcmp(o, "--keys") == 0 && left >= 1) {
			keys = argv[++i];
		} else if (strcmp(o, "--step") == 0 && left >= 1) {
			step = parse_double(argv[++i], "--step");
		} else {
			die("unknown or incomplete option %s\n%s", o, usage);
		}
	}
	bool scaled = sensor.scale[0] > 0 && sensor.scale[1] > 0 && sensor.scale[2] > 0;
	if (strcmp(mode, "stream") == 0) {
		if (!dir || !i2c == !sysfs || !scaled || rate <= 0 || noise_mg < 0 || in_step != (epoch >= 0))
			die("%s", usage);
		struct layout l;
		open_target(&l, i2c, sysfs);
		hand_sensor_set_noise(&sensor, noise_mg);
		struct hand h;
		hand_init(&h, &sensor, seed);
		if (in_step)
			hand_seed_motion(&h, motion_seed, epoch);
		stream(&l, &h, dir, rate);
	} else if (strcmp(mode, "play") == 0) {
		if (!i2c == !sysfs)
			die("%s", usage);
		struct layout l;
		open_target(&l, i2c, sysfs);
		play(&l);
	} else if (strcmp(mode, "timeline") == 0) {
		if (!keys || !scaled)
			die("%s", usage);
		timeline(&sensor, m, keys, step);
	} else {
		die("%s", usage);
	}
	return 0;
}
