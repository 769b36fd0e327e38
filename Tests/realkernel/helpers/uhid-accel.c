/*
 * uhid-accel: a HID sensor hub with one accelerometer, made through /dev/uhid.
 *
 * Most current convertibles report their accelerometer through a HID sensor
 * hub (Intel ISH, AMD SFH). The kernel side of that path (hid-sensor-hub,
 * hid-sensor-accel-3d, its trigger and buffer) is stock code; only the
 * firmware is missing in a VM. This program plays the firmware: it declares
 * an "Accelerometer 3D" sensor in the HID Sensor usage tables, answers the
 * kernel's GET_REPORT/SET_REPORT requests for its properties, and streams
 * input reports at the interval the kernel asked for while the kernel has
 * the device open.
 *
 *   uhid-accel --control DIR [--noise-mg MG] [--seed N] [--name NAME] [--sensitivity] [--verbose]
 *
 * What it reports is hand.h's: the pose of the last command on DIR/cmd,
 * held fixed, on a table or in a hand, evaluated at the moment of each
 * report (and of each raw read), in the device's units (1/100 g, the unit
 * exponent -2 of the descriptor: upright is "0 -100 0", which it reports
 * until the first command). A command is answered at once; the next report
 * carries it, within one report interval. At 1/100 g a LSB is 10 mg: the
 * tremor (2-3 mg) and a few mg of noise mostly vanish in the rounding, as
 * on hubs with that resolution; the sway (10-20 mg) shows.
 * Prints "created" once the kernel has started the device; runs until
 * SIGTERM/SIGINT, then destroys it.
 *
 * With --sensitivity the sensor also declares the Change Sensitivity
 * Absolute property (16 bits, in the data's unit, 1/100 g; 0 until the kernel
 * writes it, which in_accel_hysteresis then reads back) and honours it as
 * hub firmware does: a report is sent only when an axis moved by more than
 * that since the last report sent. Raw reads are answered whatever it holds.
 * Without it the property is absent, as on the firmware the testbed plays
 * by default: reading in_accel_hysteresis fails with EINVAL.
 *
 * SIGUSR1 makes the firmware go silent (no more input reports; requests are
 * still answered), as a sensor hub that stalls or a machine going to sleep
 * would; it prints "paused T" with T the CLOCK_MONOTONIC time of the last
 * report sent (0 if none). SIGUSR2 resumes the stream and prints "resumed T"
 * with the time of the first report after it (or of the resume, when the
 * kernel has the device closed and nothing streams).
 */
#include "hand.h"

#include <linux/input.h>
#include <linux/uhid.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

/*
 * One physical collection, report ID 1. Feature report: Reporting State and
 * Power State as named arrays (a logical collection named by the property,
 * holding its selectors), Report Interval in ms (no unit item: the kernel
 * takes milliseconds then). Input report: acceleration X, Y, Z as int16 with
 * unit exponent -2; with no unit item the kernel reads them as g.
 */
