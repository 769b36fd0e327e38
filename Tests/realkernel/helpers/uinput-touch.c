/*
 * uinput-touch: a one-finger touchscreen made with uinput (multitouch
 * protocol B, INPUT_PROP_DIRECT, so udev's input_id tags it
 * ID_INPUT_TOUCHSCREEN), touched from stdin, for the scenarios where a
 * finger on the screen pauses tilt scrolling.
 *
 *   uinput-touch [--name NAME]
 *
 * Prints "created NODE", then reads stdin lines "down X Y", "move X Y" and
 * "up", each sent as one frame (SYN_REPORT), and prints "sent WORD T" with T
 * the CLOCK_MONOTONIC time just after the frame was written (the kernel
 * stamps the events while the write runs). Coordinates are 0..4095 on both
 * axes. A line may end in "at T": the frame is then sent at CLOCK_MONOTONIC
 * T (at once when T has passed), so that a scenario can have everything it
 * runs done and be asleep when the contact comes. At end of input it
 * destroys the device and exits 0.
 */
#include "common.h"

#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <stdbool.h>

#define TOUCH_MAX 4095

static void emit(struct libevdev_uinput *uidev, unsigned type, unsigned code, int value)
{
	int err = libevdev_uinput_write_event(uidev, type, code, value);
	if (err < 0)
		die("sending event %u/%u %d: %s", type, code, value, strerror(-err));
}

static void position(struct libevdev_uinput *uidev, int x, int y)
{
	emit(uidev, EV_ABS, ABS_MT_POSITION_X, x);
	emit(uidev, EV_ABS, ABS_MT_POSITION_Y, y);
	emit(uidev, EV_ABS, ABS_X, x);
	emit(uidev, EV_ABS, ABS_Y, y);
}

static void enable_abs(struct libevdev *dev, unsigned code, int max)
{
	struct input_absinfo abs = {.minimum = 0, .maximum = max, .resolution = 10};
	libevdev_enable_event_code(dev, EV_ABS, code, &abs);
}

int main(int argc, char **argv)
{
	helper_name = "uinput-touch";
	const char *name = "tiltscroll test touchscreen";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else
			die("usage: uinput-touch [--name NAME]");
	}

	struct libevdev *dev = libevdev_new();
	libevdev_set_name(dev, name);
	libevdev_set_id_bustype(dev, BUS_VIRTUAL);
	libevdev_enable_property(dev, INPUT_PROP_DIRECT);
	libevdev_enable_event_type(dev, EV_KEY);
	libevdev_enable_event_code(dev, EV_KEY, BTN_TOUCH, NULL);
	libevdev_enable_event_code(dev, EV_KEY, BTN_TOOL_FINGER, NULL);
	libevdev_enable_event_type(dev, EV_ABS);
	enable_abs(dev, ABS_X, TOUCH_MAX);
	enable_abs(dev, ABS_Y, TOUCH_MAX);
	enable_abs(dev, ABS_MT_SLOT, 0);
	enable_abs(dev, ABS_MT_TRACKING_ID, 65535);
	enable_abs(dev, ABS_MT_POSITION_X, TOUCH_MAX);
	enable_abs(dev, ABS_MT_POSITION_Y, TOUCH_MAX);
	struct libevdev_uinput *uidev;
	int err = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &uidev);
	if (err < 0)
		die("creating the uinput device: %s", strerror(-err));
	printf("created %s\n", libevdev_uinput_get_devnode(uidev));
	fflush(stdout);

	char line[96], word[8];
	int x, y, tracking = 0;
	bool touching = false;
	while (fgets(line, sizeof line, stdin)) {
		if (line[0] == '\n')
			continue;
		double when = 0;
		char *at = strstr(line, " at ");
		if (at) {
			char *end;
			when = strtod(at + 4, &end);
			if (end == at + 4 || (*end != '\n' && *end != '\0') || !(when > 0))
				die("bad time after 'at' (CLOCK_MONOTONIC seconds): %s", line);
			*at = '\0';
		}
		int n = sscanf(line, "%7s %d %d", word, &x, &y);
		bool inside = n == 3 && x >= 0 && x <= TOUCH_MAX && y >= 0 && y <= TOUCH_MAX;
		bool down = strcmp(word, "down") == 0 && inside && !touching;
		bool move = strcmp(word, "move") == 0 && inside && touching;
		bool up = strcmp(word, "up") == 0 && n == 1 && touching;
		if (!down && !move && !up)
			die("bad input line (down X Y, move X Y while down, up while down; 0..%d; "
			    "each may end in 'at T'): %s",
			    TOUCH_MAX, line);
		if (when > 0) {
			struct timespec ts = {.tv_sec = (time_t)when};
			ts.tv_nsec = (long)((when - (double)ts.tv_sec) * 1e9);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
		}
		if (down) {
			emit(uidev, EV_ABS, ABS_MT_SLOT, 0);
			emit(uidev, EV_ABS, ABS_MT_TRACKING_ID, ++tracking);
			position(uidev, x, y);
			emit(uidev, EV_KEY, BTN_TOUCH, 1);
			emit(uidev, EV_KEY, BTN_TOOL_FINGER, 1);
			touching = true;
		} else if (move) {
			position(uidev, x, y);
		} else {
			emit(uidev, EV_ABS, ABS_MT_TRACKING_ID, -1);
			emit(uidev, EV_KEY, BTN_TOUCH, 0);
			emit(uidev, EV_KEY, BTN_TOOL_FINGER, 0);
			touching = false;
		}
		emit(uidev, EV_SYN, SYN_REPORT, 0);
		printf("sent %s %.6f\n", word, monotonic_seconds());
		fflush(stdout);
	}
	libevdev_uinput_destroy(uidev);
	libevdev_free(dev);
	return 0;
}
