/*
 * uinput-switch: a tablet-mode switch (EV_SW / SW_TABLET_MODE) made with
 * uinput, flipped from stdin, for activation and lifecycle scenarios. Real
 * machines get this switch from intel-vbtn, intel-hid, thinkpad_acpi and
 * others, often only after the first mode change; starting this helper late
 * models that.
 *
 *   uinput-switch [--name NAME] [--state 0|1]
 *
 * Prints "created NODE", sets the initial state (default 0, laptop mode),
 * then reads stdin lines "0" (laptop) or "1" (tablet), each sent as one
 * SW_TABLET_MODE event and SYN_REPORT. At end of input it destroys the
 * device and exits 0.
 */
#include "common.h"

#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>

static void send_state(struct libevdev_uinput *uidev, int state)
{
	int err = libevdev_uinput_write_event(uidev, EV_SW, SW_TABLET_MODE, state);
	if (err == 0)
		err = libevdev_uinput_write_event(uidev, EV_SYN, SYN_REPORT, 0);
	if (err < 0)
		die("sending SW_TABLET_MODE %d: %s", state, strerror(-err));
}

int main(int argc, char **argv)
{
	helper_name = "uinput-switch";
	const char *name = "tiltscroll test tablet-mode switch";
	long state = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc)
			state = parse_long(argv[++i], "--state");
		else
			die("usage: uinput-switch [--name NAME] [--state 0|1]");
	}

	struct libevdev *dev = libevdev_new();
	libevdev_set_name(dev, name);
	libevdev_set_id_bustype(dev, BUS_HOST);
	libevdev_enable_event_type(dev, EV_SW);
	libevdev_enable_event_code(dev, EV_SW, SW_TABLET_MODE, NULL);
	struct libevdev_uinput *uidev;
	int err = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &uidev);
	if (err < 0)
		die("creating the uinput device: %s", strerror(-err));
	/* A new uinput switch starts at 0; tablet mode needs an event. */
	if (state)
		send_state(uidev, 1);
	printf("created %s\n", libevdev_uinput_get_devnode(uidev));
	fflush(stdout);

	char line[64];
	while (fgets(line, sizeof line, stdin)) {
		if (strcmp(line, "0\n") == 0 || strcmp(line, "1\n") == 0)
			send_state(uidev, line[0] - '0');
		else if (line[0] != '\n')
			die("bad input line (want 0 or 1): %s", line);
	}
	libevdev_uinput_destroy(uidev);
	libevdev_free(dev);
	return 0;
}