static const uint8_t report_descriptor[] = {
	0x05, 0x20,             /* Usage Page (Sensor) */
	0x09, 0x73,             /* Usage (Motion: Accelerometer 3D) */
	0xa1, 0x00,             /* Collection (Physical) */
	0x85, 0x01,             /*   Report ID (1) */

	0x0a, 0x16, 0x03,       /*   Usage (Property: Reporting State) */
	0x15, 0x00,             /*   Logical Minimum (0) */
	0x25, 0x05,             /*   Logical Maximum (5) */
	0x75, 0x08,             /*   Report Size (8) */
	0x95, 0x01,             /*   Report Count (1) */
	0xa1, 0x02,             /*   Collection (Logical) */
	0x0a, 0x40, 0x08,       /*     Usage (No Events) */
	0x0a, 0x41, 0x08,       /*     Usage (All Events) */
	0x0a, 0x42, 0x08,       /*     Usage (Threshold Events) */
	0x0a, 0x43, 0x08,       /*     Usage (No Events Wake) */
	0x0a, 0x44, 0x08,       /*     Usage (All Events Wake) */
	0x0a, 0x45, 0x08,       /*     Usage (Threshold Events Wake) */
	0xb1, 0x00,             /*     Feature (Data, Array, Abs) */
	0xc0,                   /*   End Collection */

	0x0a, 0x19, 0x03,       /*   Usage (Property: Power State) */
	0x15, 0x00,             /*   Logical Minimum (0) */
	0x25, 0x05,             /*   Logical Maximum (5) */
	0x75, 0x08,             /*   Report Size (8) */
	0x95, 0x01,             /*   Report Count (1) */
	0xa1, 0x02,             /*   Collection (Logical) */
	0x0a, 0x50, 0x08,       /*     Usage (Undefined) */
	0x0a, 0x51, 0x08,       /*     Usage (D0 Full Power) */
	0x0a, 0x52, 0x08,       /*     Usage (D1 Low Power) */
	0x0a, 0x53, 0x08,       /*     Usage (D2 Standby With Wake) */
	0x0a, 0x54, 0x08,       /*     Usage (D3 Sleep With Wake) */
	0x0a, 0x55, 0x08,       /*     Usage (D4 Power Off) */
	0xb1, 0x00,             /*     Feature (Data, Array, Abs) */
	0xc0,                   /*   End Collection */

	0x0a, 0x0e, 0x03,       /*   Usage (Property: Report Interval) */
	0x15, 0x00,             /*   Logical Minimum (0) */
	0x27, 0xff, 0xff, 0xff, 0x7f, /* Logical Maximum (2^31 - 1) */
	0x75, 0x20,             /*   Report Size (32) */
	0x95, 0x01,             /*   Report Count (1) */
	0x55, 0x00,             /*   Unit Exponent (0) */
	0xb1, 0x02,             /*   Feature (Data, Var, Abs) */
	/* With --sensitivity, sensitivity_items go here (SENSITIVITY_AT). */

	/* One field per axis: the hub hands each field's usage to the driver. */
	0x16, 0x01, 0x80,       /*   Logical Minimum (-32767) */
	0x26, 0xff, 0x7f,       /*   Logical Maximum (32767) */
	0x75, 0x10,             /*   Report Size (16) */
	0x95, 0x01,             /*   Report Count (1) */
	0x55, 0x0e,             /*   Unit Exponent (-2) */
	0x0a, 0x53, 0x04,       /*   Usage (Acceleration Axis X) */
	0x81, 0x02,             /*   Input (Data, Var, Abs) */
	0x0a, 0x54, 0x04,       /*   Usage (Acceleration Axis Y) */
	0x81, 0x02,             /*   Input (Data, Var, Abs) */
	0x0a, 0x55, 0x04,       /*   Usage (Acceleration Axis Z) */
	0x81, 0x02,             /*   Input (Data, Var, Abs) */
	0xc0,                   /* End Collection */
};

/* Change Sensitivity Absolute, after the report interval in the feature
 * report: inserted at byte SENSITIVITY_AT of report_descriptor, right after
 * the Report Interval's Feature item (main() checks that it is there). */
#define SENSITIVITY_AT 94
static const uint8_t sensitivity_items[] = {
	0x0a, 0x0f, 0x03,       /*   Usage (Property: Change Sensitivity Absolute) */
	0x15, 0x00,             /*   Logical Minimum (0) */
	0x26, 0xff, 0x7f,       /*   Logical Maximum (32767) */
	0x75, 0x10,             /*   Report Size (16) */
	0x95, 0x01,             /*   Report Count (1) */
	0x55, 0x0e,             /*   Unit Exponent (-2) */
	0xb1, 0x02,             /*   Feature (Data, Var, Abs) */
};

#define REPORT_ID 1

