/*
 * uinput-wheel: a scroll wheel made with uinput, driven from stdin. It proves
 * the uinput -> evdev round trip (and evread) without the daemon, and gives
 * scenarios a known event source to compare the daemon's device with.
 *
 *   uinput-wheel [--name NAME] [--bus HEX]
 *
 * Creates an EV_REL device with REL_WHEEL and REL_WHEEL_HI_RES (the shape the
 * daemon must have), prints "created NODE", then reads stdin lines:
 *   HIRES WHEEL    one frame: the non-zero values, then SYN_REPORT
 *   sleep SECONDS  pause
 * At end of input it destroys the device and exits 0.
 */
#include "common.h"

#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>

int main(int argc, char **argv)
{
	helper_name = "uinput-wheel";
	const char *name = "tiltscroll";
	long bus = BUS_VIRTUAL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--bus") == 0 && i + 1 < argc)
			bus = parse_long(argv[++i], "--bus");
		else
			die("usage: uinput-wheel [--name NAME] [--bus HEX]");
	}

	struct libevdev *dev = libevdev_new();
	libevdev_set_name(dev, name);
	libevdev_set_id_bustype(dev, (int)bus);
	libevdev_enable_event_type(dev, EV_REL);
	libevdev_enable_event_code(dev, EV_REL, REL_WHEEL, NULL);
	libevdev_enable_event_code(dev, EV_REL, REL_WHEEL_HI_RES, NULL);
	struct libevdev_uinput *uidev;
	int err = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &uidev);
	if (err < 0)
		die("creating the uinput device: %s", strerror(-err));
	printf("created %s\n", libevdev_uinput_get_devnode(uidev));
	fflush(stdout);

	char line[256];
	while (fgets(line, sizeof line, stdin)) {
		double seconds;
		long hires, wheel;
		if (sscanf(line, "sleep %lf", &seconds) == 1) {
			sleep_seconds(seconds);
		} else if (sscanf(line, "%ld %ld", &hires, &wheel) == 2) {
			if (hires)
				libevdev_uinput_write_event(uidev, EV_REL, REL_WHEEL_HI_RES, (int)hires);
			if (wheel)
				libevdev_uinput_write_event(uidev, EV_REL, REL_WHEEL, (int)wheel);
			err = libevdev_uinput_write_event(uidev, EV_SYN, SYN_REPORT, 0);
			if (err < 0)
				die("writing a frame: %s", strerror(-err));
		} else if (line[0] != '\n') {
			die("bad input line: %s", line);
		}
	}
	libevdev_uinput_destroy(uidev);
	libevdev_free(dev);
	return 0;
}
