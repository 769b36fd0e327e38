/*
 * smbus-write: store 16-bit samples in an i2c-stub chip so that every
 * driver's read style sees them, in one process (a pose is one call, not
 * nine busybox i2cset runs, which matters under TCG).
 *
 *   smbus-write BUS ADDR REG BYTE...
 *
 * BYTE i is the register REG+i as the chip would hold it (so the caller
 * decides the byte order). i2c-stub keeps one 16-bit word per register:
 * byte and I2C-block reads see its low byte, SMBus word reads the whole
 * word. So each byte is written with a byte write, and each pair starting
 * at an even offset is also written as a word at its first register (low
 * byte first, as SMBus sends words): two byte writes and a word write per
 * sample, as drivers read either way.
 */
#include "common.h"

#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	helper_name = "smbus-write";
	if (argc < 5)
		die("usage: smbus-write BUS ADDR REG BYTE...");
	long bus = parse_long(argv[1], "BUS");
	long addr = parse_long(argv[2], "ADDR");
	long reg = parse_long(argv[3], "REG");
	int count = argc - 4;
	unsigned bytes[256];
	if (count > 256 || reg + count > 256)
		die("too many bytes");
	for (int i = 0; i < count; i++)
		bytes[i] = (unsigned)parse_long(argv[4 + i], "BYTE") & 0xff;

	char path[64];
	snprintf(path, sizeof path, "/dev/i2c-%ld", bus);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die_errno("opening %s", path);
	/* FORCE: the accelerometer driver owns this address. */
	if (ioctl(fd, I2C_SLAVE_FORCE, addr) < 0)
		die_errno("selecting address 0x%02lx", addr);
	for (int i = 0; i < count; i++)
		smbus_write(fd, I2C_SMBUS_BYTE_DATA, (unsigned)(reg + i), bytes[i]);
	for (int i = 0; i + 1 < count; i += 2)
		smbus_write(fd, I2C_SMBUS_WORD_DATA, (unsigned)(reg + i), bytes[i] | bytes[i + 1] << 8);
	close(fd);
	return 0;
}