struct sensor_state {
	uint8_t reporting_state;
	uint8_t power_state;
	uint32_t interval_ms;
	/* Change sensitivity, in the axes' unit; has_sensitivity: declared. */
	bool has_sensitivity;
	uint16_t sensitivity;
	int16_t axes[3];
	/* The axes of the last report sent (the sensitivity's reference). */
	int16_t sent[3];
	bool sent_any;
	/* What the axes show: hand.h's model of the pose commanded. */
	struct hand hand;
	bool opened;
	/* SIGUSR1 silenced the stream until SIGUSR2. */
	bool paused;
};

static volatile sig_atomic_t stop_requested, pause_requested, resume_requested;
static bool verbose;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		pause_requested = 1;
	else if (sig == SIGUSR2)
		resume_requested = 1;
	else
		stop_requested = 1;
}

static void uhid_write(int fd, const struct uhid_event *ev)
{
	ssize_t n = write(fd, ev, sizeof *ev);
	if (n != (ssize_t)sizeof *ev)
		die_errno("writing to /dev/uhid");
}

/* The sample of this moment. */
static void sample(struct sensor_state *s)
{
	long raw[3];
	hand_sample(&s->hand, monotonic_seconds(), raw);
	for (int i = 0; i < 3; i++)
		s->axes[i] = (int16_t)raw[i]; /* the sensor's min and max keep it in range */
}

/* Report bytes, ID first, little-endian as HID requires. Returns the size. */
static size_t feature_report(const struct sensor_state *s, uint8_t *buf)
{
	buf[0] = REPORT_ID;
	buf[1] = s->reporting_state;
	buf[2] = s->power_state;
	memcpy(buf + 3, &s->interval_ms, 4);
	if (!s->has_sensitivity)
		return 7;
	memcpy(buf + 7, &s->sensitivity, 2);
	return 9;
}

static size_t input_report(const struct sensor_state *s, uint8_t *buf)
{
	buf[0] = REPORT_ID;
	memcpy(buf + 1, s->axes, sizeof s->axes);
	return 7;
}

/* The sample of this moment, reported unless the change sensitivity holds
 * it back. Returns whether a report went out. */
static bool send_input(int fd, struct sensor_state *s)
{
	sample(s);
	if (s->has_sensitivity && s->sensitivity > 0 && s->sent_any) {
		bool moved = false;
		for (int i = 0; i < 3; i++)
			moved = moved || abs(s->axes[i] - s->sent[i]) > s->sensitivity;
		if (!moved)
			return false;
	}
	memcpy(s->sent, s->axes, sizeof s->sent);
	s->sent_any = true;
	struct uhid_event ev = {.type = UHID_INPUT2};
	ev.u.input2.size = (uint16_t)input_report(s, ev.u.input2.data);
	uhid_write(fd, &ev);
	return true;
}

/*
 * The kernel opens the device exactly while it holds the sensor powered
 * (hid_sensor_power_state calls sensor_hub_device_open/close), which is
 * when firmware streams. The Power and Reporting State values it writes are
 * kept and reported back but not interpreted: 6.1 writes the selector's
 * position counted from 1 (2 for D0 Full Power), which is not what every
 * firmware expects, and a test device should not depend on it.
 */
static bool streaming(const struct sensor_state *s)
{
	return s->opened && !s->paused;
}

