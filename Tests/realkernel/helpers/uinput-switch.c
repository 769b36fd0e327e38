/*
 * uinput-switch: a tablet-mode switch (EV_SW / SW_TABLET_MODE) made with
 * uinput, flipped from stdin, for activation and lifecycle scenarios. Real
 * machines get this switch from intel-vbtn, intel-hid, thinkpad_acpi and
 * others, often only after the first mode change; starting this helper late
 * models that. With --switch lid it is a lid switch (SW_LID) instead, as the
 * ACPI lid button makes one.
 *
 *   uinput-switch [--name NAME] [--state 0|1] [--switch tablet-mode|lid]
 *
 * Prints "created NODE", sets the initial state (default 0, laptop mode or
 * lid open), then reads stdin lines "0" or "1" (tablet mode, lid closed),
 * each sent as one switch event and SYN_REPORT, and prints "sent STATE T"
 * with T the CLOCK_MONOTONIC time it was sent (evread's clock). At end of
 * input it destroys the device and exits 0.
 */
#include "common.h"

#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>

static void send_state(struct libevdev_uinput *uidev, unsigned code, int state)
{
	int err = libevdev_uinput_write_event(uidev, EV_SW, code, state);
	if (err == 0)
		err = libevdev_uinput_write_event(uidev, EV_SYN, SYN_REPORT, 0);
	if (err < 0)
		die("sending switch %u state %d: %s", code, state, strerror(-err));
}

int main(int argc, char **argv)
{
	helper_name = "uinput-switch";
	const char *name = "tiltscroll test tablet-mode switch";
	long state = 0;
	unsigned code = SW_TABLET_MODE;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc)
			state = parse_long(argv[++i], "--state");
		else if (strcmp(argv[i], "--switch") == 0 && i + 1 < argc) {
			const char *which = argv[++i];
			if (strcmp(which, "lid") == 0)
				code = SW_LID;
			else if (strcmp(which, "tablet-mode") == 0)
				code = SW_TABLET_MODE;
			else
				die("--switch: tablet-mode or lid, not '%s'", which);
		} else
			die("usage: uinput-switch [--name NAME] [--state 0|1] [--switch tablet-mode|lid]");
	}

	struct libevdev *dev = libevdev_new();
	libevdev_set_name(dev, name);
	libevdev_set_id_bustype(dev, BUS_HOST);
	libevdev_enable_event_type(dev, EV_SW);
	libevdev_enable_event_code(dev, EV_SW, code, NULL);
	struct libevdev_uinput *uidev;
	int err = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &uidev);
	if (err < 0)
		die("creating the uinput device: %s", strerror(-err));
	/* A new uinput switch starts at 0; tablet mode (a closed lid) needs an event. */
	if (state)
		send_state(uidev, code, 1);
	printf("created %s\n", libevdev_uinput_get_devnode(uidev));
	fflush(stdout);

	char line[64];
	while (fgets(line, sizeof line, stdin)) {
		if (strcmp(line, "0\n") == 0 || strcmp(line, "1\n") == 0) {
			send_state(uidev, code, line[0] - '0');
			printf("sent %c %.6f\n", line[0], monotonic_seconds());
			fflush(stdout);
		} else if (line[0] != '\n')
			die("bad input line (want 0 or 1): %s", line);
	}
	libevdev_uinput_destroy(uidev);
	libevdev_free(dev);
	return 0;
}
