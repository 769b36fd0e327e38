/*
 * stub-sample: store accelerometer samples in an i2c-stub chip so that every
 * read style of the driver sees them.
 *
 *   stub-sample BUS ADDR REG ENDIAN SHIFT BITS X Y Z
 *   stub-sample BUS ADDR REG ENDIAN SHIFT BITS --timeline
 *
 * X, Y, Z are raw readings (what in_accel_*_raw will show). Each is clamped
 * to BITS signed bits, shifted left by SHIFT into a 16-bit register pair and
 * split into bytes in ENDIAN order (le or be) at REG, REG+2, REG+4. With
 * --timeline, stdin holds "MICROSECONDS X Y Z" lines and each sample is
 * stored when its time (from the start) comes, so a scripted tilt runs at
 * the sensor's own pace instead of the shell's; late samples are skipped.
 *
 * i2c-stub keeps one 16-bit word per register: byte and I2C block reads see
 * its low byte, SMBus word reads the whole word. So each sample is stored
 * with two byte writes (REG, REG+1) and a word write at REG (low byte first,
 * as SMBus sends words): drivers read either way.
 */
#include "common.h"

#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <unistd.h>

struct layout {
	int fd;
	unsigned reg;
	bool big_endian;
	int shift, bits;
};

static void smbus_write(int fd, int size, unsigned reg, unsigned value)
{
	union i2c_smbus_data data;
	if (size == I2C_SMBUS_WORD_DATA)
		data.word = (unsigned short)value;
	else
		data.byte = (unsigned char)value;
	struct i2c_smbus_ioctl_data args = {
		.read_write = I2C_SMBUS_WRITE, .command = (unsigned char)reg, .size = size, .data = &data};
	if (ioctl(fd, I2C_SMBUS, &args) < 0)
		die_errno("%s write at 0x%02x", size == I2C_SMBUS_WORD_DATA ? "word" : "byte", reg);
}

static void store(const struct layout *l, const long raw[3])
{
	long limit = 1L << (l->bits - 1);
	for (int axis = 0; axis < 3; axis++) {
		long r = raw[axis];
		if (r > limit - 1)
			r = limit - 1;
		if (r < -limit)
			r = -limit;
		unsigned u = (unsigned)(r * (1L << l->shift)) & 0xffff;
		unsigned hi = u >> 8, lo = u & 0xff;
		unsigned b0 = l->big_endian ? hi : lo, b1 = l->big_endian ? lo : hi;
		unsigned reg = l->reg + 2u * (unsigned)axis;
		smbus_write(l->fd, I2C_SMBUS_BYTE_DATA, reg, b0);
		smbus_write(l->fd, I2C_SMBUS_BYTE_DATA, reg + 1, b1);
		smbus_write(l->fd, I2C_SMBUS_WORD_DATA, reg, b0 | b1 << 8);
	}
}

static void play_timeline(const struct layout *l)
{
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	char line[128];
	long us, raw[3], stored = 0, skipped = 0;
	while (fgets(line, sizeof line, stdin)) {
		if (sscanf(line, "%ld %ld %ld %ld", &us, &raw[0], &raw[1], &raw[2]) != 4)
			die("bad timeline line: %s", line);
		struct timespec due = start;
		due.tv_sec += us / 1000000;
		due.tv_nsec += (us % 1000000) * 1000;
		if (due.tv_nsec >= 1000000000L) {
			due.tv_sec++;
			due.tv_nsec -= 1000000000L;
		}
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double late = (double)(now.tv_sec - due.tv_sec) + (double)(now.tv_nsec - due.tv_nsec) / 1e9;
		if (late > 0.05) {
			skipped++;
			continue;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
		store(l, raw);
		stored++;
	}
	fprintf(stderr, "stub-sample: %ld samples stored, %ld skipped as late\n", stored, skipped);
}

int main(int argc, char **argv)
{
	helper_name = "stub-sample";
	bool timeline = argc == 8 && strcmp(argv[7], "--timeline") == 0;
	if (argc != 10 && !timeline)
		die("usage: stub-sample BUS ADDR REG le|be SHIFT BITS (X Y Z | --timeline)");
	struct layout l;
	long bus = parse_long(argv[1], "BUS");
	long addr = parse_long(argv[2], "ADDR");
	l.reg = (unsigned)parse_long(argv[3], "REG");
	if (strcmp(argv[4], "le") != 0 && strcmp(argv[4], "be") != 0)
		die("ENDIAN must be le or be, not %s", argv[4]);
	l.big_endian = strcmp(argv[4], "be") == 0;
	l.shift = (int)parse_long(argv[5], "SHIFT");
	l.bits = (int)parse_long(argv[6], "BITS");
	if (l.bits < 2 || l.bits + l.shift > 16 || l.reg > 250)
		die("a %d-bit sample shifted by %d at 0x%02x does not fit the registers", l.bits, l.shift, l.reg);

	char path[64];
	snprintf(path, sizeof path, "/dev/i2c-%ld", bus);
	l.fd = open(path, O_RDWR | O_CLOEXEC);
	if (l.fd < 0)
		die_errno("opening %s", path);
	/* FORCE: the accelerometer driver owns this address. */
	if (ioctl(l.fd, I2C_SLAVE_FORCE, addr) < 0)
		die_errno("selecting address 0x%02lx", addr);

	if (timeline) {
		play_timeline(&l);
	} else {
		long raw[3] = {parse_long(argv[7], "X"), parse_long(argv[8], "Y"), parse_long(argv[9], "Z")};
		store(&l, raw);
	}
	close(l.fd);
	return 0;
}