static void handle_event(int fd, const struct uhid_event *ev, struct sensor_state *s)
{
	struct uhid_event reply = {0};
	switch (ev->type) {
	case UHID_START:
		printf("created\n");
		fflush(stdout);
		break;
	case UHID_OPEN:
		s->opened = true;
		break;
	case UHID_CLOSE:
		s->opened = false;
		break;
	case UHID_GET_REPORT:
		reply.type = UHID_GET_REPORT_REPLY;
		reply.u.get_report_reply.id = ev->u.get_report.id;
		if (ev->u.get_report.rnum != REPORT_ID) {
			reply.u.get_report_reply.err = EINVAL;
		} else if (ev->u.get_report.rtype == UHID_FEATURE_REPORT) {
			reply.u.get_report_reply.size = (uint16_t)feature_report(s, reply.u.get_report_reply.data);
		} else if (ev->u.get_report.rtype == UHID_INPUT_REPORT) {
			/* A sysfs raw read: the kernel polls the current sample. */
			sample(s);
			reply.u.get_report_reply.size = (uint16_t)input_report(s, reply.u.get_report_reply.data);
		} else {
			reply.u.get_report_reply.err = EINVAL;
		}
		uhid_write(fd, &reply);
		break;
	case UHID_SET_REPORT:
		reply.type = UHID_SET_REPORT_REPLY;
		reply.u.set_report_reply.id = ev->u.set_report.id;
		if (ev->u.set_report.rnum == REPORT_ID && ev->u.set_report.rtype == UHID_FEATURE_REPORT &&
		    ev->u.set_report.size >= 7) {
			const uint8_t *d = ev->u.set_report.data;
			s->reporting_state = d[1];
			s->power_state = d[2];
			memcpy(&s->interval_ms, d + 3, 4);
			if (s->has_sensitivity && ev->u.set_report.size >= 9)
				memcpy(&s->sensitivity, d + 7, 2);
		} else {
			reply.u.set_report_reply.err = EINVAL;
		}
		uhid_write(fd, &reply);
		break;
	default:
		break; /* STOP, OUTPUT: nothing to do for a sensor */
	}
	/* State changes only: raw reads cause several GET_REPORTs each. */
	if (verbose && ev->type != UHID_GET_REPORT)
		fprintf(stderr, "uhid-accel: %.3f event %u: opened=%d power=%u reporting=%u interval=%u ms sensitivity=%u\n",
			monotonic_seconds(), ev->type, s->opened, s->power_state, s->reporting_state,
			s->interval_ms, s->sensitivity);
}

int main(int argc, char **argv)
{
	helper_name = "uhid-accel";
	close_inherited_descriptors();
	const char *control = NULL, *name = "tiltscroll test HID sensor hub";
	double noise_mg = 0;
	uint64_t seed = 1;
	bool with_sensitivity = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--control") == 0 && i + 1 < argc)
			control = argv[++i];
		else if (strcmp(argv[i], "--noise-mg") == 0 && i + 1 < argc)
			noise_mg = parse_double(argv[++i], "--noise-mg");
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = (uint64_t)parse_long(argv[++i], "--seed");
		else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
			name = argv[++i];
		else if (strcmp(argv[i], "--verbose") == 0)
			verbose = true;
		else if (strcmp(argv[i], "--sensitivity") == 0)
			with_sensitivity = true;
		else
			control = NULL, i = argc;
	}
	if (!control || noise_mg < 0)
		die("usage: uhid-accel --control DIR [--noise-mg MG] [--seed N] [--name NAME] [--sensitivity] [--verbose]");

	/* Until the kernel says otherwise: D4 off, no events, 100 ms. */
	struct sensor_state s = {
		.reporting_state = 0, .power_state = 5, .interval_ms = 100, .has_sensitivity = with_sensitivity};
	/* 1/100 g per unit, int16 (the descriptor); upright until told. */
	struct hand_sensor sensor = {.scale = {HAND_G / 100, HAND_G / 100, HAND_G / 100}, .min = -32767, .max = 32767};
	hand_sensor_set_noise(&sensor, noise_mg);
	hand_init(&s.hand, &sensor, seed);
	s.hand.has_target = s.hand.exact = true;
	s.hand.raw[1] = -100;
	sample(&s);
	struct hand_control control_channel;
	hand_control_open(&control_channel, control);

	sigset_t unblocked;
	handle_signals_in_ppoll((const int[]){SIGTERM, SIGINT, SIGUSR1, SIGUSR2}, 4, on_signal, &unblocked);

	int fd = open("/dev/uhid", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die_errno("opening /dev/uhid");

	struct uhid_event create = {.type = UHID_CREATE2};
	snprintf((char *)create.u.create2.name, sizeof create.u.create2.name, "%s", name);
	snprintf((char *)create.u.create2.phys, sizeof create.u.create2.phys, "uhid-accel");
	create.u.create2.bus = BUS_VIRTUAL;
	if (with_sensitivity) {
		uint8_t *rd = create.u.create2.rd_data;
		if (report_descriptor[SENSITIVITY_AT - 2] != 0xb1 || report_descriptor[SENSITIVITY_AT - 1] != 0x02)
			die("SENSITIVITY_AT does not follow the Report Interval's Feature item");
		memcpy(rd, report_descriptor, SENSITIVITY_AT);
		memcpy(rd + SENSITIVITY_AT, sensitivity_items, sizeof sensitivity_items);
		memcpy(rd + SENSITIVITY_AT + sizeof sensitivity_items, report_descriptor + SENSITIVITY_AT,
		       sizeof report_descriptor - SENSITIVITY_AT);
		create.u.create2.rd_size = sizeof report_descriptor + sizeof sensitivity_items;
	} else {
		memcpy(create.u.create2.rd_data, report_descriptor, sizeof report_descriptor);
		create.u.create2.rd_size = sizeof report_descriptor;
	}
	uhid_write(fd, &create);

	double next_report = 0;
	double last_report = 0;
	bool announce_resume = false;
	while (!stop_requested) {
		if (pause_requested) {
			pause_requested = 0;
			s.paused = true;
			announce_resume = false;
			printf("paused %.6f\n", last_report);
			fflush(stdout);
		}
		if (resume_requested) {
			resume_requested = 0;
			s.paused = false;
			next_report = 0;
			announce_resume = true;
		}
		if (announce_resume && !s.opened) {
			/* Nothing streams while the kernel has it closed: resumed now. */
			announce_resume = false;
			printf("resumed %.6f\n", monotonic_seconds());
			fflush(stdout);
		}
		double timeout = -1;
		if (streaming(&s)) {
			double now = monotonic_seconds();
			if (next_report <= now) {
				if (send_input(fd, &s))
					last_report = monotonic_seconds();
				if (announce_resume) {
					announce_resume = false;
					printf("resumed %.6f\n", last_report);
					fflush(stdout);
				}
				/* Keep the grid; after a stall, restart it instead of bursting. */
				double interval = (s.interval_ms ? s.interval_ms : 1) / 1000.0;
				next_report += interval;
				if (next_report <= now)
					next_report = now + interval;
			}
			timeout = next_report - now;
		} else {
			next_report = 0;
		}
		struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN}, {.fd = control_channel.cmd, .events = POLLIN}};
		struct timespec ts = {0, 0};
		if (timeout > 0) {
			ts.tv_sec = (time_t)timeout;
			ts.tv_nsec = (long)((timeout - (double)ts.tv_sec) * 1e9);
		}
		int n = ppoll(pfd, 2, timeout < 0 ? NULL : &ts, &unblocked);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		/* A new pose: answered now, carried by the next report. */
		char seq[64];
		while (pfd[1].revents && hand_control_next(&control_channel, &s.hand, seq, sizeof seq))
			hand_control_ack(&control_channel, &s.hand, seq);
		if (pfd[0].revents) {
			struct uhid_event ev;
			ssize_t got = read(fd, &ev, sizeof ev);
			if (got < 0) {
				if (errno == EINTR)
					continue;
				die_errno("reading /dev/uhid");
			}
			handle_event(fd, &ev, &s);
		}
	}

	struct uhid_event destroy = {.type = UHID_DESTROY};
	uhid_write(fd, &destroy);
	close(fd);
	return 0;
}
